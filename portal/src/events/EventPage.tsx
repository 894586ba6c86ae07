/**
 * One event (`/events/:eventId?venue=`): its status and moves, details (edited in place), ticket types,
 * picture, sales and the door list with check-in. What the role may not change is shown read-only.
 */
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { useCan, useCurrentVenue } from '../shell/account';
import { ErrorNote, failureOf } from '../setup/availability/kit';
import { EventForm } from './EventForm';
import { EventImage } from './EventImage';
import { DoorList, Stats } from './Insights';
import { Lifecycle } from './Lifecycle';
import { TicketTypes } from './TicketTypes';
import { dateWords, timesWords, typeWords, useEvent } from './data';
import '../setup/availability/setup.css';
import '../setup/setup.css';
import './events.css';

export default function EventPage() {
  const { eventId } = useParams({ strict: false }) as { eventId: string };
  const venue = useCurrentVenue()!;
  const can = useCan();
  const event = useEvent(eventId);
  const [editing, setEditing] = useState(false);
  const canWrite = can('events', 'write');
  const e = event.data;

  return (
    <main className="page setup events" id="main">
      <p className="event-back">
        <Link to="/events" search={{ venue: e?.venue_id ?? venue.id }}>
          ← All events
        </Link>
      </p>
      {event.isPending && <p className="muted">Loading…</p>}
      {event.error && (
        <>
          <h1>Event not found</h1>
          <ErrorNote failure={failureOf(event.error)} />
        </>
      )}
      {e && (
        <>
          <header>
            <h1>{e.name}</h1>
            <p className="muted">
              {e.venue_name} · {dateWords(e.event_date)}
              {timesWords(e) && ` · ${timesWords(e)}`}
              {e.last_entry_time && ` · last entry ${e.last_entry_time}`}
            </p>
          </header>
          <div className="event-columns">
            <div>
              <Lifecycle event={e} canWrite={canWrite} />
              <section className="setup-section" aria-labelledby="event-details">
                <div className="setup-section__head">
                  <h2 id="event-details">Details</h2>
                  {canWrite && !editing && (
                    <button type="button" className="button" onClick={() => setEditing(true)}>
                      Edit details
                    </button>
                  )}
                </div>
                {editing ? (
                  <EventForm venueId={e.venue_id} event={e} onDone={() => setEditing(false)} onCancel={() => setEditing(false)} />
                ) : (
                  <dl className="facts event-facts">
                    <dt>Type</dt>
                    <dd>{e.event_type ? typeWords(e.event_type) : '—'}</dd>
                    <dt>Genre</dt>
                    <dd>{e.event_genre ?? '—'}</dd>
                    <dt>Capacity</dt>
                    <dd>{e.guest_list_capacity == null ? 'No limit' : `${e.guest_list_capacity} guests`}</dd>
                    <dt>Description</dt>
                    <dd className="event-description">{e.description ?? '—'}</dd>
                  </dl>
                )}
              </section>
              <TicketTypes eventId={e.id} venueId={e.venue_id} canWrite={canWrite} canReadProfiles={can('profiles', 'read')} />
              <EventImage event={e} canWrite={canWrite} />
            </div>
            <div>
              <Stats eventId={e.id} />
              <DoorList eventId={e.id} canCheckIn={can('bookings', 'write')} timezone={venue.timezone} />
            </div>
          </div>
        </>
      )}
    </main>
  );
}
