import { describe, expect, it } from 'vitest';
import { local, rule, run, shift, stay, summary, table, venue } from './availability.test-support.js';
import { computeAvailability, freeCandidates, nextAvailableDates, slotFree } from './engine.js';
import type { AvailabilityQuery, Occupancy, VenueConfig } from './types.js';

// 2026-07-10 is a Friday in British Summer Time (UTC+1).
const FRI = '2026-07-10';
const NOW = new Date('2026-07-01T09:00:00Z');
const ask = (config: VenueConfig, query: Partial<AvailabilityQuery> = {}, occupancy: Occupancy = []) =>
  computeAvailability(config, occupancy, { date: FRI, partySize: 2, type: 'tables', now: NOW, ...query });

describe('windows: shifts, rules and the slot grid', () => {
  it('offers every 15 minutes of the shift, half-open at its end, at the right instants', () => {
    const result = ask(venue());
    expect(summary(result)).toEqual(run('17:00', '21:45', 'ok'));
    expect(result.slots[0].starts_at.toISOString()).toBe('2026-07-10T16:00:00.000Z');
    expect(result.slots[0].ends_at.toISOString()).toBe('2026-07-10T18:00:00.000Z');
    expect(result.access_rule_ids).toEqual(['rule_dinner']);
    expect(result.party_too_large).toBe(false);
  });

  it.each([
    ['rule window inside the shift', { timeFrom: '18:00', timeTo: '19:00' }, {}, run('18:00', '18:45', 'ok')],
    ['rule window past the shift end: only the shared part', { timeFrom: '21:00', timeTo: '23:30' }, {}, run('21:00', '21:45', 'ok')],
    ['rule on other days only', { daysOfWeek: ['sat', 'sun'] }, {}, []],
    ['shift on other days only', {}, { daysOfWeek: ['mon'] }, []],
    ['shift schedule ended', {}, { scheduleEnd: '2026-07-09' }, []],
    ['shift schedule starts that day', { timeFrom: '17:00', timeTo: '17:30' }, { scheduleStart: FRI }, run('17:00', '17:15', 'ok')],
    ['shift window off the grid starts at the next grid point', {}, { timeFrom: '17:10', timeTo: '17:50' }, run('17:15', '17:45', 'ok')],
  ])('%s', (_case, ruleFields, shiftFields, expected) => {
    const result = ask(venue({ accessRules: [rule(ruleFields)], shifts: [shift(shiftFields)] }));
    expect(summary(result)).toEqual(expected);
    expect(result.access_rule_ids).toEqual(expected.length > 0 ? ['rule_dinner'] : []);
  });

  it('uses a named time period for a custom shift, the opening hours for a default one', () => {
    const periods = venue({
      timePeriods: [{ id: 'tp_lunch', timeFrom: '12:00', timeTo: '13:00' }],
      shifts: [shift({ timePeriodId: 'tp_lunch' })],
    });
    expect(summary(ask(periods))).toEqual(run('12:00', '12:45', 'ok'));

    const hours = {
      fri: [
        { open: '11:00', close: '11:30' },
        { open: '23:30', close: '00:30' },
      ],
    };
    const byHours = venue({
      defaults: { ...venue().defaults, openingHours: hours },
      shifts: [shift({ timeType: 'default' })],
    });
    expect(summary(ask(byHours))).toEqual([...run('11:00', '11:15', 'ok'), ...run('23:30', '00:15', 'ok')]);
    // Saturday has no hours: a default shift is closed.
    expect(summary(ask(byHours, { date: '2026-07-11' }))).toEqual([]);
  });

  it('treats a venue without shifts as one shift on its opening hours (all day when it has none)', () => {
    const config = venue({ shifts: [], accessRules: [rule({ timeFrom: '23:00', timeTo: '01:00' })] });
    // Open all day: the rule's clock window also matches the date's own small hours.
    expect(summary(ask(config))).toEqual([...run('00:00', '00:45', 'ok'), ...run('23:00', '23:45', 'ok')]);
    const hours = venue({
      shifts: [],
      defaults: { ...venue().defaults, openingHours: { fri: [{ open: '20:00', close: '02:00' }] } },
      accessRules: [rule({ timeFrom: '23:00', timeTo: '01:00' })],
    });
    expect(summary(ask(hours))).toEqual(run('23:00', '00:45', 'ok'));
  });

  it('lets the first shift in config order serve where shifts overlap (its duration applies)', () => {
    const config = venue({
      shifts: [
        shift({ id: 'sh_a', timeFrom: '17:00', timeTo: '18:00', durationType: 'custom', durationMinutes: 60 }),
        shift({ id: 'sh_b', timeFrom: '17:30', timeTo: '18:30', durationType: 'custom', durationMinutes: 90 }),
      ],
    });
    const result = ask(config);
    expect(summary(result)).toEqual(run('17:00', '18:15', 'ok'));
    const minutes = result.slots.map((s) => (s.ends_at.getTime() - s.starts_at.getTime()) / 60_000);
    expect(minutes).toEqual([60, 60, 60, 60, 90, 90]);
  });

  it('lists slots by time, then by the rules’ config order', () => {
    const config = venue({
      shifts: [shift({ timeFrom: '18:00', timeTo: '18:30' })],
      tables: [table('t1'), table('t2')],
      accessRules: [rule({ id: 'rule_b' }), rule({ id: 'rule_a', timeFrom: '18:15', timeTo: '19:00' })],
    });
    expect(summary(ask(config), true)).toEqual(['rule_b 18:00 ok', 'rule_b 18:15 ok', 'rule_a 18:15 ok']);
  });
});

describe('windows passing midnight', () => {
  const late = venue({ shifts: [shift({ daysOfWeek: ['fri'], timeFrom: '22:00', timeTo: '02:00' })] });

  it('keeps the small hours on the service day they started on, at the next calendar day’s instants', () => {
    const result = ask(late);
    expect(summary(result)).toEqual(run('22:00', '01:45', 'ok'));
    const midnight = result.slots.find((s) => s.time === '00:00');
    expect(midnight?.starts_at.toISOString()).toBe('2026-07-10T23:00:00.000Z');
    // Saturday has no shift of its own; Friday night's small hours are not Saturday's.
    expect(summary(ask(late, { date: '2026-07-11' }))).toEqual([]);
  });

  it('matches a rule window as clock times, so 00:00–01:00 is the small hours after the shift', () => {
    expect(summary(ask({ ...late, accessRules: [rule({ timeFrom: '00:00', timeTo: '01:00' })] }))).toEqual(run('00:00', '00:45', 'ok'));
    expect(summary(ask({ ...late, accessRules: [rule({ timeFrom: '23:30', timeTo: '00:30' })] }))).toEqual(run('23:30', '00:15', 'ok'));
  });

  it('applies blackouts by service date, not by calendar date', () => {
    const blackedSat = {
      ...late,
      blackouts: [{ id: 'b', dateFrom: '2026-07-11', dateTo: '2026-07-11', affectsReservations: true, affectsGuestlist: false }],
    };
    expect(summary(ask(blackedSat))).toEqual(run('22:00', '01:45', 'ok'));
  });
});

describe('DST days in Europe/London', () => {
  const night = venue({ shifts: [shift({ timeFrom: '22:00', timeTo: '03:00' })] });
  const now = new Date('2026-03-01T00:00:00Z');

  it('2026-03-29 spring forward: the skipped hour has no slots; instants follow the offset change', () => {
    const result = ask(night, { date: '2026-03-28', now });
    expect(summary(result)).toEqual([...run('22:00', '00:45', 'ok'), ...run('02:00', '02:45', 'ok')]);
    const at = (time: string) => result.slots.find((s) => s.time === time)?.starts_at.toISOString();
    expect(at('22:00')).toBe('2026-03-28T22:00:00.000Z');
    expect(at('00:45')).toBe('2026-03-29T00:45:00.000Z');
    expect(at('02:00')).toBe('2026-03-29T01:00:00.000Z');
    // A stay is elapsed time: two hours from 00:30 GMT end at 03:30 BST.
    const half = result.slots.find((s) => s.time === '00:30');
    expect(half?.ends_at.toISOString()).toBe('2026-03-29T02:30:00.000Z');
  });

  it('2026-10-25 fall back: the repeated hour is offered once, at its first occurrence', () => {
    const result = ask(night, { date: '2026-10-24', now: new Date('2026-10-01T00:00:00Z') });
    expect(summary(result)).toEqual(run('22:00', '02:45', 'ok'));
    const at = (time: string) => result.slots.find((s) => s.time === time)?.starts_at.toISOString();
    expect(at('22:00')).toBe('2026-10-24T21:00:00.000Z');
    expect(at('01:00')).toBe('2026-10-25T00:00:00.000Z');
    expect(at('01:45')).toBe('2026-10-25T00:45:00.000Z');
    expect(at('02:00')).toBe('2026-10-25T02:00:00.000Z');
  });

  it('2026-10-25 as a service day of its own: slots from midnight, before and after the change', () => {
    const config = venue({
      shifts: [shift({ timeFrom: '00:00', timeTo: '03:00' })],
      accessRules: [rule({ timeFrom: '00:30', timeTo: '02:30' })],
    });
    const result = ask(config, { date: '2026-10-25', now: new Date('2026-10-01T00:00:00Z') });
    expect(summary(result)).toEqual(run('00:30', '02:15', 'ok'));
    expect(result.slots.map((s) => s.starts_at.toISOString().slice(11, 16))).toEqual([
      '23:30',
      '23:45',
      '00:00',
      '00:15',
      '00:30',
      '00:45',
      '02:00',
      '02:15',
    ]);
  });

  it('2026-03-29 as a service day: a calendar-day horizon keeps the wall-clock time across the change', () => {
    const config = venue({
      defaults: { ...venue().defaults, bookingStart: { value: 1, unit: 'days' } },
      shifts: [shift({ timeFrom: '17:30', timeTo: '18:30' })],
    });
    // 18:00 GMT on Saturday; one calendar day later is 18:00 BST (17:00Z) on Sunday.
    const result = ask(config, { date: '2026-03-29', now: new Date('2026-03-28T18:00:00Z') });
    expect(summary(result)).toEqual(['17:30 ok', '17:45 ok', '18:00 ok', '18:15 horizon']);
  });
});

describe('party size', () => {
  it.each([
    ['venue defaults: 10 fits', {}, {}, 10, 'ok', false],
    ['venue defaults: 11 is too many', {}, {}, 11, 'party_size', true],
    ['shift limits override the venue', {}, { partySizeMin: 2, partySizeMax: 4 }, 5, 'party_size', true],
    ['shift minimum', {}, { partySizeMin: 3, partySizeMax: 4 }, 2, 'party_size', false],
    [
      'rule toggle on overrides the shift',
      { partySizeEnabled: true, partySizeMin: 1, partySizeMax: 12 },
      { partySizeMax: 4 },
      8,
      'ok',
      false,
    ],
    ['rule toggle off: its values are ignored', { partySizeEnabled: false, partySizeMin: 1, partySizeMax: 2 }, {}, 4, 'ok', false],
    ['rule maximum below the party', { partySizeEnabled: true, partySizeMin: 1, partySizeMax: 3 }, {}, 4, 'party_size', true],
  ])('%s', (_case, ruleFields, shiftFields, partySize, outcome, tooLarge) => {
    const config = venue({
      accessRules: [rule(ruleFields)],
      shifts: [shift({ ...shiftFields, timeFrom: '18:00', timeTo: '18:15' })],
      tables: [table('t_big', 20)],
    });
    const result = ask(config, { partySize });
    expect(summary(result)).toEqual([`18:00 ${outcome}`]);
    expect(result.party_too_large).toBe(tooLarge);
  });

  it('is too large when no table or combination could ever seat the party, but not when one is only taken', () => {
    const base = venue({ shifts: [shift({ timeFrom: '18:00', timeTo: '18:15' })], tables: [table('t1', 2), table('t2', 2)] });
    expect(ask(base, { partySize: 4 })).toMatchObject({ party_too_large: true, slots: [{ reason: 'no_table' }] });
    const combined = { ...base, combinations: [{ id: 'c12', tableIds: ['t1', 't2'], capacity: 4 }] };
    expect(ask(combined, { partySize: 4 })).toMatchObject({ party_too_large: false, slots: [{ available: true }] });
    const taken = [stay('b1', ['t1'], FRI, '17:00', '19:00')];
    expect(ask(combined, { partySize: 4 }, taken)).toMatchObject({ party_too_large: false, slots: [{ reason: 'no_table' }] });
  });

  it('compares with the venue maximum when the day has no slots', () => {
    const closed = venue({ shifts: [shift({ daysOfWeek: ['mon'] })] });
    expect(ask(closed, { partySize: 10 }).party_too_large).toBe(false);
    expect(ask(closed, { partySize: 11 }).party_too_large).toBe(true);
  });

  it('rejects a party size that is not a positive whole number', () => {
    expect(() => ask(venue(), { partySize: 0 })).toThrow(RangeError);
    expect(() => ask(venue(), { partySize: 2.5 })).toThrow(RangeError);
  });
});

describe('booking window: cutoff and horizon', () => {
  const evening = venue({ shifts: [shift({ timeFrom: '18:00', timeTo: '19:00' })] });

  it.each([
    ['no cutoff: bookable until it starts', null, '2026-07-10T17:15:00Z', ['18:00 cutoff', '18:15 ok', '18:30 ok', '18:45 ok']],
    ['no cutoff, earlier', null, '2026-07-10T16:30:00Z', run('18:00', '18:45', 'ok')],
    ['1 hour cutoff', { value: 1, unit: 'hours' }, '2026-07-10T16:30:00Z', ['18:00 cutoff', '18:15 cutoff', '18:30 ok', '18:45 ok']],
    [
      '90 minutes, exactly at the edge',
      { value: 90, unit: 'minutes' },
      '2026-07-10T15:30:00Z',
      ['18:00 ok', '18:15 ok', '18:30 ok', '18:45 ok'],
    ],
    ['1 day cutoff', { value: 1, unit: 'days' }, '2026-07-09T17:15:00Z', ['18:00 cutoff', '18:15 ok', '18:30 ok', '18:45 ok']],
  ])('%s', (_case, cutoff, now, expected) => {
    const config = { ...evening, defaults: { ...evening.defaults, bookingCutoff: cutoff } };
    expect(summary(ask(config, { now: new Date(now) }))).toEqual(expected);
  });

  it('opens 90 days ahead by default, to the instant', () => {
    const lunch = venue({ shifts: [shift({ timeFrom: '12:45', timeTo: '13:30' })] });
    // now + 90 days = 2026-08-30T12:00Z = 13:00 BST.
    const result = ask(lunch, { date: '2026-08-30', now: new Date('2026-06-01T12:00:00Z') });
    expect(summary(result)).toEqual(['12:45 ok', '13:00 ok', '13:15 horizon']);
  });

  it('takes the rule’s window when its toggle is on, each part falling back to the venue', () => {
    const config = {
      ...evening,
      defaults: { ...evening.defaults, bookingCutoff: { value: 1, unit: 'hours' }, bookingStart: { value: 1, unit: 'days' } },
    };
    const now = new Date('2026-07-09T17:15:00Z'); // Thursday 18:15 BST
    expect(summary(ask(config, { now }))).toEqual(['18:00 ok', '18:15 ok', '18:30 horizon', '18:45 horizon']);
    const ruleStart = { ...config, accessRules: [rule({ bookingWindowEnabled: true, bookingStart: { value: 2, unit: 'days' } })] };
    expect(summary(ask(ruleStart, { now }))).toEqual(run('18:00', '18:45', 'ok'));
    const off = { ...config, accessRules: [rule({ bookingWindowEnabled: false, bookingStart: { value: 2, unit: 'days' } })] };
    expect(summary(ask(off, { now }))).toEqual(['18:00 ok', '18:15 ok', '18:30 horizon', '18:45 horizon']);
    const ruleCutoff = { ...ruleStart, accessRules: [rule({ bookingWindowEnabled: true, bookingCutoff: { value: 3, unit: 'hours' } })] };
    // Rule cutoff 3 h applies; its start is unset, so the venue's 1 day applies.
    expect(summary(ask(ruleCutoff, { now: new Date('2026-07-10T14:10:00Z') }))).toEqual([
      '18:00 cutoff',
      '18:15 ok',
      '18:30 ok',
      '18:45 ok',
    ]);
  });
});

describe('blackouts by kind', () => {
  const blackout = (affectsReservations: boolean, affectsGuestlist: boolean, dateFrom = '2026-07-09', dateTo = FRI) => ({
    id: 'bo',
    dateFrom,
    dateTo,
    affectsReservations,
    affectsGuestlist,
  });
  const both = venue({
    shifts: [shift({ timeFrom: '18:00', timeTo: '18:30' })],
    accessRules: [rule(), rule({ id: 'rule_list', ruleType: 'guestlist' })],
  });

  it.each([
    ['reservations only', blackout(true, false), ['18:00 blackout', '18:15 blackout'], ['18:00 ok', '18:15 ok']],
    ['guest list only', blackout(false, true), ['18:00 ok', '18:15 ok'], ['18:00 blackout', '18:15 blackout']],
    ['both', blackout(true, true), ['18:00 blackout', '18:15 blackout'], ['18:00 blackout', '18:15 blackout']],
    ['neither (events only)', blackout(false, false), ['18:00 ok', '18:15 ok'], ['18:00 ok', '18:15 ok']],
    ['ended the day before', blackout(true, true, '2026-07-01', '2026-07-09'), ['18:00 ok', '18:15 ok'], ['18:00 ok', '18:15 ok']],
  ])('%s', (_case, b, tables, guestlist) => {
    const config = { ...both, blackouts: [b] };
    expect(summary(ask(config, { type: 'tables' }))).toEqual(tables);
    expect(summary(ask(config, { type: 'guestlist' }))).toEqual(guestlist);
  });

  it('wins over every later reason', () => {
    const config = { ...both, blackouts: [blackout(true, false)] };
    expect(summary(ask(config, { partySize: 50, now: new Date('2026-07-11T00:00:00Z') }))).toEqual(['18:00 blackout', '18:15 blackout']);
  });
});

describe('tables: occupancy, blocks, status, seating and combinations', () => {
  const oneTable = venue({ shifts: [shift({ timeFrom: '17:00', timeTo: '22:00' })] });

  it('needs the table free for the whole stay (half-open: a stay ending at 19:00 frees it at 19:00)', () => {
    const result = ask(oneTable, {}, [stay('b1', ['t1'], FRI, '19:00', '21:00')]);
    expect(summary(result)).toEqual([...run('17:00', '17:00', 'ok'), ...run('17:15', '20:45', 'no_table'), ...run('21:00', '21:45', 'ok')]);
  });

  it('treats a block like a stay', () => {
    const config = { ...oneTable, blocks: [{ tableId: 't1', fromUtc: local(FRI, '20:00'), toUtc: local(FRI, '20:30') }] };
    expect(summary(ask(config))).toEqual([
      ...run('17:00', '18:00', 'ok'),
      ...run('18:15', '20:15', 'no_table'),
      ...run('20:30', '21:45', 'ok'),
    ]);
  });

  it('offers only active tables, and no combination with an inactive member', () => {
    const config = venue({
      shifts: [shift({ timeFrom: '18:00', timeTo: '18:15' })],
      tables: [table('t1', 2), table('t2', 2, { status: 'inactive' }), table('t3', 6, { status: 'inactive' })],
      combinations: [{ id: 'c12', tableIds: ['t1', 't2'], capacity: 4 }],
    });
    expect(summary(ask(config, { partySize: 2 }))).toEqual(['18:00 ok']);
    expect(summary(ask(config, { partySize: 3 }))).toEqual(['18:00 no_table']);
  });

  it('seats a party on a combination only when every member is free', () => {
    const config = venue({
      shifts: [shift({ timeFrom: '18:00', timeTo: '18:15' })],
      tables: [table('t1', 2), table('t2', 2)],
      combinations: [{ id: 'c12', tableIds: ['t1', 't2'], capacity: 4 }],
    });
    expect(summary(ask(config, { partySize: 4 }))).toEqual(['18:00 ok']);
    expect(summary(ask(config, { partySize: 4 }, [stay('b1', ['t2'], FRI, '19:30', '20:30')]))).toEqual(['18:00 no_table']);
    expect(summary(ask(config, { partySize: 2 }, [stay('b1', ['t2'], FRI, '19:30', '20:30')]))).toEqual(['18:00 ok']);
  });

  it.each([
    ['no restriction', {}, {}, 'ok'],
    ['rule limited to the taken area', { seatingEnabled: true, seatingAreaIds: ['area_bar'] }, {}, 'no_table'],
    ['rule limited to the free area', { seatingEnabled: true, seatingAreaIds: ['area_garden'] }, {}, 'ok'],
    ['rule toggle off: its areas are ignored', { seatingEnabled: false, seatingAreaIds: ['area_bar'] }, {}, 'ok'],
    ['rule limited by table id', { seatingEnabled: true, tableIds: ['t_bar'] }, {}, 'no_table'],
    ['shift limited to the taken area', {}, { seatingAreaIds: ['area_bar'] }, 'no_table'],
    ['shift limited by table id to the free table', {}, { tableIds: ['t_garden'] }, 'ok'],
    [
      'rule and shift intersect to nothing free',
      { seatingEnabled: true, seatingAreaIds: ['area_garden'] },
      { tableIds: ['t_bar'] },
      'no_table',
    ],
  ])('seating: %s', (_case, ruleFields, shiftFields, outcome) => {
    const config = venue({
      shifts: [shift({ ...shiftFields, timeFrom: '18:00', timeTo: '18:15' })],
      accessRules: [rule(ruleFields)],
      tables: [table('t_bar', 4, { seatingAreaId: 'area_bar' }), table('t_garden', 4, { seatingAreaId: 'area_garden' })],
    });
    expect(summary(ask(config, {}, [stay('b1', ['t_bar'], FRI, '18:00', '20:00')]))).toEqual([`18:00 ${outcome}`]);
  });

  it('ignores stays of tables the venue does not list and stays of another booking type', () => {
    const result = ask(oneTable, {}, [
      stay('b1', ['t_gone'], FRI, '17:00', '23:00'),
      stay('g1', [], FRI, '17:00', '23:00', 50, 'rule_list'),
    ]);
    expect(summary(result)).toEqual(run('17:00', '21:45', 'ok'));
  });
});

describe('durations', () => {
  const at18 = (fields: Partial<VenueConfig>, partySize = 2) => {
    const result = ask(venue({ tables: [table('t1', 20)], ...fields }), { partySize });
    const slot = result.slots.find((s) => s.time === '18:00');
    return slot ? (slot.ends_at.getTime() - slot.starts_at.getTime()) / 60_000 : undefined;
  };

  it.each([
    ['venue default', {}, 2, 120],
    ['shift custom', { shifts: [shift({ durationType: 'custom', durationMinutes: 90 })] }, 2, 90],
    ['shift default ignores its minutes', { shifts: [shift({ durationType: 'default', durationMinutes: 90 })] }, 2, 120],
    [
      'rule toggle on beats the shift',
      {
        shifts: [shift({ durationType: 'custom', durationMinutes: 90 })],
        accessRules: [rule({ durationEnabled: true, durationMinutes: 60 })],
      },
      2,
      60,
    ],
    ['rule toggle off', { accessRules: [rule({ durationEnabled: false, durationMinutes: 60 })] }, 2, 120],
    ['smart duration off', {}, 8, 120],
    ['smart duration, party of 4: nothing added', { smartDuration: true }, 4, 120],
    ['smart duration, party of 6: +20', { smartDuration: true }, 6, 140],
    ['smart duration, party of 10: +60', { smartDuration: true }, 10, 180],
    [
      'smart duration on a rule duration, party of 5: +10',
      { smartDuration: true, accessRules: [rule({ durationEnabled: true, durationMinutes: 60 })] },
      5,
      70,
    ],
  ])('%s', (_case, fields, partySize, minutes) => {
    expect(at18(fields as Partial<VenueConfig>, partySize)).toBe(minutes);
  });

  it('caps smart duration at 60 minutes', () => {
    const big = { smartDuration: true, shifts: [shift({ partySizeMax: 20 })] };
    expect(at18(big, 20)).toBe(180);
  });

  it('checks tables over the longer smart stay', () => {
    const config = venue({ smartDuration: true, shifts: [shift({ timeFrom: '18:00', timeTo: '18:15' })], tables: [table('t1', 8)] });
    const later = [stay('b1', ['t1'], FRI, '20:15', '21:00')];
    expect(summary(ask(config, { partySize: 4 }, later))).toEqual(['18:00 ok']);
    expect(summary(ask(config, { partySize: 6 }, later))).toEqual(['18:00 no_table']);
  });
});

describe('max covers paced by covers seated during the stay', () => {
  const paced = (fields: Parameters<typeof rule>[0] = {}) =>
    venue({
      shifts: [shift({ timeFrom: '19:00', timeTo: '19:15' })],
      tables: Array.from({ length: 10 }, (_, i) => table(`t${i}`, 8)),
      accessRules: [rule({ maxCoversEnabled: true, maxCovers: 10, ...fields })],
    });

  it('counts a party seated before the slot (arrivals alone would pass)', () => {
    // Nobody arrives at 19:00, but 6 covers seated since 18:00 are still there.
    const seated = [stay('b1', ['t1'], FRI, '18:00', '20:00', 6)];
    expect(summary(ask(paced(), { partySize: 4 }, seated))).toEqual(['19:00 ok']);
    expect(summary(ask(paced(), { partySize: 5 }, seated))).toEqual(['19:00 max_covers']);
  });

  it('counts parties arriving during the stay', () => {
    const later = [stay('b1', ['t1'], FRI, '20:30', '22:30', 7)];
    expect(summary(ask(paced(), { partySize: 4 }, later))).toEqual(['19:00 max_covers']);
    expect(summary(ask(paced(), { partySize: 3 }, later))).toEqual(['19:00 ok']);
  });

  it('takes the peak, not the sum of every overlapping stay', () => {
    // 6 covers until 19:30, another 6 from 19:30: never more than 6 at once.
    const relay = [stay('b1', ['t1'], FRI, '17:30', '19:30', 6), stay('b2', ['t2'], FRI, '19:30', '21:00', 6)];
    expect(summary(ask(paced(), { partySize: 4 }, relay))).toEqual(['19:00 ok']);
    const overlap = [stay('b1', ['t1'], FRI, '17:30', '19:45', 6), stay('b2', ['t2'], FRI, '19:30', '21:00', 2)];
    expect(summary(ask(paced(), { partySize: 4 }, overlap))).toEqual(['19:00 max_covers']);
  });

  it('counts only the rule’s own stays, and only while its toggle is on', () => {
    const other = [stay('b1', ['t1'], FRI, '18:00', '20:00', 9, 'rule_other'), stay('b2', ['t2'], FRI, '18:00', '20:00', 9, null)];
    expect(summary(ask(paced(), { partySize: 4 }, other))).toEqual(['19:00 ok']);
    const own = [stay('b1', ['t1'], FRI, '18:00', '20:00', 9)];
    expect(summary(ask(paced({ maxCoversEnabled: false }), { partySize: 4 }, own))).toEqual(['19:00 ok']);
  });

  it('makes a party larger than max covers too large', () => {
    expect(ask(paced({ maxCovers: 6 }), { partySize: 7 })).toMatchObject({ party_too_large: true, slots: [{ reason: 'max_covers' }] });
  });

  it('paces guest lists too, without tables', () => {
    const list = venue({
      tables: [],
      shifts: [shift({ timeFrom: '22:00', timeTo: '22:15' })],
      accessRules: [rule({ id: 'rule_list', ruleType: 'guestlist', maxCoversEnabled: true, maxCovers: 10 })],
    });
    const seated = [stay('g1', [], FRI, '21:00', '23:30', 8, 'rule_list')];
    expect(summary(ask(list, { type: 'guestlist', partySize: 2 }, seated))).toEqual(['22:00 ok']);
    expect(summary(ask(list, { type: 'guestlist', partySize: 3 }, seated))).toEqual(['22:00 max_covers']);
    expect(summary(ask(list, { type: 'tables', partySize: 3 }, seated))).toEqual([]);
  });
});

describe('applicable rules and bundles', () => {
  it('lists the type’s rules offering slots that day, with the bundles of those whose toggle is on', () => {
    const config = venue({
      accessRules: [
        rule({ id: 'r1', bundlesEnabled: true, bundleIds: ['bun_a', 'bun_b'] }),
        rule({ id: 'r2', bundlesEnabled: false, bundleIds: ['bun_x'] }),
        rule({ id: 'r3', bundlesEnabled: true, bundleIds: ['bun_b', 'bun_c'] }),
        rule({ id: 'r4', bundlesEnabled: true, bundleIds: ['bun_d'], daysOfWeek: ['mon'] }),
        rule({ id: 'r5', ruleType: 'guestlist', bundlesEnabled: true, bundleIds: ['bun_e'] }),
      ],
    });
    const result = ask(config);
    expect(result.access_rule_ids).toEqual(['r1', 'r2', 'r3']);
    expect(result.bundle_ids).toEqual(['bun_a', 'bun_b', 'bun_c']);
    expect(ask(config, { type: 'guestlist' })).toMatchObject({ access_rule_ids: ['r5'], bundle_ids: ['bun_e'] });
  });
});

describe('next available dates', () => {
  const weekends = venue({
    shifts: [shift({ timeFrom: '19:00', timeTo: '19:30' })],
    accessRules: [rule({ daysOfWeek: ['fri', 'sat'] })],
  });

  it('lists the following days with an available slot, 14 days ahead unless told', () => {
    const dates = nextAvailableDates(weekends, [], { date: '2026-07-08', partySize: 2, type: 'tables', now: NOW });
    expect(dates).toEqual(['2026-07-10', '2026-07-11', '2026-07-17', '2026-07-18']);
    expect(nextAvailableDates(weekends, [], { date: '2026-07-08', partySize: 2, type: 'tables', now: NOW, days: 3 })).toEqual([
      '2026-07-10',
      '2026-07-11',
    ]);
  });

  it('skips full, blacked-out and too-far days, from one occupancy for the whole range', () => {
    const config = {
      ...weekends,
      defaults: { ...weekends.defaults, bookingStart: { value: 17, unit: 'days' } },
      blackouts: [{ id: 'bo', dateFrom: '2026-07-11', dateTo: '2026-07-11', affectsReservations: true, affectsGuestlist: false }],
    };
    const full = [stay('b1', ['t1'], FRI, '18:00', '22:00')];
    const dates = nextAvailableDates(config, full, { date: '2026-07-08', partySize: 2, type: 'tables', now: NOW });
    // 07-10 full, 07-11 blacked out, 07-18 19:00 lies past now + 17 days (07-18 09:00Z).
    expect(dates).toEqual(['2026-07-17']);
  });

  it('caps the look-ahead at 31 days', () => {
    const everyDay = venue({ shifts: [shift({ timeFrom: '19:00', timeTo: '19:15' })] });
    expect(nextAvailableDates(everyDay, [], { date: '2026-07-01', partySize: 2, type: 'tables', now: NOW, days: 100 })).toHaveLength(31);
  });
});

describe('slotFree: the booking transaction’s re-check', () => {
  const floor = venue({
    shifts: [shift({ timeFrom: '18:00', timeTo: '02:00' })],
    tables: [table('t6', 6), table('t2', 2), table('t4', 4), table('t2b', 2)],
    combinations: [{ id: 'c22', tableIds: ['t2', 't2b'], capacity: 4 }],
  });
  const request = { date: FRI, time: '19:00', accessRuleId: 'rule_dinner', partySize: 2, now: NOW };

  it('lists every free table and combination that fits, best fit first', () => {
    const check = slotFree(floor, [], request);
    expect(check.available).toBe(true);
    expect(check.candidates.map((c) => c.id)).toEqual(['t2', 't2b', 't4', 'c22', 't6']);
    expect(check.durationMinutes).toBe(120);
    expect(check.slot?.starts_at.toISOString()).toBe('2026-07-10T18:00:00.000Z');
    const four = slotFree(floor, [stay('b1', ['t4'], FRI, '20:00', '22:00')], { ...request, partySize: 3 });
    expect(four.candidates).toEqual([
      { kind: 'combination', id: 'c22', tableIds: ['t2', 't2b'], capacity: 4 },
      { kind: 'table', id: 't6', tableIds: ['t6'], capacity: 6 },
    ]);
  });

  it('resolves a small-hours time to the service day’s night', () => {
    const check = slotFree(floor, [], { ...request, time: '01:00' });
    expect(check.slot?.starts_at.toISOString()).toBe('2026-07-11T00:00:00.000Z');
  });

  it('leaves the booking itself out when asked', () => {
    const own = [stay('b1', ['t6'], FRI, '19:00', '21:00', 6)];
    expect(slotFree(floor, own, { ...request, partySize: 6 })).toMatchObject({ available: false, reason: 'no_table' });
    expect(slotFree(floor, own, { ...request, partySize: 6, excludeBookingId: 'b1' })).toMatchObject({ available: true });
  });

  it.each([
    ['an unknown rule', { accessRuleId: 'rule_nope' }],
    ['a time the rule does not offer', { time: '17:45' }],
    ['a time off the grid', { time: '19:05' }],
    ['a day the shift does not run', { date: '2026-07-10', accessRuleId: 'rule_mon' }],
  ])('answers closed for %s', (_case, fields) => {
    const config = { ...floor, accessRules: [...floor.accessRules, rule({ id: 'rule_mon', daysOfWeek: ['mon'] })] };
    expect(slotFree(config, [], { ...request, ...fields })).toMatchObject({
      available: false,
      reason: 'closed',
      slot: null,
      candidates: [],
    });
  });

  it('gives the same reason the availability listed', () => {
    expect(slotFree(floor, [], { ...request, now: new Date('2026-07-10T18:30:00Z') })).toMatchObject({
      available: false,
      reason: 'cutoff',
    });
    expect(slotFree(floor, [], { ...request, partySize: 11 })).toMatchObject({ available: false, reason: 'party_size' });
  });
});

describe('freeCandidates: staff assignment at any time', () => {
  const floor = venue({
    tables: [table('t4', 4), table('t2', 2), table('t2b', 2), table('t8', 8, { status: 'inactive' })],
    combinations: [{ id: 'c22', tableIds: ['t2', 't2b'], capacity: 4 }],
    blocks: [{ tableId: 't2b', fromUtc: local(FRI, '21:00'), toUtc: local(FRI, '23:00') }],
  });

  it.each([
    ['party of 2, all free', 2, '12:00', '14:00', undefined, ['t2', 't2b', 't4', 'c22']],
    ['party of 3', 3, '12:00', '14:00', undefined, ['t4', 'c22']],
    ['a block takes t2b (so the combination), a stay t4', 2, '20:00', '22:00', undefined, ['t2']],
    ['limited to some tables (their combination included)', 2, '12:00', '14:00', ['t2', 't2b'], ['t2', 't2b', 'c22']],
    ['the combination needs all its tables allowed', 4, '12:00', '14:00', ['t2', 't2b'], ['c22']],
    ['inactive tables never', 8, '12:00', '14:00', undefined, []],
  ])('%s', (_case, partySize, from, to, tableIds, expected) => {
    const candidates = freeCandidates(floor, [stay('b9', ['t4'], FRI, '20:30', '21:00')], {
      startsAt: local(FRI, from),
      endsAt: local(FRI, to),
      partySize,
      tableIds,
    });
    expect(candidates.map((c) => c.id)).toEqual(expected);
  });
});
