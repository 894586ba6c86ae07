/**
 * Events (`/events?venue=&status=`): the venue's events by date, filtered by status (tabs that are links,
 * so a filter is linkable), each linking to its page; "New event" creates a draft and opens it. Needs
 * `events` read; creating needs write.
 */
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useState } from 'react';
import { useCan, useCurrentVenue } from '../shell/account';
import { EventForm } from './EventForm';
import { dateWords, statusWord, timesWords, typeWords, useVenueEvents } from './data';
import '../setup/availability/setup.css';
import './events.css';

const STATUS_FILTERS = ['all', 'draft', 'approved', 'pending_venue_approval', 'rejected', 'cancelled'] as const;
type StatusFilter = (typeof STATUS_FILTERS)[number];

export default function EventsPage() {
  const venue = useCurrentVenue()!;
  const can = useCan();
  const search = useSearch({ strict: false }) as { status?: StatusFilter };
  const status: StatusFilter = search.status ?? 'all';
  const events = useVenueEvents(venue.id);
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const canWrite = can('events', 'write');

  const all = events.data ?? [];
  const shown = status === 'all' ? all : all.filter((e) => e.status === status);
  const count = (filter: StatusFilter) => (filter === 'all' ? all.length : all.filter((e) => e.status === filter).length);

  return (
    <main className="page setup events" id="main">
      <header className="setup-section__head">
        <div>
          <h1>Events</h1>
          <p className="muted">{venue.name}</p>
        </div>
        {canWrite && !creating && (
          <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
            New event
          </button>
        )}
      </header>
      {!canWrite && <p className="muted">Your role may look at events but not create or change them.</p>}
      {creating && (
        <section className="setup-section" aria-labelledby="new-event">
          <h2 id="new-event">New event</h2>
          <EventForm
            venueId={venue.id}
            event={null}
            onCancel={() => setCreating(false)}
            onDone={(id) => void navigate({ to: '/events/$eventId', params: { eventId: id }, search: { venue: venue.id } })}
          />
        </section>
      )}
      <nav aria-label="Event status" className="event-filters">
        {STATUS_FILTERS.map((filter) => (
          <Link
            key={filter}
            to="/events"
            search={{ venue: venue.id, status: filter === 'all' ? undefined : filter }}
            className="event-filter"
            aria-current={filter === status ? 'page' : undefined}
          >
            {filter === 'all' ? 'All' : statusWord(filter)} <span className="event-filter__count">{events.data ? count(filter) : ''}</span>
          </Link>
        ))}
      </nav>
      {events.isPending && <p className="muted">Loading…</p>}
      {events.error && (
        <p className="error" role="alert">
          {events.error.message}
        </p>
      )}
      {events.data && shown.length === 0 && (
        <p className="muted">{status === 'all' ? 'No events yet.' : `No ${statusWord(status).toLowerCase()} events.`}</p>
      )}
      {shown.length > 0 && (
        <ul className="setup-list event-list">
          {shown.map((event) => (
            <li key={event.id} className="setup-item">
              <div className="setup-item__main">
                <Link to="/events/$eventId" params={{ eventId: event.id }} search={{ venue: venue.id }} className="event-list__name">
                  {event.name}
                </Link>
                <div className="setup-item__desc">
                  {dateWords(event.event_date)}
                  {timesWords(event) && ` · ${timesWords(event)}`}
                  {event.event_type && ` · ${typeWords(event.event_type)}`} · {event.committed_guests} guest
                  {event.committed_guests === 1 ? '' : 's'}
                  {event.guest_list_capacity != null && ` of ${event.guest_list_capacity}`}
                </div>
              </div>
              <span className={`event-status event-status--${event.status}`}>{statusWord(event.status)}</span>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
