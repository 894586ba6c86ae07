/**
 * Venue-local time: dates (`YYYY-MM-DD`) and clock times (`HH:MM`) are in the venue's IANA time zone.
 * Pure conversions between those and UTC instants, DST-aware (luxon). No clock reads here: callers
 * pass `now`.
 */
import { DateTime } from 'luxon';

/**
 * Remembers a pure conversion's answers by key (bounded: the map is emptied when full). luxon's zone
 * arithmetic costs microseconds a call, and the booking engine converts the same few dates and times
 * over and over.
 */
export function remembered<T>(convert: (key: string) => T, limit = 50_000): (key: string) => T {
  const answers = new Map<string, T>();
  return (key) => {
    const known = answers.get(key);
    if (known !== undefined) return known;
    const answer = convert(key);
    if (answers.size >= limit) answers.clear();
    answers.set(key, answer);
    return answer;
  };
}

/** True for a real calendar date (schemas only check the `YYYY-MM-DD` shape: 2026-02-30 is not one). */
export const isCalendarDate = remembered((value: string) => DateTime.fromISO(value, { zone: 'UTC' }).isValid);

export function isValidTimezone(zone: string): boolean {
  return DateTime.now().setZone(zone).isValid;
}

/**
 * The UTC instant of a venue-local date and clock time. In the hour skipped by a spring-forward the
 * time is moved forward (02:30 → 03:30 BST); in the repeated autumn hour the earlier instant is taken.
 */
export function localToUtc(date: string, time: string, zone: string): Date {
  return new Date(localToUtcMillis(`${date}T${time}\u0000${zone}`));
}

const localToUtcMillis = remembered((key: string): number => {
  const [dateTime, zone] = key.split('\u0000');
  const local = DateTime.fromISO(dateTime, { zone });
  if (!local.isValid) throw new RangeError(`Invalid local date-time ${dateTime.replace('T', ' ')} in ${zone}`);
  // luxon resolves a repeated wall-clock time to the later instant; prefer the first occurrence.
  const wall = local.toFormat("yyyy-LL-dd'T'HH:mm");
  const earlier = DateTime.fromMillis(local.toMillis() - 3600_000, { zone });
  return (earlier.toFormat("yyyy-LL-dd'T'HH:mm") === wall ? earlier : local).toMillis();
});

/**
 * The venue-local date and clock time of an instant. Remembered by the minute (answers are frozen: callers
 * share them): every instant of one UTC minute has the same local date and clock time, since zone offsets
 * are whole minutes (the last offsets that were not, Liberia's, ended in 1972). "Today" is asked by
 * every booking and sale, and luxon's zone lookup costs a few microseconds a call.
 */
export function utcToLocal(instant: Date, zone: string): { readonly date: string; readonly time: string } {
  return localOfMinute(`${Math.floor(instant.getTime() / 60_000)}|${zone}`);
}

const localOfMinute = remembered((key: string): { readonly date: string; readonly time: string } => {
  const [minute, zone] = key.split('|');
  const local = DateTime.fromMillis(Number(minute) * 60_000, { zone });
  return Object.freeze({ date: local.toFormat('yyyy-LL-dd'), time: local.toFormat('HH:mm') });
}, 20_000);

/** "Today" at the venue. */
export const localToday = (now: Date, zone: string) => utcToLocal(now, zone).date;

/** Adds whole days to a local date. */
export function addDays(date: string, days: number): string {
  return addDaysTo(`${date}|${days}`);
}

const addDaysTo = remembered((key: string) => {
  const [date, days] = key.split('|');
  return DateTime.fromISO(date, { zone: 'UTC' })
    .plus({ days: Number(days) })
    .toFormat('yyyy-LL-dd');
});

/** Lower-case three-letter day of a local date: `mon` … `sun`. */
export const dayOfWeek = remembered(
  (date: string): string => ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'][DateTime.fromISO(date, { zone: 'UTC' }).weekday - 1],
);

export type DurationUnit = 'minutes' | 'hours' | 'days' | 'weeks' | 'months';

/** Moves an instant by a signed amount of a unit, in the venue's zone (days and months are calendar). */
export function shiftInstant(instant: Date, amount: number, unit: string, zone: string): Date {
  const key = (['minutes', 'hours', 'days', 'weeks', 'months'].includes(unit) ? unit : 'hours') as DurationUnit;
  // The shift is the same for every instant of one minute (zone offsets change on whole minutes), so it
  // is remembered by the minute: availability moves "now" by the booking window on every request.
  const ms = instant.getTime();
  const minute = Math.floor(ms / 60_000);
  return new Date(ms + shiftOfMinute(`${minute}|${amount}|${key}|${zone}`));
}

const shiftOfMinute = remembered((key: string): number => {
  const [minute, amount, unit, zone] = key.split('|');
  const from = Number(minute) * 60_000;
  return (
    DateTime.fromMillis(from, { zone })
      .plus({ [unit]: Number(amount) })
      .toMillis() - from
  );
}, 10_000);
