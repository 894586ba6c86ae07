/**
 * `holdsOf`: a booking batch's day (append-only stays) is grouped by table once and grown with each
 * placement's stay; after every append it must hold what grouping the stays afresh holds (blocks included).
 */
import { describe, expect, it } from 'vitest';
import { appendOnlyStays, type Occupancy } from '../../../domain/availability/index.js';
import type { TableHolds } from '../../../domain/table-assignment/index.js';
import { holdsOf } from './seating.js';
import type { LoadedVenue } from './venue-config.js';

const at = (hour: number) => new Date(Date.UTC(2026, 6, 10, hour));
const stay = (bookingId: string, tableIds: string[], from: number, to: number): Occupancy[number] => ({
  bookingId,
  tableIds,
  startsAt: at(from),
  endsAt: at(to),
  covers: 2,
  accessRuleId: 'r',
});
// holdsOf reads the configuration's blocks only.
const loaded = { config: { blocks: [{ tableId: 't2', fromUtc: at(12), toUtc: at(14) }] } } as unknown as LoadedVenue;

/** Each table's holds as sorted `from-to` hours, comparable whatever objects hold them. */
const shape = (holds: TableHolds) =>
  Object.fromEntries(
    [...holds]
      .map(([table, list]) => [table, list.map((h) => `${h.startsAt.getUTCHours()}-${h.endsAt.getUTCHours()}`).sort()] as const)
      .sort(([a], [b]) => a.localeCompare(b)),
  );

describe('holdsOf', () => {
  it('grows with each stay appended, holding what the stays grouped afresh hold', () => {
    const stays = appendOnlyStays([stay('b1', ['t1'], 18, 20), stay('b2', ['t1', 't2'], 19, 21)]);
    const first = holdsOf(loaded, stays);
    expect(shape(first)).toEqual({ t1: ['18-20', '19-21'], t2: ['12-14', '19-21'] });
    for (const next of [stay('b3', ['t3'], 17, 19), stay('b4', ['t2'], 21, 23), stay('b5', [], 18, 20), stay('b6', ['t1'], 20, 20)]) {
      stays.push(next);
      const grown = holdsOf(loaded, stays);
      expect(grown).toBe(first);
      // A plain copy of the stays (not append-only) is grouped afresh.
      expect(shape(grown)).toEqual(shape(holdsOf(loaded, [...stays])));
    }
    expect(shape(first)).toEqual({ t1: ['18-20', '19-21'], t2: ['12-14', '19-21', '21-23'], t3: ['17-19'] });
  });

  it('groups stays that are not append-only afresh each time', () => {
    const stays = [stay('b1', ['t1'], 18, 20)];
    const first = holdsOf(loaded, stays);
    stays.push(stay('b2', ['t1'], 20, 22));
    const second = holdsOf(loaded, stays);
    expect(second).not.toBe(first);
    expect(shape(second)).toEqual({ t1: ['18-20', '20-22'], t2: ['12-14'] });
  });
});
