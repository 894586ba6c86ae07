import { describe, expect, it } from 'vitest';
import { peopleDate, peopleInstant } from './people-dates.js';

describe('people dates', () => {
  it.each([
    ['2026-06-16', 'Tuesday, 16 June 2026'],
    ['2027-11-27', 'Saturday, 27 November 2027'],
    ['2028-02-29', 'Tuesday, 29 February 2028'],
    ['not a date', 'not a date'],
  ])('%s reads %s', (date, expected) => {
    expect(peopleDate(date)).toBe(expected);
  });

  it('writes an instant on the venue clock, across midnight UTC', () => {
    expect(peopleInstant(new Date('2026-06-15T23:30:00Z'), 'Europe/London')).toBe('Tuesday, 16 June 2026 at 00:30');
    expect(peopleInstant(new Date('2026-01-15T23:30:00Z'), 'Europe/London')).toBe('Thursday, 15 January 2026 at 23:30');
  });
});
