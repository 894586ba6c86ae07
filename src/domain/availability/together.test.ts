/**
 * `availabilityWithNextDates` (one prepared configuration, one occupancy index and one clock for both
 * answers, as the public availability route asks) must say exactly what `computeAvailability` and
 * `nextAvailableDates` say apart, whatever the stays, party, date and cutoffs. A frozen occupancy (the
 * stays cache's) is indexed once per configuration and reused: its answers must be those of a fresh copy.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rule, shift, stay, table, venue } from './availability.test-support.js';
import { availabilityWithNextDates, computeAvailability, nextAvailableDates, slotFree } from './engine.js';

const NOW = new Date('2026-07-06T09:00:00Z');
const DATES = ['2026-07-06', '2026-07-07', '2026-07-08', '2026-07-10', '2026-07-11', '2026-07-13'];
const TIMES = ['17:00', '18:00', '19:15', '20:30', '21:45', '23:00'];

const config = venue({
  shifts: [
    shift({ timeFrom: '17:00', timeTo: '23:30' }),
    shift({ id: 'late', timeFrom: '22:00', timeTo: '02:00', daysOfWeek: ['fri', 'sat'] }),
  ],
  accessRules: [
    rule({ maxCoversEnabled: true, maxCovers: 12 }),
    rule({ id: 'rule_early', daysOfWeek: ['mon', 'tue', 'wed', 'fri'], bookingCutoff: { value: 2, unit: 'hours' } }),
    rule({ id: 'rule_list', ruleType: 'guestlist', bookingStart: { value: 10, unit: 'days' } }),
  ],
  tables: [table('t1', 2), table('t2', 4), table('t3', 6), table('t4', 4)],
  combinations: [{ id: 'c1', tableIds: ['t2', 't4'], capacity: 8 }],
  blocks: [{ tableId: 't3', fromUtc: new Date('2026-07-10T17:00:00Z'), toUtc: new Date('2026-07-10T21:00:00Z') }],
});

const stayArb = fc
  .record({
    tables: fc.subarray(['t1', 't2', 't3', 't4'], { minLength: 1, maxLength: 2 }),
    date: fc.constantFrom(...DATES),
    from: fc.constantFrom(...TIMES),
    hours: fc.integer({ min: 1, max: 4 }),
    covers: fc.integer({ min: 1, max: 8 }),
    rule: fc.constantFrom('rule_dinner', 'rule_early', 'rule_list', null),
    n: fc.nat(),
  })
  .map((s) => {
    const [h, m] = s.from.split(':').map(Number);
    const to = `${String(Math.min(23, h + s.hours)).padStart(2, '0')}:${String(h + s.hours > 23 ? 59 : m).padStart(2, '0')}`;
    return stay(`b${s.n}`, s.tables, s.date, s.from, to, s.covers, s.rule);
  });

describe('availabilityWithNextDates', () => {
  it('answers as computeAvailability and nextAvailableDates do apart', () => {
    fc.assert(
      fc.property(
        fc.array(stayArb, { maxLength: 30 }),
        fc.constantFrom(...DATES),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom('tables' as const, 'guestlist' as const),
        fc.integer({ min: 0, max: 20 }),
        (stays, date, partySize, type, days) => {
          const query = { date, partySize, type, now: NOW, days };
          const together = availabilityWithNextDates(config, stays, query);
          expect(together.availability).toEqual(computeAvailability(config, stays, query));
          expect(together.nextDates).toEqual(nextAvailableDates(config, stays, query));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('answers from a frozen occupancy, indexed once and reused, as from a fresh copy of it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(stayArb, { maxLength: 20 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...DATES), fc.integer({ min: 1, max: 10 }), fc.constantFrom(...TIMES)), {
          minLength: 1,
          maxLength: 12,
        }),
        (windows, asks) => {
          const frozen = windows.map((stays) => Object.freeze([...stays]));
          // Asked in any order, each window again and again: a reused index must never be another window's.
          for (const [pick, date, partySize, time] of asks) {
            const stays = frozen[pick % frozen.length];
            const query = { date, partySize, type: 'tables' as const, now: NOW, days: 7 };
            const fresh = [...stays];
            const together = availabilityWithNextDates(config, stays, query);
            expect(together.availability).toEqual(computeAvailability(config, fresh, query));
            expect(together.nextDates).toEqual(nextAvailableDates(config, fresh, query));
            const slot = { date, time, accessRuleId: 'rule_dinner', partySize, now: NOW };
            expect(slotFree(config, stays, slot)).toEqual(slotFree(config, fresh, slot));
            const excluded = stays[0]?.bookingId;
            if (excluded !== undefined)
              expect(slotFree(config, stays, { ...slot, excludeBookingId: excluded })).toEqual(
                slotFree(config, fresh, { ...slot, excludeBookingId: excluded }),
              );
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
