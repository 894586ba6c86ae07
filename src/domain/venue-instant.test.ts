import { describe, expect, it } from 'vitest';
import { localToUtc } from './venue-time.js';
import { parseVenueInstant } from './venue-instant.js';

const iso = (value: string, zone = 'Europe/London') => parseVenueInstant(value, zone)?.toISOString();

describe('parseVenueInstant', () => {
  it.each([
    // venue-local, summer (BST, UTC+1) and winter (GMT)
    ['2026-06-20T19:00', 'Europe/London', '2026-06-20T18:00:00.000Z'],
    ['2026-12-20T19:00', 'Europe/London', '2026-12-20T19:00:00.000Z'],
    ['2026-06-20T19:00:30', 'Europe/London', '2026-06-20T18:00:30.000Z'],
    ['2026-06-20T19:00:30.250', 'Europe/London', '2026-06-20T18:00:30.250Z'],
    [' 2026-06-20T19:00 ', 'Europe/London', '2026-06-20T18:00:00.000Z'],
    ['2026-06-20T19:00', 'America/New_York', '2026-06-20T23:00:00.000Z'],
    // spring forward (London 2026-03-29, 01:00 → 02:00): the skipped 01:30 moves forward to 02:30 BST
    ['2026-03-29T00:30', 'Europe/London', '2026-03-29T00:30:00.000Z'],
    ['2026-03-29T01:30', 'Europe/London', '2026-03-29T01:30:00.000Z'],
    ['2026-03-29T03:00', 'Europe/London', '2026-03-29T02:00:00.000Z'],
    // fall back (London 2026-10-25, 02:00 → 01:00): the repeated 01:30 is its first occurrence (BST)
    ['2026-10-25T00:59', 'Europe/London', '2026-10-24T23:59:00.000Z'],
    ['2026-10-25T01:30', 'Europe/London', '2026-10-25T00:30:00.000Z'],
    ['2026-10-25T02:00', 'Europe/London', '2026-10-25T02:00:00.000Z'],
    // absolute: the venue zone does not matter
    ['2026-06-20T19:00Z', 'Europe/London', '2026-06-20T19:00:00.000Z'],
    ['2026-06-20T19:00:00+01:00', 'America/New_York', '2026-06-20T18:00:00.000Z'],
    ['2026-06-20T19:00:00-0500', 'Europe/London', '2026-06-21T00:00:00.000Z'],
    ['2026-06-20T19:00:00.000+14:00', 'Europe/London', '2026-06-20T05:00:00.000Z'],
  ])('%s at %s is %s', (value, zone, expected) => {
    expect(iso(value, zone)).toBe(expected);
  });

  it.each([
    '2026-06-20',
    '2026-06-20 19:00',
    '2026-06-20T19',
    '2026-06-20T7:00',
    '2026-06-20T24:00',
    '2026-06-20T23:60',
    '2026-06-20T19:00:60',
    '2026-02-30T19:00',
    '2026-13-01T19:00',
    '2026-06-20T19:00+25:00',
    '2026-06-20T19:00+01:75',
    '2026-06-20T19:00:00+01:00[Europe/London]',
    '2026-06-20T19:00garbage',
    'tomorrow evening',
    '',
  ])('refuses %j', (value) => {
    expect(parseVenueInstant(value, 'Europe/London')).toBeUndefined();
  });

  it('agrees with the table-list window (localToUtc) on every minute of both change days', () => {
    for (const date of ['2026-03-29', '2026-10-25']) {
      for (let minute = 0; minute < 24 * 60; minute += 15) {
        const time = `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
        expect(parseVenueInstant(`${date}T${time}`, 'Europe/London')?.getTime(), `${date} ${time}`).toBe(
          localToUtc(date, time, 'Europe/London').getTime(),
        );
      }
    }
  });
});
