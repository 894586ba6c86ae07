/**
 * Append-only stays (appended.ts): a booking batch's day, to which each placement adds its stay. The index
 * grown stay by stay (`addToIndex`) must be exactly the index of all the stays built at once, whatever the
 * stays (overlapping, touching, empty, reversed, without covers or rule, on tables the venue does not have);
 * the engine's answers from a grown index must be a fresh copy's; and a change other than an append
 * rebuilds what was derived.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendOnlyStays, GrownFromStays } from './appended.js';
import { rule, shift, stay, table, venue } from './availability.test-support.js';
import { computeAvailability, slotFree } from './engine.js';
import { addToIndex, indexOccupancy } from './occupancy-index.js';
import type { Stay } from './types.js';

const MINUTE = 60_000;
const BASE = Date.UTC(2026, 6, 10, 12);
const TABLES = new Map([
  ['t1', 0],
  ['t2', 1],
  ['t3', 2],
]);
const BLOCKS = [{ tableId: 't2', fromUtc: new Date(BASE + 60 * MINUTE), toUtc: new Date(BASE + 120 * MINUTE) }];

const rawStay = fc
  .record({
    tables: fc.subarray(['t1', 't2', 't3', 'gone'], { maxLength: 3 }),
    // Quarter hours and odd minutes, so intervals overlap, touch and nest; some empty or reversed.
    start: fc.integer({ min: 0, max: 48 }).map((q) => q * 15),
    length: fc.integer({ min: -30, max: 300 }),
    covers: fc.integer({ min: 0, max: 8 }),
    rule: fc.constantFrom('r1', 'r2', null),
    n: fc.nat(),
  })
  .map((s): Stay => ({
    bookingId: `b${s.n}`,
    tableIds: s.tables,
    startsAt: new Date(BASE + s.start * MINUTE),
    endsAt: new Date(BASE + (s.start + s.length) * MINUTE),
    covers: s.covers,
    accessRuleId: s.rule,
  }));

describe('addToIndex', () => {
  it('grows an index into exactly the index of every stay built at once', () => {
    fc.assert(
      fc.property(fc.array(rawStay, { maxLength: 25 }), fc.array(rawStay, { minLength: 1, maxLength: 25 }), (first, added) => {
        const index = indexOccupancy(TABLES, first, BLOCKS);
        for (const s of added) addToIndex(index, TABLES, s);
        expect(index).toEqual(indexOccupancy(TABLES, [...first, ...added], BLOCKS));
      }),
      { numRuns: 500 },
    );
  });

  it('merges a stay that bridges two busy intervals, and one that only touches them', () => {
    const at = (minutes: number) => new Date(BASE + minutes * MINUTE);
    const s = (from: number, to: number, tableIds = ['t1']): Stay => ({
      bookingId: `b${from}`,
      tableIds,
      startsAt: at(from),
      endsAt: at(to),
      covers: 2,
      accessRuleId: 'r1',
    });
    const index = indexOccupancy(TABLES, [s(0, 60), s(120, 180)], []);
    addToIndex(index, TABLES, s(180, 240));
    expect(index.tableBusy[0]).toEqual([at(0), at(60), at(120), at(240)].map((d) => d.getTime()));
    addToIndex(index, TABLES, s(30, 150));
    expect(index.tableBusy[0]).toEqual([at(0), at(240)].map((d) => d.getTime()));
    expect(index.ruleCovers.get('r1')).toEqual({
      times: [0, 30, 60, 120, 150, 180, 240].map((m) => at(m).getTime()),
      covers: [2, 4, 2, 4, 2, 2, 0],
    });
  });
});

describe('GrownFromStays', () => {
  const grownSums = () => {
    const builds: number[] = [];
    const grown = new GrownFromStays<{ covers: number }>(
      (stays) => {
        builds.push(stays.length);
        return { covers: stays.reduce((sum, s) => sum + s.covers, 0) };
      },
      (value, s) => (value.covers += s.covers),
    );
    return { grown, builds };
  };
  const stayOf = (covers: number): Stay => ({
    bookingId: `b${covers}`,
    tableIds: [],
    startsAt: new Date(BASE),
    endsAt: new Date(BASE + 60 * MINUTE),
    covers,
    accessRuleId: null,
  });

  it('builds once, then adds each stay appended since', () => {
    const { grown, builds } = grownSums();
    const stays = appendOnlyStays([stayOf(1), stayOf(2)]);
    expect(grown.of(stays)).toEqual({ covers: 3 });
    stays.push(stayOf(4));
    stays.push(stayOf(8));
    expect(grown.of(stays)).toEqual({ covers: 15 });
    expect(grown.of(stays)).toEqual({ covers: 15 });
    expect(builds).toEqual([2]);
  });

  it('builds again when the stays changed other than by an append', () => {
    const { grown, builds } = grownSums();
    const stays = [stayOf(1), stayOf(2)];
    expect(grown.of(stays)).toEqual({ covers: 3 });
    stays[1] = stayOf(5);
    expect(grown.of(stays)).toEqual({ covers: 6 });
    stays.pop();
    expect(grown.of(stays)).toEqual({ covers: 1 });
    expect(builds).toEqual([2, 2, 1]);
  });
});

describe('the engine on append-only stays', () => {
  const config = venue({
    shifts: [shift({ timeFrom: '17:00', timeTo: '23:30' })],
    accessRules: [rule({ maxCoversEnabled: true, maxCovers: 14 })],
    tables: [table('t1', 2), table('t2', 4), table('t3', 6)],
    combinations: [{ id: 'c1', tableIds: ['t1', 't2'], capacity: 6 }],
  });
  const TIMES = ['17:00', '18:00', '18:15', '19:30', '20:45', '22:00'];
  const NOW = new Date('2026-07-06T09:00:00Z');
  const DATE = '2026-07-10';
  const stayArb = fc
    .record({
      tables: fc.subarray(['t1', 't2', 't3'], { minLength: 1, maxLength: 2 }),
      from: fc.constantFrom(...TIMES),
      hours: fc.integer({ min: 1, max: 3 }),
      covers: fc.integer({ min: 1, max: 6 }),
      n: fc.nat(),
    })
    .map((s) => {
      const [h, m] = s.from.split(':').map(Number);
      return stay(`b${s.n}`, s.tables, DATE, s.from, `${String(Math.min(23, h + s.hours))}:${String(m).padStart(2, '0')}`, s.covers);
    });

  it('answers after each append as from a fresh copy of the stays', () => {
    fc.assert(
      fc.property(fc.array(stayArb, { maxLength: 10 }), fc.array(stayArb, { minLength: 1, maxLength: 10 }), (first, added) => {
        const stays = appendOnlyStays([...first]);
        for (const next of added) {
          for (const partySize of [2, 5]) {
            const query = { date: DATE, partySize, type: 'tables' as const, now: NOW };
            expect(computeAvailability(config, stays, query)).toEqual(computeAvailability(config, [...stays], query));
            const slot = { date: DATE, time: '19:30', accessRuleId: 'rule_dinner', partySize, now: NOW };
            expect(slotFree(config, stays, slot)).toEqual(slotFree(config, [...stays], slot));
          }
          stays.push(next);
        }
      }),
      { numRuns: 150 },
    );
  });
});
