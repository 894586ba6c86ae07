/**
 * The guard reads the route's venue on every request and keeps the role's grant per session while the
 * session's version is unchanged: a role changed (on any instance) applies to the next request, and the
 * answers keep their order — 401, 403 for the wrong kind of user, 404 for a venue outside the account or
 * the role's scope, 403 for a missing permission.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuest, createOperator, createStaff, createTestApp, insertVenue, type TestApp } from '../../test/helpers/app.js';
import { buildApp, type App } from '../app.js';
import { createContext } from '../context.js';
import { SESSION_EXPIRED_MESSAGE } from './errors.js';

let t: TestApp;
/** A second instance on the same database, as in production behind a load balancer. */
let other: App;
beforeAll(async () => {
  t = await createTestApp();
  other = await buildApp(createContext(t.config, t.db, { clock: t.clock, log: pino({ level: 'silent' }) }));
});
afterAll(async () => {
  await other.close();
  await t.close();
});

const listTables = (app: App, venueId: string, headers: Record<string, string>) =>
  app.inject({ url: `/api/my-venues/${venueId}/tables`, headers });
const addTable = (app: App, venueId: string, headers: Record<string, string>, number: string) =>
  app.inject({ method: 'POST', url: `/api/my-venues/${venueId}/tables`, headers, payload: { table_number: number } });

describe('role changes', () => {
  it("apply to the role's holders on the next request, on every instance", async () => {
    const op = await createOperator(t);
    const [a, b] = [await insertVenue(t, op.operatorId), await insertVenue(t, op.operatorId)];
    const staff = await createStaff(t, op, { tables: 'read' }, [a]);
    expect((await listTables(other, a, staff.headers)).statusCode).toBe(200);
    expect((await listTables(other, b, staff.headers)).statusCode).toBe(404);
    expect((await addTable(other, a, staff.headers, 'A1')).statusCode).toBe(403);

    const widen = await t.app.inject({
      method: 'PUT',
      url: `/api/my-roles/${staff.roleId}`,
      headers: op.headers,
      payload: { name: 'Floor staff', permissions: [{ permission_key: 'tables', can_write: true }], venue_ids: [a, b] },
    });
    expect(widen.statusCode).toBe(200);
    expect((await listTables(other, b, staff.headers)).statusCode).toBe(200);
    expect((await addTable(other, a, staff.headers, 'A1')).statusCode).toBe(200);

    const revoke = await t.app.inject({
      method: 'PUT',
      url: `/api/my-roles/${staff.roleId}`,
      headers: op.headers,
      payload: { name: 'Floor staff', permissions: [], venue_ids: [a] },
    });
    expect(revoke.statusCode).toBe(200);
    expect((await listTables(other, a, staff.headers)).statusCode).toBe(403);
    expect((await listTables(other, b, staff.headers)).statusCode).toBe(404);
  });

  it('grant nothing through a role of another account', async () => {
    const op = await createOperator(t);
    const venue = await insertVenue(t, op.operatorId);
    const staff = await createStaff(t, op, { tables: 'write' });
    expect((await listTables(t.app, venue, staff.headers)).statusCode).toBe(200);
    // Pointed at another account's Owner role (no API does this; the guard must not trust it).
    const stranger = await createOperator(t, 'Stranger Ltd');
    await t.db.kysely.updateTable('users').set({ role_id: stranger.roleId }).where('id', '=', staff.userId).execute();
    const res = await listTables(t.app, venue, staff.headers);
    expect(res.statusCode).toBe(403);
  });
});

describe('the order of answers', () => {
  it('401, then 403 for the wrong kind of user, then 404 for the venue, then 403 for the permission', async () => {
    const op = await createOperator(t);
    const [inScope, outOfScope] = [await insertVenue(t, op.operatorId), await insertVenue(t, op.operatorId)];
    const stranger = await createOperator(t, 'Stranger Ltd');
    const guest = await createGuest(t);
    const staff = await createStaff(t, op, { bookings: 'read' }, [inScope]);

    for (const headers of [{}, { authorization: 'Bearer not-a-session' }] as Record<string, string>[]) {
      const res = await listTables(t.app, inScope, headers);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ request_id: expect.any(String), error: SESSION_EXPIRED_MESSAGE });
    }
    expect((await listTables(t.app, inScope, guest.headers)).statusCode).toBe(403);
    expect((await listTables(t.app, inScope, stranger.headers)).statusCode).toBe(404);
    expect((await listTables(t.app, 'ven_missing', op.headers)).statusCode).toBe(404);
    expect((await listTables(t.app, outOfScope, staff.headers)).statusCode).toBe(404);
    const lacking = await listTables(t.app, inScope, staff.headers);
    expect(lacking.statusCode).toBe(403);
    expect(lacking.json().error).toBe('Your role lacks the tables:read permission.');
    expect((await listTables(t.app, inScope, op.headers)).statusCode).toBe(200);
  });
});
