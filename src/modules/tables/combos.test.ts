// Table combinations: combined capacity that follows the member tables, and validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, insertVenue, setupVenue, venueApi, type TestApp } from '../../../test/helpers/app.js';
import { createTable } from './tables.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

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
