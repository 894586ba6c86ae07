/** Nobody but an Owner hands out more than they hold, nor acts on a user or role holding more: grants and venue reach. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOperator,
  createStaff,
  createTestApp,
  insertVenue,
  TEST_PASSWORD,
  uniqueEmail,
  type TestApp,
} from '../../../test/helpers/app.js';
import { PERMISSION_KEYS } from '../../platform/permissions.js';
import { insertClientUserRow } from './team.test-support.js';

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
    const promote = await t.app.inject({
      method: 'PUT',
      url: `/api/my-users/${allowed.json().id}`,
      headers: manager.headers,
      payload: { role_id: strong.id },
    });
    expect(promote.statusCode).toBe(403);
    const self = await t.app.inject({
      method: 'PUT',
      url: `/api/my-users/${manager.userId}`,
      headers: manager.headers,
      payload: { role_id: strong.id },
    });
    expect(self.statusCode).toBe(403);
  });
});

/**
 * Takeover inside an account: a user manager limited to one venue once reset the password and email of
 * a full-permission user, signed in as them and promoted themself. Only an Owner manages a user whose
 * current role is beyond the caller's own.
 */
describe('managing a user whose role is beyond the caller', () => {
  const everything = PERMISSION_KEYS.map((permission_key) => ({ permission_key, can_read: true, can_write: true }));
  const canLogin = async (email: string, password: string) =>
    (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })).statusCode === 200;
  const usersOf = async (headers: Record<string, string>) =>
    (await t.app.inject({ url: '/api/my-users', headers })).json().data as {
      id: string;
      name: string;
      email: string;
      role_id: string | null;
    }[];

  async function setup() {
    const op = await createOperator(t);
    const mine = await insertVenue(t, op.operatorId);
    const elsewhere = await insertVenue(t, op.operatorId);
    const role = async (permissions: unknown[], venue_ids: string[] = []) => {
      const r = await newRole(op.headers, { permissions, venue_ids });
      expect((await r.put()).statusCode).toBe(200);
      return r.id;
    };
    const user = async (role_id: string) => {
      const email = uniqueEmail('target');
      const password = 'target-password-1';
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/my-users',
        headers: op.headers,
        payload: { name: 'Target', email, password, role_id },
      });
      expect(res.statusCode, res.body).toBe(200);
      return { id: res.json().id as string, email, password };
    };
    const manager = await createStaff(t, op, { 'users.user': 'write', guests: 'read' }, [mine]);
    const api = (headers: Record<string, string>) => ({
      put: (id: string, payload: object) => t.app.inject({ method: 'PUT', url: `/api/my-users/${id}`, headers, payload }),
      del: (id: string) => t.app.inject({ method: 'DELETE', url: `/api/my-users/${id}`, headers }),
    });
    return { op, mine, elsewhere, role, user, manager, api };
  }

  it('refuses a limited manager every takeover of a full-permission user, changing nothing', async () => {
    const { op, mine, role, user, manager, api } = await setup();
    const full = await role(everything);
    const weak = await role([{ permission_key: 'guests', can_read: true }], [mine]);
    const target = await user(full);
    const before = (await usersOf(op.headers)).find((u) => u.id === target.id);
    const attacks: object[] = [
      { password: 'attacker-password' },
      { email: uniqueEmail('attacker'), password: 'attacker-password' },
      { email: uniqueEmail('attacker') },
      { name: 'Renamed' },
      { role_id: weak },
      { phone: '000' },
    ];
    for (const body of attacks) {
      const res = await api(manager.headers).put(target.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(403);
      expect(res.json().error).toMatch(
        /Only an Owner can change or delete this user: their role holds \S+:(write|read), which your own role does not/,
      );
    }
    const removed = await api(manager.headers).del(target.id);
    expect(removed.statusCode).toBe(403);
    expect((await usersOf(op.headers)).find((u) => u.id === target.id)).toEqual(before);
    expect(await canLogin(target.email, target.password)).toBe(true);
    expect(await canLogin(target.email, 'attacker-password')).toBe(false);
    // The manager's own role is untouched and still cannot be raised to the stronger one.
    expect((await api(manager.headers).put(manager.userId, { role_id: full })).statusCode).toBe(403);
    const me = (await t.app.inject({ url: '/api/me/permissions', headers: manager.headers })).json();
    expect(me).toMatchObject({ role_id: manager.roleId, is_owner: false });
    expect(me.permissions.payouts).toEqual({ read: false, write: false });
  });

  it('treats a role reaching a venue outside the caller’s scope as beyond them, even with fewer grants', async () => {
    const { mine, elsewhere, role, user, manager, api } = await setup();
    const atOtherVenue = await user(await role([{ permission_key: 'guests', can_read: true }], [elsewhere]));
    const atEveryVenue = await user(await role([{ permission_key: 'guests', can_read: true }], []));
    const lackedGrant = await user(await role([{ permission_key: 'payouts', can_read: true }], [mine]));
    for (const target of [atOtherVenue, atEveryVenue]) {
      const res = await api(manager.headers).put(target.id, { password: 'attacker-password' });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('Only an Owner can change or delete this user: their role reaches venues beyond your own');
      expect((await api(manager.headers).del(target.id)).statusCode).toBe(403);
      expect(await canLogin(target.email, target.password)).toBe(true);
    }
    expect((await api(manager.headers).put(lackedGrant.id, { password: 'attacker-password' })).statusCode).toBe(403);
    expect((await api(manager.headers).del(lackedGrant.id)).statusCode).toBe(403);
    expect(await canLogin(lackedGrant.email, lackedGrant.password)).toBe(true);
  });

  it('refuses a non-Owner any change to a holder of the Owner role', async () => {
    const { op, manager, api, user } = await setup();
    const coOwner = await user(op.roleId);
    for (const body of [{ password: 'attacker-password' }, { name: 'Renamed' }]) {
      const res = await api(manager.headers).put(coOwner.id, body);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('Only an Owner can change or delete this user: their role is the Owner role');
    }
    expect((await api(manager.headers).del(coOwner.id)).statusCode).toBe(403);
    expect(await canLogin(coOwner.email, coOwner.password)).toBe(true);
  });

  it('still lets the limited manager manage a weaker user, and a peer holding the same role', async () => {
    const { op, mine, role, user, manager, api } = await setup();
    const weaker = await role([{ permission_key: 'guests', can_read: true }], [mine]);
    const narrower = await role([], [mine]);
    const target = await user(weaker);
    const email = uniqueEmail('moved');
    const res = await api(manager.headers).put(target.id, { name: 'Changed', email, password: 'new-password-1', role_id: narrower });
    expect(res.statusCode, res.body).toBe(200);
    expect((await usersOf(op.headers)).find((u) => u.id === target.id)).toMatchObject({ name: 'Changed', email, role_id: narrower });
    expect(await canLogin(email, 'new-password-1')).toBe(true);
    expect((await api(manager.headers).del(target.id)).statusCode).toBe(200);
    expect((await usersOf(op.headers)).some((u) => u.id === target.id)).toBe(false);

    const peer = await user(manager.roleId);
    expect((await api(manager.headers).put(peer.id, { name: 'Peer' })).statusCode).toBe(200);
  });

  it('lets a user with no role, or a role that is not the account’s, be managed: they hold nothing to take over', async () => {
    const { op, manager, api } = await setup();
    const rival = await createOperator(t);
    const noRole = await insertClientUserRow(t, op.operatorId, 'No Role', uniqueEmail('norole'));
    // A role id of another account (its Owner role, even) grants nothing here: the guard ignores it.
    const foreignRole = await insertClientUserRow(t, op.operatorId, 'Foreign Role', uniqueEmail('foreign'), rival.roleId);
    for (const id of [noRole, foreignRole]) {
      const res = await api(manager.headers).put(id, { name: 'Managed', password: 'managed-password' });
      expect(res.statusCode, res.body).toBe(200);
    }
    // Signed in as that user, the manager would gain nothing: no permission, no Owner.
    const email = (await usersOf(op.headers)).find((u) => u.id === foreignRole)!.email;
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'managed-password' } });
    const headers = { authorization: `Bearer ${login.json().token}` };
    const me = (await t.app.inject({ url: '/api/me/permissions', headers })).json();
    expect(me.is_owner).toBe(false);
    expect(Object.values(me.permissions as Record<string, { read: boolean; write: boolean }>).some((g) => g.read || g.write)).toBe(false);
    expect((await t.app.inject({ url: '/api/my-users', headers })).statusCode).toBe(403);
    expect((await api(manager.headers).del(noRole)).statusCode).toBe(200);
  });

  it('lets an Owner manage anyone', async () => {
    const { op, role, user, api } = await setup();
    const target = await user(await role(everything));
    const coOwner = await user(op.roleId);
    for (const u of [target, coOwner]) {
      expect((await api(op.headers).put(u.id, { password: 'owner-set-password' })).statusCode).toBe(200);
      expect(await canLogin(u.email, 'owner-set-password')).toBe(true);
      expect((await api(op.headers).del(u.id)).statusCode).toBe(200);
    }
  });
});

/**
 * Role edits: a role manager limited to one venue once emptied the grid of a stronger role, narrowed
 * its venues and renamed the Owner role. Only an Owner edits or deletes a role beyond the caller's own.
 */
describe('editing a role beyond the caller', () => {
  const everything = PERMISSION_KEYS.map((permission_key) => ({ permission_key, can_read: true, can_write: true }));
  const getRole = async (id: string, headers: Record<string, string>) =>
    (await t.app.inject({ url: `/api/my-roles/${id}`, headers })).json();
  const roleApi = (headers: Record<string, string>) => ({
    put: (id: string, payload: object) => t.app.inject({ method: 'PUT', url: `/api/my-roles/${id}`, headers, payload }),
    del: (id: string) => t.app.inject({ method: 'DELETE', url: `/api/my-roles/${id}`, headers }),
  });

  async function setup() {
    const op = await createOperator(t);
    const mine = await insertVenue(t, op.operatorId);
    const elsewhere = await insertVenue(t, op.operatorId);
    const manager = await createStaff(t, op, { 'users.role': 'write', tables: 'write' }, [mine]);
    const role = async (permissions: unknown[], venue_ids: string[] = []) => {
      const r = await newRole(op.headers, { permissions, venue_ids });
      expect((await r.put()).statusCode).toBe(200);
      return r.id;
    };
    return { op, mine, elsewhere, manager, role };
  }

  it('refuses a limited role manager every edit and the deletion of a stronger role, changing nothing', async () => {
    const { op, mine, manager, role } = await setup();
    const strong = await role(everything);
    const before = await getRole(strong, op.headers);
    const attacks: object[] = [
      { name: before.name, permissions: [] },
      { name: before.name, venue_ids: [mine] },
      { name: 'Renamed' },
      { name: before.name, description: 'defaced' },
      { name: 'Renamed', permissions: [{ permission_key: 'tables', can_read: true }], venue_ids: [mine] },
    ];
    for (const body of attacks) {
      const res = await roleApi(manager.headers).put(strong, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(403);
      expect(res.json().error).toMatch(/^Only an Owner can change this role: it holds \S+, which your own role does not$/);
    }
    const removed = await roleApi(manager.headers).del(strong);
    expect(removed.statusCode).toBe(403);
    expect(removed.json().error).toMatch(/^Only an Owner can delete this role/);
    expect(await getRole(strong, op.headers)).toEqual(before);
  });

  it('treats a role granting anything on a venue outside the caller’s scope as stronger', async () => {
    const { op, mine, elsewhere, manager, role } = await setup();
    for (const venue_ids of [[elsewhere], [], [mine, elsewhere]]) {
      const id = await role([{ permission_key: 'tables', can_read: true }], venue_ids);
      const before = await getRole(id, op.headers);
      const res = await roleApi(manager.headers).put(id, { name: before.name, venue_ids: [mine] });
      expect(res.statusCode, JSON.stringify(venue_ids)).toBe(403);
      expect(res.json().error).toBe('Only an Owner can change this role: it reaches venues beyond your own');
      expect((await roleApi(manager.headers).del(id)).statusCode).toBe(403);
      expect(await getRole(id, op.headers)).toEqual(before);
    }
  });

  it('lets only an Owner rename the Owner role or change its description', async () => {
    const { op, manager } = await setup();
    const before = await getRole(op.roleId, op.headers);
    for (const body of [{ name: 'Pwned' }, { name: before.name, description: 'defaced' }, { name: before.name }]) {
      const res = await roleApi(manager.headers).put(op.roleId, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(403);
      expect(res.json().error).toBe('Only an Owner can change this role: it is the Owner role');
    }
    expect((await roleApi(manager.headers).del(op.roleId)).statusCode).toBe(403);
    expect(await getRole(op.roleId, op.headers)).toEqual(before);
    expect((await roleApi(op.headers).put(op.roleId, { name: 'Director' })).statusCode).toBe(200);
    expect((await getRole(op.roleId, op.headers)).name).toBe('Director');
  });

  it('still lets the manager edit and delete a weaker role, and never leaves one granting beyond their venues', async () => {
    const { op, mine, manager, role } = await setup();
    const weaker = await role([{ permission_key: 'tables', can_read: true }], [mine]);
    const edit = await roleApi(manager.headers).put(weaker, {
      name: 'Table readers',
      permissions: [{ permission_key: 'tables', can_read: true, can_write: true }],
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(await getRole(weaker, op.headers)).toMatchObject({
      name: 'Table readers',
      permissions: [{ permission_key: 'tables', can_read: true, can_write: true }],
      venue_ids: [mine],
    });
    expect((await roleApi(manager.headers).del(weaker)).statusCode).toBe(200);

    // A new role reaches every venue but grants nothing; granting something needs venues of the caller's.
    const fresh = (
      await t.app.inject({ method: 'POST', url: '/api/my-roles', headers: manager.headers, payload: { name: 'Fresh' } })
    ).json().id;
    const widened = await roleApi(manager.headers).put(fresh, {
      name: 'Fresh',
      permissions: [{ permission_key: 'tables', can_read: true }],
    });
    expect(widened.statusCode).toBe(403);
    expect(widened.json().error).toMatch(/cannot reach venues beyond your own/);
    expect(await getRole(fresh, op.headers)).toMatchObject({ permissions: [], venue_ids: [] });
    const scoped = await roleApi(manager.headers).put(fresh, {
      name: 'Fresh',
      permissions: [{ permission_key: 'tables', can_read: true }],
      venue_ids: [mine],
    });
    expect(scoped.statusCode).toBe(200);
  });

  it('lets an Owner edit and delete any role', async () => {
    const { op, mine, role } = await setup();
    const strong = await role(everything);
    expect((await roleApi(op.headers).put(strong, { name: 'Narrowed', permissions: [], venue_ids: [mine] })).statusCode).toBe(200);
    expect(await getRole(strong, op.headers)).toMatchObject({ name: 'Narrowed', permissions: [], venue_ids: [mine] });
    expect((await roleApi(op.headers).del(strong)).statusCode).toBe(200);
  });
});
