import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOperator,
  createStaff,
  createTestApp,
  insertVenue,
  login,
  bearer,
  uniqueEmail,
  type TestApp,
  type TestOperator,
} from '../../../test/helpers/app.js';
import { PERMISSION_KEYS } from '../../platform/permissions.js';
import { as } from './team.test-support.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let venueA: string;
let venueB: string;
let rivalVenue: string;
beforeAll(async () => {
  t = await createTestApp();
  [op, other] = await Promise.all([createOperator(t, 'Roles Co'), createOperator(t, 'Rival Co')]);
  venueA = await insertVenue(t, op.operatorId, { name: 'Alpha' });
  venueB = await insertVenue(t, op.operatorId, { name: 'Bravo' });
  rivalVenue = await insertVenue(t, other.operatorId, { name: 'Rival' });
});
afterAll(async () => t.close());

let roleNames = 0;
async function newRole(headers = op.headers, body: Record<string, unknown> = {}) {
  const res = await as(t, headers).post('/api/my-roles', { name: `Role ${++roleNames}`, ...body });
  expect(res.statusCode).toBe(200);
  return res.json().id as string;
}
const getRole = async (id: string, headers = op.headers) => (await as(t, headers).get(`/api/my-roles/${id}`)).json();

describe('roles: list and read', () => {
  it('starts with the Owner system role holding everything, with its user', async () => {
    const fresh = await createOperator(t, 'Fresh Co');
    const res = await as(t, fresh.headers).get('/api/my-roles');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      {
        id: fresh.roleId,
        name: 'Owner',
        description: 'Every permission on every venue',
        is_system: true,
        permissions: PERMISSION_KEYS.map((permission_key) => ({ permission_key, can_read: true, can_write: true })),
        venue_ids: [],
        user_count: 1,
      },
    ]);
  });

  it('lists the system role first, then custom roles by name, with user counts', async () => {
    const fresh = await createOperator(t, 'Listing Co');
    const zulu = await newRole(fresh.headers, { name: 'Zulu' });
    const staff = await createStaff(t, fresh, { tables: 'read' });
    const names = (await as(t, fresh.headers).get('/api/my-roles'))
      .json()
      .data.map((r: { name: string; user_count: number }) => [r.name, r.user_count]);
    expect(names).toEqual([
      ['Owner', 1],
      [expect.stringMatching(/^Staff /), 1],
      ['Zulu', 0],
    ]);
    expect((await getRole(zulu, fresh.headers)).user_count).toBe(0);
    expect((await getRole(staff.roleId, fresh.headers)).permissions).toEqual([
      { permission_key: 'tables', can_read: true, can_write: false },
    ]);
  });
});

describe('POST /api/my-roles', () => {
  it('creates a role with an empty grid and every venue in scope', async () => {
    const res = await as(t, op.headers).post('/api/my-roles', { name: ' Door team ', description: 'Runs the door' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, id: expect.stringMatching(/^role_/) });
    expect(await getRole(res.json().id)).toEqual({
      id: res.json().id,
      name: 'Door team',
      description: 'Runs the door',
      is_system: false,
      permissions: [],
      venue_ids: [],
      user_count: 0,
    });
    const bare = await newRole(op.headers, { name: 'No description' });
    expect((await getRole(bare)).description).toBe('');
  });

  it('refuses invalid bodies and duplicate names (any case), creating nothing', async () => {
    const before = (await as(t, op.headers).get('/api/my-roles')).json().data.length;
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(101) }, { name: 5 }, { name: 'Ok', description: 'x'.repeat(501) }]) {
      expect((await as(t, op.headers).post('/api/my-roles', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const blank = await as(t, op.headers).post('/api/my-roles', { name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toBe('name must not be blank');

    await newRole(op.headers, { name: 'Bar staff' });
    for (const name of ['Bar staff', 'BAR STAFF', 'owner']) {
      const dup = await as(t, op.headers).post('/api/my-roles', { name });
      expect(dup.statusCode, name).toBe(409);
    }
    expect((await as(t, op.headers).get('/api/my-roles')).json().data.length).toBe(before + 1);
    // Another account may use the same name.
    expect((await as(t, other.headers).post('/api/my-roles', { name: 'Bar staff' })).statusCode).toBe(200);
  });
});

describe('PUT /api/my-roles/:id', () => {
  it('replaces the grid and the venue scope; write implies read; 0/1 accepted', async () => {
    const id = await newRole();
    const res = await as(t, op.headers).put(`/api/my-roles/${id}`, {
      name: 'Floor managers',
      description: 'Tables and bookings',
      permissions: [
        { permission_key: 'tables', can_read: false, can_write: true },
        { permission_key: 'bookings', can_read: 1, can_write: 0 },
        { permission_key: 'users', can_read: true },
        { permission_key: 'guests', can_read: false, can_write: false },
      ],
      venue_ids: [venueB, venueA],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const role = await getRole(id);
    expect(role).toMatchObject({ name: 'Floor managers', description: 'Tables and bookings', is_system: false });
    expect(role.permissions).toEqual([
      { permission_key: 'users', can_read: true, can_write: false },
      { permission_key: 'tables', can_read: true, can_write: true },
      { permission_key: 'guests', can_read: false, can_write: false },
      { permission_key: 'bookings', can_read: true, can_write: false },
    ]);
    expect([...role.venue_ids].sort()).toEqual([venueA, venueB].sort());

    // Only the name: grid, scope and description stay.
    await as(t, op.headers).put(`/api/my-roles/${id}`, { name: 'Floor leads' });
    expect(await getRole(id)).toEqual({ ...role, name: 'Floor leads' });

    // Empty lists clear the grid and return to every venue.
    await as(t, op.headers).put(`/api/my-roles/${id}`, { name: 'Floor leads', permissions: [], venue_ids: [], description: null });
    expect(await getRole(id)).toMatchObject({ permissions: [], venue_ids: [], description: '' });
  });

  it('refuses unknown or repeated keys, foreign venues and invalid bodies, changing nothing', async () => {
    const id = await newRole();
    await as(t, op.headers).put(`/api/my-roles/${id}`, {
      name: 'Guarded',
      permissions: [{ permission_key: 'guests', can_read: true, can_write: false }],
      venue_ids: [venueA],
    });
    const before = await getRole(id);
    const cases: [unknown, RegExp][] = [
      [{ name: 'Changed', permissions: [{ permission_key: 'guests.secret', can_read: true }] }, /Unknown permission_key "guests.secret"/],
      [
        {
          name: 'Changed',
          permissions: [
            { permission_key: 'tables', can_read: true },
            { permission_key: 'tables', can_write: true },
          ],
        },
        /more than once/,
      ],
      [{ name: 'Changed', venue_ids: [rivalVenue] }, /not venues of this account/],
      [{ name: 'Changed', venue_ids: ['ven_missing', venueA] }, /ven_missing/],
      [{ name: 'Changed', venue_ids: [venueA, venueA] }, /venue_ids/],
      [{ name: 'Changed', permissions: [{ permission_key: 'tables', can_read: 'yes' }] }, /can_read/],
      [{ name: 'Changed', permissions: [{ can_read: true }] }, /permission_key/],
      [{ name: 'Changed', permissions: 'tables' }, /permissions/],
      [{ permissions: [] }, /name/],
      [{ name: '' }, /name/],
      [{ name: '  ' }, /name must not be blank/],
    ];
    for (const [body, message] of cases) {
      const res = await as(t, op.headers).put(`/api/my-roles/${id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toMatch(message);
    }
    await newRole(op.headers, { name: 'Taken name' });
    expect((await as(t, op.headers).put(`/api/my-roles/${id}`, { name: 'taken NAME' })).statusCode).toBe(409);
    expect(await getRole(id)).toEqual(before);
    // Renaming a role to its own name in another case is not a clash.
    expect((await as(t, op.headers).put(`/api/my-roles/${id}`, { name: 'GUARDED' })).statusCode).toBe(200);
  });

  it('changes what holders of the role may do', async () => {
    const staff = await createStaff(t, op, { tables: 'read' });
    expect((await as(t, staff.headers).get('/api/my-roles')).statusCode).toBe(403);
    await as(t, op.headers).put(`/api/my-roles/${staff.roleId}`, {
      name: 'Role readers',
      permissions: [{ permission_key: 'users.role', can_read: true }],
    });
    expect((await as(t, staff.headers).get('/api/my-roles')).statusCode).toBe(200);
    expect((await as(t, staff.headers).get('/api/my-operator')).statusCode).toBe(403);
  });
});

describe('the Owner role', () => {
  it('takes a new name and description, but no grid or venue scope', async () => {
    const fresh = await createOperator(t, 'Owner Rules Co');
    const api = as(t, fresh.headers);
    const renamed = await api.put(`/api/my-roles/${fresh.roleId}`, { name: 'Director', description: 'Runs everything' });
    expect(renamed.statusCode).toBe(200);
    expect(await getRole(fresh.roleId, fresh.headers)).toMatchObject({ name: 'Director', description: 'Runs everything', is_system: true });

    const venue = await insertVenue(t, fresh.operatorId);
    for (const extra of [
      { permissions: [] },
      { permissions: [{ permission_key: 'tables', can_read: true }] },
      { venue_ids: [] },
      { venue_ids: [venue] },
    ]) {
      const res = await api.put(`/api/my-roles/${fresh.roleId}`, { name: 'Changed', ...extra });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().error).toMatch(/only its name and description/);
    }
    const role = await getRole(fresh.roleId, fresh.headers);
    expect(role).toMatchObject({ name: 'Director', venue_ids: [] });
    expect(role.permissions).toHaveLength(PERMISSION_KEYS.length);
    // Still every permission for its holder.
    expect((await api.get('/api/me/permissions')).json()).toMatchObject({ role: 'Director', is_owner: true, venue_ids: [] });
  });

  it('cannot be deleted', async () => {
    const res = await as(t, op.headers).del(`/api/my-roles/${op.roleId}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('The Owner role cannot be deleted');
    expect((await as(t, op.headers).get(`/api/my-roles/${op.roleId}`)).statusCode).toBe(200);
  });
});

describe('DELETE /api/my-roles/:id', () => {
  it('deletes an unassigned role with its grid and scope', async () => {
    const id = await newRole();
    await as(t, op.headers).put(`/api/my-roles/${id}`, {
      name: 'Short lived',
      permissions: [{ permission_key: 'tables', can_read: true }],
      venue_ids: [venueA],
    });
    const res = await as(t, op.headers).del(`/api/my-roles/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect((await as(t, op.headers).get(`/api/my-roles/${id}`)).statusCode).toBe(404);
    expect(await t.db.kysely.selectFrom('role_permissions').selectAll().where('role_id', '=', id).execute()).toEqual([]);
    expect(await t.db.kysely.selectFrom('role_venues').selectAll().where('role_id', '=', id).execute()).toEqual([]);
    expect((await as(t, op.headers).del(`/api/my-roles/${id}`)).statusCode).toBe(404);
  });

  it('refuses a role still assigned to users (409)', async () => {
    const staff = await createStaff(t, op, { tables: 'read' });
    const res = await as(t, op.headers).del(`/api/my-roles/${staff.roleId}`);
    expect(res.statusCode).toBe(409);
    expect((await getRole(staff.roleId)).user_count).toBe(1);
    expect((await as(t, staff.headers).get('/api/me/permissions')).json().role_id).toBe(staff.roleId);
  });
});

describe('roles of another account', () => {
  it('are not found for reading, updating or deleting, and stay unchanged', async () => {
    const rivalRole = await newRole(other.headers, { name: 'Rival role' });
    const before = await getRole(rivalRole, other.headers);
    const api = as(t, op.headers);
    expect((await api.get(`/api/my-roles/${rivalRole}`)).statusCode).toBe(404);
    expect((await api.put(`/api/my-roles/${rivalRole}`, { name: 'Hijacked', permissions: [] })).statusCode).toBe(404);
    expect((await api.del(`/api/my-roles/${rivalRole}`)).statusCode).toBe(404);
    expect((await api.del(`/api/my-roles/${other.roleId}`)).statusCode).toBe(404);
    expect(await getRole(rivalRole, other.headers)).toEqual(before);
    const mine = (await api.get('/api/my-roles')).json().data.map((r: { id: string }) => r.id);
    expect(mine).not.toContain(rivalRole);
    expect(mine).not.toContain(other.roleId);
  });
});

describe('venue scope through the API', () => {
  it('limits a holder of a scoped role to those venues on the dashboard', async () => {
    const roleId = await newRole(op.headers, { name: 'Alpha stats' });
    await as(t, op.headers).put(`/api/my-roles/${roleId}`, {
      name: 'Alpha stats',
      permissions: [{ permission_key: 'stats', can_read: true }],
      venue_ids: [venueA],
    });
    expect((await getRole(roleId)).venue_ids).toEqual([venueA]);

    const email = uniqueEmail('scoped');
    const created = await as(t, op.headers).post('/api/my-users', { name: 'Scoped', email, password: 'scoped-password', role_id: roleId });
    expect(created.statusCode).toBe(200);
    const scoped = bearer(await login(t, email, 'scoped-password'));
    const dashboard = (await as(t, scoped).get('/api/client/dashboard')).json();
    expect(dashboard.venues.map((v: { id: string }) => v.id)).toEqual([venueA]);
    expect(dashboard.stats.venues).toBe(1);
    expect((await as(t, scoped).get('/api/me/permissions')).json().venue_ids).toEqual([venueA]);

    // Back to every venue.
    await as(t, op.headers).put(`/api/my-roles/${roleId}`, { name: 'Alpha stats', venue_ids: [] });
    const all = (await as(t, scoped).get('/api/client/dashboard')).json();
    expect(all.venues.map((v: { id: string }) => v.id).sort()).toEqual([venueA, venueB].sort());
  });
});
