/**
 * The audit log's route: an account's entries with their actor, filters, both paging modes, the
 * permission, venue scope and tenancy; an entry is written in the change's transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, setupVenue, venueApi, type TestApp } from '../../../test/helpers/app.js';
import { withTransaction } from '../../db/transaction.js';
import { runInRequestContext } from '../../platform/request-context.js';
import { auditLog } from './audit.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('GET /api/my-operator/audit-log', () => {
  it('records a table created, updated and deleted with its actor, venue and changed fields only', async () => {
    const { op, venueId, api } = await setupVenue(t);
    const created = await api.post('/tables', { table_number: 'A1', capacity: 4 });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().id;
    expect((await api.put(`/tables/${id}`, { capacity: 6 })).statusCode).toBe(200);
    expect((await api.del(`/tables/${id}`)).statusCode).toBe(200);

    const entries = await auditLog(t, op.headers);
    expect(entries.map((e) => e.action)).toEqual(['table.deleted', 'table.updated', 'table.created']);
    const updated = entries[1];
    expect(updated).toMatchObject({
      entity_type: 'table',
      entity_id: id,
      venue_id: venueId,
      venue_name: 'Test Venue',
      actor: { type: 'user', user_id: op.userId, email: op.email, name: 'Test Operator Owner' },
      before: { capacity: 4 },
      after: { capacity: 6 },
      request_id: expect.any(String),
    });
    expect(Object.keys(updated.after)).toEqual(['capacity']);
    expect(entries[2].after).toMatchObject({ table_number: 'A1', capacity: 4 });
    expect(entries[0].before).toMatchObject({ table_number: 'A1', capacity: 6 });
    expect(entries[0].after).toBeNull();
  });

  it('filters by venue, actor, action prefix, entity and dates', async () => {
    const op = await createOperator(t);
    const first = await insertVenue(t, op.operatorId, { name: 'First' });
    const second = await insertVenue(t, op.operatorId, { name: 'Second' });
    const staff = await createStaff(t, op, { tables: 'write' });
    const tableA = (await venueApi(t, op.headers, first).post('/tables', { table_number: '1' })).json().id;
    t.clock.advance(86_400_000);
    await venueApi(t, staff.headers, second).post('/tables', { table_number: '2' });
    await venueApi(t, staff.headers, second).post('/time-periods', { name: 'Lunch', time_from: '12:00', time_to: '15:00' });
    await venueApi(t, op.headers, first).put(`/tables/${tableA}`, { capacity: 8 });
    const actions = async (query: string) => (await auditLog(t, op.headers, query)).map((e) => `${e.action}@${e.venue_name}`);

    expect(await actions(`?venue_id=${first}`)).toEqual(['table.updated@First', 'table.created@First']);
    expect(await actions(`?actor_user_id=${staff.userId}`)).toEqual(['table.created@Second']);
    expect(await actions('?action=table')).toEqual(['table.updated@First', 'table.created@Second', 'table.created@First']);
    expect(await actions('?action=table.created')).toEqual(['table.created@Second', 'table.created@First']);
    expect(await actions('?action=tab')).toEqual([]);
    expect(await actions(`?entity_type=table&entity_id=${tableA}`)).toEqual(['table.updated@First', 'table.created@First']);
    const today = t.clock.now().toISOString().slice(0, 10);
    expect(await actions(`?to=${today}&from=${today}`)).toHaveLength(2);
    expect(await actions(`?to=${encodeURIComponent(t.clock.now().toISOString())}`)).toEqual(['table.created@First']);
  });

  it('pages with offsets and with cursors, newest first, stable under new entries', async () => {
    const { op, api } = await setupVenue(t);
    for (let i = 1; i <= 5; i++) await api.post('/tables', { table_number: `P${i}` });
    const numbers = (entries: any[]) => entries.map((e) => e.after.table_number);
    const offset = await t.app.inject({ method: 'GET', url: '/api/my-operator/audit-log?limit=2&offset=2', headers: op.headers });
    expect(offset.json()).toMatchObject({ total: 5, limit: 2, offset: 2, has_more: true });
    expect(numbers(offset.json().data)).toEqual(['P3', 'P2']);

    const page1 = (
      await t.app.inject({ method: 'GET', url: '/api/my-operator/audit-log?paging=cursor&limit=2', headers: op.headers })
    ).json();
    expect(numbers(page1.data)).toEqual(['P5', 'P4']);
    await api.post('/tables', { table_number: 'P6' }); // newer: not in the pages after the cursor
    const page2 = (
      await t.app.inject({ method: 'GET', url: `/api/my-operator/audit-log?limit=2&cursor=${page1.cursor}`, headers: op.headers })
    ).json();
    expect(numbers(page2.data)).toEqual(['P3', 'P2']);
    const page3 = (
      await t.app.inject({ method: 'GET', url: `/api/my-operator/audit-log?limit=2&cursor=${page2.cursor}`, headers: op.headers })
    ).json();
    expect(numbers(page3.data)).toEqual(['P1']);
    expect(page3).toMatchObject({ has_more: false, cursor: null });
  });

  it('refuses bad filters (400) and anonymous callers (401)', async () => {
    const { op } = await setupVenue(t);
    for (const query of [
      '?from=2026-02-30',
      '?from=yesterday',
      '?to=2026-01-01&from=2026-01-02',
      '?cursor=nope',
      '?action=Booking*',
      '?limit=0',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/my-operator/audit-log${query}`, headers: op.headers });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error).toEqual(expect.any(String));
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/my-operator/audit-log' })).statusCode).toBe(401);
  });

  it('needs operators.audit (403 without it; a grant on operators covers it)', async () => {
    const { op, api } = await setupVenue(t);
    await api.post('/tables', { table_number: 'X' });
    const without = await createStaff(t, op, { tables: 'write', 'operators.members': 'write' });
    expect((await t.app.inject({ method: 'GET', url: '/api/my-operator/audit-log', headers: without.headers })).statusCode).toBe(403);
    const reader = await createStaff(t, op, { 'operators.audit': 'read' });
    expect(await auditLog(t, reader.headers)).toHaveLength(1);
    const parent = await createStaff(t, op, { operators: 'read' });
    expect(await auditLog(t, parent.headers)).toHaveLength(1);
  });

  it('shows a venue-scoped role only its venues’ entries and account-level ones; another venue is 404', async () => {
    const op = await createOperator(t);
    const mine = await insertVenue(t, op.operatorId, { name: 'Mine' });
    const theirs = await insertVenue(t, op.operatorId, { name: 'Theirs' });
    await venueApi(t, op.headers, mine).post('/tables', { table_number: 'M' });
    await venueApi(t, op.headers, theirs).post('/tables', { table_number: 'T' });
    await t.app.inject({ method: 'POST', url: '/api/my-roles', headers: op.headers, payload: { name: 'Account level' } });
    const scoped = await createStaff(t, op, { 'operators.audit': 'read' }, [mine]);
    expect((await auditLog(t, scoped.headers)).map((e) => `${e.action}@${e.venue_name}`)).toEqual([
      'role.created@null',
      'table.created@Mine',
    ]);
    const res = await t.app.inject({ method: 'GET', url: `/api/my-operator/audit-log?venue_id=${theirs}`, headers: scoped.headers });
    expect(res.statusCode).toBe(404);
  });

  it('never shows another account’s entries', async () => {
    const a = await setupVenue(t);
    const b = await setupVenue(t);
    await a.api.post('/tables', { table_number: 'A' });
    await b.api.post('/tables', { table_number: 'B' });
    const seen = await auditLog(t, b.op.headers);
    expect(seen.map((e) => e.after.table_number)).toEqual(['B']);
    expect(await auditLog(t, b.op.headers, `?venue_id=${a.venueId}`)).toEqual([]);
  });

  it('a refused or rolled-back change leaves no entry', async () => {
    const { op, venueId, api } = await setupVenue(t);
    await api.post('/tables', { table_number: 'D' });
    const other = (await api.post('/tables', { table_number: 'E' })).json().id;
    expect((await api.put(`/tables/${other}`, { table_number: 'D' })).statusCode).toBe(409);
    expect((await api.post('/tables', { table_number: 'D' })).statusCode).toBe(409);
    expect((await auditLog(t, op.headers)).map((e) => e.action)).toEqual(['table.created', 'table.created']);

    // An entry recorded in a transaction that then fails goes with it.
    const context = {
      requestId: 'req-test',
      ip: '127.0.0.1',
      operatorId: op.operatorId,
      actor: { type: 'user' as const, userId: op.userId, name: 'x', email: op.email },
    };
    await expect(
      runInRequestContext(context, () =>
        withTransaction(t.db, async (trx) => {
          await t.ctx.audit.record(trx, {
            action: 'table.updated',
            entityType: 'table',
            entityId: other,
            venueId,
            before: { capacity: 1 },
            after: { capacity: 2 },
          });
          throw new Error('the change failed');
        }),
      ),
    ).rejects.toThrow('the change failed');
    expect(await auditLog(t, op.headers)).toHaveLength(2);
    await runInRequestContext(context, () =>
      withTransaction(t.db, (trx) =>
        t.ctx.audit.record(trx, {
          action: 'table.updated',
          entityType: 'table',
          entityId: other,
          venueId,
          before: { capacity: 1 },
          after: { capacity: 2 },
        }),
      ),
    );
    expect(await auditLog(t, op.headers)).toHaveLength(3);
  });
});
