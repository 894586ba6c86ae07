/** Nobody but an Owner hands out more than they hold: grants and venue reach. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, TEST_PASSWORD, uniqueEmail, type TestApp } from '../../../test/helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function newRole(headers: Record<string, string>, body: Record<string, unknown>) {
  const created = await t.app.inject({ method: 'POST', url: '/api/my-roles', headers, payload: { name: `Role ${Math.random()}` } });
  expect(created.statusCode).toBe(200);
  const id = created.json().id as string;
  return {
    id,
    put: () => t.app.inject({ method: 'PUT', url: `/api/my-roles/${id}`, headers, payload: { name: `R ${id}`, ...body } }),
  };
}

describe('privilege escalation', () => {
  it('a role manager cannot grant permissions they do not hold', async () => {
    const op = await createOperator(t);
    const manager = await createStaff(t, op, { 'users.role': 'write', tables: 'read' });
    const tooMuch = await newRole(manager.headers, { permissions: [{ permission_key: 'tables', can_read: true, can_write: true }] });
    const refused = await tooMuch.put();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatch(/tables:write/);
    const grid = (await t.app.inject({ url: `/api/my-roles/${tooMuch.id}`, headers: op.headers })).json().permissions;
    expect(grid).toEqual([]);

    const within = await newRole(manager.headers, { permissions: [{ permission_key: 'tables', can_read: true, can_write: false }] });
    expect((await within.put()).statusCode).toBe(200);
    // The Owner may grant anything.
    const owners = await newRole(op.headers, { permissions: [{ permission_key: 'tables', can_read: true, can_write: true }] });
    expect((await owners.put()).statusCode).toBe(200);
  });

  it('a venue-scoped role manager cannot widen a role beyond their venues', async () => {
    const op = await createOperator(t);
    const mine = await insertVenue(t, op.operatorId);
    const other = await insertVenue(t, op.operatorId);
    const manager = await createStaff(t, op, { 'users.role': 'write' }, [mine]);
    expect((await (await newRole(manager.headers, { venue_ids: [] })).put()).statusCode).toBe(403);
    expect((await (await newRole(manager.headers, { venue_ids: [mine, other] })).put()).statusCode).toBe(403);
    expect((await (await newRole(manager.headers, { venue_ids: [mine] })).put()).statusCode).toBe(200);
  });

  it('a user manager cannot assign a role holding more than they do', async () => {
    const op = await createOperator(t);
    const strong = await newRole(op.headers, { permissions: [{ permission_key: 'payouts', can_read: true, can_write: true }] });
    await strong.put();
    const weak = await newRole(op.headers, { permissions: [{ permission_key: 'guests', can_read: true, can_write: false }] });
    await weak.put();
    const manager = await createStaff(t, op, { 'users.user': 'write', guests: 'read' });
    const body = (role_id: string) => ({ name: 'New Hire', email: uniqueEmail('hire'), password: TEST_PASSWORD, role_id });
    const refused = await t.app.inject({ method: 'POST', url: '/api/my-users', headers: manager.headers, payload: body(strong.id) });
    expect(refused.statusCode).toBe(403);
    const allowed = await t.app.inject({ method: 'POST', url: '/api/my-users', headers: manager.headers, payload: body(weak.id) });
    expect(allowed.statusCode).toBe(200);
    const promote = await t.app.inject({ method: 'PUT', url: `/api/my-users/${allowed.json().id}`, headers: manager.headers, payload: { role_id: strong.id } });
    expect(promote.statusCode).toBe(403);
    const self = await t.app.inject({ method: 'PUT', url: `/api/my-users/${manager.userId}`, headers: manager.headers, payload: { role_id: strong.id } });
    expect(self.statusCode).toBe(403);
  });
});
