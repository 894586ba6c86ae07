/**
 * The guest's waitlist page, opened from the waitlist mail (`/widget/manage?token=wl1.…`): their place
 * in line, the table on offer with Accept while the offer is open, and leaving the list. The signed
 * token in the address is the only credential (docs/waitlist.md).
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../lib/api';
import { dateLabel, money } from '../lib/format';
import { Alert, LiveStatus } from '../ui/Shell';

interface Entry {
  venue: { id: string; name: string };
  status: string;
  position: number | null;
  party_size: number;
  guest_name: string;
  date: string;
  time_from: string | null;
  time_to: string | null;
  offer: { time: string; expires_at: string } | null;
  booking_id: string | null;
}

type Accepted = { ok: true; reference: string; manage_url: string } | { requires_payment: true; amount_pence: number; manage_url: string };

const STATUS_WORDS: Record<string, string> = {
  waiting: 'on the waitlist',
  offered: 'a table is on offer',
  accepting: 'booking your table',
  booked: 'booked',
  expired: 'no longer on the waitlist (the offer or the date passed)',
  left: 'you left the waitlist',
  removed: 'taken off the waitlist by the venue',
};

export function WaitlistPage(props: { token: string }) {
  const { token } = props;
  const [entry, setEntry] = useState<Entry | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const [accepted, setAccepted] = useState<Accepted | null>(null);

  const load = () => {
    api<Entry>(`/api/public/waitlist?token=${encodeURIComponent(token)}`)
      .then(setEntry)
      .catch((caught: unknown) => setError(caught instanceof ApiError ? caught.message : 'Your waitlist entry could not be loaded.'));
  };
  useEffect(load, []);

  async function act(path: 'accept' | 'leave') {
    setBusy(true);
    setError(null);
    try {
      const answer = await api<Accepted>(`/api/public/waitlist/${path}`, { method: 'POST', body: { token } });
      if (path === 'accept') setAccepted(answer);
      setStatus(path === 'accept' ? 'Your table is booked.' : 'You have left the waitlist.');
      load();
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'That did not work. Please try again.');
      load();
    } finally {
      setBusy(false);
    }
  }

  return (
    <div class="mw-page">
      <header class="mw-header">
        <div>
          <p class="mw-venue">{entry?.venue.name ?? ''}</p>
          <h1 class="mw-title">Your place on the waitlist</h1>
        </div>
      </header>
      <main>
        <LiveStatus message={status} />
        <Alert message={error} />
        {entry ? (
          <section class="mw-step">
            <p class="mw-summary">
              {dateLabel(entry.date)}, {entry.party_size === 1 ? '1 guest' : `${entry.party_size} guests`}
              {entry.time_from && entry.time_to ? `, between ${entry.time_from} and ${entry.time_to}` : ''}
            </p>
            <p>
              Status: <strong>{STATUS_WORDS[entry.status] ?? entry.status}</strong>
              {entry.status === 'waiting' && entry.position ? ` (number ${entry.position} in line)` : ''}
            </p>
            {entry.offer ? (
              <div class="mw-step" role="group" aria-labelledby="mw-offer-text">
                <p id="mw-offer-text">
                  <strong>A table is free at {entry.offer.time}.</strong> It is yours if you accept before{' '}
                  {new Date(entry.offer.expires_at).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}.
                </p>
                <button type="button" class="mw-primary" disabled={busy} onClick={() => void act('accept')}>
                  {busy ? 'Booking…' : `Accept the table at ${entry.offer.time}`}
                </button>
              </div>
            ) : null}
            {accepted && 'ok' in accepted ? (
              <p>
                Booking reference <strong>{accepted.reference}</strong>. <a href={accepted.manage_url}>View or cancel your booking</a>.
              </p>
            ) : null}
            {accepted && 'requires_payment' in accepted ? (
              <p>
                This table needs a deposit of {money(accepted.amount_pence)}. <a href={accepted.manage_url}>See your booking</a>; the venue
                holds it for 10 minutes while you pay.
              </p>
            ) : null}
            {entry.status === 'waiting' || entry.status === 'offered' ? (
              <button type="button" class="mw-secondary" disabled={busy} onClick={() => void act('leave')}>
                Leave the waitlist
              </button>
            ) : null}
          </section>
        ) : !error ? (
          <p class="mw-hint">Loading…</p>
        ) : null}
      </main>
    </div>
  );
}
