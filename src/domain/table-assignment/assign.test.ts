import { describe, expect, it } from 'vitest';
import { type ChooseTablesInput, type GuestPick, type TableStay, chooseTables, rankCandidates } from './assign.js';
import { type FloorCombination, type FloorTable, type SeatingRestriction, seatingCandidates } from './candidates.js';
import { combination, hold, stay, table } from './test-support.js';

/** Chooses for a 19:00–21:00 stay unless told otherwise; returns the chosen candidate's id. */
function choose(
  tables: FloorTable[],
  options: {
    combinations?: FloorCombination[];
    partySize?: number;
    occupied?: TableStay[];
    window?: [string, string];
    guestPick?: GuestPick;
    minUsableMinutes?: number;
  } = {},
): string | null {
  const partySize = options.partySize ?? 2;
  const input: ChooseTablesInput = {
    candidates: seatingCandidates(tables, options.combinations ?? [], { partySize }),
    partySize,
    stay: stay(...(options.window ?? ['19:00', '21:00'])),
    occupied: options.occupied ?? [],
    guestPick: options.guestPick,
    minUsableMinutes: options.minUsableMinutes,
  };
  return chooseTables(input)?.id ?? null;
}

describe('seating candidates', () => {
  const floor = [table('1', 2), table('2', 4, { seatingAreaId: 'terrace' }), table('3', 6, { status: 'inactive' }), table('10', 4)];
  const ids = (partySize: number, combinations: FloorCombination[] = [], restriction?: SeatingRestriction) =>
    seatingCandidates(floor, combinations, { partySize, restriction }).map((candidate) => candidate.id);

  it.each([
    ['active tables that seat the party', 3, [], undefined, ['t2', 't10']],
    ['a combination seats the sum of its members', 5, [combination('c', 't1', 't2')], undefined, ['c']],
    ['a combination with an inactive member is skipped', 5, [combination('c', 't1', 't3')], undefined, []],
    ['a combination with an unknown member is skipped', 5, [combination('c', 't1', 'gone')], undefined, []],
    ['a combination of one distinct table is skipped', 5, [combination('c', 't1', 't1')], undefined, []],
    ['areas restrict', 1, [], { seatingAreaIds: ['terrace'] }, ['t2']],
    ['listed tables add to the areas', 1, [], { seatingAreaIds: ['terrace'], tableIds: ['t1'] }, ['t1', 't2']],
    ['an empty restriction restricts nothing', 1, [], { seatingAreaIds: [], tableIds: [] }, ['t1', 't2', 't10']],
    ['a combination needs every member permitted', 5, [combination('c', 't1', 't2')], { seatingAreaIds: ['terrace'] }, []],
    ['a party of none has no candidates', 0, [], undefined, []],
  ])('%s', (_name, partySize, combinations, restriction, expected) => {
    expect(ids(partySize, combinations, restriction)).toEqual(expected);
  });

  it('orders a combination by table number and labels it with the numbers', () => {
    const [candidate] = seatingCandidates(floor, [combination('c', 't10', 't1')], { partySize: 5 });
    expect(candidate).toMatchObject({
      kind: 'combination',
      tableIds: ['t1', 't10'],
      capacity: 6,
      label: '1+10',
      areaIds: ['main', 'main'],
    });
  });
});

describe('ordering rules', () => {
  it.each([
    ['the smallest table that seats the party', [table('1', 6), table('2', 4), table('3', 2)], { partySize: 3 }, 't2'],
    [
      'a smaller table even when a bigger one fits the evening better',
      [table('1', 6), table('2', 4)],
      { occupied: [hold('t1', '17:00', '19:00')] },
      't2',
    ],
    [
      'a single table before a combination of equal capacity',
      [table('1', 2), table('2', 2), table('3', 4)],
      { combinations: [combination('c', 't1', 't2')], partySize: 4 },
      't3',
    ],
    [
      'the combination when the single table is taken',
      [table('1', 2), table('2', 2), table('3', 4)],
      { combinations: [combination('c', 't1', 't2')], partySize: 4, occupied: [hold('t3', '20:00', '22:00')] },
      'c',
    ],
    [
      'a combination smaller than the only single table',
      [table('1', 2), table('2', 2), table('3', 6)],
      { combinations: [combination('c', 't1', 't2')], partySize: 4 },
      'c',
    ],
    ['table numbers in natural order', [table('10', 4), table('2', 4), table('9', 4)], {}, 't2'],
    ['the id when numbers are alike', [table('4', 4, { id: 'tb' }), table('4', 4, { id: 'ta' })], {}, 'ta'],
  ])('%s', (_name, tables, options, expected) => {
    expect(choose(tables, options)).toBe(expected);
  });
});

describe('fragmentation tie-breaks (19:00–21:00, equal tables)', () => {
  const pair = [table('1', 4), table('2', 4)];
  it.each([
    ['abutting a stay before an empty table', [hold('t2', '17:00', '19:00')], undefined, 't2'],
    ['abutting a stay after before an empty table', [hold('t2', '21:00', '23:00')], undefined, 't2'],
    ['an empty table before leaving an unusable sliver', [hold('t1', '17:00', '18:30')], undefined, 't2'],
    [
      'filling a gap exactly before abutting one side',
      [hold('t1', '17:00', '19:00'), hold('t2', '17:00', '19:00'), hold('t2', '21:00', '23:00')],
      undefined,
      't2',
    ],
    ['the smaller sliver by default', [hold('t1', '16:00', '17:30'), hold('t2', '16:00', '18:00')], undefined, 't2'],
    ['a leftover as long as minUsableMinutes is no waste', [hold('t1', '16:00', '17:30'), hold('t2', '16:00', '18:00')], 75, 't1'],
  ])('%s', (_name, occupied, minUsableMinutes, expected) => {
    expect(choose(pair, { occupied, minUsableMinutes })).toBe(expected);
  });

  it('measures each side and sums over member tables', () => {
    const candidates = seatingCandidates([table('1', 2), table('2', 2)], [combination('c', 't1', 't2')], { partySize: 4 });
    const [ranked] = rankCandidates({
      candidates,
      partySize: 4,
      stay: stay('19:00', '21:00'),
      occupied: [hold('t1', '17:00', '18:00'), hold('t1', '21:00', '22:00'), hold('t2', '16:00', '19:00')],
    });
    // t1: 60 before (wasted: shorter than the 120-minute stay), 0 after, splits nothing new (+1 −1); t2: 0 before, open after (0).
    expect(ranked.fragmentation).toEqual({ wastedMinutes: 60, newGaps: 0, slackMinutes: Infinity });
  });

  it('fills the tightest bounded gap when neither wastes time (best fit)', () => {
    const occupied = [
      hold('t1', '15:00', '17:00'),
      hold('t1', '23:00', '23:30'),
      hold('t2', '16:00', '18:00'),
      hold('t2', '22:00', '23:00'),
    ];
    const candidates = seatingCandidates(pair, [], { partySize: 2 });
    const ranked = rankCandidates({ candidates, partySize: 2, stay: stay('19:00', '21:00'), occupied, minUsableMinutes: 60 });
    expect(ranked.map((entry) => [entry.candidate.id, entry.fragmentation])).toEqual([
      ['t2', { wastedMinutes: 0, newGaps: 1, slackMinutes: 120 }],
      ['t1', { wastedMinutes: 0, newGaps: 1, slackMinutes: 240 }],
    ]);
  });

  it('counts leftovers shorter than the stay itself as wasted by default', () => {
    const occupied = [
      hold('t1', '15:00', '17:00'),
      hold('t1', '23:00', '23:30'),
      hold('t2', '16:00', '18:00'),
      hold('t2', '22:00', '23:00'),
    ];
    const candidates = seatingCandidates(pair, [], { partySize: 2 });
    const ranked = rankCandidates({ candidates, partySize: 2, stay: stay('19:00', '21:00'), occupied });
    expect(ranked.map((entry) => [entry.candidate.id, entry.fragmentation.wastedMinutes])).toEqual([
      ['t1', 0],
      ['t2', 120],
    ]);
  });
});

describe('availability of a table', () => {
  const one = [table('1', 4)];
  it.each([
    ['free when a stay ends as it starts', [hold('t1', '17:00', '19:00')], ['19:00', '21:00'], 't1'],
    ['free when a stay starts as it ends', [hold('t1', '21:00', '23:00')], ['19:00', '21:00'], 't1'],
    ['taken by an overlapping stay', [hold('t1', '20:00', '22:00')], ['19:00', '21:00'], null],
    ['taken by a stay sharing a quarter hour', [hold('t1', '17:00', '19:05')], ['19:10', '21:00'], null],
    ['free of a stay on another table', [hold('t2', '19:00', '21:00')], ['19:00', '21:00'], 't1'],
    ['free of an empty hold', [hold('t1', '20:00', '20:00')], ['19:00', '21:00'], 't1'],
  ])('%s', (_name, occupied, window, expected) => {
    expect(choose(one, { occupied, window: window as [string, string] })).toBe(expected);
  });

  it('takes a combination only when every member is free', () => {
    const tables = [table('1', 2), table('2', 2)];
    const combinations = [combination('c', 't1', 't2')];
    expect(choose(tables, { combinations, partySize: 4, occupied: [hold('t2', '20:30', '21:30')] })).toBeNull();
    expect(choose(tables, { combinations, partySize: 4, occupied: [hold('t2', '21:00', '21:30')] })).toBe('c');
  });

  it.each([
    ['no table seats the party', { partySize: 5 }],
    ['an empty stay', { window: ['19:00', '19:00'] as [string, string] }],
    ['a party of none', { partySize: 0 }],
  ])('chooses nothing for %s', (_name, options) => {
    expect(choose([table('1', 4)], options)).toBeNull();
  });

  it('skips a candidate handed in that does not seat the party', () => {
    const candidates = seatingCandidates([table('1', 2), table('2', 6)], [], { partySize: 1 });
    expect(chooseTables({ candidates, partySize: 4, stay: stay('19:00', '21:00'), occupied: [] })?.id).toBe('t2');
  });
});

describe('guest pick', () => {
  const floor = [
    table('1', 2, { seatingAreaId: 'bar' }),
    table('2', 4, { seatingAreaId: 'terrace' }),
    table('3', 4, { seatingAreaId: 'terrace' }),
    table('4', 2, { seatingAreaId: null }),
  ];
  const combinations = [combination('c', 't1', 't2'), combination('d', 't2', 't3')];
  it.each([
    ['only tables in the guest-pick areas', { areaIds: ['terrace'] }, 2, 't2'],
    ['every area when none is listed', { areaIds: [] }, 2, 't1'],
    ['a table without an area is in no listed area', { areaIds: ['bar'], requestedTableId: 't4' }, 2, null],
    ['only the requested table, even when a smaller one is free', { areaIds: [], requestedTableId: 't3' }, 2, 't3'],
    ['a requested combination', { areaIds: ['terrace'], requestedTableId: 'd' }, 2, 'd'],
    ['not a requested table outside the areas', { areaIds: ['terrace'], requestedTableId: 't1' }, 2, null],
    ['not a requested table too small for the party', { areaIds: [], requestedTableId: 't1' }, 3, null],
    ['a combination only with every member in the areas', { areaIds: ['terrace'] }, 6, 'd'],
    ['no combination across areas', { areaIds: ['bar'] }, 6, null],
    ['a null request is no request', { areaIds: ['terrace'], requestedTableId: null }, 2, 't2'],
  ])('%s', (_name, guestPick, partySize, expected) => {
    expect(choose(floor, { combinations, partySize, guestPick })).toBe(expected);
  });

  it('does not fall back when the requested table is taken', () => {
    const guestPick = { areaIds: [], requestedTableId: 't2' };
    expect(choose(floor, { guestPick, occupied: [hold('t2', '18:00', '20:00')] })).toBeNull();
  });
});
