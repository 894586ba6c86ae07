/**
 * The promoter's portal (`/promoter`, `?event=` opens one): their events at every venue with their status,
 * a form to submit a new event to a venue that accepted them, one event's page (edit while it awaits the
 * venue; stats, sales and refunds with the promoter's share, and the door list), their earnings net of
 * refunds, and their venues (agreements, and asking a venue by its id). Only the promoter's own events
 * are ever shown. One event's page is PromoterEvent.tsx.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Link, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, call, messageOf } from '../api/client';
import { LiveNotice } from '../shell/Notice';
import { money, promoterKey, useEarnings, useMyAgreements, useMyEvents, words } from './data';
import { EventDetail, type MyEvent } from './PromoterEvent';
import './promoters.css';

export default function PromoterHome() {
  const { event: eventId } = useSearch({ from: '/promoter' });
  const events = useMyEvents();
  const open = events.data?.find((event) => event.id === eventId);
  return (
    <main className="page promoters" id="main">
      {eventId && open ? (
        <EventDetail key={open.id} event={open} />
      ) : (
        <>
          <h1>My events</h1>
          {events.error && (
            <p className="error" role="alert">
              {messageOf(events.error)}
            </p>
          )}
          <EventList events={events.data} />
          <SubmitForm />
          <EarningsPanel />
          <Venues />
        </>
      )}
    </main>
  );
}

function EventList({ events }: { events: MyEvent[] | undefined }) {
  if (!events) return <p className="muted">Loading…</p>;
  return (
    <section className="panel promoters__panel" aria-labelledby="events-title">
      <h2 id="events-title">Events</h2>
      {events.length === 0 ? (
        <p>No events yet: submit one to a venue below.</p>
      ) : (
        <ul className="promoters__list">
          {events.map((event) => (
            <li key={event.id} className="promoters__item">
              <span>
                <Link to="/promoter" search={{ event: event.id }}>
                  {event.name}
                </Link>{' '}
                <span className="muted">
                  {event.venue_name} · {event.event_date}
                </span>
              </span>
              <span className={`status status--${event.status}`}>{words(event.status)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function SubmitForm() {
  const agreements = useMyAgreements();
  const client = useQueryClient();
  const active = agreements.data?.filter((a) => a.status === 'active') ?? [];
  const [venueId, setVenueId] = useState('');
  const [name, setName] = useState('');
  const [date, setDate] = useState('');
  const [start, setStart] = useState('');
  const [description, setDescription] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setNote(null);
    setError(null);
    try {
      await call(
        api.POST('/api/promoter/events', {
          body: {
            venue_id: venueId || active[0]!.venue_id,
            name: name.trim(),
            event_date: date,
            start_time: start || null,
            description: description.trim() || null,
          },
        }),
      );
      setNote(`${name.trim()} was sent to the venue for approval.`);
      setName('');
      setDate('');
      setStart('');
      setDescription('');
      await client.invalidateQueries({ queryKey: promoterKey });
    } catch (caught) {
      setError(messageOf(caught));
    }
  }

  return (
    <section className="panel promoters__panel" aria-labelledby="submit-title">
      <h2 id="submit-title">Submit an event</h2>
      {active.length === 0 ? (
        <p>No venue has accepted you yet: ask one under “Venues” below.</p>
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <div className="row-fields">
            <div className="field">
              <label htmlFor="submit-venue">Venue</label>
              <select id="submit-venue" value={venueId || active[0]!.venue_id} onChange={(e) => setVenueId(e.target.value)}>
                {active.map((a) => (
                  <option key={a.venue_id} value={a.venue_id}>
                    {a.venue_name}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="submit-name">Event name</label>
              <input id="submit-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="submit-date">Date</label>
              <input id="submit-date" type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="submit-start">Starts</label>
              <input id="submit-start" type="time" value={start} onChange={(e) => setStart(e.target.value)} />
            </div>
          </div>
          <div className="field">
            <label htmlFor="submit-description">Description</label>
            <textarea
              id="submit-description"
              rows={3}
              maxLength={10_000}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
            />
          </div>
          <LiveNotice note={note} error={error} />
          <button type="submit" className="button button--primary">
            Submit for approval
          </button>
        </form>
      )}
    </section>
  );
}

function EarningsPanel() {
  const earnings = useEarnings();
  if (!earnings.data) return null;
  return (
    <section className="panel promoters__panel" aria-labelledby="earnings-title">
      <h2 id="earnings-title">Earnings</h2>
      <dl className="promoters__figures">
        <div>
          <dt>Ticket revenue of your events{earnings.data.total_refunded_pence > 0 ? ', less refunds' : ''}</dt>
          <dd>{money(earnings.data.total_amount_pence)}</dd>
        </div>
        {earnings.data.total_refunded_pence > 0 && (
          <div>
            <dt>Refunded to guests</dt>
            <dd>{money(earnings.data.total_refunded_pence)}</dd>
          </div>
        )}
        <div>
          <dt>Your share</dt>
          <dd>{money(earnings.data.total_share_pence)}</dd>
        </div>
      </dl>
    </section>
  );
}

function Venues() {
  const agreements = useMyAgreements();
  const client = useQueryClient();
  const [venueId, setVenueId] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function ask(event: FormEvent) {
    event.preventDefault();
    setNote(null);
    setError(null);
    try {
      await call(api.POST('/api/promoter/agreements', { body: { venue_id: venueId.trim() } }));
      setNote('Request sent: the venue will accept or decline it.');
      setVenueId('');
      await client.invalidateQueries({ queryKey: promoterKey });
    } catch (caught) {
      setError(messageOf(caught));
    }
  }

  return (
    <section className="panel promoters__panel" aria-labelledby="venues-title">
      <h2 id="venues-title">Venues</h2>
      {agreements.data && agreements.data.length > 0 && (
        <ul className="promoters__list">
          {agreements.data.map((a) => (
            <li key={a.id} className="promoters__item">
              <span>
                {a.venue_name} <span className="muted">· your share {a.share_percent}%</span>
              </span>
              <span className={`status status--${a.status}`}>{words(a.status)}</span>
            </li>
          ))}
        </ul>
      )}
      <form className="row-fields" onSubmit={(e) => void ask(e)}>
        <div className="field">
          <label htmlFor="ask-venue">Venue id (from the venue)</label>
          <input id="ask-venue" required maxLength={100} value={venueId} onChange={(e) => setVenueId(e.target.value)} />
        </div>
        <div className="field field--button">
          <button type="submit" className="button">
            Ask to run events there
          </button>
        </div>
      </form>
      <LiveNotice note={note} error={error} />
    </section>
  );
}
