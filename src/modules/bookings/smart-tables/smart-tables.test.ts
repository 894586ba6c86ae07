/**
 * The smart-table pass: the staff preview (moves, blocked bookings and why, seats freed, fragmentation;
 * access and validation) and the daily run (when it is due, what it changes, once per day, and exactly
 * once when two instances race).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createOperator,
  createStaff,
  createTestApp,
  setupVenue,
  TEST_NOW,
  type TestApp,
  type VenueApi,
} from '../../../../test/helpers/app.js';
import { insertBooking, insertTable, slotsHeld } from '../core/bookings.test-support.js';
import { slotsOf } from '../core/slots.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** The venue is in Europe/London: on these June dates 06:00 local is 05:00Z. */
const DATE = '2026-06-20';
const utc = (time: string, date = DATE) => `${date}T${time}:00.000Z`;
const stay = (from: string, to: string, date = DATE) => ({ starts_at: utc(from, date), ends_at: utc(to, date) });

/** `date` null: no date at all. */
const previewOf = (headers: Record<string, string>, venueId: string, date: string | null = DATE) =>
  t.app.inject({
    method: 'GET',
    url: `/api/my-venues/${venueId}/smart-tables/preview${date === null ? '' : `?date=${encodeURIComponent(date)}`}`,
    headers,
  });

/** Tables numbered by the keys, with those capacities; answers their ids by number. */
async function floor(venueId: string, capacities: Record<string, number>): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const [number, capacity] of Object.entries(capacities))
    ids[number] = await insertTable(t, venueId, { table_number: number, capacity });
  return ids;
}

const tablesOf = async (bookingId: string) =>
  (await t.db.kysely.selectFrom('booking_tables').select('table_id').where('booking_id', '=', bookingId).execute()).map((r) => r.table_id);

const passHistory = (bookingIds: string[]) =>
  t.db.kysely
    .selectFrom('booking_history')
    .selectAll()
    .where('booking_id', 'in', bookingIds)
    .where('action', '=', 'smart_reassign')
    .execute();

async function enablePass(api: VenueApi, reassignTime = '06:00') {
  const res = await api.put('/smart-tables', { reassign_enabled: true, reassign_time: reassignTime });
  expect(res.statusCode, res.body).toBe(200);
}

describe('GET /smart-tables/preview', () => {
  beforeEach(() => t.clock.set(TEST_NOW));

  it('lists the moves, names the bookings that stay and why, and counts seats and gaps', async () => {
    const { op, venueId, api } = await setupVenue(t);
    const tables = await floor(venueId, { 1: 8, 2: 2, 3: 4, 4: 6, 5: 6, 6: 4 });
    const rule = await api.post('/access-rules', { name: 'Terrace', seating_enabled: true, table_ids: [tables[5], tables[6]] });
    expect(rule.statusCode, rule.body).toBe(200);
    const pickRule = await api.post('/access-rules', { name: 'Pick your table', table_assignment_mode: 'guest_pick' });
    expect(pickRule.statusCode, pickRule.body).toBe(200);

    // Two on the eight-top, with another party there at 22:00: the hour between is too short to book.
    const onLarge = await insertBooking(t, op.operatorId, venueId, { ...stay('19:00', '21:00'), tableIds: [tables[1]] });
    const later = await insertBooking(t, op.operatorId, venueId, { ...stay('22:00', '23:00'), guest_count: 7, tableIds: [tables[1]] });
    const locked = await insertBooking(t, op.operatorId, venueId, { ...stay('19:00', '21:00'), table_locked: 1, tableIds: [tables[3]] });
    const picked = await insertBooking(t, op.operatorId, venueId, {
      ...stay('19:00', '21:00'),
      source: 'widget',
      access_rule_id: pickRule.json().id,
      tableIds: [tables[4]],
    });
    // Its rule seats it at tables 5 and 6 only: the smaller table 6, not the free two-top.
    const restricted = await insertBooking(t, op.operatorId, venueId, {
      ...stay('13:00', '15:00'),
      access_rule_id: rule.json().id,
      tableIds: [tables[5]],
    });
    // Not part of the day's pass: cancelled, or another date.
    await insertBooking(t, op.operatorId, venueId, { ...stay('19:00', '21:00'), status: 'cancelled', tableIds: [tables[5]] });
    await insertBooking(t, op.operatorId, venueId, { ...stay('19:00', '21:00', '2026-06-21'), tableIds: [tables[1]] });

    const res = await previewOf(op.headers, venueId);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const guest = { guest_name: 'Ada Lovelace', party_size: 2 };
    expect(body.moves).toEqual([
      {
        booking_id: restricted,
        ...guest,
        start_time: '13:00',
        from: { table_ids: [tables[5]], table_numbers: ['5'], capacity: 6 },
        to: { table_ids: [tables[6]], table_numbers: ['6'], capacity: 4 },
      },
      {
        booking_id: onLarge,
        ...guest,
        start_time: '19:00',
        from: { table_ids: [tables[1]], table_numbers: ['1'], capacity: 8 },
        to: { table_ids: [tables[2]], table_numbers: ['2'], capacity: 2 },
      },
    ]);
    expect(body.blocked).toHaveLength(3);
    expect(body.blocked).toEqual(
      expect.arrayContaining([
        {
          booking_id: locked,
          ...guest,
          start_time: '19:00',
          tables: { table_ids: [tables[3]], table_numbers: ['3'], capacity: 4 },
          reason: 'locked',
        },
        {
          booking_id: picked,
          ...guest,
          start_time: '19:00',
          tables: { table_ids: [tables[4]], table_numbers: ['4'], capacity: 6 },
          reason: 'guest_pick',
        },
      ]),
    );
    expect(body.blocked.at(-1)).toMatchObject({ booking_id: later, party_size: 7, reason: 'already_best' });
    expect(body.seats_freed).toBe(8);
    expect(body.fragmentation).toEqual({
      before: { short_gaps: 1, short_gap_minutes: 60 },
      after: { short_gaps: 0, short_gap_minutes: 0 },
    });
    expect(body.date).toBe(DATE);

    // A preview changes nothing.
    expect(await tablesOf(onLarge)).toEqual([tables[1]]);
    expect(await passHistory([onLarge, restricted])).toEqual([]);
  });

  it('leaves out what has started, and a date without bookings has an empty plan', async () => {
    const { op, venueId } = await setupVenue(t);
    const tables = await floor(venueId, { 1: 8, 2: 2 });
    const started = await insertBooking(t, op.operatorId, venueId, { ...stay('11:00', '13:00', '2026-06-15'), tableIds: [tables[1]] });
    const res = await previewOf(op.headers, venueId, '2026-06-15');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ moves: [], blocked: [], seats_freed: 0 });
    expect(await tablesOf(started)).toEqual([tables[1]]);
    expect((await previewOf(op.headers, venueId, '2026-07-01')).json()).toEqual({
      date: '2026-07-01',
      moves: [],
      blocked: [],
      seats_freed: 0,
      fragmentation: { before: { short_gaps: 0, short_gap_minutes: 0 }, after: { short_gaps: 0, short_gap_minutes: 0 } },
    });
  });

  it('needs a signed-in caller of the venue’s account with the tables permission', async () => {
    const { op, venueId } = await setupVenue(t);
    const stranger = await createOperator(t, 'Other Operator');
    expect((await previewOf(stranger.headers, venueId)).statusCode).toBe(404);
    expect((await previewOf({}, venueId)).statusCode).toBe(401);
    const bookingsOnly = await createStaff(t, op, { bookings: 'write' });
    expect((await previewOf(bookingsOnly.headers, venueId)).statusCode).toBe(403);
    const tablesReader = await createStaff(t, op, { tables: 'read' });
    expect((await previewOf(tablesReader.headers, venueId)).statusCode).toBe(200);
    const elsewhere = await createStaff(t, op, { tables: 'read' }, [(await setupVenue(t)).venueId]);
    expect((await previewOf(elsewhere.headers, venueId)).statusCode).toBe(404);
  });

  it('refuses a missing or malformed date, and one that is not on the calendar', async () => {
    const { op, venueId } = await setupVenue(t);
    for (const date of [null, 'tomorrow', '2026-6-1', '2026-02-30']) {
      const res = await previewOf(op.headers, venueId, date);
      expect(res.statusCode, String(date)).toBe(400);
      expect(res.json().error).toMatch(/date/);
    }
  });
});

describe('the daily pass (runDue)', () => {
  /** A venue whose pass would move x from the eight-top to the four-top that y leaves for the two-top. */
  async function chainVenue(date = DATE) {
    const venue = await setupVenue(t);
    const tables = await floor(venue.venueId, { 8: 8, 4: 4, 2: 2 });
    const book = (fields: object) => insertBooking(t, venue.op.operatorId, venue.venueId, fields);
    const x = await book({ ...stay('19:00', '21:00', date), guest_count: 4, tableIds: [tables[8]] });
    const y = await book({ ...stay('19:30', '21:30', date), guest_count: 2, tableIds: [tables[4]] });
    return { ...venue, tables, book, x, y };
  }

  // Read from the row: moving the clock days ahead outlives the operator's session.
  const lastRun = async (venueId: string) =>
    (await t.db.kysely.selectFrom('smart_table_settings').select('reassign_last_run').where('venue_id', '=', venueId).executeTakeFirst())
      ?.reassign_last_run ?? null;

  it('runs once the venue-local reassign_time has passed, moves the bookings of the coming week and records the run', async () => {
    const { api, venueId, tables, book, x, y } = await chainVenue();
    const tomorrow = await book({ ...stay('19:00', '21:00', '2026-06-21'), tableIds: [tables[8]] });
    const nextWeek = await book({ ...stay('19:00', '21:00', '2026-06-27'), tableIds: [tables[8]] });
    await enablePass(api);

    t.clock.set('2026-06-20T04:59:00.000Z');
    const early = await t.ctx.smartTables.runDue();
    expect(early.venues).toEqual([]);
    expect(await tablesOf(x)).toEqual([tables[8]]);
    expect(await lastRun(venueId)).toBeNull();

    t.clock.set('2026-06-20T05:00:00.000Z');
    const run = await t.ctx.smartTables.runDue();
    expect(run.venues).toContain(venueId);
    expect(run.moved).toBeGreaterThanOrEqual(3);
    // x could only move once y had left the four-top: the pass tries again after a round that moved someone.
    expect(await tablesOf(x)).toEqual([tables[4]]);
    expect(await tablesOf(y)).toEqual([tables[2]]);
    expect(await tablesOf(tomorrow)).toEqual([tables[2]]);
    expect(await tablesOf(nextWeek)).toEqual([tables[8]]);
    expect(await slotsHeld(t, x)).toEqual({ [tables[4]]: slotsOf(new Date(utc('19:00')), new Date(utc('21:00'))) });
    expect(await slotsHeld(t, y)).toEqual({ [tables[2]]: slotsOf(new Date(utc('19:30')), new Date(utc('21:30'))) });
    const history = await passHistory([x, y, tomorrow, nextWeek]);
    expect(history.map((h) => [h.booking_id, h.actor_kind, h.at, JSON.parse(h.detail)]).sort()).toEqual(
      [
        [x, 'system', '2026-06-20T05:00:00.000Z', { from: [tables[8]], to: [tables[4]], from_capacity: 8, to_capacity: 4 }],
        [y, 'system', '2026-06-20T05:00:00.000Z', { from: [tables[4]], to: [tables[2]], from_capacity: 4, to_capacity: 2 }],
        [tomorrow, 'system', '2026-06-20T05:00:00.000Z', { from: [tables[8]], to: [tables[2]], from_capacity: 8, to_capacity: 2 }],
      ].sort(),
    );
    expect(await lastRun(venueId)).toBe('2026-06-20T05:00:00.000Z');

    // Later the same day: already run.
    t.clock.set('2026-06-20T09:00:00.000Z');
    expect((await t.ctx.smartTables.runDue()).venues).toEqual([]);
    expect(await passHistory([x, y, tomorrow, nextWeek])).toHaveLength(3);
    expect(await lastRun(venueId)).toBe('2026-06-20T05:00:00.000Z');
  });

  it('does nothing for a venue with the pass off', async () => {
    const { api, venueId, tables, x, y } = await chainVenue('2026-06-22');
    t.clock.set('2026-06-22T07:00:00.000Z');
    expect((await t.ctx.smartTables.runDue()).venues).not.toContain(venueId);
    await enablePass(api);
    expect((await api.put('/smart-tables', { reassign_enabled: false })).statusCode).toBe(200);
    expect((await t.ctx.smartTables.runDue()).venues).not.toContain(venueId);
    expect(await tablesOf(x)).toEqual([tables[8]]);
    expect(await tablesOf(y)).toEqual([tables[4]]);
    expect(await passHistory([x, y])).toEqual([]);
    expect(await lastRun(venueId)).toBeNull();
  });

  it('never moves a locked booking', async () => {
    const { api, venueId, tables, book, x, y } = await chainVenue('2026-06-23');
    const locked = await book({ ...stay('12:00', '14:00', '2026-06-23'), table_locked: 1, tableIds: [tables[8]] });
    await enablePass(api, '10:30');
    t.clock.set('2026-06-23T09:30:00.000Z');
    const run = await t.ctx.smartTables.runDue();
    expect(run.venues).toContain(venueId);
    expect(await tablesOf(locked)).toEqual([tables[8]]);
    expect(await passHistory([locked])).toEqual([]);
    expect(await passHistory([x, y])).toHaveLength(2);
  });

  it('runs exactly once when two instances race for the same run', async () => {
    const { api, venueId, tables, x, y } = await chainVenue('2026-06-24');
    await enablePass(api);
    const now = new Date('2026-06-24T05:01:00.000Z');
    const [first, second] = await Promise.all([t.ctx.smartTables.runDue(now), t.ctx.smartTables.runDue(now)]);
    expect([...first.venues, ...second.venues].filter((id) => id === venueId)).toEqual([venueId]);
    expect(await passHistory([x, y])).toHaveLength(2);
    expect(await tablesOf(x)).toEqual([tables[4]]);
    expect(await tablesOf(y)).toEqual([tables[2]]);
  });
});
