/**
 * One guest (`/guests/$guestId`): contact details (a walk-in record says so), the score with what makes
 * it, figures (visits, spend, keys), tags edited in place, visits (`/bookings`), the keys ledger
 * (`/billing`), recent activity, the network (SVG and list), and the privacy requests (export, erasure).
 * Figures count the caller's venues only. A guest the caller cannot see is "not found".
 */
import { Link, useParams } from '@tanstack/react-router';
import { ApiError } from '../api/client';
import { useCan, useCurrentVenue, useVenues } from '../shell/account';
import {
  dayOf,
  isWalkIn,
  messageOf,
  momentOf,
  pounds,
  statusWord,
  useGuest,
  useGuestActivity,
  useGuestBilling,
  useGuestBookings,
  useGuestNetwork,
  type GuestDetail,
} from './data';
import { NetworkView } from './NetworkView';
import { PrivacyPanel } from './PrivacyPanel';
import { TagsEditor } from './TagsEditor';
import './guests.css';

const BANDS: Record<string, string> = {
  new: 'New: no visit yet',
  at_risk: 'At risk: under 20',
  regular: 'Regular: 20 to 59',
  vip: 'VIP: 60 or more',
};

const SCORE_PARTS: { key: keyof GuestDetail['score']['breakdown']; label: string; rule: string }[] = [
  { key: 'visits', label: 'Visits', rule: '10 per visit (checked in), at most 40' },
  { key: 'spend', label: 'Spend', rule: '1 per whole £10 paid, net of refunds, at most 30' },
  { key: 'recency', label: 'Recency', rule: 'Last visit within 30 days 20, 90 days 12, 180 days 6, a year 2' },
  { key: 'no_shows', label: 'No-shows', rule: '−10 each' },
  { key: 'door_rejections', label: 'Refused at the door', rule: '−5 each' },
  { key: 'cancellations', label: 'Cancellations', rule: '−3 each' },
];

const ACTIVITY_WORDS: Record<string, string> = {
  booking_created: 'Booking made',
  voucher: 'Voucher',
  tags_changed: 'Tags changed',
  walk_in: 'Walk-in record made',
};

export default function GuestPage() {
  const { guestId } = useParams({ strict: false }) as { guestId: string };
  const can = useCan();
  const venue = useCurrentVenue();
  const guest = useGuest(guestId);
  const back = (
    <p className="guest__back">
      <Link to="/guests" search={{ venue: venue?.id }}>
        ← All guests
      </Link>
    </p>
  );

  if (guest.error)
    return (
      <main className="page guests" id="main">
        {back}
        <h1>{guest.error instanceof ApiError && guest.error.status === 404 ? 'Guest not found' : 'Guest'}</h1>
        <p className={guest.error instanceof ApiError && guest.error.status === 404 ? 'notice' : 'error'} role="alert">
          {guest.error instanceof ApiError && guest.error.status === 404
            ? 'This guest is not in your guest list (or was erased).'
            : messageOf(guest.error)}
        </p>
      </main>
    );
  if (!guest.data)
    return (
      <main className="page guests" id="main">
        {back}
        <h1>Guest</h1>
        <p>Loading…</p>
      </main>
    );

  const detail = guest.data;
  const g = detail.guest;
  const walkIn = isWalkIn(g.email);
  const writable = can('guests', 'write');
  return (
    <main className="page guests guest" id="main">
      {back}
      <h1>{g.name}</h1>
      <dl className="facts guest__contact">
        <dt>Email</dt>
        <dd>{walkIn ? 'None: a walk-in record (no account, nothing is emailed)' : <a href={`mailto:${g.email}`}>{g.email}</a>}</dd>
        <dt>Phone</dt>
        <dd>{g.phone ? <a href={`tel:${g.phone.replace(/\s/g, '')}`}>{g.phone}</a> : 'Not given'}</dd>
        {g.membership_tier && (
          <>
            <dt>Membership</dt>
            <dd>{g.membership_tier}</dd>
          </>
        )}
        <dt>Connections</dt>
        <dd>{detail.connections}</dd>
      </dl>

      <div className="guest__grid">
        <Score detail={detail} />
        <Figures detail={detail} />
      </div>
      <TagsEditor guestId={guestId} tags={detail.tags} venue={venue} writable={writable} />
      <Visits guestId={guestId} />
      <Ledger guestId={guestId} />
      <Activity guestId={guestId} />
      <Network guestId={guestId} />
      <PrivacyPanel guestId={guestId} name={g.name} walkIn={walkIn} writable={writable} venueId={venue?.id} />
    </main>
  );
}

function Score({ detail }: { detail: GuestDetail }) {
  const { score } = detail;
  return (
    <section className="panel guest__panel" aria-labelledby="score-title">
      <h2 id="score-title">Score</h2>
      <p className="guest__score">
        <strong>{score.total}</strong> <span className="muted">of 100</span> ·{' '}
        <span className={`band band--${score.band}`}>{BANDS[score.band] ?? score.band}</span>
      </p>
      <table className="guest__table">
        <caption className="visually-hidden">How the score is made</caption>
        <thead>
          <tr>
            <th scope="col">Part</th>
            <th scope="col" className="num">
              Points
            </th>
            <th scope="col">Rule</th>
          </tr>
        </thead>
        <tbody>
          {SCORE_PARTS.map((part) => (
            <tr key={part.key}>
              <th scope="row">{part.label}</th>
              <td className="num">{score.breakdown[part.key]}</td>
              <td className="muted">{part.rule}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">
        {score.days_since_last_visit === null
          ? 'No visit yet.'
          : `Last visit ${score.days_since_last_visit === 0 ? 'today' : `${score.days_since_last_visit} days ago`}.`}{' '}
        The total is kept between 0 and 100. Visits and spend weigh most; recency tells a regular from a lapsed guest.
      </p>
    </section>
  );
}

function Figures({ detail }: { detail: GuestDetail }) {
  const s = detail.stats;
  return (
    <section className="panel guest__panel" aria-labelledby="figures-title">
      <h2 id="figures-title">At your venues</h2>
      <dl className="facts">
        <dt>Visits</dt>
        <dd>{s.confirmed_visits}</dd>
        <dt>Last visit</dt>
        <dd>{s.last_visit_date ? dayOf(s.last_visit_date) : 'None yet'}</dd>
        <dt>Bookings</dt>
        <dd>{s.total_bookings}</dd>
        <dt>Spend</dt>
        <dd>{pounds(s.spend_pence)}</dd>
        <dt>Keys spent</dt>
        <dd>{s.keys_spent}</dd>
        <dt>Loyalty points</dt>
        <dd>{s.loyalty_points}</dd>
        <dt>No-shows</dt>
        <dd>{s.no_shows}</dd>
        <dt>Cancellations</dt>
        <dd>{s.cancellations}</dd>
        <dt>Refused at the door</dt>
        <dd>{s.door_rejections}</dd>
      </dl>
    </section>
  );
}

function Visits({ guestId }: { guestId: string }) {
  const bookings = useGuestBookings(guestId);
  const rows = bookings.data?.data ?? [];
  return (
    <section className="panel guest__panel" aria-labelledby="visits-title">
      <h2 id="visits-title">Visits and bookings</h2>
      {bookings.error && (
        <p className="error" role="alert">
          {messageOf(bookings.error)}
        </p>
      )}
      {bookings.isPending && <p>Loading…</p>}
      {bookings.data && rows.length === 0 && <p className="muted">No bookings at your venues.</p>}
      {rows.length > 0 && (
        <div className="table-scroll">
          <table className="guest__table">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Time</th>
                <th scope="col">Venue</th>
                <th scope="col" className="num">
                  Party
                </th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((b) => (
                <tr key={b.id}>
                  <td>{dayOf(b.booking_date)}</td>
                  <td>{b.start_time ?? (b.kind === 'guestlist' ? 'Guest list' : '—')}</td>
                  <td>{b.venue_name}</td>
                  <td className="num">{b.guest_count}</td>
                  <td>{statusWord(b.status)}</td>
                  <td className="num">{pounds(b.total_pence)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Ledger({ guestId }: { guestId: string }) {
  const billing = useGuestBilling(guestId);
  const { data: venues } = useVenues();
  const zone = useCurrentVenue()?.timezone ?? venues?.[0]?.timezone ?? 'Europe/London';
  const rows = billing.data?.data ?? [];
  return (
    <section className="panel guest__panel" aria-labelledby="ledger-title">
      <h2 id="ledger-title">Keys ledger</h2>
      <p className="muted">Keys spent and refunded on this guest’s bookings at your venues (their top-ups elsewhere are not shown).</p>
      {billing.error && (
        <p className="error" role="alert">
          {messageOf(billing.error)}
        </p>
      )}
      {billing.data && rows.length === 0 && <p className="muted">No keys entries.</p>}
      {rows.length > 0 && (
        <div className="table-scroll">
          <table className="guest__table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Entry</th>
                <th scope="col" className="num">
                  Keys
                </th>
                <th scope="col">Note</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((entry) => (
                <tr key={entry.id}>
                  <td>{momentOf(entry.created_at, zone)}</td>
                  <td>{entry.type.replace(/_/g, ' ')}</td>
                  <td className="num">{entry.delta > 0 ? `+${entry.delta}` : `−${Math.abs(entry.delta)}`}</td>
                  <td>{entry.note ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Activity({ guestId }: { guestId: string }) {
  const activity = useGuestActivity(guestId);
  const { data: venues } = useVenues();
  const zone = useCurrentVenue()?.timezone ?? venues?.[0]?.timezone ?? 'Europe/London';
  const rows = activity.data?.data ?? [];
  return (
    <section className="panel guest__panel" aria-labelledby="activity-title">
      <h2 id="activity-title">Recent activity</h2>
      {activity.error && (
        <p className="error" role="alert">
          {messageOf(activity.error)}
        </p>
      )}
      {activity.data && rows.length === 0 && <p className="muted">Nothing yet.</p>}
      {rows.length > 0 && (
        <ol className="activity">
          {rows.map((item, i) => (
            <li key={`${item.at}-${i}`}>
              <span className="activity__when">{momentOf(item.at, zone)}</span>{' '}
              {item.summary || ACTIVITY_WORDS[item.type] || statusWord(item.type.replace(/^booking_/, ''))}
              {item.venue_name && <span className="muted"> · {item.venue_name}</span>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Network({ guestId }: { guestId: string }) {
  const network = useGuestNetwork(guestId);
  const venue = useCurrentVenue();
  if (network.error)
    return (
      <p className="error" role="alert">
        {messageOf(network.error)}
      </p>
    );
  if (!network.data) return null;
  return <NetworkView network={network.data} venueId={venue?.id} />;
}
