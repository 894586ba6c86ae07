/**
 * Venue-local time: dates (`YYYY-MM-DD`) and clock times (`HH:MM`) are in the venue's IANA time zone.
 * Pure conversions between those and UTC instants, DST-aware (luxon). No clock reads here: callers
 * pass `now`.
 */
import { DateTime } from 'luxon';

/** True for a real calendar date (schemas only check the `YYYY-MM-DD` shape: 2026-02-30 is not one). */
export const isCalendarDate = (value: string) => DateTime.fromISO(value, { zone: 'UTC' }).isValid;

export function isValidTimezone(zone: string): boolean {
  return DateTime.now().setZone(zone).isValid;
}

/**
 * The UTC instant of a venue-local date and clock time. In the hour skipped by a spring-forward the
 * time is moved forward (02:30 → 03:30 BST); in the repeated autumn hour the earlier instant is taken.
 */
export function localToUtc(date: string, time: string, zone: string): Date {
  const local = DateTime.fromISO(`${date}T${time}`, { zone });
  if (!local.isValid) throw new RangeError(`Invalid local date-time ${date} ${time} in ${zone}`);
  // luxon resolves a repeated wall-clock time to the later instant; prefer the first occurrence.
  const wall = local.toFormat("yyyy-LL-dd'T'HH:mm");
  const earlier = DateTime.fromMillis(local.toMillis() - 3600_000, { zone });
  return (earlier.toFormat("yyyy-LL-dd'T'HH:mm") === wall ? earlier : local).toJSDate();
}

/** The venue-local date and clock time of an instant. */
export function utcToLocal(instant: Date, zone: string): { date: string; time: string } {
  const local = DateTime.fromJSDate(instant, { zone });
  return { date: local.toFormat('yyyy-LL-dd'), time: local.toFormat('HH:mm') };
}

/** "Today" at the venue. */
export const localToday = (now: Date, zone: string) => utcToLocal(now, zone).date;

/** Adds whole days to a local date. */
export function addDays(date: string, days: number): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toFormat('yyyy-LL-dd');
}

/** Lower-case three-letter day of a local date: `mon` … `sun`. */
export function dayOfWeek(date: string): string {
  return ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'][DateTime.fromISO(date, { zone: 'UTC' }).weekday - 1];
}

export type DurationUnit = 'minutes' | 'hours' | 'days' | 'weeks' | 'months';

/** Moves an instant by a signed amount of a unit, in the venue's zone (days and months are calendar). */
export function shiftInstant(instant: Date, amount: number, unit: string, zone: string): Date {
  const key = (['minutes', 'hours', 'days', 'weeks', 'months'].includes(unit) ? unit : 'hours') as DurationUnit;
  return DateTime.fromJSDate(instant, { zone })
    .plus({ [key]: amount })
    .toJSDate();
}
