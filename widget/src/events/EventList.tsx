/**
 * The events widget's first step (EventsApp.tsx): what's on, each upcoming event with its date, picture
 * and credit, and a button to its tickets (or "Sold out").
 */
import { dateLabel, money } from '../lib/format';
import { PhotoCredit } from '../ui/PhotoCredit';

export interface EventSummary {
  id: string;
  name: string;
  event_date: string;
  start_time: string | null;
  end_time: string | null;
  description: string | null;
  image_url: string | null;
  image_attribution: { photographer: string; photographer_url: string; unsplash_url: string } | null;
  from_price_pence: number | null;
  sold_out: boolean;
}

export function EventList(props: { events: EventSummary[] | null; onOpen: (eventId: string) => void }) {
  const { events } = props;
  return events === null ? (
    <p class="mw-hint">Loading events…</p>
  ) : events.length === 0 ? (
    <p>No events are on sale right now.</p>
  ) : (
    <ul class="mw-list">
      {events.map((item) => (
        <li key={item.id} class="mw-event">
          {item.image_url ? <img src={item.image_url} alt="" loading="lazy" /> : null}
          <h2>{item.name}</h2>
          <p class="mw-summary">
            {dateLabel(item.event_date)}
            {item.start_time ? `, ${item.start_time}` : ''}
            {item.end_time ? `–${item.end_time}` : ''}
          </p>
          {item.description ? <p>{item.description}</p> : null}
          {item.image_attribution ? <PhotoCredit credit={item.image_attribution} /> : null}
          {item.sold_out ? (
            <p>
              <strong>Sold out</strong>
            </p>
          ) : (
            <button
              type="button"
              class="mw-primary"
              onClick={() => props.onOpen(item.id)}
              aria-label={`Tickets for ${item.name}, ${dateLabel(item.event_date)}`}
            >
              Tickets
              {item.from_price_pence === 0
                ? ', free entry available'
                : item.from_price_pence !== null
                  ? ` from ${money(item.from_price_pence)}`
                  : ''}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
