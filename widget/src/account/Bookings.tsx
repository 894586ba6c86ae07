/**
 * My bookings: upcoming and past, across venues, each with its door QR, a calendar file and the manage
 * flow (the booking mail's manage API, with the token the account gives): cancel under the booking's
 * policy, with what cancelling refunds said before the guest confirms.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../lib/api';
import { dateLabel, money } from '../lib/format';
import { bookingIcs, icsHref } from '../lib/ics';
import { BookingQr } from '../ui/Qr';
import { Alert } from '../ui/Shell';
import { meApi, type Session } from './session';

export interface MyBooking {
  id: string;
  reference: string | null;
  kind: string;
  status: string;
  venue: { id: string; name: string; address: string; timezone: string };
  date: string;
  time: string | null;
  duration_minutes: number | null;
  party_size: number;
  upcoming: boolean;
  qr_url: string | null;
  manage_token: string;
}

interface Managed {
  status: string;
  payment: { paid_pence: number; refunded_pence: number };
  cancellation: { can_cancel: boolean; message: string | null; refund_pence: number; hold_release_pence: number };
}

export const STATUS_WORDS: Record<string, string> = {
  pending: 'waiting for the venue to confirm',
  pending_payment: 'waiting for payment',
  approved: 'confirmed',
  confirmed: 'confirmed',
  checked_in: 'checked in',
  cancelled: 'cancelled',
  rejected: 'declined by the venue',
  expired: 'released (not paid in time)',
  no_show: 'marked as a no-show',
  door_rejected: 'refused at the door',
};

const KIND_WORDS: Record<string, string> = { table: 'Table', guestlist: 'Guest list', event: 'Event' };

function refundWords(b: Managed): string {
  const parts: string[] = [];
  if (b.cancellation.refund_pence > 0)
    parts.push(`${money(b.cancellation.refund_pence)} of your ${money(b.payment.paid_pence)} deposit is refunded`);
  else if (b.payment.paid_pence > 0) parts.push(`your ${money(b.payment.paid_pence)} deposit is not refunded`);
  if (b.cancellation.hold_release_pence > 0) parts.push(`the ${money(b.cancellation.hold_release_pence)} card hold is released`);
  return parts.length > 0 ? `If you cancel now, ${parts.join(' and ')}.` : 'Cancelling costs nothing.';
}

export function Bookings(props: { session: Session; onStatus: (message: string) => void }) {
  const [bookings, setBookings] = useState<{ upcoming: MyBooking[]; past: MyBooking[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () => {
    setError(null);
    meApi<{ upcoming: MyBooking[]; past: MyBooking[] }>(props.session, '/api/me/bookings')
      .then(setBookings)
      .catch((caught: unknown) => setError(caught instanceof ApiError ? caught.message : 'Your bookings could not be loaded.'));
  };
  useEffect(load, []);

  if (!bookings)
    return error ? <Alert message={error} action={{ label: 'Try again', run: load }} /> : <p class="mw-hint">Loading your bookings…</p>;
  return (
    <>
      <Alert message={error} />
      <h2 class="mw-section">Upcoming</h2>
      {bookings.upcoming.length === 0 ? <p>No upcoming bookings.</p> : null}
      <ul class="mw-list">
        {bookings.upcoming.map((b) => (
          <BookingCard key={b.id} booking={b} onChanged={load} onStatus={props.onStatus} />
        ))}
      </ul>
      <h2 class="mw-section">Past</h2>
      {bookings.past.length === 0 ? <p>No past bookings.</p> : null}
      <ul class="mw-list">
        {bookings.past.map((b) => (
          <BookingCard key={b.id} booking={b} onChanged={load} onStatus={props.onStatus} />
        ))}
      </ul>
    </>
  );
}

function BookingCard(props: { booking: MyBooking; onChanged: () => void; onStatus: (message: string) => void }) {
  const b = props.booking;
  const [managed, setManaged] = useState<Managed | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const headingId = `mw-booking-${b.id}`;
  const cancellable = b.upcoming && !['cancelled', 'rejected', 'expired', 'checked_in', 'no_show', 'door_rejected'].includes(b.status);

  async function openCancel() {
    setError(null);
    try {
      setManaged(await api<Managed>(`/api/public/bookings/manage?token=${encodeURIComponent(b.manage_token)}`));
      setConfirming(true);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The booking could not be loaded.');
    }
  }

  async function cancel() {
    setBusy(true);
    setError(null);
    try {
      const result = await api<{ refunded_pence: number }>('/api/public/bookings/manage/cancel', {
        method: 'POST',
        body: { token: b.manage_token },
      });
      props.onStatus(
        result.refunded_pence > 0
          ? `Your booking at ${b.venue.name} is cancelled and ${money(result.refunded_pence)} is on its way back to your card.`
          : `Your booking at ${b.venue.name} is cancelled.`,
      );
      setConfirming(false);
      props.onChanged();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The booking could not be cancelled. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  const ics =
    b.upcoming && b.time && !['cancelled', 'rejected', 'expired'].includes(b.status)
      ? icsHref(
          bookingIcs({
            id: b.id,
            venueName: b.venue.name,
            address: b.venue.address,
            timezone: b.venue.timezone,
            date: b.date,
            time: b.time,
            minutes: b.duration_minutes ?? 120,
            summary: `${KIND_WORDS[b.kind] ?? 'Booking'} at ${b.venue.name}`,
          }),
        )
      : null;

  return (
    <li class="mw-card" aria-labelledby={headingId}>
      <h3 id={headingId}>{b.venue.name}</h3>
      <p class="mw-summary">
        {dateLabel(b.date)}
        {b.time ? ` at ${b.time}` : ''}, {b.party_size === 1 ? '1 guest' : `${b.party_size} guests`}
      </p>
      <p>
        {KIND_WORDS[b.kind] ?? 'Booking'}: <strong>{STATUS_WORDS[b.status] ?? b.status}</strong>
        {b.reference ? ` (reference ${b.reference})` : ''}
      </p>
      {b.upcoming && b.qr_url ? <BookingQr venueId={b.venue.id} bookingId={b.id} /> : null}
      {ics ? (
        <p>
          <a href={ics} download={`booking-${b.id}.ics`}>
            Add to calendar<span class="mw-sr"> ({b.venue.name})</span>
          </a>
        </p>
      ) : null}
      <Alert message={error} />
      {cancellable && !confirming ? (
        <button type="button" class="mw-secondary" onClick={() => void openCancel()}>
          Cancel booking<span class="mw-sr"> at {b.venue.name}</span>
        </button>
      ) : null}
      {confirming && managed ? (
        managed.cancellation.can_cancel ? (
          <div class="mw-step" role="group" aria-labelledby={`${headingId}-confirm`}>
            <p id={`${headingId}-confirm`}>
              <strong>Cancel this booking?</strong> {refundWords(managed)}
            </p>
            <button type="button" class="mw-primary" disabled={busy} onClick={() => void cancel()}>
              {busy ? 'Cancelling…' : 'Yes, cancel my booking'}
            </button>
            <button type="button" class="mw-secondary" onClick={() => setConfirming(false)}>
              Keep my booking
            </button>
          </div>
        ) : (
          <p>{managed.cancellation.message ?? 'This booking can no longer be cancelled online: please contact the venue.'}</p>
        )
      ) : null}
    </li>
  );
}
