import { describe, expect, it } from 'vitest';
import { inQuietHours, reminderSendTime, textableNumber } from './reminder-schedule.js';

const LONDON = 'Europe/London';
const quiet = { start: '22:00', end: '08:00' };

describe('reminder send times', () => {
  it('is the start less the offset outside quiet hours', () => {
    const startsAt = new Date('2026-06-19T18:00:00Z');
    expect(reminderSendTime({ startsAt, offsetMinutes: 120, timezone: LONDON, quiet: { ...quiet, mode: 'shift' } })).toEqual(
      new Date('2026-06-19T16:00:00Z'),
    );
  });

  it('shifts to the end of quiet hours (venue-local, across midnight), or skips', () => {
    const startsAt = new Date('2026-06-19T18:00:00Z'); // 19:00 BST
    // 24 h + 30 min before: 18:30 the day before, fine; 20 h before: 23:00, quiet → 08:00 BST on the 19th.
    expect(reminderSendTime({ startsAt, offsetMinutes: 20 * 60, timezone: LONDON, quiet: { ...quiet, mode: 'shift' } })).toEqual(
      new Date('2026-06-19T07:00:00Z'),
    );
    expect(reminderSendTime({ startsAt, offsetMinutes: 20 * 60, timezone: LONDON, quiet: { ...quiet, mode: 'skip' } })).toBeNull();
    // A 07:30 booking whose reminder falls at 05:30: the quiet hours end after it starts.
    const early = new Date('2026-06-19T06:30:00Z');
    expect(reminderSendTime({ startsAt: early, offsetMinutes: 120, timezone: LONDON, quiet: { ...quiet, mode: 'shift' } })).toBeNull();
  });

  it('knows a daytime window and no window', () => {
    expect(inQuietHours(new Date('2026-06-19T12:30:00Z'), LONDON, { start: '13:00', end: '14:00' })).toBe(true);
    expect(inQuietHours(new Date('2026-06-19T13:00:00Z'), LONDON, { start: '13:00', end: '14:00' })).toBe(false);
    expect(inQuietHours(new Date('2026-06-19T13:00:00Z'), LONDON, { start: '09:00', end: '09:00' })).toBe(false);
  });

  it('texts only international numbers', () => {
    expect(textableNumber('+44 (0)7700-900 123'.replace('(0)', ''))).toBe('+447700900123');
    expect(textableNumber('0044 7700 900123')).toBe('+447700900123');
    expect(textableNumber('07700 900123')).toBeNull();
    expect(textableNumber(null)).toBeNull();
  });
});
