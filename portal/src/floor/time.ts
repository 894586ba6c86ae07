/**
 * Venue-local time on the floor. The API speaks venue-local dates (`YYYY-MM-DD`) and clock times
 * (`HH:MM`); these are shown verbatim and never parsed into the browser's zone. The service day runs
 * 06:00 → 06:00: a position on the grid is a "service minute", 0 at 06:00 of the floor's date.
 * Instants (block times, "now") are turned into venue-local parts with Intl in the venue's zone.
 */
import { parseDate } from '@internationalized/date';
export const DAY_START = 6 * 60;
export const DAY_MINUTES = 24 * 60;
export const SNAP = 15;

export const clockMinutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Calendar arithmetic on `YYYY-MM-DD`, on calendar dates (no zone, so no daylight-saving step can move the day). */
export function addDays(date: string, days: number): string {
  return parseDate(date).add({ days }).toString();
}

/** The service minute of a venue-local date and time on the floor of `day` (negative or ≥ 1440 when outside). */
export function serviceMinute(day: string, date: string, time: string): number {
  const offset = date === day ? 0 : date === addDays(day, 1) ? DAY_MINUTES : date < day ? -DAY_MINUTES * 2 : DAY_MINUTES * 2;
  return offset + clockMinutes(time) - DAY_START;
}

/** The venue-local date and time of a service minute of `day`. */
export function atServiceMinute(day: string, minute: number): { date: string; time: string } {
  const total = minute + DAY_START;
  const date = total >= DAY_MINUTES ? addDays(day, 1) : day;
  const m = ((total % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
  return { date, time: `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}` };
}

export const clockOf = (minute: number) => atServiceMinute('2000-01-01', minute).time;
export const snap = (minutes: number) => Math.round(minutes / SNAP) * SNAP;

const formatters = new Map<string, Intl.DateTimeFormat>();
/** An instant's venue-local date and time, in the venue's zone (whatever the browser's is). */
export function venueLocal(instant: Date, timeZone: string): { date: string; time: string } {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/** The service day an instant belongs to (before 06:00 it is still the previous day's service). */
export function serviceDayOf(instant: Date, timeZone: string): string {
  const local = venueLocal(instant, timeZone);
  return clockMinutes(local.time) < DAY_START ? addDays(local.date, -1) : local.date;
}

/**
 * The server's "now": the page that loaded the portal carries the server's clock (`<meta name="server-now">`),
 * so "today" and the now line follow the venue's clock even when the device's is wrong.
 */
const serverSkew = (() => {
  const meta = typeof document === 'undefined' ? null : document.querySelector('meta[name="server-now"]');
  const at = meta ? Date.parse(meta.getAttribute('content') ?? '') : NaN;
  return Number.isFinite(at) ? at - Date.now() : 0;
})();
export const serverNow = () => new Date(Date.now() + serverSkew);

/** Long date for headings, from the calendar date alone. */
export function longDate(date: string): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString('en-GB', {
    timeZone: 'UTC',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
}
