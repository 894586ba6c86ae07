/**
 * Blackouts (closures): a month calendar with the closed days marked, a day click to close it, and the
 * list of blackouts to edit or delete. Dates are venue-local `YYYY-MM-DD`; the calendar only counts days.
 */
import { useState } from 'react';
import { api, call } from '../../api/client';
import { Check, ErrorNote, Field, ItemList, SetupForm, useSave } from './kit';
import { setupKey, useBlackouts, type Blackout } from './data';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const pad = (n: number) => String(n).padStart(2, '0');
const iso = (y: number, m: number, d: number) => `${y}-${pad(m + 1)}-${pad(d)}`;
/** Day words for a `YYYY-MM-DD` (`20 June 2026`). */
const dayWords = (date: string) => `${Number(date.slice(8, 10))} ${MONTHS[Number(date.slice(5, 7)) - 1]} ${date.slice(0, 4)}`;

function affects(b: Blackout) {
  const what = [b.affects_reservations && 'tables', b.affects_guestlist && 'guest list', b.affects_events && 'events'].filter(Boolean);
  return what.length ? `closes ${what.join(', ')}` : 'closes nothing';
}

export function Blackouts({ venueId, today, canWrite }: { venueId: string; today: string; canWrite: boolean }) {
  const blackouts = useBlackouts(venueId);
  const [month, setMonth] = useState({ y: Number(today.slice(0, 4)), m: Number(today.slice(5, 7)) - 1 });
  const [picked, setPicked] = useState<string | null>(null);
  const list = blackouts.data ?? [];
  const on = (date: string) => list.filter((b) => b.date_from <= date && date <= b.date_to);
  const first = new Date(Date.UTC(month.y, month.m, 1));
  const lead = (first.getUTCDay() + 6) % 7; // Monday first
  const length = new Date(Date.UTC(month.y, month.m + 1, 0)).getUTCDate();
  const cells: (number | null)[] = [...Array<null>(lead).fill(null), ...Array.from({ length }, (_, i) => i + 1)];
  while (cells.length % 7) cells.push(null);
  const weeks = Array.from({ length: cells.length / 7 }, (_, w) => cells.slice(w * 7, w * 7 + 7));
  const shift = (by: number) => setMonth(({ y, m }) => ({ y: m + by < 0 ? y - 1 : m + by > 11 ? y + 1 : y, m: (m + by + 12) % 12 }));

  return (
    <>
      <section className="setup-section" aria-labelledby="calendar-heading">
        <div className="setup-section__head">
          <h2 id="calendar-heading">Closures calendar</h2>
          <div className="calendar-nav">
            <button type="button" className="button" onClick={() => shift(-1)} aria-label="Previous month">
              ‹
            </button>
            <strong aria-live="polite">
              {MONTHS[month.m]} {month.y}
            </strong>
            <button type="button" className="button" onClick={() => shift(1)} aria-label="Next month">
              ›
            </button>
          </div>
        </div>
        {canWrite && <p className="muted">Pick a day to close it (or a range, in the form that opens).</p>}
        <table className="calendar">
          <caption className="visually-hidden">
            Closures in {MONTHS[month.m]} {month.y}
          </caption>
          <thead>
            <tr>
              {['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].map((d) => (
                <th key={d} scope="col">
                  {d}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {weeks.map((week, w) => (
              <tr key={w}>
                {week.map((day, i) => {
                  if (day === null) return <td key={i} />;
                  const date = iso(month.y, month.m, day);
                  const closed = on(date);
                  const label = `${dayWords(date)}${date === today ? ' (today)' : ''}: ${closed.length ? `closed${closed[0].description ? ` (${closed[0].description})` : ''}` : 'open'}`;
                  const content = (
                    <>
                      <span className="calendar__n">{day}</span>
                      {closed.length > 0 && <span className="calendar__tag">{closed[0].description || 'Closed'}</span>}
                    </>
                  );
                  const cls = `calendar__day${closed.length ? ' calendar__day--closed' : ''}${date === today ? ' calendar__day--today' : ''}`;
                  return (
                    <td key={i}>
                      {canWrite ? (
                        <button
                          type="button"
                          className={cls}
                          aria-label={label}
                          aria-pressed={picked === date}
                          onClick={() => setPicked(date)}
                        >
                          {content}
                        </button>
                      ) : (
                        <div className={cls} aria-label={label} role="img">
                          {content}
                        </div>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
        {picked && <BlackoutForm key={picked} venueId={venueId} blackout={null} from={picked} onDone={() => setPicked(null)} />}
      </section>
      <ItemList
        title="Blackouts"
        noun="blackout"
        items={blackouts.data}
        loading={blackouts.isPending}
        canWrite={canWrite}
        nameOf={(b) => (b.date_from === b.date_to ? dayWords(b.date_from) : `${dayWords(b.date_from)} to ${dayWords(b.date_to)}`)}
        describe={(b) => `${b.description ? `${b.description} · ` : ''}${affects(b)}`}
        form={(item, close) => <BlackoutForm venueId={venueId} blackout={item} from={today} onDone={close} />}
        remove={(b) => call(api.DELETE('/api/my-venues/{venueId}/blackouts/{id}', { params: { path: { venueId, id: b.id } } }))}
        keys={[setupKey(venueId, 'blackouts')]}
      />
    </>
  );
}

function BlackoutForm(props: { venueId: string; blackout: Blackout | null; from: string; onDone: () => void }) {
  const { venueId, blackout } = props;
  const [from, setFrom] = useState(blackout?.date_from ?? props.from);
  const [to, setTo] = useState(blackout?.date_to ?? props.from);
  const [description, setDescription] = useState(blackout?.description ?? '');
  const [tables, setTables] = useState(blackout?.affects_reservations ?? true);
  const [guestlist, setGuestlist] = useState(blackout?.affects_guestlist ?? true);
  const [events, setEvents] = useState(blackout?.affects_events ?? false);
  const save = useSave([setupKey(venueId, 'blackouts')]);
  const submit = () =>
    save.run(() => {
      const body = {
        date_from: from,
        date_to: to,
        description: description || null,
        affects_reservations: tables,
        affects_guestlist: guestlist,
        affects_events: events,
      };
      return blackout
        ? call(api.PUT('/api/my-venues/{venueId}/blackouts/{id}', { params: { path: { venueId, id: blackout.id } }, body }))
        : call(api.POST('/api/my-venues/{venueId}/blackouts', { params: { path: { venueId } }, body }));
    }, props.onDone);
  return (
    <SetupForm
      label={blackout ? 'Edit blackout' : 'New blackout'}
      busy={save.busy}
      failure={save.failure}
      submitText={blackout ? 'Save blackout' : 'Close these days'}
      onSubmit={() => void submit()}
      onCancel={props.onDone}
    >
      <div className="row-fields">
        <Field label="First day" type="date" value={from} onChange={setFrom} />
        <Field label="Last day" type="date" value={to} onChange={setTo} />
        <Field label="Reason (optional)" value={description} onChange={setDescription} />
      </div>
      <fieldset className="setup-days">
        <legend>Closes</legend>
        <Check label="Table bookings" checked={tables} onChange={setTables} />
        <Check label="Guest list" checked={guestlist} onChange={setGuestlist} />
        <Check label="Events" checked={events} onChange={setEvents} />
      </fieldset>
      {to < from && <ErrorNote failure={{ text: 'The last day is before the first.' }} />}
    </SetupForm>
  );
}
