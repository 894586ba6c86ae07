// Seating areas: CRUD, and what deleting one detaches (tables, shifts, access rules).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, setupVenue, type TestApp } from '../../../test/helpers/app.js';
import { createArea, createTable } from './tables.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

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
