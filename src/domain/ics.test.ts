import { describe, expect, it } from 'vitest';
import { bookingIcs, type BookingIcsInput } from './ics.js';

const base: BookingIcsInput = {
  uid: 'bkg_0123456789abcdefghijklmnop@maitred',
  venueName: 'The Crown',
  venueAddress: '1 High Street\nLondon',
  startsAt: new Date('2026-07-15T18:30:00.000Z'),
  endsAt: new Date('2026-07-15T20:30:00.000Z'),
  summary: 'Table for 4 at The Crown',
  description: 'Booking bkg_0123',
  url: 'https://maitred.example/manage/mm1.abc',
  dtstamp: new Date('2026-07-01T09:15:42.123Z'),
};

/** Content lines after unfolding (RFC 5545 §3.1: remove CRLF followed by one space). */
function unfold(ics: string): string[] {
  return ics.replace(/\r\n /g, '').split('\r\n').slice(0, -1);
}

function property(ics: string, name: string): string | undefined {
  return unfold(ics).find((line) => line.startsWith(`${name}:`) || line.startsWith(`${name};`));
}

describe('booking iCalendar', () => {
  it('writes a calendar object with UTC times and CRLF line endings', () => {
    const ics = bookingIcs(base);
    expect(ics).toBe(
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//Maitred//Bookings//EN',
        'CALSCALE:GREGORIAN',
        'BEGIN:VEVENT',
        'UID:bkg_0123456789abcdefghijklmnop@maitred',
        'SEQUENCE:0',
        'DTSTAMP:20260701T091542Z',
        'DTSTART:20260715T183000Z',
        'DTEND:20260715T203000Z',
        'SUMMARY:Table for 4 at The Crown',
        'DESCRIPTION:Booking bkg_0123',
        'LOCATION:The Crown\\, 1 High Street\\, London',
        'URL:https://maitred.example/manage/mm1.abc',
        'STATUS:CONFIRMED',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });

  it.each([
    ['backslash', 'a\\b', 'a\\\\b'],
    ['semicolon and comma', 'Drinks; food, music', 'Drinks\\; food\\, music'],
    ['LF', 'line 1\nline 2', 'line 1\\nline 2'],
    ['CRLF and lone CR', 'a\r\nb\rc', 'a\\nb\\nc'],
    ['an escape-looking text', '\\n is not a newline', '\\\\n is not a newline'],
    ['control characters (dropped) and tab (kept)', 'a\0b\x07c\x7fd\te', 'abcd\te'],
    ['a property injection attempt', 'x\r\nATTENDEE:mailto:evil@example.com', 'x\\nATTENDEE:mailto:evil@example.com'],
  ])('escapes %s in text', (_name, summary, escaped) => {
    const ics = bookingIcs({ ...base, summary });
    expect(property(ics, 'SUMMARY')).toBe(`SUMMARY:${escaped}`);
    expect(unfold(ics).filter((line) => line.startsWith('ATTENDEE'))).toEqual([]);
  });

  it('folds lines longer than 75 octets without splitting a character', () => {
    const description = `${'Ünïcödé 日本語 🍷 '.repeat(30)}end`;
    const ics = bookingIcs({ ...base, description });
    const physical = ics.split('\r\n').slice(0, -1);
    for (const line of physical) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    expect(physical.filter((line) => line.startsWith(' ')).length).toBeGreaterThan(5);
    expect(ics).not.toContain('\uFFFD');
    expect(property(ics, 'DESCRIPTION')).toBe(`DESCRIPTION:${description}`);
  });

  it('folds at exactly 75 octets: the first line whole, continuations 74 after their space', () => {
    const summary = 'x'.repeat(75 - 'SUMMARY:'.length + 74 + 1);
    const lines = bookingIcs({ ...base, summary }).split('\r\n');
    const at = lines.findIndex((line) => line.startsWith('SUMMARY:'));
    expect(lines.slice(at, at + 3).map((line) => line.length)).toEqual([75, 75, 2]);
    expect(lines[at + 1].startsWith(' ')).toBe(true);
    const exact = bookingIcs({ ...base, summary: 'x'.repeat(75 - 'SUMMARY:'.length) }).split('\r\n');
    expect(exact[exact.findIndex((line) => line.startsWith('SUMMARY:')) + 1]).toMatch(/^DESCRIPTION:/);
  });

  it('writes a mail cancellation: METHOD:CANCEL, a quoted organizer and STATUS:CANCELLED', () => {
    const ics = bookingIcs({
      ...base,
      venueName: 'Bar "Zero" ^ Co',
      method: 'CANCEL',
      organizerEmail: 'bookings@maitred.example',
      sequence: 2,
    });
    const lines = unfold(ics);
    expect(lines).toContain('METHOD:CANCEL');
    expect(lines).toContain('STATUS:CANCELLED');
    expect(lines).toContain('SEQUENCE:2');
    expect(lines).toContain(`ORGANIZER;CN="Bar ^'Zero^' ^^ Co":mailto:bookings@maitred.example`);
    expect(lines).toContain('LOCATION:Bar "Zero" ^ Co\\, 1 High Street\\, London');
    expect(lines.indexOf('METHOD:CANCEL')).toBeLessThan(lines.indexOf('BEGIN:VEVENT'));
  });

  it('writes METHOD:PUBLISH for a confirmation in mail', () => {
    const lines = unfold(bookingIcs({ ...base, method: 'PUBLISH', organizerEmail: 'bookings@maitred.example' }));
    expect(lines).toContain('METHOD:PUBLISH');
    expect(lines).toContain('STATUS:CONFIRMED');
  });

  it('leaves out an empty description and a missing address', () => {
    const lines = unfold(bookingIcs({ ...base, description: '', venueAddress: undefined }));
    expect(lines.some((line) => line.startsWith('DESCRIPTION'))).toBe(false);
    expect(lines).toContain('LOCATION:The Crown');
  });

  it('writes the URL as parsed, so a line break cannot reach the output', () => {
    const lines = unfold(bookingIcs({ ...base, url: 'https://maitred.example/manage/a\r\nATTENDEE:x' }));
    expect(lines).toContain('URL:https://maitred.example/manage/aATTENDEE:x');
  });

  it.each<[string, Partial<BookingIcsInput>]>([
    ['a method without an organizer', { method: 'CANCEL' }],
    ['an end before the start', { endsAt: base.startsAt }],
    ['an invalid date', { startsAt: new Date(Number.NaN) }],
    ['an invalid stamp', { dtstamp: new Date(Number.NaN) }],
    ['a year beyond 9999', { endsAt: new Date('+010000-01-01T00:00:00Z') }],
    ['a negative sequence', { sequence: -1 }],
    ['a fractional sequence', { sequence: 1.5 }],
    ['a relative URL', { url: '/manage/x' }],
    ['a javascript URL', { url: 'javascript:alert(1)' }],
    ['an organizer with a line break', { organizerEmail: 'a@b\r\nX:y' }],
    ['an organizer without @', { organizerEmail: 'bookings' }],
  ])('refuses %s', (_name, change) => {
    expect(() => bookingIcs({ ...base, ...change })).toThrow(RangeError);
  });
});
