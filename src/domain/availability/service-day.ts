/**
 * The clock of one service day. A service day D runs on a grid of wall-clock minutes from D 00:00 to
 * D+2 00:00 (0 … 2879), because a window that passes midnight belongs to the day it started on. This
 * file turns clock times into grid minutes and grid minutes into UTC instants, DST-aware, with two zone
 * look-ups on an ordinary day and a binary search for the change on a DST day (no per-slot look-up).
 */
import { DateTime } from 'luxon';
import { remembered } from '../venue-time.js';

export const DAY_MINUTES = 24 * 60;
export const SERVICE_MINUTES = 2 * DAY_MINUTES;
const MINUTE_MS = 60_000;
/** Real offsets lie within ±14 h; bracketing the wall range by that much covers every instant in it. */
const OFFSET_REACH_MS = 14 * 3_600_000;

const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/**
 * `mon` … `sun` of a real calendar date, undefined for anything else. Plain calendar arithmetic: the
 * slot loop asks for it per shift and day, where a zone-aware library call would dominate the cost.
 */
export function weekdayOf(date: string): string | undefined {
  const match = DATE.exec(date);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utc = new Date(Date.UTC(year, month - 1, day));
  if (utc.getUTCFullYear() !== year || utc.getUTCMonth() !== month - 1 || utc.getUTCDate() !== day) return undefined;
  return WEEKDAYS[utc.getUTCDay()];
}

/** Minutes past midnight of an `HH:MM` clock time, or NaN when it is not one. */
export function clockMinutes(time: string): number {
  const match = CLOCK.exec(time);
  return match ? Number(match[1]) * 60 + Number(match[2]) : NaN;
}

const LABELS: string[] = [];

/** `HH:MM` of a grid minute (after midnight it reads as the next day's clock); built once per minute of the day. */
export function clockLabel(minute: number): string {
  const inDay = minute % DAY_MINUTES;
  return (LABELS[inDay] ??= `${String(Math.floor(inDay / 60)).padStart(2, '0')}:${String(inDay % 60).padStart(2, '0')}`);
}

/**
 * A clock window as a half-open span of grid minutes starting on the service day; a window whose end
 * is not after its start passes midnight. Undefined for malformed or empty windows.
 */
export function windowSpan(from: string, to: string): { start: number; end: number } | undefined {
  const start = clockMinutes(from);
  const end = clockMinutes(to);
  if (Number.isNaN(start) || Number.isNaN(end) || start === end) return undefined;
  return { start, end: end > start ? end : end + DAY_MINUTES };
}

/**
 * True when a grid minute's clock time falls in a clock window (half-open, modulo a day). Access-rule
 * windows are clock patterns: `00:00–02:00` matches the small hours after a shift that passes midnight.
 */
export function clockInWindow(minute: number, start: number, end: number): boolean {
  const clock = minute % DAY_MINUTES;
  const to = end % DAY_MINUTES;
  return start < to ? clock >= start && clock < to : clock >= start || clock < to;
}

/** Maps the grid minutes of one service day to UTC milliseconds (NaN: the wall time does not exist). */
export interface ServiceClock {
  date: string;
  utcAt(minute: number): number;
}

export function serviceClock(date: string, zone: string): ServiceClock {
  return clockOf(`${zone}|${date}`);
}

/**
 * Remembered by zone and date: every availability answer plans its day and the fourteen after it, and
 * each plan's two zone look-ups cost more than the rest of planning the day.
 */
const clockOf = remembered((key: string): ServiceClock => {
  const cut = key.lastIndexOf('|');
  return computeServiceClock(key.slice(cut + 1), key.slice(0, cut));
}, 5_000);

function computeServiceClock(date: string, zone: string): ServiceClock {
  const match = DATE.exec(date);
  if (!match) throw new RangeError(`Invalid service date ${date}`);
  const wallStart = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const offsetAt = (minute: number) => DateTime.fromMillis(minute * MINUTE_MS, { zone }).offset;
  let lo = (wallStart - OFFSET_REACH_MS) / MINUTE_MS;
  let hi = (wallStart + OFFSET_REACH_MS) / MINUTE_MS + SERVICE_MINUTES;
  const before = offsetAt(lo);
  const after = offsetAt(hi);
  if (before === after) {
    // No offset change in reach (an ordinary day): wall time minus the one offset.
    const base = wallStart - before * MINUTE_MS;
    return { date, utcAt: (minute) => base + minute * MINUTE_MS };
  }
  // A DST change day: find the first minute on the new offset (one change in reach), then resolve each
  // wall time as every venue-local time is (`localToUtc`): a repeated time takes its first occurrence,
  // a time skipped by a spring-forward has no instant.
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetAt(mid) === before) lo = mid;
    else hi = mid;
  }
  const change = hi * MINUTE_MS;
  return {
    date,
    utcAt(minute) {
      const wall = wallStart + minute * MINUTE_MS;
      const early = wall - before * MINUTE_MS;
      if (early < change) return early;
      const late = wall - after * MINUTE_MS;
      return late >= change ? late : NaN;
    },
  };
}
