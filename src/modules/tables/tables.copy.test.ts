import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOperator,
  createTestApp,
  insertVenue,
  insertVenueRow,
  venueApi,
  type TestApp,
  type TestOperator,
} from '../../../test/helpers/app.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** Over `venueApi`: `get` answers the body; `send` must answer 200 and answers the body. */
function api(venueId: string, headers: Record<string, string>) {
  const v = venueApi(t, headers, venueId);
  return {
    get: async (path: string) => (await v.get(path)).json(),
    async send(method: 'POST' | 'PUT', path: string, payload: object) {
      const res = await (method === 'POST' ? v.post(path, payload) : v.put(path, payload));
      expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(200);
      return res.json();
    },
  };
}

const copy = (op: TestOperator, sourceVenueId: string, targetVenueId: string) =>
  withTransaction(t.db, (trx) =>
    t.ctx.copyScopes.get('tables')!.copy({ trx, operatorId: op.operatorId, sourceVenueId, targetVenueId, now: t.clock.now() }),
  );

const CANVAS = [
  { type: 'table', tableNumber: '1', tableType: 'booth', minCovers: 2, maxCovers: 6, shape: 'rect', size: 'large', x: 10, y: 20 },
  { type: 'wall', x: 0, y: 0, width: 300 },
  { type: 'table', tableNumber: '2', tableType: 'high', minCovers: 1, maxCovers: 2, shape: 'circle', size: 'small', x: 40, y: 20 },
];

async function scenario() {
  const op = await createOperator(t);
  const sourceId = await insertVenue(t, op.operatorId);
  const targetId = await insertVenue(t, op.operatorId);
  const s = api(sourceId, op.headers);
  const d = api(targetId, op.headers);

  const terrace = (await s.send('POST', '/seating-areas', { name: 'Terrace' })).id;
  await s.send('POST', '/seating-areas', { name: 'Bar' });
  const floor = (await s.send('POST', '/floors', { name: 'Ground', sort_order: 1 })).id;
  await s.send('PUT', `/floors/${floor}`, { canvas_data: CANVAS });
  await s.send('POST', '/tables', { table_number: '3', capacity: 10, status: 'inactive' });
  const [one, two] = (await s.get('/tables')).data.map((row: any) => row.id);
  await s.send('POST', '/tables/set-area', { table_ids: [one], seating_area_id: terrace });
  await s.send('POST', '/tables/combos', { name: 'Pair', table_ids: [one, two] });
  const weekend = (await s.send('POST', '/pricelists', { name: 'Weekend', default_price_pence: 2000 })).id;
  await s.send('PUT', `/pricelists/${weekend}/tables/${one}`, { price_pence: 5000 });
  await s.send('PUT', '/smart-tables', { reassign_enabled: true, reassign_time: '05:00', duration_enabled: true });
  await t.db.kysely
    .updateTable('smart_table_settings')
    .set({ reassign_last_run: '2026-06-15T05:00:00.000Z' })
    .where('venue_id', '=', sourceId)
    .execute();
  await s.send('POST', '/tables/block', { table_ids: [one], from: '2026-06-20T19:00', to: '2026-06-20T21:00' });

  // The target's floorplan, and availability and profiles that point into it.
  const oldOne = (await d.send('POST', '/tables', { table_number: '1' })).id;
  const oldNine = (await d.send('POST', '/tables', { table_number: '9' })).id;
  const oldTerrace = (await d.send('POST', '/seating-areas', { name: 'Terrace' })).id;
  const oldArea = (await d.send('POST', '/seating-areas', { name: 'Old area' })).id;
  const oldWeekend = (await d.send('POST', '/pricelists', { name: 'Weekend' })).id;
  const oldList = (await d.send('POST', '/pricelists', { name: 'Old list' })).id;
  await d.send('POST', '/tables/block', { table_ids: [oldNine], from: '2026-06-20T19:00', to: '2026-06-20T21:00' });
  await d.send('POST', '/floors', { name: 'Old floor' });
  await d.send('POST', '/shifts', {
    name: 'Dinner',
    days_of_week: ['fri'],
    table_ids: [oldOne, oldNine],
    seating_area_ids: [oldTerrace, oldArea],
  });
  await d.send('POST', '/access-rules', {
    name: 'A',
    pricelist_id: oldWeekend,
    table_ids: [oldNine, oldOne],
    guest_pick_area_ids: [oldArea],
  });
  await d.send('POST', '/access-rules', { name: 'B', pricelist_id: oldList });
  const profile = await insertVenueRow(t, 'profiles', targetId, { family: 'table', name: 'Tables', pricelist_id: oldWeekend }, 'prof');

  return { op, sourceId, targetId, s, d, sourceTables: (await s.get('/tables')).data, profile };
}

describe('copy-from scope `tables`', () => {
  it('replaces the target floorplan with linked copies and re-points the target’s references', async () => {
    const { op, sourceId, targetId, s, d, sourceTables, profile } = await scenario();
    // areas 2 + floor 1 + tables 3 + combination 1 with 2 members + price list 1 with 1 override + settings 1
    expect(await copy(op, sourceId, targetId)).toBe(12);

    const areas = (await d.get('/seating-areas')).data;
    expect(areas.map((a: any) => a.name)).toEqual(['Bar', 'Terrace']);
    const terrace = areas.find((a: any) => a.name === 'Terrace').id;
    const floors = (await d.get('/floors')).data;
    expect(floors).toEqual([{ id: expect.any(String), name: 'Ground', sort_order: 1, canvas_data: CANVAS }]);

    const tables = (await d.get('/tables')).data;
    const strip = ({ id: _id, seating_area_id: _a, floor_id: _f, ...rest }: any) => rest;
    expect(tables.map(strip)).toEqual(sourceTables.map(strip));
    expect(tables.map((row: any) => [row.table_number, row.seating_area_id, row.floor_id])).toEqual([
      ['1', terrace, floors[0].id],
      ['2', null, floors[0].id],
      ['3', null, null],
    ]);
    expect(tables.some((row: any) => sourceTables.some((src: any) => src.id === row.id))).toBe(false);
    const [one, two] = tables.map((row: any) => row.id);
    expect((await d.get(`/floors/${floors[0].id}`)).tables.map((row: any) => row.id)).toEqual([one, two]);

    expect((await d.get('/tables/combos')).data).toEqual([
      { id: expect.any(String), name: 'Pair', table_ids: [one, two], combined_capacity: 8 },
    ]);
    const pricelists = (await d.get('/pricelists')).data;
    expect(pricelists).toEqual([
      {
        id: expect.any(String),
        name: 'Weekend',
        default_price_pence: 2000,
        table_prices: [{ table_id: one, table_number: '1', price_pence: 5000 }],
      },
    ]);
    expect(await d.get('/smart-tables')).toEqual({
      reassign_enabled: true,
      reassign_time: '05:00',
      reassign_last_run: null,
      duration_enabled: true,
    });
    expect((await d.get('/tables/blocks')).data).toEqual([]);

    // Shifts, rules and table profiles of the target now name the copies (by number and name) or nothing.
    const shift = (await d.get('/shifts')).data[0];
    expect(shift).toMatchObject({ table_ids: [one], seating_area_ids: [terrace] });
    const rules = Object.fromEntries((await d.get('/access-rules')).data.map((r: any) => [r.name, r]));
    expect(rules.A).toMatchObject({ pricelist_id: pricelists[0].id, table_ids: [one], guest_pick_area_ids: [] });
    expect(rules.B.pricelist_id).toBeNull();
    const profileRow = await t.db.kysely.selectFrom('profiles').select('pricelist_id').where('id', '=', profile).executeTakeFirstOrThrow();
    expect(profileRow.pricelist_id).toBe(pricelists[0].id);

    // The source is untouched.
    expect((await s.get('/tables')).data).toEqual(sourceTables);
    expect((await s.get('/tables/blocks')).data).toHaveLength(1);
    expect((await s.get('/smart-tables')).reassign_last_run).toBe('2026-06-15T05:00:00.000Z');
  });

  it('refuses (409) a target whose tables hold upcoming reservations, changing nothing', async () => {
    const { op, sourceId, targetId, d } = await scenario();
    const before = (await d.get('/tables')).data;
    const at = t.clock.now().toISOString();
    const booking = newId('bkg');
    await t.db.kysely
      .insertInto('bookings')
      .values({
        id: booking,
        operator_id: op.operatorId,
        venue_id: targetId,
        kind: 'table',
        status: 'pending',
        user_id: null,
        event_id: null,
        access_rule_id: null,
        booking_date: '2026-06-20',
        start_time: '19:00',
        duration_minutes: 120,
        starts_at: '2026-06-20T18:00:00.000Z',
        ends_at: '2026-06-20T20:00:00.000Z',
        guest_name: null,
        guest_email: null,
        guest_phone: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await t.db.kysely
      .insertInto('booking_tables')
      .values({
        booking_id: booking,
        table_id: before[0].id,
        venue_id: targetId,
        starts_at: '2026-06-20T18:00:00.000Z',
        ends_at: '2026-06-20T20:00:00.000Z',
      })
      .execute();

    const refused = await copy(op, sourceId, targetId).catch((error) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused.status).toBe(409);
    expect((await d.get('/tables')).data).toEqual(before);

    await t.db.kysely.updateTable('bookings').set({ status: 'cancelled' }).where('id', '=', booking).execute();
    expect(await copy(op, sourceId, targetId)).toBe(12);
  });

  it('copies a large floorplan (more rows than one insert carries) with every link intact', async () => {
    const op = await createOperator(t);
    const sourceId = await insertVenue(t, op.operatorId);
    const targetId = await insertVenue(t, op.operatorId);
    const s = api(sourceId, op.headers);
    const d = api(targetId, op.headers);
    const floor = (await s.send('POST', '/floors', { name: 'Hall' })).id;
    const canvas = Array.from({ length: 530 }, (_, i) => ({ type: 'table', tableNumber: String(i + 1), maxCovers: 2, x: i, y: 0 }));
    await s.send('PUT', `/floors/${floor}`, { canvas_data: canvas });
    const sourceTables = (await s.get('/tables')).data;
    const list = (await s.send('POST', '/pricelists', { name: 'All' })).id;
    for (const row of sourceTables.slice(0, 3)) await s.send('PUT', `/pricelists/${list}/tables/${row.id}`, { price_pence: 700 });
    await s.send('POST', '/tables/combos', { name: 'Long', table_ids: sourceTables.slice(0, 3).map((row: any) => row.id) });

    // floor 1 + tables 530 + combination 1 with 3 members + price list 1 with 3 overrides
    expect(await copy(op, sourceId, targetId)).toBe(539);
    const copied = (await d.get('/tables')).data;
    expect(copied).toHaveLength(530);
    const floorCopy = (await d.get('/floors')).data[0];
    expect(floorCopy.canvas_data).toEqual(canvas.map((item) => ({ ...item, tableType: 'standard', minCovers: 1 })));
    expect(new Set(copied.map((row: any) => row.floor_id))).toEqual(new Set([floorCopy.id]));
    const [one, two, three] = copied.map((row: any) => row.id);
    expect((await d.get('/tables/combos')).data).toEqual([
      { id: expect.any(String), name: 'Long', table_ids: [one, two, three], combined_capacity: 6 },
    ]);
    expect((await d.get('/pricelists')).data[0].table_prices.map((row: any) => row.table_id)).toEqual([one, two, three]);
  });

  it('copies an empty floorplan as an empty one', async () => {
    const { op, targetId, d } = await scenario();
    const empty = await insertVenue(t, op.operatorId);
    expect(await copy(op, empty, targetId)).toBe(0);
    expect((await d.get('/tables')).data).toEqual([]);
    expect((await d.get('/floors')).data).toEqual([]);
    expect((await d.get('/pricelists')).data).toEqual([]);
    expect(await d.get('/smart-tables')).toEqual({
      reassign_enabled: false,
      reassign_time: '06:00',
      reassign_last_run: null,
      duration_enabled: false,
    });
    expect((await d.get('/shifts')).data[0]).toMatchObject({ table_ids: [], seating_area_ids: [] });
  });
});
