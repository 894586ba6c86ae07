// Table blocks: block, list, patch, delete, unblock, and their validation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, setupVenue, type TestApp } from '../../../test/helpers/app.js';
import { createTable } from './tables.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('table blocks', () => {
  it('lists one service day’s blocks with `date` (06:00 venue-local to 06:00 the next morning)', async () => {
    const { api: v } = await setupVenue(t);
    const a = await createTable(v, { table_number: '1' });
    const spans = [
      ['2026-06-20T02:00', '2026-06-20T05:00'], // the night before (the 19th's service day)
      ['2026-06-20T05:30', '2026-06-20T06:30'], // across 06:00: both days
      ['2026-06-20T19:00', '2026-06-20T23:00'], // the evening
      ['2026-06-21T01:00', '2026-06-21T02:00'], // after midnight: still the 20th's service day
      ['2026-06-21T06:00', '2026-06-21T08:00'], // the 21st
    ];
    for (const [from, to] of spans) expect((await v.post('/tables/block', { table_ids: [a], from, to })).statusCode).toBe(200);
    const day = (await v.get('/tables/blocks?date=2026-06-20')).json().data.map((b: { blocked_from: string }) => b.blocked_from);
    // London is UTC+1 in June.
    expect(day).toEqual(['2026-06-20T04:30:00.000Z', '2026-06-20T18:00:00.000Z', '2026-06-21T00:00:00.000Z']);
    expect((await v.get('/tables/blocks')).json().data).toHaveLength(5);
    expect((await v.get('/tables/blocks?date=2026-02-30')).statusCode).toBe(400);
    expect((await v.get('/tables/blocks?date=soon')).statusCode).toBe(400);
  });

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
      {
        id: blockA,
        table_id: a,
        table_number: '1',
        blocked_from: '2026-06-20T18:00:00.000Z',
        blocked_to: '2026-06-20T22:00:00.000Z',
        reason: 'Venue Reserved',
      },
      {
        id: blockB,
        table_id: b,
        table_number: '2',
        blocked_from: '2026-06-20T18:00:00.000Z',
        blocked_to: '2026-06-20T22:00:00.000Z',
        reason: 'Venue Reserved',
      },
    ]);

    expect(
      (await v.patch(`/tables/blocks/${blockA}`, { reason: 'Private party', blocked_from: '2026-06-20T20:00:00+01:00' })).json(),
    ).toEqual({ success: true });
    let row = (await v.get('/tables/blocks')).json().data.find((x: any) => x.id === blockA);
    expect(row).toMatchObject({
      reason: 'Private party',
      blocked_from: '2026-06-20T19:00:00.000Z',
      blocked_to: '2026-06-20T22:00:00.000Z',
    });
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
    const res = await v.post('/tables/block', {
      table_ids: [a],
      from: '2026-12-24T18:00:00-05:00',
      to: '2026-12-25T02:00:00Z',
      reason: 'Maintenance',
    });
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
    expect(
      (await v.post('/tables/block', { table_ids: [a, 'tbl_nope'], from: '2026-06-20T19:00', to: '2026-06-20T21:00' })).statusCode,
    ).toBe(404);
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
