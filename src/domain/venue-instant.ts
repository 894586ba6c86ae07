/**
 * Date-times sent for table blocks (decisions: Time): `YYYY-MM-DDTHH:MM[:SS[.sss]]` in venue-local time, or
 * ISO 8601 with `Z` or an offset. Local values resolve exactly like the table list's `date`/`time`
 * window (`localToUtc`): a time skipped by a spring-forward moves forward, a time repeated by a
 * fall-back takes its first occurrence. Both must agree, or a block entered as "01:30" on the autumn
 * change day would not show as blocked at "01:30". Pure: no clock, no I/O.
 */
import { DateTime } from 'luxon';
import { localToUtc } from './venue-time.js';

const LOCAL = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::(\d{2})(\.\d{1,3})?)?$/;
const ABSOLUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-](\d{2}):?(\d{2}))$/;
/** Real-world UTC offsets run from −12:00 to +14:00. */
const MAX_OFFSET_HOURS = 14;

/** The UTC instant of a block date-time at a venue, or undefined when it is not one of the accepted forms. */
export function parseVenueInstant(value: string, zone: string): Date | undefined {
  const text = value.trim();
  const local = LOCAL.exec(text);
  if (local) {
    const [, date, time, seconds = '00', fraction = ''] = local;
    // Checks the calendar date and the clock (no 24:00, no :60) independently of any zone.
    if (!DateTime.fromISO(`${date}T${time}:${seconds}`, { zone: 'UTC' }).isValid || Number(time.slice(0, 2)) > 23) return undefined;
    const minute = localToUtc(date, time, zone);
    return new Date(minute.getTime() + Number(seconds) * 1000 + Math.round(Number(`0${fraction}`) * 1000));
  }
  const absolute = ABSOLUTE.exec(text);
  if (!absolute) return undefined;
  const [, offsetHours, offsetMinutes] = absolute;
  if (offsetHours !== undefined && (Number(offsetHours) > MAX_OFFSET_HOURS || Number(offsetMinutes) > 59)) return undefined;
  const parsed = DateTime.fromISO(text, { setZone: true });
  return parsed.isValid ? parsed.toJSDate() : undefined;
}
