/**
 * What is bookable in a week: per day, the shifts that run (and their hours) and, inside them, the hours
 * each access rule offers, as text and as bars on a midnight-to-midnight track. A shift on the venue's
 * opening hours is drawn over the whole day and said so (the opening hours are venue settings).
 */
import { DAYS, DAY_NAMES } from './kit';
import type { AccessRule, Shift, TimePeriod } from './data';

type Span = [number, number];
const DAY = 1440;
const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const clock = (m: number) => `${String(Math.floor(m / 60) % 24).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/** A clock window as spans of the day; one that passes midnight is split in two. */
function spans(from: string, to: string): Span[] {
  const a = minutes(from);
  const b = minutes(to);
  return b > a ? [[a, b]] : [[a, DAY], ...(b > 0 ? ([[0, b]] as Span[]) : [])];
}

/** A shift's hours, or null for the venue's opening hours. */
function shiftSpans(shift: Shift, periods: TimePeriod[]): Span[] | null {
  if (shift.time_type !== 'custom') return null;
  const period = periods.find((p) => p.id === shift.time_period_id);
  if (period) return spans(period.time_from, period.time_to);
  return shift.time_from && shift.time_to ? spans(shift.time_from, shift.time_to) : null;
}

function intersect(a: Span[], b: Span[]): Span[] {
  const out: Span[] = [];
  for (const [a0, a1] of a)
    for (const [b0, b1] of b) if (Math.max(a0, b0) < Math.min(a1, b1)) out.push([Math.max(a0, b0), Math.min(a1, b1)]);
  return merge(out);
}

function merge(list: Span[]): Span[] {
  const sorted = [...list].sort((x, y) => x[0] - y[0]);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1]);
    else out.push([s[0], s[1]]);
  }
  return out;
}

const words = (list: Span[]) => list.map(([a, b]) => `${clock(a)}–${clock(b)}`).join(', ');

interface Row {
  day: string;
  shifts: { name: string; spans: Span[]; venueHours: boolean }[];
  rules: { name: string; spans: Span[] }[];
}

function weekRows(shifts: Shift[], rules: AccessRule[], periods: TimePeriod[]): Row[] {
  return DAYS.map((day) => {
    const running = shifts
      .filter((s) => s.days_of_week.includes(day))
      .map((s) => {
        const own = shiftSpans(s, periods);
        return { name: s.name, spans: own ?? [[0, DAY] as Span], venueHours: own === null };
      });
    const served = merge(running.flatMap((s) => s.spans));
    const offered = rules
      .filter((r) => r.days_of_week.includes(day) && !r.app_opt_out)
      .map((r) => ({ name: r.name, spans: intersect(served, r.time_from && r.time_to ? spans(r.time_from, r.time_to) : [[0, DAY]]) }))
      .filter((r) => r.spans.length > 0);
    return { day, shifts: running, rules: offered };
  });
}

function Track({ bars }: { bars: { spans: Span[]; kind: string }[] }) {
  return (
    <div className="week-track" aria-hidden="true" style={{ height: `${8 + bars.length * 9}px` }}>
      {[6, 12, 18].map((h) => (
        <span key={h} className="week-track__tick" style={{ left: `${(h / 24) * 100}%` }} />
      ))}
      {bars.map((bar, i) =>
        bar.spans.map(([a, b]) => (
          <span
            key={`${i}-${a}`}
            className={`week-bar week-bar--${bar.kind}`}
            style={{ left: `${(a / DAY) * 100}%`, width: `${((b - a) / DAY) * 100}%`, top: `${4 + i * 9}px` }}
          />
        )),
      )}
    </div>
  );
}

export function WeekView(props: { shifts: Shift[]; rules: AccessRule[]; periods: TimePeriod[] }) {
  const rows = weekRows(props.shifts, props.rules, props.periods);
  return (
    <section className="setup-section" aria-labelledby="week-heading">
      <h2 id="week-heading">The week at a glance</h2>
      <p className="muted">
        Shifts (grey) open the hours; access rules (blue) are what guests can book inside them. Hidden rules are left out.
      </p>
      <div className="week-wrap">
        <table className="week">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Shifts</th>
              <th scope="col">Bookable</th>
              <th scope="col" className="week__track-head">
                <span aria-hidden="true">00:00 · 06:00 · 12:00 · 18:00</span>
                <span className="visually-hidden">Hours drawn</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.day}>
                <th scope="row">{DAY_NAMES[row.day]}</th>
                <td>
                  {row.shifts.length === 0 ? (
                    <span className="muted">Closed</span>
                  ) : (
                    row.shifts.map((s) => (
                      <div key={s.name}>
                        {s.name} {s.venueHours ? 'venue opening hours' : words(s.spans)}
                      </div>
                    ))
                  )}
                </td>
                <td>
                  {row.rules.length === 0 ? (
                    <span className="muted">Nothing</span>
                  ) : (
                    row.rules.map((r) => (
                      <div key={r.name}>
                        {r.name} {words(r.spans)}
                      </div>
                    ))
                  )}
                </td>
                <td className="week__track-cell">
                  <Track
                    bars={[
                      ...row.shifts.map((s) => ({ spans: s.spans, kind: s.venueHours ? 'venue' : 'shift' })),
                      ...row.rules.map((r) => ({ spans: r.spans, kind: 'rule' })),
                    ]}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
