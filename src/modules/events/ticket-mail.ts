/**
 * The ticket confirmation mail: the event, the tickets and what they cost, and the booking's door QR
 * code as an SVG attachment (one per booking). The code encodes the booking's door token, signed with
 * the venue's key when the tickets were bought and valid until noon the day after the event, so staff
 * check the guest in with it (`POST /api/check-in`) like any booking QR. Queued on the caller's
 * transaction: tickets that roll back send nothing. A purchase the venue approves gets a "request received"
 * mail instead.
 *
 * A sale's free tickets are queued small (`deferTicketMail`): the sale as made in the outbox row, rendered
 * with its QR code by `ticketsTemplate` when the mail is sent, outside the sale's transaction and the
 * event's lock (docs/decisions.md, "Booking confirmations rendered when sent"). Both forms render through
 * `ticketMessage`, so they are the same mail.
 */
import { createRequire } from 'node:module';
import type * as QRCode from 'qrcode';
import { addDays, localToUtc } from '../../domain/venue-time.js';
import type { Conn } from '../../db/transaction.js';
import type { DeferredRows } from '../../db/deferred-rows.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import type { Mail, MailMessage, MailTemplate } from '../../platform/mail/mail.js';
import { venueMessage } from '../../platform/mail/templates.js';
import { eventBooking, type EventBookingRow, type SoldEventBooking } from '../bookings/index.js';
import { eventById, ticketOfBooking, type EventRow, type TicketRow } from './events.repository.js';

const requireCjs = createRequire(import.meta.url);
const money = (pence: number) => `£${(pence / 100).toFixed(2)}`;

/** When a ticket's door token stops being valid: noon (venue time) the day after the event. */
export const ticketTokenExpiry = (event: Pick<EventRow, 'event_date'>, timezone: string) =>
  localToUtc(addDays(event.event_date, 1), '12:00', timezone);

export function qrSvg(text: string): Promise<string> {
  return (requireCjs('qrcode') as typeof QRCode).toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

/** What a ticket confirmation says about the sale: the booking, the ticket type's name, how many and the door token. */
interface SoldTickets {
  booking: Pick<EventBookingRow, 'id' | 'guest_name' | 'total_pence'> & { guest_email: string };
  ticketName: string;
  quantity: number;
  qrToken: string;
}

const ticketsSubject = (venue: Pick<VenueRow, 'name'>, event: Pick<EventRow, 'name'>) => `Your tickets for ${event.name} at ${venue.name}`;

/** The confirmation mail itself; both forms (rendered in the transaction, rendered when sent) are this mail. */
async function ticketMessage(venue: VenueRow, event: EventRow, sold: SoldTickets): Promise<MailMessage> {
  const { booking } = sold;
  const times = [event.start_time, event.end_time].filter(Boolean).join('–');
  const details = [
    { label: 'Event', value: event.name },
    { label: 'Date', value: event.event_date },
    { label: 'Time', value: times },
    { label: 'Last entry', value: event.last_entry_time ?? '' },
    { label: 'Venue', value: `${venue.name}, ${venue.address}` },
    { label: 'Tickets', value: `${sold.quantity} × ${sold.ticketName}` },
    { label: 'Total', value: booking.total_pence > 0 ? money(booking.total_pence) : 'Free' },
    { label: 'Booking reference', value: booking.id },
  ].filter((row) => row.value);
  return venueMessage({
    to: booking.guest_email,
    subject: ticketsSubject(venue, event),
    venue,
    content: {
      title: 'Your tickets are confirmed',
      paragraphs: [
        `Hello ${booking.guest_name ?? 'there'}, your tickets for ${event.name} are confirmed.`,
        'Show the attached QR code at the door: it admits your whole booking.',
      ],
      details,
    },
    attachments: [{ filename: `ticket-${booking.id}.svg`, contentType: 'image/svg+xml', content: await qrSvg(sold.qrToken) }],
  });
}

interface TicketMailInput {
  venue: VenueRow;
  event: EventRow;
  ticketName: string;
  booking: SoldEventBooking;
  ticket: Pick<TicketRow, 'quantity' | 'qr_token'>;
}

/** The confirmation rendered in the caller's transaction (a paid reservation confirmed: one at a time, not a crowd). */
export async function queueTicketMail(conn: Conn, mail: Mail, input: TicketMailInput): Promise<void> {
  const { venue, event, booking, ticket } = input;
  if (!booking.guest_email) return;
  const sold = { booking: { ...booking, guest_email: booking.guest_email }, ticketName: input.ticketName, quantity: ticket.quantity };
  await mail.queue(conn, await ticketMessage(venue, event, { ...sold, qrToken: ticket.qr_token }));
}

/** The outbox template of a ticket confirmation rendered when sent. */
export const TICKETS_TEMPLATE = 'event.tickets';

/** What a deferred ticket confirmation's outbox row carries: the sale as made (the rest is read when sent). */
type AsSold = {
  booking_id: string;
  operator_id: string;
  venue_id: string;
  event_id: string;
  ticket_name: string;
  quantity: number;
  total_pence: number;
};

/**
 * The same confirmation, queued as a small outbox row rendered when sent (`ticketsTemplate`): in the
 * sale's transaction only its subject and the sale as made are written, no QR code is drawn.
 */
export async function deferTicketMail(conn: Conn, mail: Mail, input: TicketMailInput, deferred?: DeferredRows): Promise<void> {
  const { venue, event, booking } = input;
  if (!booking.guest_email) return;
  const data: AsSold = {
    booking_id: booking.id,
    operator_id: venue.operator_id,
    venue_id: venue.id,
    event_id: event.id,
    ticket_name: input.ticketName,
    quantity: input.ticket.quantity,
    total_pence: booking.total_pence,
  };
  await mail.defer(conn, { to: booking.guest_email, subject: ticketsSubject(venue, event), template: TICKETS_TEMPLATE, data }, deferred);
}

/**
 * Renders a deferred ticket confirmation when it is sent. The ticket type's name, the quantity and the
 * total are the row's (as sold); the door token is the ticket row's (written with the sale, never
 * changed); the guest's name, the event and the venue are read now. A booking that is gone, or whose
 * guest email is gone (the guest was erased), is not sent: `{ skip }`; nor is one whose event, ticket or
 * venue is gone.
 */
export function ticketsTemplate(deps: {
  findVenue(conn: Conn, operatorId: string, venueId: string): Promise<VenueRow | undefined>;
}): MailTemplate {
  return async (conn, data) => {
    const sold = data as unknown as AsSold;
    const booking = await eventBooking(conn, sold.booking_id);
    if (!booking) return { skip: 'the booking no longer exists' };
    if (!booking.guest_email) return { skip: 'the booking has no guest email any more (the guest was erased)' };
    const [event, ticket, venue] = await Promise.all([
      eventById(conn, sold.event_id),
      ticketOfBooking(conn, sold.booking_id),
      deps.findVenue(conn, sold.operator_id, sold.venue_id),
    ]);
    if (!event) return { skip: 'the event no longer exists' };
    if (!ticket) return { skip: 'the tickets no longer exist' };
    if (!venue) return { skip: 'the venue no longer exists' };
    return ticketMessage(venue, event, {
      booking: { id: booking.id, guest_name: booking.guest_name, guest_email: booking.guest_email, total_pence: sold.total_pence },
      ticketName: sold.ticket_name,
      quantity: sold.quantity,
      qrToken: ticket.qr_token,
    });
  };
}

/** A purchase the venue approves: the guest is told the request is with the venue and nothing was charged. */
export async function queueRequestMail(
  conn: Conn,
  mail: Mail,
  input: { venue: VenueRow; event: EventRow; ticketName: string; booking: SoldEventBooking; quantity: number },
): Promise<void> {
  const { venue, event, booking } = input;
  if (!booking.guest_email) return;
  await mail.queue(
    conn,
    venueMessage({
      to: booking.guest_email,
      subject: `Your ticket request for ${event.name} at ${venue.name}`,
      venue,
      content: {
        title: 'Your request is with the venue',
        paragraphs: [
          `Hello ${booking.guest_name ?? 'there'}, ${venue.name} approves requests for these tickets: we will let you know.`,
          'Nothing has been charged.',
        ],
        details: [
          { label: 'Event', value: event.name },
          { label: 'Date', value: event.event_date },
          { label: 'Tickets', value: `${input.quantity} × ${input.ticketName}` },
          { label: 'Booking reference', value: booking.id },
        ],
      },
    }),
  );
}
