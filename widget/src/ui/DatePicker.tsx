/**
 * A date field with a calendar dialog following the WAI-ARIA date-picker dialog pattern: the button
 * opens a modal dialog with a month grid; arrows move by a day or a week, Home/End to the week's ends,
 * Page Up/Down by a month, Enter or Space chooses, Escape closes, and focus returns to the button.
 * Dates are venue-local strings; nothing goes through the browser's time zone.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { addDays, dateLabel, daysInMonth, monthLabel, parseDate, weekdayName, weekdayOf } from '../lib/format';

const iso = (y: number, m: number, d: number) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

function shiftMonth(date: string, months: number): string {
  const [y, m, d] = parseDate(date);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return iso(year, month, Math.min(d, daysInMonth(year, month)));
}

export function DatePicker(props: {
  id: string;
  label: string;
  value: string;
  min: string;
  max?: string;
  onChange: (date: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [focused, setFocused] = useState(props.value);
  const opener = useRef<HTMLButtonElement>(null);
  const grid = useRef<HTMLTableElement>(null);
  const inRange = (date: string) => date >= props.min && (!props.max || date <= props.max);

  useEffect(() => {
    if (open) grid.current?.querySelector<HTMLElement>('td[tabindex="0"]')?.focus();
  }, [open, focused]);

  const close = (chosen?: string) => {
    setOpen(false);
    if (chosen) props.onChange(chosen);
    opener.current?.focus();
  };

  const onKey = (event: KeyboardEvent) => {
    const moves: Record<string, () => string> = {
      ArrowLeft: () => addDays(focused, -1),
      ArrowRight: () => addDays(focused, 1),
      ArrowUp: () => addDays(focused, -7),
      ArrowDown: () => addDays(focused, 7),
      Home: () => addDays(focused, -((weekdayOf(focused) + 6) % 7)),
      End: () => addDays(focused, 6 - ((weekdayOf(focused) + 6) % 7)),
      PageUp: () => shiftMonth(focused, event.shiftKey ? -12 : -1),
      PageDown: () => shiftMonth(focused, event.shiftKey ? 12 : 1),
    };
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (moves[event.key]) {
      event.preventDefault();
      setFocused(moves[event.key]());
    } else if ((event.key === 'Enter' || event.key === ' ') && (event.target as HTMLElement).dataset.date) {
      event.preventDefault();
      if (inRange(focused)) close(focused);
    }
  };

  const [year, month] = parseDate(focused);
  const first = iso(year, month, 1);
  const lead = (weekdayOf(first) + 6) % 7; // weeks start on Monday
  const cells: (string | null)[] = [...Array<null>(lead).fill(null)];
  for (let day = 1; day <= daysInMonth(year, month); day++) cells.push(iso(year, month, day));
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks = Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7));
  const headingId = `${props.id}-month`;

  return (
    <div class="mw-field mw-date-field">
      <span class="mw-label" id={`${props.id}-label`}>
        {props.label}
      </span>
      <button
        ref={opener}
        type="button"
        class="mw-date-button"
        aria-haspopup="dialog"
        aria-labelledby={`${props.id}-label ${props.id}-value`}
        onClick={() => {
          setFocused(props.value);
          setOpen(true);
        }}
      >
        <span id={`${props.id}-value`}>{dateLabel(props.value)}</span>
      </button>
      {open ? (
        <div class="mw-dialog" role="dialog" aria-modal="true" aria-labelledby={headingId} onKeyDown={onKey}>
          <div class="mw-dialog-head">
            <button type="button" class="mw-icon" aria-label="Previous month" onClick={() => setFocused(shiftMonth(focused, -1))}>
              ‹
            </button>
            <h2 id={headingId} aria-live="polite">
              {monthLabel(year, month)}
            </h2>
            <button type="button" class="mw-icon" aria-label="Next month" onClick={() => setFocused(shiftMonth(focused, 1))}>
              ›
            </button>
          </div>
          <table ref={grid} role="grid" aria-labelledby={headingId} class="mw-grid">
            <thead>
              <tr>
                {[1, 2, 3, 4, 5, 6, 0].map((day) => (
                  <th scope="col" abbr={weekdayName(day)} key={day}>
                    {weekdayName(day).slice(0, 2)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {weeks.map((week, w) => (
                <tr key={w}>
                  {week.map((date, i) =>
                    date ? (
                      <td
                        key={date}
                        data-date={date}
                        tabindex={date === focused ? 0 : -1}
                        aria-selected={date === props.value ? 'true' : undefined}
                        aria-disabled={inRange(date) ? undefined : 'true'}
                        aria-label={dateLabel(date)}
                        class={date === props.value ? 'mw-day mw-day-selected' : 'mw-day'}
                        onClick={() => (inRange(date) ? close(date) : setFocused(date))}
                      >
                        {parseDate(date)[2]}
                      </td>
                    ) : (
                      <td key={`empty-${i}`} />
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          <div class="mw-dialog-foot">
            <button type="button" class="mw-secondary" onClick={() => close()}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
