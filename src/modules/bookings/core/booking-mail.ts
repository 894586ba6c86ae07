/**
 * A booking's mail to its guest: the confirmation (details, the manage link, an `.ics` calendar file)
 * and the cancellation notice (with a cancelling `.ics`), the one notice for staff and guest cancellations;
 * and, to a guest who agreed to texts at this operator (docs/messages.md), the same two as text messages in
 * the venue's own wording (its `confirmation` and `cancellation` templates). Queued on the caller's
 * transaction, so a booking that rolls back sends nothing and a committed one always has its messages.
 *
 * The public booking's confirmation mail is queued small (`deferredConfirmation`): the booking-as-booked
 * values in the outbox row, rendered by `confirmationTemplate` when the mail is sent (docs/decisions.md,
 * "Booking confirmations rendered when sent"). Both forms render through `confirmationMessage`, so they
 * are the same mail.
 */
import { manageLinkExpiry, signManageToken } from '../../../domain/booking-tokens/index.js';
import { bookingIcs } from '../../../domain/ics.js';
import { renderTemplate, type MessageKind } from '../../../domain/message-templates.js';
import { textableNumber } from '../../../domain/reminder-schedule.js';
import { peopleDate } from '../../../domain/people-dates.js';
import type { DeferredRows } from '../../../db/deferred-rows.js';
import type { Conn } from '../../../db/transaction.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import type { Mail, MailMessage, MailTemplate } from '../../../platform/mail/mail.js';
import { venueMessage } from '../../../platform/mail/templates.js';
import { consentOf } from '../../../platform/sms/consent.js';
import type { TextMessages } from '../../../platform/sms/sms.js';
import { templateFor } from '../../../platform/sms/templates.js';
import { findBooking, type BookingRow } from './booking-store.js';
import { depositLines } from './deposit-lines.js';
import type { DoorKeys } from './door-keys.js';

const money = (pence: number) => `£${(pence / 100).toFixed(2)}`;

/** The outbox template of a confirmation rendered when sent. */
export const CONFIRMATION_TEMPLATE = 'booking.confirmation';

/** What a confirmation says about the booking: its values as booked (the deposit's from the booking as it is). */
type ConfirmedFacts = Pick<
  BookingRow,
  | 'id'
  | 'operator_id'
  | 'venue_id'
  | 'booking_date'
  | 'start_time'
  | 'starts_at'
  | 'ends_at'
  | 'guest_count'
  | 'guest_name'
  | 'guest_email'
  | 'guest_phone'
  | 'reference'
  | 'updated_at'
  | 'deposit_type'
  | 'deposit_pence'
  | 'bundle_selections'
>;

/** The values a deferred confirmation's outbox row carries: the booking as booked (the rest is read when sent). */
const AS_BOOKED = [
  'id',
  'operator_id',
  'venue_id',
  'booking_date',
  'start_time',
  'starts_at',
  'ends_at',
  'guest_count',
  'reference',
  'updated_at',
] as const;
type AsBooked = Pick<BookingRow, (typeof AS_BOOKED)[number]>;

const confirmationSubject = (venue: VenueRow, booking: Pick<BookingRow, 'booking_date'>) =>
  `Your booking at ${venue.name} on ${peopleDate(booking.booking_date)} is confirmed`;

export interface CancellationNotice {
  /** Who cancelled: the venue's staff or the guest (manage link). */
  by: 'venue' | 'guest';
  /** What this cancellation refunded (0: nothing). */
  refundedPence: number;
}

export function bookingMails(deps: { mail: Mail; doorKeys: Pick<DoorKeys, 'manageSecret'>; publicBaseUrl: string; sms?: TextMessages }) {
  /**
   * The guest's manage page for a booking (the widget's manage page, which reads and cancels through
   * the manage API): a signed link valid until a day after the booking starts.
   */
  async function manageUrl(conn: Conn, booking: Pick<BookingRow, 'id' | 'starts_at' | 'booking_date'>): Promise<string> {
    const startsAt = booking.starts_at ? new Date(booking.starts_at) : new Date(`${booking.booking_date}T23:59:00Z`);
    const token = signManageToken({ bookingId: booking.id, expiresAt: manageLinkExpiry(startsAt) }, await deps.doorKeys.manageSecret(conn));
    return `${deps.publicBaseUrl}/widget/manage?token=${encodeURIComponent(token)}`;
  }

  /** The booking's facts for people, and its deposit or card hold line by line with the total. */
  async function details(conn: Conn, venue: VenueRow, booking: ConfirmedFacts | BookingRow) {
    const rows = [
      { label: 'Date', value: peopleDate(booking.booking_date) },
      { label: 'Time', value: booking.start_time ?? '' },
      { label: 'Party size', value: String(booking.guest_count) },
      { label: 'Venue', value: `${venue.name}, ${venue.address}` },
      { label: 'Booking reference', value: booking.reference ?? booking.id },
    ];
    const lines = await depositLines(conn, booking);
    for (const line of lines) rows.push({ label: line.label, value: money(line.amount_pence) });
    if (lines.length > 0)
      rows.push({ label: booking.deposit_type === 'hold' ? 'Total held' : 'Total paid', value: money(booking.deposit_pence) });
    return rows.filter((row) => row.value);
  }

  function calendar(venue: VenueRow, booking: ConfirmedFacts | BookingRow, url: string, method: 'PUBLISH' | 'CANCEL', now: Date) {
    if (!booking.starts_at || !booking.ends_at) return [];
    // A calendar message (with a method) needs an organizer: without the venue's address the guest gets a
    // plain calendar file for a confirmation, and no file for a cancellation.
    if (!venue.email && method === 'CANCEL') return [];
    const asMessage = Boolean(venue.email);
    const ics = bookingIcs({
      uid: `${booking.id}@maitred`,
      venueName: venue.name,
      venueAddress: venue.address,
      startsAt: new Date(booking.starts_at),
      endsAt: new Date(booking.ends_at),
      summary: `${venue.name}: table for ${booking.guest_count}`,
      description: `Booking ${booking.id}. Manage it at ${url}`,
      url,
      ...(asMessage ? { organizerEmail: venue.email!, method, sequence: method === 'CANCEL' ? 1 : 0 } : {}),
      dtstamp: now,
    });
    return [{ filename: 'booking.ics', contentType: `text/calendar; charset=utf-8${asMessage ? `; method=${method}` : ''}`, content: ics }];
  }

  /** The booking's text in the venue's wording, when the guest agreed to texts from this operator. */
  async function text(
    conn: Conn,
    venue: VenueRow,
    booking: ConfirmedFacts | BookingRow,
    kind: MessageKind,
    extra: Record<string, string> = {},
  ) {
    const phone = textableNumber(booking.guest_phone);
    if (!deps.sms || !phone || (await consentOf(conn, booking.operator_id, 'sms', phone)) !== true) return;
    const body = renderTemplate(await templateFor(conn, venue.id, kind), {
      guest_name: booking.guest_name ?? 'there',
      venue_name: venue.name,
      date: peopleDate(booking.booking_date),
      time: booking.start_time ?? '',
      party_size: String(booking.guest_count),
      reference: booking.reference ?? booking.id,
      ...extra,
    });
    await deps.sms.queue(conn, { to: phone, body, venueId: venue.id, kind });
  }

  /** The confirmation mail itself, for the booking's guest email (the caller checked there is one). */
  async function confirmationMessage(conn: Conn, venue: VenueRow, booking: ConfirmedFacts, url: string): Promise<MailMessage> {
    return venueMessage({
      to: booking.guest_email!,
      subject: confirmationSubject(venue, booking),
      venue,
      content: {
        paragraphs: [`Hello ${booking.guest_name ?? 'there'}, we look forward to seeing you.`],
        details: await details(conn, venue, booking),
        link: { label: 'View or cancel your booking', url },
      },
      attachments: calendar(venue, booking, url, 'PUBLISH', new Date(booking.updated_at)),
    });
  }

  return {
    manageUrl,
    confirmationMessage,

    async confirmation(conn: Conn, venue: VenueRow, booking: BookingRow): Promise<void> {
      const url = await manageUrl(conn, booking);
      await text(conn, venue, booking, 'confirmation', { manage_url: url });
      if (!booking.guest_email) return;
      await deps.mail.queue(conn, await confirmationMessage(conn, venue, booking, url));
    },

    /**
     * The same confirmation, queued as a small outbox row rendered when sent (`confirmationTemplate`):
     * only its subject and the booking as booked are written in the caller's transaction. The text
     * message, when the guest agreed to texts, is still rendered here.
     */
    /** With `deferred`, its outbox row is left to the batch's multi-row statement (db/deferred-rows.ts). */
    async deferredConfirmation(conn: Conn, venue: VenueRow, booking: ConfirmedFacts, deferred?: DeferredRows): Promise<void> {
      if (textableNumber(booking.guest_phone) && deps.sms)
        await text(conn, venue, booking, 'confirmation', { manage_url: await manageUrl(conn, booking) });
      if (!booking.guest_email) return;
      const data: Partial<AsBooked> = {};
      for (const key of AS_BOOKED) Object.assign(data, { [key]: booking[key] });
      await deps.mail.defer(
        conn,
        {
          to: booking.guest_email,
          subject: confirmationSubject(venue, booking),
          template: CONFIRMATION_TEMPLATE,
          data,
        },
        deferred,
      );
    },

    /**
     * The cancellation notice, whoever cancelled (the venue's staff, or the guest through the manage
     * link): the reason staff gave, the refund this cancellation made, and a cancelling `.ics`.
     */
    async cancellation(conn: Conn, venue: VenueRow, booking: BookingRow, notice: CancellationNotice): Promise<void> {
      await text(conn, venue, booking, 'cancellation');
      if (!booking.guest_email) return;
      const url = await manageUrl(conn, booking);
      const hello = `Hello${booking.guest_name ? ` ${booking.guest_name}` : ''}`;
      const paragraphs = [
        notice.by === 'venue'
          ? `${hello}, ${venue.name} has cancelled your booking.`
          : `${hello}, your booking has been cancelled as you asked.`,
      ];
      if (notice.by === 'venue' && booking.cancel_reason) paragraphs.push(`Reason: ${booking.cancel_reason}`);
      if (notice.refundedPence > 0) paragraphs.push(`${money(notice.refundedPence)} is being refunded to the card you paid with.`);
      if (booking.deposit_type === 'hold' && booking.payment_status === 'released')
        paragraphs.push('The hold on your card has been released.');
      const rows = await details(conn, venue, booking);
      if (notice.refundedPence > 0) rows.push({ label: 'Refund', value: money(notice.refundedPence) });
      await deps.mail.queue(
        conn,
        venueMessage({
          to: booking.guest_email,
          subject: `Your booking at ${venue.name} has been cancelled`,
          venue,
          content: { title: 'Your booking has been cancelled', paragraphs, details: rows },
          attachments: calendar(venue, booking, url, 'CANCEL', new Date(booking.updated_at)),
        }),
      );
    },
  };
}

/**
 * Renders a deferred confirmation when it is sent. The date, time, party, stay, reference and the instant
 * it was booked are the row's (a booking moved or cancelled since still gets the confirmation of what was
 * booked; its change sends its own notice); the venue, the guest's name, the deposit lines and the
 * manage link's secret are read now. A booking that is gone, or whose guest email is gone (the guest was
 * erased), is not sent: `{ skip }`.
 */
export function confirmationTemplate(deps: {
  mails: Pick<ReturnType<typeof bookingMails>, 'manageUrl' | 'confirmationMessage'>;
  findVenue(conn: Conn, operatorId: string, venueId: string): Promise<VenueRow | undefined>;
}): MailTemplate {
  return async (conn, data) => {
    const booked = data as unknown as AsBooked;
    const now = await findBooking(conn, booked.id);
    if (!now) return { skip: 'the booking no longer exists' };
    if (!now.guest_email) return { skip: 'the booking has no guest email any more (the guest was erased)' };
    const venue = await deps.findVenue(conn, now.operator_id, now.venue_id);
    if (!venue) return { skip: 'the venue no longer exists' };
    const facts: ConfirmedFacts = { ...now, ...booked };
    return deps.mails.confirmationMessage(conn, venue, facts, await deps.mails.manageUrl(conn, facts));
  };
}
