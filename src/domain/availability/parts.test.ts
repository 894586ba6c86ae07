import { describe, expect, it } from 'vitest';
import { indexOccupancy, intervalsFree, peakCovers } from './occupancy-index.js';
import { addDays, localToUtc, utcToLocal } from '../venue-time.js';
import { clockInWindow, clockLabel, clockMinutes, serviceClock, windowSpan } from './service-day.js';

describe('clock windows', () => {
  it.each([
    ['18:00', '22:00', { start: 1080, end: 1320 }],
    ['22:00', '02:00', { start: 1320, end: 1560 }],
    ['00:00', '23:59', { start: 0, end: 1439 }],
    ['18:00', '18:00', undefined],
    ['24:00', '02:00', undefined],
    ['7:00', '09:00', undefined],
  ])('%s–%s', (from, to, span) => {
    expect(windowSpan(from, to)).toEqual(span);
  });

  it.each([
    // [grid minute, window from, window to, inside]
    [1080, '18:00', '22:00', true],
    [1320, '18:00', '22:00', false],
    [1500, '22:00', '02:00', true],
    [60, '22:00', '02:00', true],
    [1560, '22:00', '02:00', false],
    [1470, '00:00', '01:00', true],
    [1410, '00:00', '01:00', false],
  ])('minute %i in %s–%s: %s', (minute, from, to, inside) => {
    const span = windowSpan(from, to);
    expect(span && clockInWindow(minute, span.start, span.end)).toBe(inside);
  });

  it('labels grid minutes as clock times, after midnight too', () => {
    expect([0, 75, 1439, 1440, 1530].map(clockLabel)).toEqual(['00:00', '01:15', '23:59', '00:00', '01:30']);
    expect(clockMinutes('23:45')).toBe(1425);
    expect(clockMinutes('noon')).toBeNaN();
  });
});

describe('service clock', () => {
  it.each([
    // [zone, date, minute, UTC instant or null when the wall time does not exist]
    ['Europe/London', '2026-07-10', 1080, '2026-07-10T17:00:00.000Z'],
    ['Europe/London', '2026-07-10', 1500, '2026-07-11T00:00:00.000Z'],
    ['Europe/London', '2026-03-28', 1440 + 59, '2026-03-29T00:59:00.000Z'],
    ['Europe/London', '2026-03-28', 1440 + 60, null],
    ['Europe/London', '2026-03-28', 1440 + 120, '2026-03-29T01:00:00.000Z'],
    ['Europe/London', '2026-10-25', 60, '2026-10-25T00:00:00.000Z'],
    ['Europe/London', '2026-10-25', 120, '2026-10-25T02:00:00.000Z'],
    ['America/New_York', '2026-03-08', 150, null],
    ['America/New_York', '2026-03-08', 180, '2026-03-08T07:00:00.000Z'],
    ['Asia/Tokyo', '2026-03-29', 60, '2026-03-28T16:00:00.000Z'],
    ['Australia/Sydney', '2026-10-04', 150, null],
    ['Australia/Sydney', '2026-04-05', 150, '2026-04-04T15:30:00.000Z'],
  ])('%s %s minute %i', (zone, date, minute, expected) => {
    const ms = serviceClock(date, zone).utcAt(minute);
    expect(Number.isNaN(ms) ? null : new Date(ms).toISOString()).toBe(expected);
  });

  it.each([
    ['Europe/London', '2026-03-28'],
    ['Europe/London', '2026-03-29'],
    ['Europe/London', '2026-10-24'],
    ['Europe/London', '2026-10-25'],
    ['America/New_York', '2026-11-01'],
    ['Australia/Lord_Howe', '2026-04-05'],
  ])('agrees with localToUtc for every minute of %s %s (skipped times excepted)', (zone, date) => {
    const clock = serviceClock(date, zone);
    const mismatches: string[] = [];
    for (let minute = 0; minute < 2880; minute++) {
      const day = minute < 1440 ? date : addDays(date, 1);
      const time = clockLabel(minute);
      const instant = localToUtc(day, time, zone);
      const back = utcToLocal(instant, zone);
      const expected = back.date === day && back.time === time ? instant.getTime() : NaN;
      if (!Object.is(clock.utcAt(minute), expected)) mismatches.push(`${day} ${time}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('refuses a malformed date', () => {
    expect(() => serviceClock('10/07/2026', 'Europe/London')).toThrow(RangeError);
  });
});

describe('occupancy index', () => {
  const at = (hour: number) => Date.UTC(2026, 6, 10) + hour * 3_600_000;
  const stay = (bookingId: string, tableIds: string[], from: number, to: number, covers: number, accessRuleId: string | null = 'r') => ({
    bookingId,
    tableIds,
    startsAt: new Date(at(from)),
    endsAt: new Date(at(to)),
    covers,
    accessRuleId,
  });
  const tables = new Map([
    ['t1', 0],
    ['t2', 1],
  ]);
  const index = indexOccupancy(
    tables,
    [stay('b1', ['t1'], 18, 20, 4), stay('b2', ['t1', 't2'], 19, 21, 6), stay('b3', ['t2'], 22, 23, 2)],
    [{ tableId: 't1', fromUtc: new Date(at(12)), toUtc: new Date(at(13)) }],
  );

  it('merges stays and blocks per table into disjoint intervals', () => {
    expect(index.tableBusy).toEqual([
      [at(12), at(13), at(18), at(21)],
      [at(19), at(21), at(22), at(23)],
    ]);
  });

  it.each([
    [0, 13, 18, true],
    [0, 11, 12, true],
    [0, 12, 12.5, false],
    [0, 20, 21, false],
    [0, 21, 23, true],
    [1, 21, 22, true],
    [1, 20, 22.5, false],
    [1, 23, 24, true],
  ])('table %i free from %d to %d: %s', (table, from, to, free) => {
    expect(intervalsFree(index.tableBusy[table], at(from), at(to))).toBe(free);
  });

  it.each([
    [17, 18, 0],
    [18, 19, 4],
    [18, 20, 10],
    [20, 22, 6],
    [21, 22, 0],
    [21, 23, 2],
  ])('peak covers from %d to %d: %i', (from, to, peak) => {
    expect(peakCovers(index.ruleCovers.get('r') ?? { times: [], covers: [] }, at(from), at(to))).toBe(peak);
  });

  it('leaves out the excluded booking', () => {
    const without = indexOccupancy(tables, [stay('b1', ['t1'], 18, 20, 4), stay('b2', ['t1'], 19, 21, 6)], [], 'b2');
    expect(without.tableBusy[0]).toEqual([at(18), at(20)]);
    expect(peakCovers(without.ruleCovers.get('r') ?? { times: [], covers: [] }, at(18), at(22))).toBe(4);
  });
});
