/**
 * A booking's mail to its guest: the confirmation (details, the manage link, an `.ics` calendar file)
 * and the cancellation notice (with a cancelling `.ics`). Queued on the caller's transaction, so a
 * booking that rolls back sends nothing and a committed one always has its mail.
 */
import { manageLinkExpiry, signManageToken } from '../../domain/booking-tokens/index.js';
import { bookingIcs } from '../../domain/ics.js';
import type { Conn } from '../../db/transaction.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import type { Mail } from '../../platform/mail/mail.js';
import { venueMessage } from '../../platform/mail/templates.js';
import type { BookingRow } from './booking-store.js';
import type { DoorKeys } from './door-keys.js';

const money = (pence: number) => `£${(pence / 100).toFixed(2)}`;

export function bookingMails(deps: { mail: Mail; doorKeys: Pick<DoorKeys, 'manageSecret'>; publicBaseUrl: string }) {
  /** The guest's manage page for a booking: a signed link valid until a day after the booking starts. */
  async function manageUrl(conn: Conn, booking: BookingRow): Promise<string> {
    const startsAt = booking.starts_at ? new Date(booking.starts_at) : new Date(`${booking.booking_date}T23:59:00Z`);
    const token = signManageToken({ bookingId: booking.id, expiresAt: manageLinkExpiry(startsAt) }, await deps.doorKeys.manageSecret(conn));
    return `${deps.publicBaseUrl}/api/public/bookings/manage?token=${encodeURIComponent(token)}`;
  }

  function details(venue: VenueRow, booking: BookingRow) {
    const rows = [
      { label: 'Date', value: booking.booking_date },
      { label: 'Time', value: booking.start_time ?? '' },
      { label: 'Party size', value: String(booking.guest_count) },
      { label: 'Venue', value: `${venue.name}, ${venue.address}` },
      { label: 'Booking reference', value: booking.id },
    ];
    if (booking.deposit_pence > 0)
      rows.push({ label: booking.deposit_type === 'hold' ? 'Card hold' : 'Deposit', value: money(booking.deposit_pence) });
    return rows.filter((row) => row.value);
  }

  function calendar(venue: VenueRow, booking: BookingRow, url: string, method: 'PUBLISH' | 'CANCEL', now: Date) {
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

  return {
    manageUrl,

    async confirmation(conn: Conn, venue: VenueRow, booking: BookingRow): Promise<void> {
      if (!booking.guest_email) return;
      const url = await manageUrl(conn, booking);
      await deps.mail.queue(
        conn,
        venueMessage({
          to: booking.guest_email,
          subject: `Your booking at ${venue.name} on ${booking.booking_date} is confirmed`,
          venue,
          content: {
            paragraphs: [`Hello ${booking.guest_name ?? 'there'}, we look forward to seeing you.`],
            details: details(venue, booking),
            link: { label: 'View or cancel your booking', url },
          },
          attachments: calendar(venue, booking, url, 'PUBLISH', new Date(booking.updated_at)),
        }),
      );
    },

    async cancellation(conn: Conn, venue: VenueRow, booking: BookingRow, refundPence: number): Promise<void> {
      if (!booking.guest_email) return;
      const url = await manageUrl(conn, booking);
      const paragraphs = [`Hello ${booking.guest_name ?? 'there'}, your booking has been cancelled.`];
      if (refundPence > 0) paragraphs.push(`${money(refundPence)} will be refunded to your card.`);
      await deps.mail.queue(
        conn,
        venueMessage({
          to: booking.guest_email,
          subject: `Your booking at ${venue.name} on ${booking.booking_date} is cancelled`,
          venue,
          content: { paragraphs, details: details(venue, booking) },
          attachments: calendar(venue, booking, url, 'CANCEL', new Date(booking.updated_at)),
        }),
      );
    },
  };
}
