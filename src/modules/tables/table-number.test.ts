/** Table numbers sent as numbers: whole numbers 0 to 99999, stored as their string; anything else is a 400. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectCreated, setupVenue, type TestApp } from '../../../test/helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('table_number limits', () => {
  it('stores a number up to 99999 as its string', async () => {
    const { api: v } = await setupVenue(t);
    for (const [sent, stored] of [
      [0, '0'],
      [99_999, '99999'],
    ] as const) {
      const id = expectCreated(await v.post('/tables', { table_number: sent }));
      expect((await v.get(`/tables/${id}`)).json().table_number).toBe(stored);
    }
    const id = expectCreated(await v.post('/tables', { table_number: 'x'.repeat(50) }));
    expect((await v.put(`/tables/${id}`, { table_number: 12_345 })).statusCode).toBe(200);
    expect((await v.get(`/tables/${id}`)).json().table_number).toBe('12345');
  });

  it('refuses numbers over 99999, negative or fractional, and strings over 50 characters, changing nothing', async () => {
    const { api: v } = await setupVenue(t);
    const id = expectCreated(await v.post('/tables', { table_number: '7' }));
    for (const table_number of [100_000, 1e21, -1, 1.5, 'x'.repeat(51)]) {
      const created = await v.post('/tables', { table_number });
      expect(created.statusCode, String(table_number)).toBe(400);
      expect(created.json().error, String(table_number)).toMatch(/table_number/);
      expect((await v.put(`/tables/${id}`, { table_number })).statusCode, String(table_number)).toBe(400);
    }
    const tables = (await v.get('/tables')).json().data;
    expect(tables.map((row: { table_number: string }) => row.table_number)).toEqual(['7']);
  });

  it('applies the same limit to table numbers on a floor canvas', async () => {
    const { api: v } = await setupVenue(t);
    const floor = expectCreated(await v.post('/floors', { name: 'Ground' }));
    const res = await v.put(`/floors/${floor}`, { name: 'Ground', canvas_data: [{ type: 'table', tableNumber: 1e21, x: 1, y: 1 }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/tableNumber/);
    expect((await v.get('/tables')).json().data).toEqual([]);
    const ok = await v.put(`/floors/${floor}`, { name: 'Ground', canvas_data: [{ type: 'table', tableNumber: 42, x: 1, y: 1 }] });
    expect(ok.statusCode).toBe(200);
    expect((await v.get('/tables')).json().data.map((row: { table_number: string }) => row.table_number)).toEqual(['42']);
  });
});
