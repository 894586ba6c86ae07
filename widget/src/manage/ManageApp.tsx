/**
 * The guest's manage page, opened from the booking mail: the booking as the venue holds it, and
 * cancelling it under its payment policy, with what cancelling now refunds said before the guest
 * confirms. The signed token in the address is the only credential.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../lib/api';
import { dateLabel, money } from '../lib/format';
import { Alert, LiveStatus } from '../ui/Shell';

interface Managed {
  booking_id: string;
  reference: string | null;
  status: string;
  venue: {
    name: string;
    address: string;
    timezone: string;
    phone: string | null;
    email: string | null;
    theme_url: string | null;
    logo_url: string | null;
  };
  date: string;
  time: string | null;
  party_size: number;
  payment: { deposit_type: string; deposit_pence: number; paid_pence: number; refunded_pence: number };
  cancellation: {
    can_cancel: boolean;
    message: string | null;
    cancellable_until: string | null;
    refund_pence: number;
    hold_release_pence: number;
  };
}

const STATUS_WORDS: Record<string, string> = {
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

/** An instant as the venue's wall clock shows it (its zone, not the guest's). */
function venueLocal(instant: string, timezone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(instant));
}

export function ManageApp() {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const [booking, setBooking] = useState<Managed | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');

  const load = () => {
    setError(null);
    api<Managed>(`/api/public/bookings/manage?token=${encodeURIComponent(token)}`)
      .then(setBooking)
      .catch((caught: unknown) => setError(caught instanceof ApiError ? caught.message : 'Your booking could not be loaded.'));
  };
  useEffect(load, []);

  // The venue's look, as its widgets have it: its theme stylesheet (colours, font, custom CSS).
  const themeUrl = booking?.venue.theme_url;
  useEffect(() => {
    if (!themeUrl || document.querySelector(`link[data-mw-theme]`)) return;
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = themeUrl;
    link.dataset.mwTheme = '';
    document.head.append(link);
  }, [themeUrl]);

  async function cancel() {
    setBusy(true);
    setError(null);
    try {
      const result = await api<{ refunded_pence: number }>('/api/public/bookings/manage/cancel', { method: 'POST', body: { token } });
      setStatus(
        result.refunded_pence > 0
          ? `Your booking is cancelled and ${money(result.refunded_pence)} is on its way back to your card.`
          : 'Your booking is cancelled.',
      );
      setConfirming(false);
      load();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The booking could not be cancelled. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  const refundWords = (b: Managed) => {
    const parts: string[] = [];
    if (b.cancellation.refund_pence > 0)
      parts.push(`${money(b.cancellation.refund_pence)} of your ${money(b.payment.paid_pence)} deposit is refunded`);
    else if (b.payment.paid_pence > 0) parts.push(`your ${money(b.payment.paid_pence)} deposit is not refunded`);
    if (b.cancellation.hold_release_pence > 0) parts.push(`the ${money(b.cancellation.hold_release_pence)} card hold is released`);
    return parts.length > 0 ? `If you cancel now, ${parts.join(' and ')}.` : 'Cancelling costs nothing.';
  };

  return (
    <div class="mw-page">
      <header class="mw-header">
        {booking?.venue.logo_url ? <img class="mw-logo" src={booking.venue.logo_url} alt="" width={48} height={48} /> : null}
        <div>
          <p class="mw-venue">{booking?.venue.name ?? ''}</p>
          <h1 class="mw-title">Your booking</h1>
        </div>
      </header>
      <main>
        <LiveStatus message={status} />
        <Alert message={error} action={!booking && error ? { label: 'Try again', run: load } : undefined} />
        {booking ? (
          <section class="mw-step">
            <p class="mw-summary">
              {dateLabel(booking.date)}
              {booking.time ? ` at ${booking.time}` : ''}, {booking.party_size === 1 ? '1 guest' : `${booking.party_size} guests`}
            </p>
            <p>
              {booking.venue.name}, {booking.venue.address}
            </p>
            <p class="mw-hint">Times are local to the venue ({booking.venue.timezone.replace(/_/g, ' ')}).</p>
            <p>
              Status: <strong>{STATUS_WORDS[booking.status] ?? booking.status}</strong>
            </p>
            {booking.reference ? (
              <p class="mw-reference">
                Booking reference <strong>{booking.reference}</strong>
              </p>
            ) : null}
            {booking.payment.refunded_pence > 0 ? <p>Refunded: {money(booking.payment.refunded_pence)}</p> : null}
            {booking.cancellation.can_cancel ? (
              confirming ? (
                <div class="mw-step" role="group" aria-labelledby="mw-confirm-text">
                  <p id="mw-confirm-text">
                    <strong>Cancel this booking?</strong> {refundWords(booking)}
                  </p>
                  <button type="button" class="mw-primary" disabled={busy} onClick={() => void cancel()}>
                    {busy ? 'Cancelling…' : 'Yes, cancel my booking'}
                  </button>
                  <button type="button" class="mw-secondary" onClick={() => setConfirming(false)}>
                    Keep my booking
                  </button>
                </div>
              ) : (
                <>
                  <p>{refundWords(booking)}</p>
                  {booking.cancellation.cancellable_until ? (
                    <p class="mw-hint">
                      You can cancel online until {venueLocal(booking.cancellation.cancellable_until, booking.venue.timezone)}.
                    </p>
                  ) : null}
                  <button type="button" class="mw-secondary" onClick={() => setConfirming(true)}>
                    Cancel booking
                  </button>
                </>
              )
            ) : booking.status !== 'cancelled' && booking.cancellation.message ? (
              <div class="mw-terms">
                <p>{booking.cancellation.message}</p>
                <Contact venue={booking.venue} />
              </div>
            ) : null}
          </section>
        ) : !error ? (
          <p class="mw-hint">Loading your booking…</p>
        ) : null}
      </main>
    </div>
  );
}

/** Not a dead end: how to reach the venue about what the page cannot do. */
function Contact(props: { venue: Managed['venue'] }) {
  const { phone, email, name } = props.venue;
  if (!phone && !email) return <p>Please contact {name} about your booking.</p>;
  return (
    <p>
      To change or cancel it, contact {name}
      {phone ? (
        <>
          {' '}
          on <a href={`tel:${phone.replace(/\s+/g, '')}`}>{phone}</a>
        </>
      ) : null}
      {phone && email ? ' or' : ''}
      {email ? (
        <>
          {' '}
          at <a href={`mailto:${email}`}>{email}</a>
        </>
      ) : null}
      .
    </p>
  );
}
