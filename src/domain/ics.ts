/**
 * iCalendar (RFC 5545) text for one booking: the "add to calendar" download and the attachment of booking
 * mail, including the cancellation that removes the event from the guest's calendar.
 *
 * Times are written in UTC with `Z`: a TZID form would need a VTIMEZONE component with the zone's
 * transition rules (RFC 5545 §3.2.19), and every calendar shows a UTC time in its user's own zone, which
 * is the right instant for a booking. So the venue's zone plays no part here.
 *
 * Without `method` the text is a plain calendar object (the download). With `method` it is an iTIP
 * message (RFC 5546) for mail, sent as `text/calendar; charset=utf-8; method=<METHOD>`; iTIP requires an
 * ORGANIZER then, and a CANCEL must carry the UID and a SEQUENCE at least that of the event it cancels.
 */

export interface BookingIcsInput {
  /** Globally unique and stable for the booking, e.g. `bkg_…@maitred`: calendars match updates by it. */
  uid: string;
  venueName: string;
  venueAddress?: string;
  startsAt: Date;
  endsAt: Date;
  summary: string;
  description: string;
  /** The booking's page (its manage link); http or https. */
  url: string;
  organizerEmail?: string;
  method?: 'PUBLISH' | 'CANCEL';
  /** Revision of the event; raise it on every change, including the cancellation. Default 0. */
  sequence?: number;
  /** When this text was produced (DTSTAMP); an argument so the output does not depend on the clock. */
  dtstamp: Date;
}

const PRODUCT_ID = '-//Maitred//Bookings//EN';
const MAX_LINE_OCTETS = 75;

/**
 * Throws (RangeError) only for the caller's mistakes: invalid dates, an end not after the start, a
 * negative sequence, a URL that is not http(s), a malformed organizer address, or an iTIP method without
 * an organizer. Free text (names, address, summary, description) may hold anything and is escaped.
 */
export function bookingIcs(input: BookingIcsInput): string {
  if (input.method && !input.organizerEmail) throw new RangeError(`METHOD:${input.method} needs an organizer (RFC 5546)`);
  if (input.endsAt.getTime() <= input.startsAt.getTime()) throw new RangeError('endsAt must be after startsAt');
  const sequence = input.sequence ?? 0;
  if (!Number.isSafeInteger(sequence) || sequence < 0) throw new RangeError('sequence must be a non-negative integer');
  const cancelled = input.method === 'CANCEL';
  const location = input.venueAddress
    ? `${input.venueName}, ${input.venueAddress.trim().replace(/\s*[\r\n]+\s*/g, ', ')}`
    : input.venueName;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${PRODUCT_ID}`,
    'CALSCALE:GREGORIAN',
    ...(input.method ? [`METHOD:${input.method}`] : []),
    'BEGIN:VEVENT',
    `UID:${escapeText(input.uid)}`,
    `SEQUENCE:${sequence}`,
    `DTSTAMP:${icsUtc(input.dtstamp)}`,
    `DTSTART:${icsUtc(input.startsAt)}`,
    `DTEND:${icsUtc(input.endsAt)}`,
    `SUMMARY:${escapeText(input.summary)}`,
    ...(input.description ? [`DESCRIPTION:${escapeText(input.description)}`] : []),
    `LOCATION:${escapeText(location)}`,
    `URL:${httpUrl(input.url)}`,
    ...(input.organizerEmail ? [`ORGANIZER;CN="${paramText(input.venueName)}":${mailtoUri(input.organizerEmail)}`] : []),
    `STATUS:${cancelled ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}

/** `YYYYMMDDTHHMMSSZ`; seconds are the format's precision, so milliseconds are dropped. */
function icsUtc(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) throw new RangeError('a calendar date must be a valid date in years 0-9999');
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/**
 * TEXT values (RFC 5545 §3.3.11): backslash, semicolon and comma are escaped, any line break becomes `\n`,
 * and control characters other than tab, which the grammar does not allow, are dropped.
 */
function escapeText(value: string): string {
  return dropControls(
    value
      .replace(/\r\n?/g, '\n')
      .replace(/[\\;,]/g, (char) => `\\${char}`)
      .replace(/\n/g, '\\n'),
  );
}

/**
 * Splits a content line into lines of at most 75 octets of UTF-8, continuation lines starting with one
 * space (which counts towards their 75), never inside a character: clients that unfold byte-wise would
 * otherwise corrupt names in non-Latin scripts.
 */
function foldLine(line: string): string {
  const segments: string[] = [];
  let current = '';
  let octets = 0;
  let limit = MAX_LINE_OCTETS;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    if (octets + size > limit) {
      segments.push(current);
      current = '';
      octets = 0;
      limit = MAX_LINE_OCTETS - 1;
    }
    current += char;
    octets += size;
  }
  segments.push(current);
  return segments.join('\r\n ');
}

/** A quoted parameter value (RFC 5545 §3.1 with RFC 6868's caret escapes for quote and line break). */
function paramText(value: string): string {
  return dropControls(
    value
      .replace(/\^/g, '^^')
      .replace(/\r\n?|\n/g, '^n')
      .replace(/"/g, "^'"),
  );
}

/** URI values are not escaped, so only a parsed and re-serialised URL (no raw breaks) is written. */
function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new RangeError('url must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new RangeError('url must be an absolute http(s) URL');
  return url.href;
}

function mailtoUri(email: string): string {
  if (!/^[^@\s]+@[^@\s]+$/.test(email) || hasControls(email)) throw new RangeError('organizerEmail must be an email address');
  return `mailto:${encodeURI(email)}`;
}

function isForbiddenControl(char: string): boolean {
  const code = char.charCodeAt(0);
  return (code < 0x20 && code !== 0x09) || code === 0x7f;
}

function hasControls(value: string): boolean {
  return [...value].some(isForbiddenControl);
}

function dropControls(value: string): string {
  return hasControls(value) ? [...value].filter((char) => !isForbiddenControl(char)).join('') : value;
}
