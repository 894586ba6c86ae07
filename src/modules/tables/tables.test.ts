import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, setupVenue, venueApi, type TestApp, type TestOperator, type VenueApi } from '../../../test/helpers/app.js';
import { newId } from '../../platform/ids.js';
import { MAX_CANVAS_ITEMS } from './tables.schemas.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function createTable(v: VenueApi, body: Record<string, unknown>): Promise<string> {
  const res = await v.post('/tables', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id;
}

async function createArea(v: VenueApi, name: string): Promise<string> {
  const res = await v.post('/seating-areas', { name });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id;
}

async function insertBooking(
  op: TestOperator,
  venueId: string,
  tableIds: string[],
  startsAt: string,
  endsAt: string,
  status = 'confirmed',
): Promise<string> {
  const id = newId('bkg');
  const at = t.clock.now().toISOString();
  await t.db.kysely
    .insertInto('bookings')
    .values({
      id,
      operator_id: op.operatorId,
      venue_id: venueId,
      kind: 'table',
      status,
      user_id: null,
      event_id: null,
      access_rule_id: null,
      booking_date: startsAt.slice(0, 10),
      start_time: null,
      duration_minutes: null,
      starts_at: startsAt,
      ends_at: endsAt,
      guest_name: 'Guest',
      guest_email: null,
      guest_phone: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  for (const tableId of tableIds) {
    await t.db.kysely.insertInto('booking_tables').values({ booking_id: id, table_id: tableId, venue_id: venueId, starts_at: startsAt, ends_at: endsAt }).execute();
  }
  return id;
}

describe('tables', () => {
  it('creates with defaults, reads back, updates the fields sent and deletes', async () => {
    const { api: v } = await setupVenue(t);
    const id = await createTable(v, { table_number: '1' });
    const read = await v.get(`/tables/${id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({
      id,
      table_number: '1',
      capacity: 4,
      min_covers: 1,
      status: 'active',
      table_type: 'standard',
      seating_area_id: null,
      floor_id: null,
      x: null,
      y: null,
      shape: null,
      size: null,
    });

    const full = await createTable(v, { table_number: 12, capacity: 6, status: 'inactive', table_type: 'booth', min_covers: 2 });
    expect((await v.get(`/tables/${full}`)).json()).toMatchObject({ table_number: '12', capacity: 6, status: 'inactive', table_type: 'booth', min_covers: 2 });

    expect((await v.put(`/tables/${full}`, { capacity: 8 })).json()).toEqual({ success: true });
    expect((await v.get(`/tables/${full}`)).json()).toMatchObject({ table_number: '12', capacity: 8, status: 'inactive', table_type: 'booth', min_covers: 2 });
    await v.put(`/tables/${full}`, { table_number: '12A', status: 'active', table_type: 'high', min_covers: 3 });
    expect((await v.get(`/tables/${full}`)).json()).toMatchObject({ table_number: '12A', capacity: 8, status: 'active', table_type: 'high', min_covers: 3 });

    expect((await v.del(`/tables/${id}`)).json()).toEqual({ success: true });
    expect((await v.get(`/tables/${id}`)).statusCode).toBe(404);
    expect((await v.del(`/tables/${id}`)).statusCode).toBe(404);
    expect((await v.put(`/tables/${id}`, { capacity: 2 })).statusCode).toBe(404);
  });

  it('lists the venue tables in natural number order', async () => {
    const { api: v } = await setupVenue(t);
    for (const n of ['10', '2', '1']) await createTable(v, { table_number: n });
    const res = await v.get('/tables');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((row: { table_number: string }) => row.table_number)).toEqual(['1', '2', '10']);
    expect(res.json().data[0].is_blocked).toBeUndefined();
  });

  it('validates the body', async () => {
    const { api: v } = await setupVenue(t);
    const id = await createTable(v, { table_number: '7' });
    for (const body of [
      {},
      { table_number: '' },
      { table_number: '   ' },
      { table_number: '1', capacity: 0 },
      { table_number: '1', capacity: 2.5 },
      { table_number: '1', status: 'broken' },
      { table_number: '1', table_type: 'round' },
      { table_number: '1', capacity: 2, min_covers: 3 },
    ]) {
      const res = await v.post('/tables', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toEqual(expect.any(String));
    }
    expect((await v.put(`/tables/${id}`, { min_covers: 5 })).statusCode).toBe(400);
    expect((await v.put(`/tables/${id}`, { table_number: ' ' })).statusCode).toBe(400);
  });

  it('keeps table numbers unique per venue (409), but not across venues', async () => {
    const { op, api: v } = await setupVenue(t);
    const first = await createTable(v, { table_number: '5' });
    const second = await createTable(v, { table_number: '6' });
    expect((await v.post('/tables', { table_number: '5' })).statusCode).toBe(409);
    expect((await v.put(`/tables/${second}`, { table_number: '5' })).statusCode).toBe(409);
    expect((await v.put(`/tables/${first}`, { table_number: '5', capacity: 3 })).statusCode).toBe(200);
    const other = venueApi(t, op.headers, await insertVenue(t, op.operatorId));
    expect((await other.post('/tables', { table_number: '5' })).statusCode).toBe(200);
  });

  it('sets the type of several tables at once', async () => {
    const { api: v } = await setupVenue(t);
    const a = await createTable(v, { table_number: '1' });
    const b = await createTable(v, { table_number: '2' });
    const c = await createTable(v, { table_number: '3' });
    for (const type of ['standard', 'low', 'high', 'booth', 'bar']) {
      expect((await v.post('/tables/set-type', { table_ids: [a, b], table_type: type })).json()).toEqual({ success: true });
      expect((await v.get(`/tables/${a}`)).json().table_type).toBe(type);
      expect((await v.get(`/tables/${b}`)).json().table_type).toBe(type);
    }
    expect((await v.get(`/tables/${c}`)).json().table_type).toBe('standard');
    expect((await v.post('/tables/set-type', { table_ids: [a], table_type: 'round' })).statusCode).toBe(400);
    expect((await v.post('/tables/set-type', { table_ids: [], table_type: 'bar' })).statusCode).toBe(400);
    expect((await v.post('/tables/set-type', { table_type: 'bar' })).statusCode).toBe(400);
  });

  it('sets and clears the seating area of tables', async () => {
    const { api: v } = await setupVenue(t);
    const a = await createTable(v, { table_number: '1' });
    const b = await createTable(v, { table_number: '2' });
    const area = await createArea(v, 'Terrace');
    expect((await v.post('/tables/set-area', { table_ids: [a, b], seating_area_id: area })).json()).toEqual({ success: true });
    expect((await v.get(`/tables/${a}`)).json().seating_area_id).toBe(area);
    expect((await v.get(`/tables/${b}`)).json().seating_area_id).toBe(area);
    await v.post('/tables/set-area', { table_ids: [a], seating_area_id: null });
    expect((await v.get(`/tables/${a}`)).json().seating_area_id).toBeNull();
    expect((await v.get(`/tables/${b}`)).json().seating_area_id).toBe(area);
    expect((await v.post('/tables/set-area', { table_ids: [a] })).statusCode).toBe(400);
    expect((await v.post('/tables/set-area', { table_ids: [a], seating_area_id: 'area_nope' })).statusCode).toBe(404);
  });
});

describe('table availability in a window', () => {
  it('adds is_blocked from overlapping blocks and is_taken from active bookings, in venue time', async () => {
    // Europe/London in June is UTC+1: 19:00 local is 18:00Z. Default duration 120 minutes.
    const { op, venueId, api: v } = await setupVenue(t);
    const free = await createTable(v, { table_number: '1' });
    const blocked = await createTable(v, { table_number: '2' });
    const taken = await createTable(v, { table_number: '3' });
    const cancelled = await createTable(v, { table_number: '4' });
    const later = await createTable(v, { table_number: '5' });
    const endsAtStart = await createTable(v, { table_number: '6' });

    await v.post('/tables/block', { table_ids: [blocked], from: '2026-06-20T20:30', to: '2026-06-20T22:00' });
    await v.post('/tables/block', { table_ids: [endsAtStart], from: '2026-06-20T17:00', to: '2026-06-20T19:00' });
    await insertBooking(op, venueId, [taken], '2026-06-20T17:30:00.000Z', '2026-06-20T18:30:00.000Z');
    await insertBooking(op, venueId, [cancelled], '2026-06-20T18:00:00.000Z', '2026-06-20T20:00:00.000Z', 'cancelled');
    await insertBooking(op, venueId, [later], '2026-06-20T20:00:00.000Z', '2026-06-20T22:00:00.000Z');

    const res = await v.get('/tables?date=2026-06-20&time=19:00');
    expect(res.statusCode, res.body).toBe(200);
    const state = Object.fromEntries(res.json().data.map((row: any) => [row.id, [row.is_blocked, row.is_taken]]));
    expect(state).toEqual({
      [free]: [false, false],
      [blocked]: [true, false], // 19:30Z–21:00Z block overlaps 18:00Z–20:00Z
      [taken]: [false, true],
      [cancelled]: [false, false], // cancelled bookings hold nothing
      [later]: [false, false], // starts exactly when the window ends
      [endsAtStart]: [false, false], // ends exactly when the window starts
    });

    const short = await v.get('/tables?date=2026-06-20&time=19:00&duration=60');
    const shortState = Object.fromEntries(short.json().data.map((row: any) => [row.id, row.is_blocked]));
    expect(shortState[blocked]).toBe(false);

    const longer = await v.get('/tables?date=2026-06-20&time=19:00&duration=200');
    const longState = Object.fromEntries(longer.json().data.map((row: any) => [row.id, row.is_taken]));
    expect(longState[later]).toBe(true);
  });

  it('uses the venue default duration and time zone', async () => {
    const { venueId, api: v } = await setupVenue(t, { timezone: 'America/New_York', default_booking_duration: 30 });
    const table = await createTable(v, { table_number: '1' });
    // 19:00 in New York (EDT, UTC−4) is 23:00Z; the block starts 23:20Z.
    await v.post('/tables/block', { table_ids: [table], from: '2026-06-20T23:20:00Z', to: '2026-06-21T01:00:00Z' });
    const at = (query: string) => v.get(`/tables?${query}`).then((res) => res.json().data[0].is_blocked);
    expect(await at('date=2026-06-20&time=19:00')).toBe(true);
    expect(await at('date=2026-06-20&time=18:30')).toBe(false); // 22:30Z–23:00Z with the 30-minute default
    expect(venueId).toBeTruthy();
  });

  it('refuses incomplete or invalid window queries', async () => {
    const { api: v } = await setupVenue(t);
    for (const query of ['date=2026-06-20', 'time=19:00', 'duration=60', 'date=2026-02-30&time=19:00', 'date=2026-06-20&time=25:00', 'date=2026-06-20&time=19:00&duration=0']) {
      expect((await v.get(`/tables?${query}`)).statusCode, query).toBe(400);
    }
  });
});

describe('table blocks', () => {
  it('blocks several tables, lists, patches, deletes', async () => {
    const { api: v } = await setupVenue(t);
    const a = await createTable(v, { table_number: '1' });
    const b = await createTable(v, { table_number: '2' });
    const res = await v.post('/tables/block', { table_ids: [a, b], from: '2026-06-20T19:00', to: '2026-06-20T23:00' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, ids: [expect.any(String), expect.any(String)] });
    const [blockA, blockB] = res.json().ids;

    const listed = (await v.get('/tables/blocks')).json().data;
    expect(listed).toEqual([
      { id: blockA, table_id: a, table_number: '1', blocked_from: '2026-06-20T18:00:00.000Z', blocked_to: '2026-06-20T22:00:00.000Z', reason: 'Venue Reserved' },
      { id: blockB, table_id: b, table_number: '2', blocked_from: '2026-06-20T18:00:00.000Z', blocked_to: '2026-06-20T22:00:00.000Z', reason: 'Venue Reserved' },
    ]);

    expect((await v.patch(`/tables/blocks/${blockA}`, { reason: 'Private party', blocked_from: '2026-06-20T20:00:00+01:00' })).json()).toEqual({ success: true });
    let row = (await v.get('/tables/blocks')).json().data.find((x: any) => x.id === blockA);
    expect(row).toMatchObject({ reason: 'Private party', blocked_from: '2026-06-20T19:00:00.000Z', blocked_to: '2026-06-20T22:00:00.000Z' });
    await v.patch(`/tables/blocks/${blockA}`, { blocked_to: '2026-06-21T01:30', reason: null });
    row = (await v.get('/tables/blocks')).json().data.find((x: any) => x.id === blockA);
    expect(row).toMatchObject({ reason: 'Venue Reserved', blocked_to: '2026-06-21T00:30:00.000Z' });

    expect((await v.del(`/tables/blocks/${blockA}`)).json()).toEqual({ success: true });
    expect((await v.get('/tables/blocks')).json().data.map((x: any) => x.id)).toEqual([blockB]);
    expect((await v.del(`/tables/blocks/${blockA}`)).statusCode).toBe(404);
    expect((await v.patch(`/tables/blocks/${blockA}`, { reason: 'x' })).statusCode).toBe(404);
  });

  it('takes a reason and absolute ISO times with offsets', async () => {
    const { api: v } = await setupVenue(t);
    const a = await createTable(v, { table_number: '1' });
    const res = await v.post('/tables/block', { table_ids: [a], from: '2026-12-24T18:00:00-05:00', to: '2026-12-25T02:00:00Z', reason: 'Maintenance' });
    expect(res.statusCode).toBe(200);
    expect((await v.get('/tables/blocks')).json().data[0]).toMatchObject({
      blocked_from: '2026-12-24T23:00:00.000Z',
      blocked_to: '2026-12-25T02:00:00.000Z',
      reason: 'Maintenance',
    });
  });

  it('validates blocks', async () => {
    const { api: v } = await setupVenue(t);
    const a = await createTable(v, { table_number: '1' });
    for (const body of [
      { table_ids: [a], from: '2026-06-20T19:00' },
      { table_ids: [a], to: '2026-06-20T19:00' },
      { table_ids: [], from: '2026-06-20T19:00', to: '2026-06-20T20:00' },
      { table_ids: [a], from: '2026-06-20T19:00', to: '2026-06-20T19:00' },
      { table_ids: [a], from: '2026-06-20T20:00', to: '2026-06-20T19:00' },
      { table_ids: [a], from: 'tomorrow evening', to: '2026-06-20T19:00' },
      { table_ids: [a], from: '2026-06-20', to: '2026-06-21' },
      { table_ids: [a], from: '2026-13-20T19:00', to: '2026-13-20T21:00' },
    ]) {
      expect((await v.post('/tables/block', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const id = (await v.post('/tables/block', { table_ids: [a], from: '2026-06-20T19:00', to: '2026-06-20T21:00' })).json().ids[0];
    expect((await v.patch(`/tables/blocks/${id}`, { blocked_to: '2026-06-20T18:00' })).statusCode).toBe(400);
    expect((await v.patch(`/tables/blocks/${id}`, { blocked_from: 'soon' })).statusCode).toBe(400);
    expect((await v.post('/tables/block', { table_ids: [a, 'tbl_nope'], from: '2026-06-20T19:00', to: '2026-06-20T21:00' })).statusCode).toBe(404);
    expect((await v.get('/tables/blocks')).json().data).toHaveLength(1);
  });

  it('unblock clears every block of the named tables only', async () => {
    const { api: v } = await setupVenue(t);
    const a = await createTable(v, { table_number: '1' });
    const b = await createTable(v, { table_number: '2' });
    await v.post('/tables/block', { table_ids: [a, b], from: '2026-06-20T19:00', to: '2026-06-20T21:00' });
    await v.post('/tables/block', { table_ids: [a], from: '2025-01-01T10:00', to: '2025-01-01T12:00' });
    expect((await v.post('/tables/unblock', { table_ids: [a] })).json()).toEqual({ success: true });
    const left = (await v.get('/tables/blocks')).json().data;
    expect(left.map((x: any) => x.table_id)).toEqual([b]);
    expect((await v.post('/tables/unblock', { table_ids: [] })).statusCode).toBe(400);
    expect((await v.post('/tables/unblock', { table_ids: ['tbl_nope'] })).statusCode).toBe(404);
  });
});

describe('table combinations', () => {
  it('creates with a computed combined capacity that follows its members', async () => {
    const { api: v } = await setupVenue(t);
    const a = await createTable(v, { table_number: '1', capacity: 4 });
    const b = await createTable(v, { table_number: '2', capacity: 2 });
    const c = await createTable(v, { table_number: '3', capacity: 6 });
    const res = await v.post('/tables/combos', { name: 'Window', table_ids: [b, a] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, id: expect.any(String), combined_capacity: 6 });
    const big = await v.post('/tables/combos', { name: 'Long table', table_ids: [a, b, c] });
    expect(big.json().combined_capacity).toBe(12);

    await v.put(`/tables/${b}`, { capacity: 3 });
    expect((await v.get('/tables/combos')).json().data).toEqual([
      { id: big.json().id, name: 'Long table', table_ids: [a, b, c], combined_capacity: 13 },
      { id: res.json().id, name: 'Window', table_ids: [a, b], combined_capacity: 7 },
    ]);

    expect((await v.del(`/tables/combos/${res.json().id}`)).json()).toEqual({ success: true });
    expect((await v.get('/tables/combos')).json().data.map((x: any) => x.id)).toEqual([big.json().id]);
    expect((await v.del(`/tables/combos/${res.json().id}`)).statusCode).toBe(404);
  });

  it('needs a name and two or more different tables of the venue', async () => {
    const { op, api: v } = await setupVenue(t);
    const a = await createTable(v, { table_number: '1' });
    const b = await createTable(v, { table_number: '2' });
    const elsewhere = await createTable(venueApi(t, op.headers, await insertVenue(t, op.operatorId)), { table_number: '9' });
    expect((await v.post('/tables/combos', { name: 'One', table_ids: [a] })).statusCode).toBe(400);
    expect((await v.post('/tables/combos', { name: 'Same twice', table_ids: [a, a] })).statusCode).toBe(400);
    expect((await v.post('/tables/combos', { table_ids: [a, b] })).statusCode).toBe(400);
    expect((await v.post('/tables/combos', { name: ' ', table_ids: [a, b] })).statusCode).toBe(400);
    expect((await v.post('/tables/combos', { name: 'Cross', table_ids: [a, elsewhere] })).statusCode).toBe(404);
    expect((await v.get('/tables/combos')).json().data).toEqual([]);
  });
});

describe('seating areas', () => {
  it('creates, lists, renames and deletes', async () => {
    const { api: v } = await setupVenue(t);
    const res = await v.post('/seating-areas', { name: 'Terrace' });
    expect(res.json()).toEqual({ success: true, id: expect.any(String), name: 'Terrace' });
    const bar = await createArea(v, 'Bar');
    expect((await v.get('/seating-areas')).json().data).toEqual([
      { id: bar, name: 'Bar' },
      { id: res.json().id, name: 'Terrace' },
    ]);
    expect((await v.put(`/seating-areas/${bar}`, { name: 'Cocktail bar' })).json()).toEqual({ success: true });
    expect((await v.get('/seating-areas')).json().data[0]).toEqual({ id: bar, name: 'Cocktail bar' });
    expect((await v.post('/seating-areas', {})).statusCode).toBe(400);
    expect((await v.post('/seating-areas', { name: '  ' })).statusCode).toBe(400);
    expect((await v.put(`/seating-areas/${bar}`, { name: '' })).statusCode).toBe(400);
    expect((await v.del(`/seating-areas/${bar}`)).json()).toEqual({ success: true });
    expect((await v.del(`/seating-areas/${bar}`)).statusCode).toBe(404);
    expect((await v.put(`/seating-areas/${bar}`, { name: 'x' })).statusCode).toBe(404);
  });

  it('delete detaches its tables first and drops it from shifts and access rules', async () => {
    const { api: v } = await setupVenue(t);
    const area = await createArea(v, 'Garden');
    const keep = await createArea(v, 'Hall');
    const a = await createTable(v, { table_number: '1' });
    const b = await createTable(v, { table_number: '2' });
    await v.post('/tables/set-area', { table_ids: [a], seating_area_id: area });
    await v.post('/tables/set-area', { table_ids: [b], seating_area_id: keep });
    const shift = await v.post('/shifts', { name: 'Dinner', days_of_week: ['fri'], seating_area_ids: [area, keep] });
    expect(shift.statusCode, shift.body).toBe(200);
    const rule = await v.post('/access-rules', { name: 'Garden', seating_area_ids: [area, keep], guest_pick_area_ids: [area] });
    expect(rule.statusCode, rule.body).toBe(200);

    expect((await v.del(`/seating-areas/${area}`)).json()).toEqual({ success: true });
    expect((await v.get(`/tables/${a}`)).json().seating_area_id).toBeNull();
    expect((await v.get(`/tables/${b}`)).json().seating_area_id).toBe(keep);
    expect((await v.get('/shifts')).json().data[0].seating_area_ids).toEqual([keep]);
    const ruleRow = (await v.get('/access-rules')).json().data[0];
    expect(ruleRow.seating_area_ids).toEqual([keep]);
    expect(ruleRow.guest_pick_area_ids).toEqual([]);
  });
});

describe('deleting a table', () => {
  it('takes its blocks, prices and combinations with it and unlinks it from shifts, rules and the canvas', async () => {
    const { api: v } = await setupVenue(t);
    const a = await createTable(v, { table_number: '1', capacity: 2 });
    const b = await createTable(v, { table_number: '2', capacity: 2 });
    const c = await createTable(v, { table_number: '3', capacity: 2 });
    await v.post('/tables/block', { table_ids: [a, b], from: '2026-06-20T19:00', to: '2026-06-20T21:00' });
    const pair = (await v.post('/tables/combos', { name: 'Pair', table_ids: [a, b] })).json().id;
    const trio = (await v.post('/tables/combos', { name: 'Trio', table_ids: [a, b, c] })).json().id;
    const list = (await v.post('/pricelists', { name: 'Weekend' })).json().id;
    await v.put(`/pricelists/${list}/tables/${a}`, { price_pence: 5000 });
    await v.put(`/pricelists/${list}/tables/${b}`, { price_pence: 3000 });
    await v.post('/shifts', { name: 'Dinner', days_of_week: ['sat'], table_ids: [a, c] });
    await v.post('/access-rules', { name: 'Rule', table_ids: [a, b] });
    const floor = (await v.post('/floors', { name: 'Main' })).json().id;
    await v.put(`/floors/${floor}`, {
      canvas_data: [
        { type: 'table', tableNumber: '1', x: 1, y: 1 },
        { type: 'table', tableNumber: '2', x: 2, y: 2 },
      ],
    });

    expect((await v.del(`/tables/${a}`)).json()).toEqual({ success: true });
    expect((await v.get('/tables/blocks')).json().data.map((x: any) => x.table_id)).toEqual([b]);
    expect((await v.get('/tables/combos')).json().data).toEqual([{ id: trio, name: 'Trio', table_ids: [b, c], combined_capacity: 4 }]);
    expect(pair).toBeTruthy();
    expect((await v.get('/pricelists')).json().data[0].table_prices).toEqual([{ table_id: b, table_number: '2', price_pence: 3000 }]);
    expect((await v.get('/shifts')).json().data[0].table_ids).toEqual([c]);
    expect((await v.get('/access-rules')).json().data[0].table_ids).toEqual([b]);
    const canvas = (await v.get(`/floors/${floor}`)).json().canvas_data;
    expect(canvas.map((item: any) => item.tableNumber)).toEqual(['2']);
    const stored = await t.db.kysely.selectFrom('floors').select('canvas_data').where('id', '=', floor).executeTakeFirstOrThrow();
    expect(stored.canvas_data).not.toContain(a);
  });

  it('is refused while the table holds an upcoming active booking', async () => {
    const { op, venueId, api: v } = await setupVenue(t);
    const a = await createTable(v, { table_number: '1' });
    const b = await createTable(v, { table_number: '2' });
    const c = await createTable(v, { table_number: '3' });
    // now is 2026-06-15T12:00Z
    await insertBooking(op, venueId, [a], '2026-06-20T18:00:00.000Z', '2026-06-20T20:00:00.000Z');
    await insertBooking(op, venueId, [b], '2026-06-20T18:00:00.000Z', '2026-06-20T20:00:00.000Z', 'cancelled');
    await insertBooking(op, venueId, [c], '2026-06-01T18:00:00.000Z', '2026-06-01T20:00:00.000Z');
    const refused = await v.del(`/tables/${a}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/upcoming/);
    expect((await v.get(`/tables/${a}`)).statusCode).toBe(200);
    expect((await v.del(`/tables/${b}`)).statusCode).toBe(200);
    expect((await v.del(`/tables/${c}`)).statusCode).toBe(200);
  });
});

describe('floors and the canvas', () => {
  it('creates, lists in sort order, renames and deletes', async () => {
    const { api: v } = await setupVenue(t);
    const upstairs = (await v.post('/floors', { name: 'Upstairs', sort_order: 2 })).json().id;
    const ground = await v.post('/floors', { name: 'Ground' });
    expect(ground.json()).toEqual({ success: true, id: expect.any(String) });
    expect((await v.get('/floors')).json().data).toEqual([
      { id: ground.json().id, name: 'Ground', sort_order: 0, canvas_data: [] },
      { id: upstairs, name: 'Upstairs', sort_order: 2, canvas_data: [] },
    ]);
    expect((await v.put(`/floors/${upstairs}`, { name: 'Mezzanine', sort_order: -1 })).json()).toEqual({ success: true });
    expect((await v.get('/floors')).json().data.map((f: any) => f.name)).toEqual(['Mezzanine', 'Ground']);
    expect((await v.post('/floors', {})).statusCode).toBe(400);
    expect((await v.put(`/floors/${upstairs}`, { name: ' ' })).statusCode).toBe(400);
    expect((await v.del(`/floors/${upstairs}`)).json()).toEqual({ success: true });
    expect((await v.get(`/floors/${upstairs}`)).statusCode).toBe(404);
    expect((await v.put(`/floors/${upstairs}`, { name: 'x' })).statusCode).toBe(404);
    expect((await v.del(`/floors/${upstairs}`)).statusCode).toBe(404);
  });

  it('syncs tables from the canvas: updates known numbers, creates unknown ones, keeps other items', async () => {
    const { api: v } = await setupVenue(t);
    const existing = await createTable(v, { table_number: '1', capacity: 4 });
    const floor = (await v.post('/floors', { name: 'Main' })).json().id;
    const canvas = [
      { type: 'table', tableNumber: '1', tableType: 'booth', minCovers: 2, maxCovers: 6, shape: 'rect', size: 'large', x: 10, y: 20 },
      { type: 'label', text: 'Bar', x: 5, y: 5, rotation: 90 },
      { type: 'table', tableNumber: '2', tableType: 'high', minCovers: 1, maxCovers: 2, shape: 'circle', size: 'small', x: 30.5, y: 40 },
    ];
    const res = await v.put(`/floors/${floor}`, { name: 'Main room', canvas_data: canvas });
    expect(res.statusCode, res.body).toBe(200);

    const detail = (await v.get(`/floors/${floor}`)).json();
    expect(detail).toMatchObject({ id: floor, name: 'Main room', sort_order: 0 });
    expect(detail.canvas_data).toEqual(canvas);
    expect(detail.tables.map((row: any) => row.table_number)).toEqual(['1', '2']);
    expect((await v.get(`/tables/${existing}`)).json()).toEqual({
      id: existing,
      table_number: '1',
      capacity: 6,
      min_covers: 2,
      status: 'active',
      table_type: 'booth',
      seating_area_id: null,
      floor_id: floor,
      x: 10,
      y: 20,
      shape: 'rect',
      size: 'large',
    });
    const created = detail.tables.find((row: any) => row.table_number === '2');
    expect(created).toMatchObject({ capacity: 2, min_covers: 1, table_type: 'high', status: 'active', floor_id: floor, x: 30.5, y: 40, shape: 'circle', size: 'small' });
    expect((await v.get('/floors')).json().data[0].canvas_data).toEqual(canvas);
  });

  it('shows table-route changes on the canvas', async () => {
    const { api: v } = await setupVenue(t);
    const floor = (await v.post('/floors', { name: 'Main', canvas_data: [{ type: 'table', tableNumber: 7, maxCovers: 4, x: 1, y: 2 }] })).json().id;
    const table = (await v.get(`/floors/${floor}`)).json().tables[0];
    expect(table).toMatchObject({ table_number: '7', capacity: 4, floor_id: floor });
    expect((await v.get(`/floors/${floor}`)).json().canvas_data).toEqual([
      { type: 'table', tableNumber: 7, tableType: 'standard', minCovers: 1, maxCovers: 4, x: 1, y: 2 },
    ]);
    await v.put(`/tables/${table.id}`, { table_number: '7B', capacity: 8, min_covers: 2 });
    await v.post('/tables/set-type', { table_ids: [table.id], table_type: 'bar' });
    expect((await v.get(`/floors/${floor}`)).json().canvas_data).toEqual([
      { type: 'table', tableNumber: '7B', tableType: 'bar', minCovers: 2, maxCovers: 8, x: 1, y: 2 },
    ]);
  });

  it('tables left off a canvas leave the floor but stay; a table placed on another floor moves', async () => {
    const { api: v } = await setupVenue(t);
    const main = (await v.post('/floors', { name: 'Main' })).json().id;
    const terrace = (await v.post('/floors', { name: 'Terrace' })).json().id;
    await v.put(`/floors/${main}`, {
      canvas_data: [
        { type: 'table', tableNumber: '1', x: 1, y: 1 },
        { type: 'table', tableNumber: '2', x: 2, y: 2 },
        { type: 'table', tableNumber: '3', x: 3, y: 3 },
      ],
    });
    const tables = (await v.get(`/floors/${main}`)).json().tables;
    const [one, two, three] = tables.map((row: any) => row.id);

    await v.put(`/floors/${main}`, { canvas_data: [{ type: 'table', tableNumber: '1', x: 1, y: 1 }, { type: 'table', tableNumber: '2', x: 2, y: 2 }] });
    expect((await v.get(`/tables/${three}`)).json()).toMatchObject({ floor_id: null, x: null, y: null });
    expect((await v.get('/tables')).json().data).toHaveLength(3);

    await v.put(`/floors/${terrace}`, { canvas_data: [{ type: 'table', tableNumber: '2', x: 50, y: 60 }] });
    expect((await v.get(`/tables/${two}`)).json()).toMatchObject({ floor_id: terrace, x: 50, y: 60 });
    expect((await v.get(`/floors/${main}`)).json().canvas_data.map((item: any) => item.tableNumber)).toEqual(['1']);
    expect((await v.get(`/floors/${main}`)).json().tables.map((row: any) => row.id)).toEqual([one]);

    expect((await v.del(`/floors/${terrace}`)).statusCode).toBe(200);
    expect((await v.get(`/tables/${two}`)).json()).toMatchObject({ floor_id: null, x: null, y: null });
  });

  it('validates the canvas and changes nothing when it is refused', async () => {
    const { api: v } = await setupVenue(t);
    const floor = (await v.post('/floors', { name: 'Main' })).json().id;
    for (const canvas_data of [
      [{ type: 'table', x: 1, y: 1 }],
      [{ type: 'table', tableNumber: '' }],
      [{ type: 'table', tableNumber: '1' }, { type: 'table', tableNumber: 1 }],
      [{ type: 'table', tableNumber: '1', tableType: 'round' }],
      [{ type: 'table', tableNumber: '1', minCovers: 6, maxCovers: 2 }],
      [{ type: 'table', tableNumber: '1', maxCovers: 0 }],
      [{ type: 'table', tableNumber: '1', x: 'left' }],
      [{ tableNumber: '1' }],
      'not a list',
    ]) {
      expect((await v.put(`/floors/${floor}`, { canvas_data })).statusCode, JSON.stringify(canvas_data)).toBe(400);
    }
    // A refused canvas rolls back tables it had already created.
    expect((await v.put(`/floors/${floor}`, { canvas_data: [{ type: 'table', tableNumber: '9' }, { type: 'table', tableNumber: '8', minCovers: 5, maxCovers: 2 }] })).statusCode).toBe(400);
    expect((await v.get('/tables')).json().data).toEqual([]);
  });

  it('takes only the item fields the floor editor uses, in bounded sizes', async () => {
    const { api: v } = await setupVenue(t);
    const floor = (await v.post('/floors', { name: 'Main' })).json().id;
    const decorations = [
      { type: 'label', text: 'Bar', x: -5.5, y: 5, rotation: -90, width: 120, height: 40 },
      { type: 'wall', x: 0, y: 0, width: 300, height: null, shape: null, size: 'thin' },
    ];
    expect((await v.put(`/floors/${floor}`, { canvas_data: decorations })).statusCode).toBe(200);
    expect((await v.get(`/floors/${floor}`)).json().canvas_data).toEqual(decorations);

    const refused: [unknown, RegExp][] = [
      [[{ type: 'label', colour: 'red' }], /^body\.canvas_data\.0 has unknown field colour$/],
      [[{ type: 'label', meta: { any: { depth: [1] } } }], /has unknown field meta/],
      [[{ type: 'label', text: 'x'.repeat(201) }], /^body\.canvas_data\.0\.text must be at most 200 characters$/],
      [[{ type: 'label', rotation: 720 }], /rotation must be at most 360/],
      [[{ type: 'label', width: -1 }], /width must be at least 0/],
      [[{ type: 'table', tableNumber: '1', x: 1e9 }], /x must be at most 1000000/],
      [Array.from({ length: MAX_CANVAS_ITEMS + 1 }, (_, i) => ({ type: 'label', text: String(i) })), /^body\.canvas_data must have at most 1000 items$/],
      [[{ type: 'label', text: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[['deep']]]]]]]]]]]]]]]]]]]]]]]]]]]]]] }], /^body is nested deeper than 32 levels$/],
    ];
    for (const [canvas_data, message] of refused) {
      const res = await v.put(`/floors/${floor}`, { canvas_data });
      expect(res.statusCode, JSON.stringify(canvas_data).slice(0, 80)).toBe(400);
      expect(res.json().error).toMatch(message);
    }
    expect((await v.get(`/floors/${floor}`)).json().canvas_data).toEqual(decorations);

    // The largest canvas allowed is saved whole.
    const full = Array.from({ length: MAX_CANVAS_ITEMS }, (_, i) => ({ type: 'label', text: `L${i}`, x: i, y: i }));
    expect((await v.put(`/floors/${floor}`, { canvas_data: full })).statusCode).toBe(200);
    expect((await v.get(`/floors/${floor}`)).json().canvas_data).toHaveLength(MAX_CANVAS_ITEMS);
  });

  it('reads back only the declared fields of items stored before the canvas was bounded', async () => {
    const { venueId, api: v } = await setupVenue(t);
    const floor = (await v.post('/floors', { name: 'Main' })).json().id;
    const legacy = [{ item: { type: 'label', text: 'Old', x: 1, y: 2, junk: { deep: [1, 2, 3] } } }];
    await t.db.kysely.updateTable('floors').set({ canvas_data: JSON.stringify(legacy) }).where('id', '=', floor).where('venue_id', '=', venueId).execute();
    expect((await v.get(`/floors/${floor}`)).json().canvas_data).toEqual([{ type: 'label', text: 'Old', x: 1, y: 2 }]);
  });
});

describe('smart-table settings', () => {
  it('reads defaults, saves the fields sent and never takes reassign_last_run from the body', async () => {
    const { venueId, api: v } = await setupVenue(t);
    expect((await v.get('/smart-tables')).json()).toEqual({ reassign_enabled: false, reassign_time: '06:00', reassign_last_run: null, duration_enabled: false });

    const saved = await v.put('/smart-tables', { reassign_enabled: true, reassign_time: '05:30', duration_enabled: 1, reassign_last_run: '2026-01-01T00:00:00Z' });
    expect(saved.json()).toEqual({ success: true, data: { reassign_enabled: true, reassign_time: '05:30', reassign_last_run: null, duration_enabled: true } });
    expect((await v.get('/smart-tables')).json()).toEqual({ reassign_enabled: true, reassign_time: '05:30', reassign_last_run: null, duration_enabled: true });

    await t.db.kysely.updateTable('smart_table_settings').set({ reassign_last_run: '2026-06-15T05:30:00.000Z' }).where('venue_id', '=', venueId).execute();
    const partial = await v.put('/smart-tables', { duration_enabled: false });
    expect(partial.json().data).toEqual({ reassign_enabled: true, reassign_time: '05:30', reassign_last_run: '2026-06-15T05:30:00.000Z', duration_enabled: false });

    expect((await v.put('/smart-tables', { reassign_time: '6am' })).statusCode).toBe(400);
    expect((await v.put('/smart-tables', { reassign_enabled: 'yes' })).statusCode).toBe(400);
  });
});

describe('price lists', () => {
  it('creates with a default price, sets and clears per-table overrides, updates and deletes', async () => {
    const { api: v } = await setupVenue(t);
    const a = await createTable(v, { table_number: '1' });
    const b = await createTable(v, { table_number: '2' });
    const plain = await v.post('/pricelists', { name: 'Weekday' });
    expect(plain.json()).toEqual({ success: true, id: expect.any(String) });
    const weekend = (await v.post('/pricelists', { name: 'Weekend', default_price_pence: 2500 })).json().id;

    expect((await v.put(`/pricelists/${weekend}/tables/${a}`, { price_pence: 5000 })).json()).toEqual({ success: true });
    await v.put(`/pricelists/${weekend}/tables/${b}`, { price_pence: 0 });
    await v.put(`/pricelists/${weekend}/tables/${a}`, { price_pence: 6000 });
    expect((await v.get('/pricelists')).json().data).toEqual([
      { id: plain.json().id, name: 'Weekday', default_price_pence: 0, table_prices: [] },
      {
        id: weekend,
        name: 'Weekend',
        default_price_pence: 2500,
        table_prices: [
          { table_id: a, table_number: '1', price_pence: 6000 },
          { table_id: b, table_number: '2', price_pence: 0 },
        ],
      },
    ]);
    await v.put(`/pricelists/${weekend}/tables/${a}`, { price_pence: null });
    await v.put(`/pricelists/${weekend}/tables/${b}`, { price_pence: '' });
    expect((await v.get('/pricelists')).json().data[1].table_prices).toEqual([]);

    expect((await v.put(`/pricelists/${weekend}`, { name: 'Saturday', default_price_pence: 3000 })).json()).toEqual({ success: true });
    const byId = async () => (await v.get('/pricelists')).json().data.find((x: any) => x.id === weekend);
    expect(await byId()).toMatchObject({ name: 'Saturday', default_price_pence: 3000 });
    await v.put(`/pricelists/${weekend}`, { default_price_pence: 100 });
    expect(await byId()).toMatchObject({ name: 'Saturday', default_price_pence: 100 });

    expect((await v.del(`/pricelists/${weekend}`)).json()).toEqual({ success: true });
    expect((await v.get('/pricelists')).json().data.map((x: any) => x.id)).toEqual([plain.json().id]);
    expect((await v.del(`/pricelists/${weekend}`)).statusCode).toBe(404);
    expect((await v.put(`/pricelists/${weekend}`, { name: 'x' })).statusCode).toBe(404);
  });

  it('validates names and prices', async () => {
    const { api: v } = await setupVenue(t);
    const a = await createTable(v, { table_number: '1' });
    const id = (await v.post('/pricelists', { name: 'List' })).json().id;
    for (const body of [{}, { name: '' }, { name: ' ' }, { name: 'x', default_price_pence: -1 }, { name: 'x', default_price_pence: 9.5 }]) {
      expect((await v.post('/pricelists', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await v.put(`/pricelists/${id}`, { name: '  ' })).statusCode).toBe(400);
    for (const body of [{}, { price_pence: -5 }, { price_pence: '12' }, { price_pence: 1.5 }]) {
      expect((await v.put(`/pricelists/${id}/tables/${a}`, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await v.put(`/pricelists/${id}/tables/tbl_nope`, { price_pence: 5 })).statusCode).toBe(404);
    expect((await v.put(`/pricelists/prl_nope/tables/${a}`, { price_pence: 5 })).statusCode).toBe(404);
  });

  it('delete clears its overrides and detaches it from access rules and table profiles', async () => {
    const { venueId, api: v } = await setupVenue(t);
    const a = await createTable(v, { table_number: '1' });
    const gone = (await v.post('/pricelists', { name: 'Gone' })).json().id;
    const kept = (await v.post('/pricelists', { name: 'Kept' })).json().id;
    await v.put(`/pricelists/${gone}/tables/${a}`, { price_pence: 100 });
    await v.put(`/pricelists/${kept}/tables/${a}`, { price_pence: 200 });
    const ruleGone = (await v.post('/access-rules', { name: 'A', pricelist_id: gone })).json().id;
    const ruleKept = (await v.post('/access-rules', { name: 'B', pricelist_id: kept })).json().id;
    const at = t.clock.now().toISOString();
    const profileId = newId('prof');
    await t.db.kysely
      .insertInto('profiles' as any)
      .values({ id: profileId, venue_id: venueId, family: 'table', name: 'Tables', pricelist_id: gone, created_at: at, updated_at: at } as any)
      .execute();

    expect((await v.del(`/pricelists/${gone}`)).json()).toEqual({ success: true });
    const overrides = await t.db.kysely.selectFrom('pricelist_prices').selectAll().where('pricelist_id', 'in', [gone, kept]).execute();
    expect(overrides).toEqual([{ pricelist_id: kept, table_id: a, price_pence: 200 }]);
    const rules = Object.fromEntries((await v.get('/access-rules')).json().data.map((r: any) => [r.id, r.pricelist_id]));
    expect(rules).toEqual({ [ruleGone]: null, [ruleKept]: kept });
    const profile = await (t.db.kysely as any).selectFrom('profiles').select('pricelist_id').where('id', '=', profileId).executeTakeFirstOrThrow();
    expect(profile.pricelist_id).toBeNull();
  });
});

describe('access control', () => {
  it('401 without a session, 403 without the permission, read-only staff can read', async () => {
    const { op, venueId, api: v } = await setupVenue(t);
    const table = await createTable(v, { table_number: '1' });
    expect((await venueApi(t, {}, venueId).get('/tables')).statusCode).toBe(401);
    expect((await venueApi(t, {}, venueId).post('/tables', { table_number: '2' })).statusCode).toBe(401);

    const reader = await createStaff(t, op, { tables: 'read' });
    const r = venueApi(t, reader.headers, venueId);
    for (const path of ['/tables', `/tables/${table}`, '/tables/blocks', '/tables/combos', '/floors', '/seating-areas', '/smart-tables', '/pricelists']) {
      expect((await r.get(path)).statusCode, path).toBe(200);
    }
    for (const [method, path, body] of [
      ['post', '/tables', { table_number: '2' }],
      ['put', `/tables/${table}`, { capacity: 2 }],
      ['del', `/tables/${table}`],
      ['post', '/tables/set-type', { table_ids: [table], table_type: 'bar' }],
      ['post', '/tables/block', { table_ids: [table], from: '2026-06-20T19:00', to: '2026-06-20T20:00' }],
      ['post', '/floors', { name: 'F' }],
      ['post', '/seating-areas', { name: 'A' }],
      ['put', '/smart-tables', { reassign_enabled: true }],
      ['post', '/pricelists', { name: 'P' }],
    ] as const) {
      const res = await (r as any)[method](path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(403);
    }

    const stranger = await createStaff(t, op, { availability: 'write' });
    expect((await venueApi(t, stranger.headers, venueId).get('/tables')).statusCode).toBe(403);
    expect((await v.get(`/tables/${table}`)).json().capacity).toBe(4);
  });

  it('404 for another operator’s venue and outside a role’s venue scope', async () => {
    const { venueId, api: v } = await setupVenue(t);
    await createTable(v, { table_number: '1' });
    const other = await createOperator(t);
    expect((await venueApi(t, other.headers, venueId).get('/tables')).statusCode).toBe(404);
    expect((await venueApi(t, other.headers, venueId).post('/tables', { table_number: '2' })).statusCode).toBe(404);
    expect((await v.get('/tables')).json().data).toHaveLength(1);

    const { op, venueId: first } = await setupVenue(t);
    const second = await insertVenue(t, op.operatorId);
    const scoped = await createStaff(t, op, { tables: 'write' }, [second]);
    expect((await venueApi(t, scoped.headers, second).get('/tables')).statusCode).toBe(200);
    expect((await venueApi(t, scoped.headers, first).get('/tables')).statusCode).toBe(404);
    expect((await venueApi(t, scoped.headers, first).post('/tables', { table_number: '1' })).statusCode).toBe(404);
  });

  it('a table, area, block, combination, floor or price list of another venue is 404 everywhere', async () => {
    const { op, api: v } = await setupVenue(t);
    const mine = await createTable(v, { table_number: '1' });
    const otherVenue = await insertVenue(t, op.operatorId);
    const o = venueApi(t, op.headers, otherVenue);
    const table = await createTable(o, { table_number: '1' });
    const table2 = await createTable(o, { table_number: '2' });
    const area = await createArea(o, 'Theirs');
    const block = (await o.post('/tables/block', { table_ids: [table], from: '2026-06-20T19:00', to: '2026-06-20T20:00' })).json().ids[0];
    const combo = (await o.post('/tables/combos', { name: 'C', table_ids: [table, table2] })).json().id;
    const floor = (await o.post('/floors', { name: 'F' })).json().id;
    const list = (await o.post('/pricelists', { name: 'P' })).json().id;
    const myList = (await v.post('/pricelists', { name: 'Mine' })).json().id;

    const attempts: [string, string, object?][] = [
      ['get', `/tables/${table}`],
      ['put', `/tables/${table}`, { capacity: 9 }],
      ['del', `/tables/${table}`],
      ['post', '/tables/set-type', { table_ids: [mine, table], table_type: 'bar' }],
      ['post', '/tables/set-area', { table_ids: [table], seating_area_id: null }],
      ['post', '/tables/set-area', { table_ids: [mine], seating_area_id: area }],
      ['post', '/tables/block', { table_ids: [table], from: '2026-06-20T19:00', to: '2026-06-20T20:00' }],
      ['patch', `/tables/blocks/${block}`, { reason: 'mine now' }],
      ['del', `/tables/blocks/${block}`],
      ['post', '/tables/unblock', { table_ids: [table] }],
      ['del', `/tables/combos/${combo}`],
      ['put', `/seating-areas/${area}`, { name: 'Stolen' }],
      ['del', `/seating-areas/${area}`],
      ['get', `/floors/${floor}`],
      ['put', `/floors/${floor}`, { name: 'Stolen' }],
      ['del', `/floors/${floor}`],
      ['put', `/pricelists/${list}`, { name: 'Stolen' }],
      ['del', `/pricelists/${list}`],
      ['put', `/pricelists/${list}/tables/${mine}`, { price_pence: 1 }],
      ['put', `/pricelists/${myList}/tables/${table}`, { price_pence: 1 }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await (v as any)[method](path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
    }
    // Nothing of the other venue changed, and the lists do not show it.
    expect((await o.get(`/tables/${table}`)).json()).toMatchObject({ capacity: 4, table_type: 'standard' });
    expect((await v.get(`/tables/${mine}`)).json().table_type).toBe('standard');
    expect((await o.get('/tables/blocks')).json().data[0]).toMatchObject({ id: block, reason: 'Venue Reserved' });
    expect((await o.get('/tables/combos')).json().data).toHaveLength(1);
    expect((await o.get('/seating-areas')).json().data).toEqual([{ id: area, name: 'Theirs' }]);
    expect((await o.get('/floors')).json().data[0].name).toBe('F');
    expect((await o.get('/pricelists')).json().data[0].name).toBe('P');
    expect((await v.get('/tables')).json().data.map((x: any) => x.id)).toEqual([mine]);
    expect((await v.get('/tables/blocks')).json().data).toEqual([]);
    expect((await v.get('/tables/combos')).json().data).toEqual([]);
    expect((await v.get('/seating-areas')).json().data).toEqual([]);
    expect((await v.get('/floors')).json().data).toEqual([]);
    expect((await v.get('/pricelists')).json().data.map((x: any) => x.id)).toEqual([myList]);
  });
});

describe('daylight-saving days (Europe/London)', () => {
  it('a block entered in venue time on the autumn change day is blocked at the same wall-clock time in the list', async () => {
    // 2026-10-25: clocks go back at 02:00 BST, so 01:00–02:00 happens twice; both sides take the first.
    const { api: v } = await setupVenue(t);
    const table = await createTable(v, { table_number: '1' });
    const block = await v.post('/tables/block', { table_ids: [table], from: '2026-10-25T01:00', to: '2026-10-25T01:30' });
    expect(block.statusCode, block.body).toBe(200);
    expect((await v.get('/tables/blocks')).json().data[0]).toMatchObject({ blocked_from: '2026-10-25T00:00:00.000Z', blocked_to: '2026-10-25T00:30:00.000Z' });
    const at = async (query: string) => (await v.get(`/tables?${query}`)).json().data[0].is_blocked;
    expect(await at('date=2026-10-25&time=01:00&duration=30')).toBe(true);
    expect(await at('date=2026-10-25&time=01:15&duration=10')).toBe(true);
    expect(await at('date=2026-10-25&time=01:30&duration=30')).toBe(false);
    expect(await at('date=2026-10-25&time=00:30&duration=30')).toBe(false);

    // PATCH parses the same way.
    const id = block.json().ids[0];
    expect((await v.patch(`/tables/blocks/${id}`, { blocked_to: '2026-10-25T01:45' })).statusCode).toBe(200);
    expect((await v.get('/tables/blocks')).json().data[0].blocked_to).toBe('2026-10-25T00:45:00.000Z');
  });

  it('on the spring change day the window is real minutes and blocks land on the right instant', async () => {
    // 2026-03-29: 01:00 GMT jumps to 02:00 BST. 00:30 local is 00:30Z; 03:00 local is 02:00Z.
    const { op, venueId, api: v } = await setupVenue(t);
    const blocked = await createTable(v, { table_number: '1' });
    const taken = await createTable(v, { table_number: '2' });
    await v.post('/tables/block', { table_ids: [blocked], from: '2026-03-29T03:00', to: '2026-03-29T04:00' });
    await insertBooking(op, venueId, [taken], '2026-03-29T02:15:00.000Z', '2026-03-29T04:15:00.000Z');
    const state = async (query: string) =>
      Object.fromEntries((await v.get(`/tables?${query}`)).json().data.map((row: any) => [row.table_number, [row.is_blocked, row.is_taken]]));
    // 00:30Z–02:00Z: ends exactly where the block starts and before the booking.
    expect(await state('date=2026-03-29&time=00:30&duration=90')).toEqual({ 1: [false, false], 2: [false, false] });
    // 00:30Z–02:30Z: two real hours reach both.
    expect(await state('date=2026-03-29&time=00:30&duration=120')).toEqual({ 1: [true, false], 2: [false, true] });
    // A skipped wall-clock time (01:30) moves forward to 02:30 BST = 01:30Z, like a block at 01:30 would.
    expect(await state('date=2026-03-29&time=01:30&duration=30')).toEqual({ 1: [false, false], 2: [false, false] });
    expect(await state('date=2026-03-29&time=01:30&duration=31')).toEqual({ 1: [true, false], 2: [false, false] });
    expect((await v.get('/tables/blocks')).json().data[0]).toMatchObject({ blocked_from: '2026-03-29T02:00:00.000Z', blocked_to: '2026-03-29T03:00:00.000Z' });
  });

  it('refuses offsets that no place on earth uses', async () => {
    const { api: v } = await setupVenue(t);
    const table = await createTable(v, { table_number: '1' });
    expect((await v.post('/tables/block', { table_ids: [table], from: '2026-06-20T19:00+25:00', to: '2026-06-21T19:00Z' })).statusCode).toBe(400);
    expect((await v.post('/tables/block', { table_ids: [table], from: '2026-06-20T19:00Z', to: '2026-06-20T24:00' })).statusCode).toBe(400);
    expect((await v.get('/tables/blocks')).json().data).toEqual([]);
  });
});

describe('list order', () => {
  it('is natural, case-aware and the same on both engines, with no ties between different numbers or names', async () => {
    const { api: v } = await setupVenue(t);
    // Inserted so that insertion order, byte order and a tie-prone comparison all give a different answer.
    const numbers = ['A1', '10', '1', 'a1', '2', '01'];
    const ids: Record<string, string> = {};
    for (const n of numbers) ids[n] = await createTable(v, { table_number: n, capacity: 2 });
    const expected = ['01', '1', '2', '10', 'a1', 'A1'];
    expect((await v.get('/tables')).json().data.map((row: any) => row.table_number)).toEqual(expected);

    await v.post('/tables/block', { table_ids: numbers.map((n) => ids[n]), from: '2026-06-20T19:00', to: '2026-06-20T20:00' });
    expect((await v.get('/tables/blocks')).json().data.map((row: any) => row.table_number)).toEqual(expected);

    const names = ['bar', 'Zen', 'Bar', 'balcony', 'Atrium', 'Room 10', 'Room 2'];
    const sortedNames = ['Atrium', 'balcony', 'bar', 'Bar', 'Room 2', 'Room 10', 'Zen'];
    for (const name of names) await createArea(v, name);
    expect((await v.get('/seating-areas')).json().data.map((row: any) => row.name)).toEqual(sortedNames);
    for (const name of names) await v.post('/pricelists', { name });
    expect((await v.get('/pricelists')).json().data.map((row: any) => row.name)).toEqual(sortedNames);
    for (const name of names) await v.post('/tables/combos', { name, table_ids: [ids['1'], ids['01']] });
    const combos = (await v.get('/tables/combos')).json().data;
    expect(combos.map((row: any) => row.name)).toEqual(sortedNames);
    expect(combos[0].table_ids).toEqual([ids['01'], ids['1']]);
    for (const name of names) await v.post('/floors', { name });
    expect((await v.get('/floors')).json().data.map((row: any) => row.name)).toEqual(sortedNames);

    const list = (await v.get('/pricelists')).json().data[0].id;
    for (const n of numbers) await v.put(`/pricelists/${list}/tables/${ids[n]}`, { price_pence: 100 });
    expect((await v.get('/pricelists')).json().data[0].table_prices.map((row: any) => row.table_number)).toEqual(expected);
  });
});

describe('canvas sync at scale', () => {
  it('creates hundreds of tables from one canvas', async () => {
    const { api: v } = await setupVenue(t);
    const floor = (await v.post('/floors', { name: 'Hall' })).json().id;
    const canvas = Array.from({ length: 620 }, (_, i) => ({ type: 'table', tableNumber: String(i + 1), maxCovers: 2 + (i % 5), x: i, y: i * 2 }));
    const res = await v.put(`/floors/${floor}`, { canvas_data: canvas });
    expect(res.statusCode, res.body).toBe(200);
    const tables = (await v.get('/tables')).json().data;
    expect(tables).toHaveLength(620);
    expect(tables[619]).toMatchObject({ table_number: '620', capacity: 6, floor_id: floor, x: 619, y: 1238 });
    expect((await v.get(`/floors/${floor}`)).json().canvas_data).toHaveLength(620);
  });

  it('a save writes only the tables whose canvas values changed', async () => {
    const { venueId, api: v } = await setupVenue(t);
    const floor = (await v.post('/floors', { name: 'Main' })).json().id;
    const canvas = [1, 2, 3].map((n) => ({ type: 'table', tableNumber: String(n), tableType: 'standard', minCovers: 1, maxCovers: 4, shape: 'rect', size: 'large', x: n, y: n }));
    await v.put(`/floors/${floor}`, { canvas_data: canvas });
    const stamps = async () =>
      Object.fromEntries(
        (await t.db.kysely.selectFrom('venue_tables').select(['table_number', 'updated_at']).where('venue_id', '=', venueId).execute()).map((row) => [row.table_number, row.updated_at]),
      );
    const before = await stamps();
    t.clock.advance(60_000);
    const moved = canvas.map((item) => (item.tableNumber === '2' ? { ...item, x: 50 } : item));
    expect((await v.put(`/floors/${floor}`, { canvas_data: moved })).statusCode).toBe(200);
    const after = await stamps();
    expect(after['1']).toBe(before['1']);
    expect(after['3']).toBe(before['3']);
    expect(after['2']).not.toBe(before['2']);
    expect((await v.get(`/floors/${floor}`)).json().canvas_data).toEqual(moved);
  });
});

describe('another operator', () => {
  it('gets 404 on every route of this venue, and nothing changes', async () => {
    const { venueId, api: v } = await setupVenue(t);
    const table = await createTable(v, { table_number: '1' });
    const table2 = await createTable(v, { table_number: '2' });
    const area = await createArea(v, 'Terrace');
    const block = (await v.post('/tables/block', { table_ids: [table], from: '2026-06-20T19:00', to: '2026-06-20T20:00' })).json().ids[0];
    const combo = (await v.post('/tables/combos', { name: 'Pair', table_ids: [table, table2] })).json().id;
    const floor = (await v.post('/floors', { name: 'Main' })).json().id;
    const list = (await v.post('/pricelists', { name: 'P' })).json().id;
    const snapshot = async () =>
      Promise.all(['/tables', '/tables/blocks', '/tables/combos', '/floors', '/seating-areas', '/smart-tables', '/pricelists'].map(async (path) => (await v.get(path)).json()));
    const before = await snapshot();

    const stranger = venueApi(t, (await createOperator(t, 'Rival')).headers, venueId);
    const attempts: [keyof VenueApi, string, object?][] = [
      ['get', '/tables'],
      ['get', '/tables?date=2026-06-20&time=19:00'],
      ['get', `/tables/${table}`],
      ['post', '/tables', { table_number: '9' }],
      ['put', `/tables/${table}`, { capacity: 9 }],
      ['del', `/tables/${table}`],
      ['post', '/tables/set-type', { table_ids: [table], table_type: 'bar' }],
      ['post', '/tables/set-area', { table_ids: [table], seating_area_id: null }],
      ['get', '/tables/blocks'],
      ['post', '/tables/block', { table_ids: [table], from: '2026-06-20T19:00', to: '2026-06-20T20:00' }],
      ['patch', `/tables/blocks/${block}`, { reason: 'x' }],
      ['del', `/tables/blocks/${block}`],
      ['post', '/tables/unblock', { table_ids: [table] }],
      ['get', '/tables/combos'],
      ['post', '/tables/combos', { name: 'C', table_ids: [table, table2] }],
      ['del', `/tables/combos/${combo}`],
      ['get', '/floors'],
      ['get', `/floors/${floor}`],
      ['post', '/floors', { name: 'F' }],
      ['put', `/floors/${floor}`, { name: 'F', canvas_data: [] }],
      ['del', `/floors/${floor}`],
      ['get', '/seating-areas'],
      ['post', '/seating-areas', { name: 'A' }],
      ['put', `/seating-areas/${area}`, { name: 'A' }],
      ['del', `/seating-areas/${area}`],
      ['get', '/smart-tables'],
      ['put', '/smart-tables', { reassign_enabled: true }],
      ['get', '/pricelists'],
      ['post', '/pricelists', { name: 'P2' }],
      ['put', `/pricelists/${list}`, { name: 'P2' }],
      ['del', `/pricelists/${list}`],
      ['put', `/pricelists/${list}/tables/${table}`, { price_pence: 1 }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await (stranger[method] as (p: string, b?: object) => ReturnType<VenueApi['get']>)(path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json().error, `${method} ${path}`).toEqual(expect.any(String));
    }
    expect(await snapshot()).toEqual(before);
  });

  it('gets 404 for this operator’s ids on its own venue, in paths and in id lists', async () => {
    const { api: v } = await setupVenue(t);
    const table = await createTable(v, { table_number: '1' });
    const table2 = await createTable(v, { table_number: '2' });
    const area = await createArea(v, 'Terrace');
    const block = (await v.post('/tables/block', { table_ids: [table], from: '2026-06-20T19:00', to: '2026-06-20T20:00' })).json().ids[0];
    const combo = (await v.post('/tables/combos', { name: 'Pair', table_ids: [table, table2] })).json().id;
    const floor = (await v.post('/floors', { name: 'Main' })).json().id;
    const list = (await v.post('/pricelists', { name: 'P' })).json().id;

    const { api: o } = await setupVenue(t);
    const own = await createTable(o, { table_number: '1' });
    const ownList = (await o.post('/pricelists', { name: 'Own' })).json().id;
    const attempts: [keyof VenueApi, string, object?][] = [
      ['get', `/tables/${table}`],
      ['put', `/tables/${table}`, { capacity: 9 }],
      ['del', `/tables/${table}`],
      ['post', '/tables/set-type', { table_ids: [own, table], table_type: 'bar' }],
      ['post', '/tables/set-area', { table_ids: [own], seating_area_id: area }],
      ['post', '/tables/block', { table_ids: [own, table], from: '2026-06-20T19:00', to: '2026-06-20T20:00' }],
      ['patch', `/tables/blocks/${block}`, { reason: 'x' }],
      ['del', `/tables/blocks/${block}`],
      ['post', '/tables/unblock', { table_ids: [table] }],
      ['post', '/tables/combos', { name: 'C', table_ids: [own, table] }],
      ['del', `/tables/combos/${combo}`],
      ['get', `/floors/${floor}`],
      ['put', `/floors/${floor}`, { name: 'F' }],
      ['del', `/floors/${floor}`],
      ['put', `/seating-areas/${area}`, { name: 'A' }],
      ['del', `/seating-areas/${area}`],
      ['put', `/pricelists/${list}`, { name: 'P2' }],
      ['del', `/pricelists/${list}`],
      ['put', `/pricelists/${ownList}/tables/${table}`, { price_pence: 1 }],
      ['put', `/pricelists/${list}/tables/${own}`, { price_pence: 1 }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await (o[method] as (p: string, b?: object) => ReturnType<VenueApi['get']>)(path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
    }
    expect((await o.get('/tables')).json().data.map((row: any) => [row.id, row.table_type, row.seating_area_id])).toEqual([[own, 'standard', null]]);
    expect((await o.get('/tables/blocks')).json().data).toEqual([]);
    expect((await o.get('/tables/combos')).json().data).toEqual([]);
    expect((await o.get('/pricelists')).json().data[0].table_prices).toEqual([]);
    expect((await v.get('/tables/blocks')).json().data).toEqual([expect.objectContaining({ id: block, reason: 'Venue Reserved' })]);
    expect((await v.get('/tables/combos')).json().data.map((row: any) => row.id)).toEqual([combo]);
    expect((await v.get('/floors')).json().data.map((row: any) => row.id)).toEqual([floor]);
    expect((await v.get('/seating-areas')).json().data).toEqual([{ id: area, name: 'Terrace' }]);
    expect((await v.get('/pricelists')).json().data.map((row: any) => row.name)).toEqual(['P']);
  });
});
