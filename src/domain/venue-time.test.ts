import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { parseVenueInstant as parseVenueDateTime } from './venue-instant.js';
import { addDays, dayOfWeek, localToUtc, localToday, shiftInstant, utcToLocal } from './venue-time.js';

describe('venue-local time', () => {
  it.each([
    ['2026-01-15', '19:30', 'Europe/London', '2026-01-15T19:30:00.000Z'],
    ['2026-07-15', '19:30', 'Europe/London', '2026-07-15T18:30:00.000Z'],
    ['2026-03-29', '02:30', 'Europe/London', '2026-03-29T01:30:00.000Z'], // skipped hour moves forward
    ['2026-10-25', '01:30', 'Europe/London', '2026-10-25T00:30:00.000Z'], // repeated hour: earlier instant
    ['2026-07-15', '23:30', 'America/New_York', '2026-07-16T03:30:00.000Z'],
  ])('%s %s in %s is %s', (date, time, zone, iso) => {
    expect(localToUtc(date, time, zone).toISOString()).toBe(iso);
  });

  it('round-trips and finds the local day across midnight', () => {
    expect(utcToLocal(new Date('2026-07-15T23:30:00Z'), 'Europe/London')).toEqual({ date: '2026-07-16', time: '00:30' });
    expect(localToday(new Date('2026-12-31T23:59:00Z'), 'Asia/Tokyo')).toBe('2027-01-01');
  });

  it('adds days and names weekdays', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
    expect(dayOfWeek('2026-11-27')).toBe('fri');
  });

  it('parses local and absolute date-times for venue things', () => {
    expect(parseVenueDateTime('2026-07-15T19:00', 'Europe/London')?.toISOString()).toBe('2026-07-15T18:00:00.000Z');
    expect(parseVenueDateTime('2026-07-15T19:00:00+02:00', 'Europe/London')?.toISOString()).toBe('2026-07-15T17:00:00.000Z');
    expect(parseVenueDateTime('2026-07-15T19:00:00Z', 'Europe/London')?.toISOString()).toBe('2026-07-15T19:00:00.000Z');
    expect(parseVenueDateTime('tomorrow', 'Europe/London')).toBeUndefined();
    expect(parseVenueDateTime('2026-13-40T10:00', 'Europe/London')).toBeUndefined();
  });

  it('shifts by calendar days across DST', () => {
    const start = localToUtc('2026-03-29', '19:00', 'Europe/London');
    expect(shiftInstant(start, -1, 'days', 'Europe/London').toISOString()).toBe(
      localToUtc('2026-03-28', '19:00', 'Europe/London').toISOString(),
    );
    expect(shiftInstant(start, -24, 'hours', 'Europe/London').toISOString()).toBe('2026-03-28T18:00:00.000Z');
  });
});

/** Instants within a day of the 2026 changes in London, New York and Sydney, and anywhere from `from` to `to`. */
const instants = (from: string, to: string) => {
  const changes = ['2026-03-29T01:00:00Z', '2026-10-25T01:00:00Z', '2026-03-08T07:00:00Z', '2026-04-04T16:00:00Z'].map(Date.parse);
  return fc.oneof(
    fc.tuple(fc.constantFrom(...changes), fc.integer({ min: -86_400_000, max: 86_400_000 })).map(([at, by]) => at + by),
    fc.integer({ min: Date.parse(from), max: Date.parse(to) }),
  );
};

describe('shiftInstant, remembered by the minute', () => {
  it('moves any instant exactly as luxon does, around DST changes too', () => {
    fc.assert(
      fc.property(
        instants('2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z'),
        fc.integer({ min: -40, max: 40 }),
        fc.constantFrom('minutes', 'hours', 'days', 'weeks', 'months'),
        fc.constantFrom('Europe/London', 'America/New_York', 'Australia/Sydney', 'UTC'),
        (ms, amount, unit, zone) => {
          const expected = DateTime.fromMillis(ms, { zone })
            .plus({ [unit]: amount })
            .toMillis();
          expect(shiftInstant(new Date(ms), amount, unit, zone).getTime()).toBe(expected);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('utcToLocal, remembered by the minute', () => {
  it('gives any instant the local date and time luxon does, around DST changes and in zones with odd offsets', () => {
    fc.assert(
      fc.property(
        instants('1980-01-01T00:00:00Z', '2040-01-01T00:00:00Z'),
        fc.constantFrom('Europe/London', 'America/New_York', 'Australia/Sydney', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'UTC'),
        (ms, zone) => {
          const local = DateTime.fromMillis(ms, { zone });
          expect(utcToLocal(new Date(ms), zone)).toEqual({ date: local.toFormat('yyyy-LL-dd'), time: local.toFormat('HH:mm') });
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('answers the same for every second of a minute', () => {
    const at = Date.parse('2026-10-25T00:59:00Z');
    expect(utcToLocal(new Date(at + 59_999), 'Europe/London')).toEqual({ date: '2026-10-25', time: '01:59' });
    expect(utcToLocal(new Date(at + 60_000), 'Europe/London')).toEqual({ date: '2026-10-25', time: '01:00' });
  });
});
