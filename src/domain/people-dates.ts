/**
 * Dates and instants written for people ("Tuesday, 16 June 2026", "Monday, 15 June 2026 at 20:00") in the
 * venue's locale, for mails and API messages; widgets format the same way (widget/src/lib/format.ts).
 * Pure: formatted from the date's digits (a calendar date has no zone) or in the venue's zone.
 */
import { remembered, utcToLocal } from './venue-time.js';

/**
 * The locale venues write in. Venues have no locale setting yet and the platform is GBP-only, so every
 * venue writes British English (decisions: Guest journey polish).
 */
export const VENUE_LOCALE = 'en-GB';

const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(locale: string, withYear: boolean) {
  const key = `${locale}|${withYear}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: withYear ? 'numeric' : undefined,
      timeZone: 'UTC',
    });
    formats.set(key, format);
  }
  return format;
}

/**
 * A `YYYY-MM-DD` calendar date for people: "Tuesday, 16 June 2026". Anything else is answered as given.
 * Remembered (Intl's formatting costs microseconds, and every booking's confirmation names its date).
 */
export function peopleDate(date: string, locale = VENUE_LOCALE): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
  return peopleDateOf(`${locale}|${date}`);
}

const peopleDateOf = remembered((key: string): string => {
  const [locale, date] = key.split('|');
  const [y, m, d] = date.split('-').map(Number);
  const instant = new Date(Date.UTC(y, m - 1, d));
  return Number.isNaN(instant.getTime()) ? date : formatOf(locale, true).format(instant);
}, 10_000);

/** An instant on the venue's clock for people: "Monday, 15 June 2026 at 20:00". */
export function peopleInstant(instant: Date, zone: string, locale = VENUE_LOCALE): string {
  const local = utcToLocal(instant, zone);
  return `${peopleDate(local.date, locale)} at ${local.time}`;
}
