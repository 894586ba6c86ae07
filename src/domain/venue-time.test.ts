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
