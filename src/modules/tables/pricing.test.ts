// Smart-table settings and price lists (per-table overrides, and what deleting a list detaches).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, setupVenue, type TestApp } from '../../../test/helpers/app.js';
import { newId } from '../../platform/ids.js';
import { createTable } from './tables.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('smart-table settings', () => {
  it('reads defaults, saves the fields sent and never takes reassign_last_run from the body', async () => {
    const { venueId, api: v } = await setupVenue(t);
    expect((await v.get('/smart-tables')).json()).toEqual({
      reassign_enabled: false,
      reassign_time: '06:00',
      reassign_last_run: null,
      duration_enabled: false,
    });

    const saved = await v.put('/smart-tables', {
      reassign_enabled: true,
      reassign_time: '05:30',
      duration_enabled: 1,
      reassign_last_run: '2026-01-01T00:00:00Z',
    });
    expect(saved.json()).toEqual({
      success: true,
      data: { reassign_enabled: true, reassign_time: '05:30', reassign_last_run: null, duration_enabled: true },
    });
    expect((await v.get('/smart-tables')).json()).toEqual({
      reassign_enabled: true,
      reassign_time: '05:30',
      reassign_last_run: null,
      duration_enabled: true,
    });

    await t.db.kysely
      .updateTable('smart_table_settings')
      .set({ reassign_last_run: '2026-06-15T05:30:00.000Z' })
      .where('venue_id', '=', venueId)
      .execute();
    const partial = await v.put('/smart-tables', { duration_enabled: false });
    expect(partial.json().data).toEqual({
      reassign_enabled: true,
      reassign_time: '05:30',
      reassign_last_run: '2026-06-15T05:30:00.000Z',
      duration_enabled: false,
    });

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
      .values({
        id: profileId,
        venue_id: venueId,
        family: 'table',
        name: 'Tables',
        pricelist_id: gone,
        created_at: at,
        updated_at: at,
      } as any)
      .execute();

    expect((await v.del(`/pricelists/${gone}`)).json()).toEqual({ success: true });
    const overrides = await t.db.kysely.selectFrom('pricelist_prices').selectAll().where('pricelist_id', 'in', [gone, kept]).execute();
    expect(overrides).toEqual([{ pricelist_id: kept, table_id: a, price_pence: 200 }]);
    const rules = Object.fromEntries((await v.get('/access-rules')).json().data.map((r: any) => [r.id, r.pricelist_id]));
    expect(rules).toEqual({ [ruleGone]: null, [ruleKept]: kept });
    const profile = await (t.db.kysely as any)
      .selectFrom('profiles')
      .select('pricelist_id')
      .where('id', '=', profileId)
      .executeTakeFirstOrThrow();
    expect(profile.pricelist_id).toBeNull();
  });
});
