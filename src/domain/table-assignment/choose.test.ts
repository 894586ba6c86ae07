/**
 * `chooseTables` finds the best candidate in one pass: it must always be the first of `rankCandidates`
 * (the full order), and holds handed in already grouped by table (`holdsByTable`, what the booking path
 * grows stay by stay) must rank exactly as the same holds as a list, whatever the floor, holds and stay.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addHold, chooseTables, holdsByTable, rankCandidates, type TableStay } from './assign.js';
import { seatingCandidates } from './candidates.js';
import type { Stay } from './slots.js';
import { at, combination, table } from './test-support.js';

const minutesAfter = (base: Date, minutes: number) => new Date(base.getTime() + minutes * 60_000);

/** Starts from 16:00 on the quarter hour or off it, 0 to 4 hours long (an empty stay now and then). */
const stayArb: fc.Arbitrary<Stay> = fc
  .record({ start: fc.integer({ min: 0, max: 480 }), length: fc.integer({ min: 0, max: 240 }) })
  .map(({ start, length }) => ({ startsAt: minutesAfter(at('16:00'), start), endsAt: minutesAfter(at('16:00'), start + length) }));

const floorArb = fc
  .record({
    // Capacities repeat, so ties go down to fragmentation, labels and ids.
    capacities: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 2, maxLength: 8 }),
    combinations: fc.array(fc.uniqueArray(fc.nat({ max: 7 }), { minLength: 2, maxLength: 3 }), { maxLength: 3 }),
  })
  .map(({ capacities, combinations }) => {
    const tables = capacities.map((capacity, i) => table(String(i + 1), capacity));
    const combos = combinations.map((members, i) => combination(`c${i}`, ...members.map((m) => tables[m % tables.length].id)));
    return { tables, combos };
  });

describe('chooseTables', () => {
  it('is the first of rankCandidates, with holds as a list or grouped by table', () => {
    fc.assert(
      fc.property(
        floorArb,
        fc.array(fc.tuple(fc.nat(), stayArb), { maxLength: 20 }),
        stayArb,
        fc.integer({ min: 1, max: 8 }),
        fc.option(fc.integer({ min: 15, max: 180 }), { nil: undefined }),
        ({ tables, combos }, holdSpecs, stay, partySize, minUsableMinutes) => {
          const candidates = seatingCandidates(tables, combos, { partySize });
          const occupied: TableStay[] = holdSpecs.map(([n, hold]) => ({ tableId: tables[n % tables.length].id, ...hold }));
          const grouped = new Map<string, Stay[]>();
          for (const hold of occupied) addHold(grouped, hold.tableId, hold);
          const input = { candidates, partySize, stay, occupied, minUsableMinutes };
          const ranked = rankCandidates(input);
          expect(chooseTables(input)).toBe(ranked[0]?.candidate ?? null);
          expect(rankCandidates({ ...input, occupied: grouped })).toEqual(ranked);
          expect(rankCandidates({ ...input, occupied: holdsByTable(occupied) })).toEqual(ranked);
          expect(chooseTables({ ...input, occupied: grouped })).toBe(ranked[0]?.candidate ?? null);
        },
      ),
      { numRuns: 500 },
    );
  });
});
