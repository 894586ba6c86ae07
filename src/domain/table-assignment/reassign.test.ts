import { describe, expect, it } from 'vitest';
import { type FloorCombination, type FloorTable } from './candidates.js';
import { type ReassignableStay, type ReassignmentInput, planReassignment } from './reassign.js';
import { combination, hold, stay, table } from './test-support.js';

const booking = (bookingId: string, partySize: number, tableIds: string[], fields: Partial<ReassignableStay> = {}): ReassignableStay => ({
  bookingId,
  partySize,
  tableIds,
  locked: false,
  ...stay('19:00', '21:00'),
  ...fields,
});

const plan = (
  tables: FloorTable[],
  stays: ReassignableStay[],
  extra: Partial<ReassignmentInput> & { combinations?: FloorCombination[] } = {},
) => planReassignment({ tables, combinations: [], stays, ...extra });

describe('moves', () => {
  it('moves a party to the smallest free table that seats it and counts the seats freed', () => {
    const result = plan([table('1', 6), table('2', 4), table('3', 2)], [booking('b1', 2, ['t1'])]);
    expect(result).toEqual({
      moves: [{ bookingId: 'b1', from: ['t1'], to: ['t3'], fromCapacity: 6, toCapacity: 2 }],
      blocked: [],
      seatsFreed: 4,
    });
  });

  it('moves a party off a combination onto a single table of equal capacity, freeing tables but no seats', () => {
    const tables = [table('1', 2), table('2', 2), table('3', 4)];
    const result = plan(tables, [booking('b1', 4, ['t1', 't2'])], { combinations: [combination('c', 't1', 't2')] });
    expect(result.moves).toEqual([{ bookingId: 'b1', from: ['t1', 't2'], to: ['t3'], fromCapacity: 4, toCapacity: 4 }]);
    expect(result.seatsFreed).toBe(0);
  });

  it('moves a party off a single table onto a smaller combination', () => {
    const tables = [table('1', 2), table('2', 2), table('3', 8)];
    const result = plan(tables, [booking('b1', 4, ['t3'])], { combinations: [combination('c', 't1', 't2')] });
    expect(result.moves).toEqual([{ bookingId: 'b1', from: ['t3'], to: ['t1', 't2'], fromCapacity: 8, toCapacity: 4 }]);
  });

  it('chains moves across rounds: a freed table is taken by the booking that wanted it', () => {
    const tables = [table('1', 8), table('2', 4), table('3', 2)];
    const stays = [booking('x', 4, ['t1'], stay('19:00', '21:00')), booking('y', 2, ['t2'], stay('19:30', '21:30'))];
    const result = plan(tables, stays);
    expect(result.moves).toEqual([
      { bookingId: 'x', from: ['t1'], to: ['t2'], fromCapacity: 8, toCapacity: 4 },
      { bookingId: 'y', from: ['t2'], to: ['t3'], fromCapacity: 4, toCapacity: 2 },
    ]);
    expect(result.seatsFreed).toBe(6);
  });

  it('shows a booking that moves in several rounds as one move from its first tables to its last', () => {
    const tables = [table('1', 6), table('2', 4), table('3', 2), table('4', 1)];
    const result = plan(tables, [booking('x', 2, ['t1']), booking('z', 1, ['t3'])]);
    expect(result.moves).toEqual([
      { bookingId: 'x', from: ['t1'], to: ['t3'], fromCapacity: 6, toCapacity: 2 },
      { bookingId: 'z', from: ['t3'], to: ['t4'], fromCapacity: 2, toCapacity: 1 },
    ]);
    expect(result.seatsFreed).toBe(5);
  });

  it('lets a booking take a table whose earlier booking ends as it starts', () => {
    const tables = [table('1', 6), table('2', 2)];
    const result = plan(tables, [booking('early', 2, ['t2'], stay('17:00', '19:00')), booking('late', 2, ['t1'], stay('19:00', '21:00'))]);
    expect(result.moves.map((move) => [move.bookingId, move.to])).toEqual([['late', ['t2']]]);
  });

  it('uses the fragmentation tie-break between equal tables', () => {
    const tables = [table('1', 6), table('2', 2), table('3', 2)];
    const result = plan(tables, [booking('b', 2, ['t1'])], { fixed: [hold('t3', '17:00', '19:00')] });
    expect(result.moves[0].to).toEqual(['t3']);
  });
});

describe('blocked bookings', () => {
  it.each([
    ['locked', [booking('b', 2, ['t1'], { locked: true })], [table('1', 6), table('2', 2)], {}],
    ['unplaced without tables', [booking('b', 2, [])], [table('1', 6), table('2', 2)], {}],
    ['unplaced on a table the floorplan does not know', [booking('b', 2, ['gone'])], [table('1', 6), table('2', 2)], {}],
    ['size when no permitted seating takes the party', [booking('b', 9, ['t1'])], [table('1', 6), table('2', 2)], {}],
    ['already_best on the smallest fitting table', [booking('b', 2, ['t2'])], [table('1', 6), table('2', 2)], {}],
    [
      'already_best when smaller tables lie outside the restriction',
      [booking('b', 2, ['t1'], { restriction: { seatingAreaIds: ['main'] } })],
      [table('1', 6), table('2', 2, { seatingAreaId: 'bar' })],
      {},
    ],
    [
      'already_best when the smaller table is inactive',
      [booking('b', 2, ['t1'])],
      [table('1', 6), table('2', 2, { status: 'inactive' })],
      {},
    ],
    [
      'no_better_table when a block holds the smaller table',
      [booking('b', 2, ['t1'])],
      [table('1', 6), table('2', 2)],
      { fixed: [hold('t2', '20:00', '22:00')] },
    ],
    [
      'no_better_table when a block shares a quarter hour',
      [booking('b', 2, ['t1'], stay('19:10', '21:00'))],
      [table('1', 6), table('2', 2)],
      { fixed: [hold('t2', '17:00', '19:05')] },
    ],
  ])('%s', (name, stays, tables, extra) => {
    const result = plan(tables, stays, extra);
    expect(result.moves).toEqual([]);
    expect(result.seatsFreed).toBe(0);
    expect(result.blocked).toEqual([{ bookingId: 'b', reason: name.split(' ')[0] }]);
  });

  it('never moves a locked booking, and no one takes its table', () => {
    const tables = [table('1', 6), table('2', 2), table('3', 4)];
    const stays = [booking('locked', 2, ['t3'], { locked: true }), booking('other', 2, ['t1']), booking('small', 2, ['t2'])];
    const result = plan(tables, stays);
    expect(result.moves).toEqual([]);
    expect(result.blocked).toEqual([
      { bookingId: 'locked', reason: 'locked' },
      { bookingId: 'other', reason: 'no_better_table' },
      { bookingId: 'small', reason: 'already_best' },
    ]);
  });

  it('moves only within the booking’s permitted seating', () => {
    const tables = [table('1', 6), table('2', 2, { seatingAreaId: 'bar' }), table('3', 4)];
    const result = plan(tables, [booking('b', 2, ['t1'], { restriction: { seatingAreaIds: ['main'] } })]);
    expect(result.moves.map((move) => move.to)).toEqual([['t3']]);
  });

  it('lists moves and blocks by stay start, then booking id', () => {
    const tables = [table('1', 6), table('2', 6), table('3', 2), table('4', 2)];
    const stays = [
      booking('b', 2, ['t1'], stay('20:00', '22:00')),
      booking('a', 2, ['t2'], stay('20:00', '22:00')),
      booking('c', 2, ['t3'], stay('18:00', '19:00')),
      booking('d', 2, ['t4'], stay('17:00', '18:00')),
    ];
    const result = plan(tables, stays);
    expect(result.moves.map((move) => move.bookingId)).toEqual(['a', 'b']);
    expect(result.blocked.map((entry) => entry.bookingId)).toEqual(['d', 'c']);
  });
});

describe('determinism', () => {
  it('gives the same plan whatever the order of the bookings', () => {
    const tables = [table('1', 8), table('2', 6), table('3', 4), table('4', 4), table('5', 2), table('6', 2)];
    const combinations = [combination('c56', 't5', 't6')];
    const stays = [
      booking('a', 4, ['t1'], stay('18:00', '20:00')),
      booking('b', 2, ['t2'], stay('19:00', '21:00')),
      booking('c', 3, ['t3'], stay('19:30', '21:30')),
      booking('d', 2, ['t4'], stay('20:00', '22:00')),
      booking('e', 1, ['t5'], { ...stay('19:00', '20:00'), locked: true }),
      booking('f', 4, ['t1'], stay('20:15', '22:00')),
    ];
    const expected = plan(tables, stays, { combinations });
    expect(expected.moves.length).toBeGreaterThan(0);
    for (const order of [[...stays].reverse(), [stays[3], stays[0], stays[5], stays[1], stays[4], stays[2]]]) {
      expect(plan([...tables].reverse(), order, { combinations })).toEqual(expected);
    }
  });
});
