/**
 * Dates and times exactly as the API gives them (venue-local): formatted from their digits, never
 * converted through the browser's time zone. "Today" is the venue's, from the server (page data).
 */
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export const parseDate = (date: string) => date.split('-').map(Number) as [number, number, number];

export function weekdayOf(date: string): number {
  const [y, m, d] = parseDate(date);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

export function dateLabel(date: string): string {
  const [y, m, d] = parseDate(date);
  return `${WEEKDAYS[weekdayOf(date)]} ${d} ${MONTHS[m - 1]} ${y}`;
}

export const monthLabel = (year: number, month: number) => `${MONTHS[month - 1]} ${year}`;
export const weekdayName = (index: number) => WEEKDAYS[index];

export function addDays(date: string, days: number): string {
  const [y, m, d] = parseDate(date);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Set when the guest's browser is in another zone than the venue: times are then labelled with it. */
export function zoneNote(timezone: string): string | null {
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return own && own !== timezone ? `Times are local to the venue (${timezone.replace(/_/g, ' ')}).` : null;
}

export function money(pence: number): string {
  return `£${(pence / 100).toFixed(pence % 100 === 0 ? 0 : 2)}`;
}

/** A plausible email address (the API checks it properly): something@domain.tld, no spaces. */
export const isEmail = (text: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text.trim());

/**
 * The URL when it is an absolute http(s) one, else null: a widget links nothing else, so a
 * `javascript:` or `data:` value stored before the API refused them never becomes a link.
 */
export function httpUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}
