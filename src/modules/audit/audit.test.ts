/**
 * The audit log's route: an account's entries with their actor, filters, both paging modes, the
 * permission, venue scope and tenancy; an entry is written in the change's transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, setupVenue, venueApi, type TestApp } from '../../../test/helpers/app.js';
import { auditLog, lastEntry } from './audit.test-support.js';

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
});
