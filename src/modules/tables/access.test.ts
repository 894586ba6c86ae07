// Permissions and tenancy across every tables-module route at once: sessions, read-only roles, rows of
// another venue, and another operator. Single-resource cases live beside their resource.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOperator,
  createStaff,
  createTestApp,
  insertVenue,
  setupVenue,
  venueApi,
  type TestApp,
  type VenueApi,
} from '../../../test/helpers/app.js';
import { createArea, createTable } from './tables.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('access control', () => {
  it('401 without a session, 403 without the permission, read-only staff can read', async () => {
    const { op, venueId, api: v } = await setupVenue(t);
    const table = await createTable(v, { table_number: '1' });
    expect((await venueApi(t, {}, venueId).get('/tables')).statusCode).toBe(401);
    expect((await venueApi(t, {}, venueId).post('/tables', { table_number: '2' })).statusCode).toBe(401);

    const reader = await createStaff(t, op, { tables: 'read' });
    const r = venueApi(t, reader.headers, venueId);
    for (const path of [
      '/tables',
      `/tables/${table}`,
      '/tables/blocks',
      '/tables/combos',
      '/floors',
      '/seating-areas',
      '/smart-tables',
      '/pricelists',
    ]) {
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
      Promise.all(
        ['/tables', '/tables/blocks', '/tables/combos', '/floors', '/seating-areas', '/smart-tables', '/pricelists'].map(async (path) =>
          (await v.get(path)).json(),
        ),
      );
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
    expect((await o.get('/tables')).json().data.map((row: any) => [row.id, row.table_type, row.seating_area_id])).toEqual([
      [own, 'standard', null],
    ]);
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
