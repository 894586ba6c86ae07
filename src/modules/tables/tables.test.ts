// Tables: create, read, update, delete, bulk type and area changes, deletion side effects, list order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, setupVenue, venueApi, type TestApp } from '../../../test/helpers/app.js';
import { createArea, createTable, insertBooking } from './tables.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

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
    expect((await v.get(`/tables/${full}`)).json()).toMatchObject({
      table_number: '12',
      capacity: 6,
      status: 'inactive',
      table_type: 'booth',
      min_covers: 2,
    });

    expect((await v.put(`/tables/${full}`, { capacity: 8 })).json()).toEqual({ success: true });
    expect((await v.get(`/tables/${full}`)).json()).toMatchObject({
      table_number: '12',
      capacity: 8,
      status: 'inactive',
      table_type: 'booth',
      min_covers: 2,
    });
    await v.put(`/tables/${full}`, { table_number: '12A', status: 'active', table_type: 'high', min_covers: 3 });
    expect((await v.get(`/tables/${full}`)).json()).toMatchObject({
      table_number: '12A',
      capacity: 8,
      status: 'active',
      table_type: 'high',
      min_covers: 3,
    });

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

describe('the cached list', () => {
  it('shows every change at once: a new table, an edit, bulk changes, an area deleted under it, a deleted table', async () => {
    const { api: v } = await setupVenue(t);
    const list = async () => {
      const res = await v.get('/tables');
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as { table_number: string; capacity: number; table_type: string; seating_area_id: string | null }[]).map(
        (row) => `${row.table_number}:${row.capacity}:${row.table_type}:${row.seating_area_id ?? '-'}`,
      );
    };
    const a = await createTable(v, { table_number: '1', capacity: 2 });
    expect(await list()).toEqual(['1:2:standard:-']);
    expect(await list()).toEqual(['1:2:standard:-']);
    const b = await createTable(v, { table_number: '2' });
    expect(await list()).toEqual(['1:2:standard:-', '2:4:standard:-']);
    expect((await v.put(`/tables/${a}`, { capacity: 6 })).statusCode).toBe(200);
    expect(await list()).toEqual(['1:6:standard:-', '2:4:standard:-']);
    await v.post('/tables/set-type', { table_ids: [a, b], table_type: 'booth' });
    const area = await createArea(v, 'Terrace');
    await v.post('/tables/set-area', { table_ids: [b], seating_area_id: area });
    expect(await list()).toEqual(['1:6:booth:-', `2:4:booth:${area}`]);
    // The area's deletion clears the table's area through the foreign key, not through a table write.
    expect((await v.del(`/seating-areas/${area}`)).statusCode).toBe(200);
    expect(await list()).toEqual(['1:6:booth:-', '2:4:booth:-']);
    expect((await v.del(`/tables/${a}`)).statusCode).toBe(200);
    expect(await list()).toEqual(['2:4:booth:-']);
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
    await insertBooking(t, op, venueId, [a], '2026-06-20T18:00:00.000Z', '2026-06-20T20:00:00.000Z');
    await insertBooking(t, op, venueId, [b], '2026-06-20T18:00:00.000Z', '2026-06-20T20:00:00.000Z', 'cancelled');
    await insertBooking(t, op, venueId, [c], '2026-06-01T18:00:00.000Z', '2026-06-01T20:00:00.000Z');
    const refused = await v.del(`/tables/${a}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/upcoming/);
    expect((await v.get(`/tables/${a}`)).statusCode).toBe(200);
    expect((await v.del(`/tables/${b}`)).statusCode).toBe(200);
    expect((await v.del(`/tables/${c}`)).statusCode).toBe(200);
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

describe('access control', () => {
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
});
