/**
 * The ticket confirmation mail: the event, the tickets and what they cost, and the booking's door QR
 * code as an SVG attachment (one per booking). The code encodes the booking's door token, signed with
 * the venue's key when the tickets were bought and valid until noon the day after the event, so staff
 * check the guest in with it (`POST /api/check-in`) like any booking QR. Queued on the caller's
 * transaction: tickets that roll back send nothing. A purchase the venue approves gets a "request received"
 * mail instead.
 */
import { createRequire } from 'node:module';
import type * as QRCode from 'qrcode';
import { addDays, localToUtc } from '../../domain/venue-time.js';
import type { Conn } from '../../db/transaction.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import type { Mail } from '../../platform/mail/mail.js';
import { venueMessage } from '../../platform/mail/templates.js';
import type { EventBookingRow } from '../bookings/index.js';
import type { EventRow, TicketRow } from './events.repository.js';

const requireCjs = createRequire(import.meta.url);
const money = (pence: number) => `£${(pence / 100).toFixed(2)}`;

/** When a ticket's door token stops being valid: noon (venue time) the day after the event. */
export const ticketTokenExpiry = (event: Pick<EventRow, 'event_date'>, timezone: string) =>
  localToUtc(addDays(event.event_date, 1), '12:00', timezone);

export function qrSvg(text: string): Promise<string> {
  return (requireCjs('qrcode') as typeof QRCode).toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

export async function queueTicketMail(
  conn: Conn,
  mail: Mail,
  input: { venue: VenueRow; event: EventRow; ticketName: string; booking: EventBookingRow; ticket: TicketRow },
): Promise<void> {
  const { venue, event, booking, ticket } = input;
  if (!booking.guest_email) return;
  const times = [event.start_time, event.end_time].filter(Boolean).join('–');
  const details = [
    { label: 'Event', value: event.name },
    { label: 'Date', value: event.event_date },
    { label: 'Time', value: times },
    { label: 'Last entry', value: event.last_entry_time ?? '' },
    { label: 'Venue', value: `${venue.name}, ${venue.address}` },
    { label: 'Tickets', value: `${ticket.quantity} × ${input.ticketName}` },
    { label: 'Total', value: booking.total_pence > 0 ? money(booking.total_pence) : 'Free' },
    { label: 'Booking reference', value: booking.id },
  ].filter((row) => row.value);
  await mail.queue(
    conn,
    venueMessage({
      to: booking.guest_email,
      subject: `Your tickets for ${event.name} at ${venue.name}`,
      venue,
      content: {
        title: 'Your tickets are confirmed',
        paragraphs: [
          `Hello ${booking.guest_name ?? 'there'}, your tickets for ${event.name} are confirmed.`,
          'Show the attached QR code at the door: it admits your whole booking.',
        ],
        details,
      },
      attachments: [{ filename: `ticket-${booking.id}.svg`, contentType: 'image/svg+xml', content: await qrSvg(ticket.qr_token) }],
    }),
  );
}

/** A purchase the venue approves: the guest is told the request is with the venue and nothing was charged. */
export async function queueRequestMail(
  conn: Conn,
  mail: Mail,
  input: { venue: VenueRow; event: EventRow; ticketName: string; booking: EventBookingRow; quantity: number },
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
