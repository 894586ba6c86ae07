import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createGuest,
  createOperator,
  createStaff,
  createTestApp,
  login,
  TEST_PASSWORD,
  uniqueEmail,
  type TestApp,
  type TestOperator,
} from '../../../test/helpers/app.js';
import { as } from './team.test-support.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let deskRole: string;
let barRole: string;
beforeAll(async () => {
  t = await createTestApp();
  [op, other] = await Promise.all([createOperator(t, 'Users Co'), createOperator(t, 'Rival Co')]);
  deskRole = (await as(t, op.headers).post('/api/my-roles', { name: 'Front desk' })).json().id;
  barRole = (await as(t, op.headers).post('/api/my-roles', { name: 'Bar' })).json().id;
});
afterAll(async () => t.close());

type PortalUser = {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  role_id: string | null;
  role_name: string | null;
  is_primary_contact: boolean;
};
const listUsers = async (headers = op.headers) => (await as(t, headers).get('/api/my-users')).json().data as PortalUser[];
const findUser = async (id: string, headers = op.headers) => (await listUsers(headers)).find((u) => u.id === id);

async function createUser(fields: Record<string, unknown> = {}, headers = op.headers) {
  const email = uniqueEmail('portal');
  const password = 'portal-password-1';
  const res = await as(t, headers).post('/api/my-users', { name: 'Pat Portal', email, password, role_id: deskRole, ...fields });
  expect(res.statusCode, res.body).toBe(200);
  return {
    id: res.json().id as string,
    email: (fields.email as string | undefined) ?? email,
    password: (fields.password as string | undefined) ?? password,
  };
}

const canLogin = async (email: string, password: string) =>
  (await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })).statusCode === 200;

describe('GET /api/my-users', () => {
  it('lists the account’s portal users with their role and the primary contact marked', async () => {
    const fresh = await createOperator(t, 'List Co');
    const staff = await createStaff(t, fresh, { tables: 'read' });
    await createGuest(t);
    const res = await as(t, fresh.headers).get('/api/my-users');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      {
        id: fresh.userId,
        name: 'List Co Owner',
        email: fresh.email,
        phone: null,
        role_id: fresh.roleId,
        role_name: 'Owner',
        is_primary_contact: true,
        created_at: expect.any(String),
      },
      {
        id: staff.userId,
        name: 'Staff Member',
        email: staff.email,
        phone: null,
        role_id: staff.roleId,
        role_name: expect.stringMatching(/^Staff /),
        is_primary_contact: false,
        created_at: expect.any(String),
      },
    ]);
  });
});

describe('POST /api/my-users', () => {
  it('creates a client user who can sign in, holds the role and joins the team as a member', async () => {
    const email = uniqueEmail('Created');
    const res = await as(t, op.headers).post('/api/my-users', {
      name: ' Casey ',
      email,
      password: 'casey-password',
      role_id: deskRole,
      phone: '+44 20 7946 0000',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, id: expect.stringMatching(/^usr_/) });
    const id = res.json().id;
    expect(await findUser(id)).toEqual({
      id,
      name: 'Casey',
      email: email.toLowerCase(),
      phone: '+44 20 7946 0000',
      role_id: deskRole,
      role_name: 'Front desk',
      is_primary_contact: false,
      created_at: expect.any(String),
    });
    const members = (await as(t, op.headers).get('/api/my-operator/members')).json().data;
    expect(members).toContainEqual(expect.objectContaining({ user_id: id, role: 'member' }));

    const token = await login(t, email, 'casey-password');
    const me = (await as(t, bearer(token)).get('/api/auth/me')).json().user;
    expect(me).toMatchObject({ id, role: 'client', operator_id: op.operatorId });
    expect((await as(t, bearer(token)).get('/api/me/permissions')).json()).toMatchObject({
      role: 'Front desk',
      role_id: deskRole,
      is_owner: false,
    });
  });

  it('refuses invalid bodies, foreign roles and taken emails, creating nothing', async () => {
    const before = await listUsers();
    const valid = { name: 'Nope', email: uniqueEmail('nope'), password: 'long-enough', role_id: deskRole };
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ ...valid, name: undefined }, 400, /name/],
      [{ ...valid, name: '' }, 400, /name/],
      [{ ...valid, name: '   ' }, 400, /name must not be blank/],
      [{ ...valid, email: undefined }, 400, /email/],
      [{ ...valid, email: 'not-an-email' }, 400, /email/],
      [{ ...valid, password: undefined }, 400, /password/],
      [{ ...valid, password: 'short' }, 400, /password/],
      [{ ...valid, role_id: undefined }, 400, /role_id/],
      [{ ...valid, role_id: other.roleId }, 400, /role_id is not a role of this account/],
      [{ ...valid, role_id: 'role_missing' }, 400, /role_id/],
      [{ ...valid, phone: 'x'.repeat(51) }, 400, /phone/],
      [{ ...valid, email: op.email.toUpperCase() }, 409, /already exists/],
      [{ ...valid, email: other.email }, 409, /already exists/],
    ];
    for (const [body, status, message] of cases) {
      const res = await as(t, op.headers).post('/api/my-users', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error).toMatch(message);
    }
    expect(await listUsers()).toEqual(before);
    expect(await canLogin(valid.email, valid.password)).toBe(false);
  });

  it('lets only an Owner give the Owner role', async () => {
    const admin = await createStaff(t, op, { 'users.user': 'write' });
    const email = uniqueEmail('escalate');
    const refused = await as(t, admin.headers).post('/api/my-users', {
      name: 'Sneaky',
      email,
      password: 'sneaky-password',
      role_id: op.roleId,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('Only an Owner can give someone the Owner role');
    expect(await canLogin(email, 'sneaky-password')).toBe(false);

    const allowed = await as(t, admin.headers).post('/api/my-users', {
      name: 'Fine',
      email: uniqueEmail('fine'),
      password: 'fine-password',
      role_id: barRole,
    });
    expect(allowed.statusCode).toBe(200);
    const coOwner = await createUser({ role_id: op.roleId });
    expect(await findUser(coOwner.id)).toMatchObject({ role_name: 'Owner', is_primary_contact: false });
  });
});

describe('PUT /api/my-users/:id', () => {
  it('updates any subset of the fields and reads them back', async () => {
    const user = await createUser({ phone: '0100' });
    const newEmail = uniqueEmail('renamed');
    const res = await as(t, op.headers).put(`/api/my-users/${user.id}`, { name: 'Robin', email: newEmail.toUpperCase() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await findUser(user.id)).toMatchObject({ name: 'Robin', email: newEmail, phone: '0100', role_id: deskRole });

    await as(t, op.headers).put(`/api/my-users/${user.id}`, { role_id: barRole, phone: null });
    expect(await findUser(user.id)).toMatchObject({ name: 'Robin', phone: null, role_id: barRole, role_name: 'Bar' });
    await as(t, op.headers).put(`/api/my-users/${user.id}`, { phone: '0200' });
    await as(t, op.headers).put(`/api/my-users/${user.id}`, { phone: '' });
    expect((await findUser(user.id))?.phone).toBeNull();
    expect((await as(t, op.headers).put(`/api/my-users/${user.id}`, {})).statusCode).toBe(200);
    expect(await canLogin(newEmail, user.password)).toBe(true);
  });

  it('keeps the password when it is sent empty', async () => {
    const user = await createUser();
    const res = await as(t, op.headers).put(`/api/my-users/${user.id}`, { password: '', name: 'Same Password' });
    expect(res.statusCode).toBe(200);
    expect(await canLogin(user.email, user.password)).toBe(true);
  });

  it('sets a new password and signs the user out of their other sessions', async () => {
    const user = await createUser();
    const oldSession = bearer(await login(t, user.email, user.password));
    const res = await as(t, op.headers).put(`/api/my-users/${user.id}`, { password: 'brand-new-password' });
    expect(res.statusCode).toBe(200);
    expect(await canLogin(user.email, user.password)).toBe(false);
    expect(await canLogin(user.email, 'brand-new-password')).toBe(true);
    expect((await as(t, oldSession).get('/api/auth/me')).statusCode).toBe(401);
    // The Owner's own session is untouched.
    expect((await as(t, op.headers).get('/api/auth/me')).statusCode).toBe(200);
  });

  it('keeps the caller’s own session when they change their own password', async () => {
    const self = await createOperator(t, 'Self Co');
    const elsewhere = bearer(await login(t, self.email));
    const res = await as(t, self.headers).put(`/api/my-users/${self.userId}`, { password: 'my-new-password' });
    expect(res.statusCode).toBe(200);
    expect((await as(t, self.headers).get('/api/auth/me')).statusCode).toBe(200);
    expect((await as(t, elsewhere).get('/api/auth/me')).statusCode).toBe(401);
    expect(await canLogin(self.email, TEST_PASSWORD)).toBe(false);
  });

  it('refuses invalid changes and changes nothing', async () => {
    const user = await createUser();
    const taken = await createUser();
    const before = await findUser(user.id);
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ name: '' }, 400, /name/],
      [{ name: '  ' }, 400, /name must not be blank/],
      [{ email: 'nope' }, 400, /email/],
      [{ email: taken.email.toUpperCase() }, 409, /already exists/],
      [{ password: 'short' }, 400, /password must be at least 8 characters/],
      [{ role_id: other.roleId }, 400, /role_id is not a role of this account/],
      [{ role_id: '' }, 400, /role_id/],
      [{ phone: 5 }, 400, /phone/],
      [{ name: 'Valid', password: 'short' }, 400, /password/],
    ];
    for (const [body, status, message] of cases) {
      const res = await as(t, op.headers).put(`/api/my-users/${user.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().error).toMatch(message);
    }
    expect(await findUser(user.id)).toEqual(before);
    expect(await canLogin(user.email, user.password)).toBe(true);
    // Re-sending one's own email is not a clash.
    expect((await as(t, op.headers).put(`/api/my-users/${user.id}`, { email: user.email })).statusCode).toBe(200);
  });

  it('keeps the primary contact on the Owner role', async () => {
    const res = await as(t, op.headers).put(`/api/my-users/${op.userId}`, { role_id: deskRole });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('The primary contact must keep the Owner role');
    expect((await findUser(op.userId))?.role_id).toBe(op.roleId);
    expect((await as(t, op.headers).put(`/api/my-users/${op.userId}`, { role_id: op.roleId, name: 'Still Owner' })).statusCode).toBe(200);
  });

  it('stops a non-Owner from handing out the Owner role or changing an Owner', async () => {
    const admin = await createStaff(t, op, { users: 'write' });
    const user = await createUser();
    const promote = await as(t, admin.headers).put(`/api/my-users/${user.id}`, { role_id: op.roleId });
    expect(promote.statusCode).toBe(403);
    const selfPromote = await as(t, admin.headers).put(`/api/my-users/${admin.userId}`, { role_id: op.roleId });
    expect(selfPromote.statusCode).toBe(403);
    const takeover = await as(t, admin.headers).put(`/api/my-users/${op.userId}`, {
      email: uniqueEmail('takeover'),
      password: 'taken-over-pw',
    });
    expect(takeover.statusCode).toBe(403);
    expect(await canLogin(op.email, TEST_PASSWORD)).toBe(true);
    expect((await findUser(user.id))?.role_id).toBe(deskRole);
    expect((await as(t, admin.headers).get('/api/me/permissions')).json().is_owner).toBe(false);
    // Ordinary changes to non-Owners are fine.
    expect((await as(t, admin.headers).put(`/api/my-users/${user.id}`, { role_id: barRole })).statusCode).toBe(200);
  });

  it('does not find another account’s users or guests', async () => {
    const guest = await createGuest(t);
    for (const id of [other.userId, guest.userId, 'usr_missing']) {
      const res = await as(t, op.headers).put(`/api/my-users/${id}`, { name: 'Hijacked' });
      expect(res.statusCode, id).toBe(404);
    }
    expect((await findUser(other.userId, other.headers))?.name).toBe('Rival Co Owner');
  });
});

describe('DELETE /api/my-users/:id', () => {
  it('deletes a user with their sessions and membership', async () => {
    const user = await createUser();
    const session = bearer(await login(t, user.email, user.password));
    const res = await as(t, op.headers).del(`/api/my-users/${user.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await findUser(user.id)).toBeUndefined();
    expect((await as(t, session).get('/api/auth/me')).statusCode).toBe(401);
    expect(await canLogin(user.email, user.password)).toBe(false);
    const members = (await as(t, op.headers).get('/api/my-operator/members')).json().data;
    expect(members.some((m: { user_id: string }) => m.user_id === user.id)).toBe(false);
    expect((await as(t, op.headers).del(`/api/my-users/${user.id}`)).statusCode).toBe(404);
  });

  it('refuses to delete oneself or the primary contact', async () => {
    const coOwner = await createUser({ role_id: op.roleId });
    const coOwnerHeaders = bearer(await login(t, coOwner.email, coOwner.password));
    const self = await as(t, coOwnerHeaders).del(`/api/my-users/${coOwner.id}`);
    expect(self.statusCode).toBe(400);
    expect(self.json().error).toBe('You cannot delete your own user');
    const primary = await as(t, coOwnerHeaders).del(`/api/my-users/${op.userId}`);
    expect(primary.statusCode).toBe(400);
    expect(primary.json().error).toBe("The account's primary contact cannot be deleted");
    const ownSelf = await as(t, op.headers).del(`/api/my-users/${op.userId}`);
    expect(ownSelf.statusCode).toBe(400);
    expect(await findUser(coOwner.id)).toBeDefined();
    expect(await findUser(op.userId)).toBeDefined();
  });

  it('lets only an Owner delete a user who holds the Owner role', async () => {
    const coOwner = await createUser({ role_id: op.roleId });
    const admin = await createStaff(t, op, { 'users.user': 'write' });
    expect((await as(t, admin.headers).del(`/api/my-users/${coOwner.id}`)).statusCode).toBe(403);
    expect(await findUser(coOwner.id)).toBeDefined();
    expect((await as(t, op.headers).del(`/api/my-users/${coOwner.id}`)).statusCode).toBe(200);
  });

  it('does not find another account’s users', async () => {
    const rivalStaff = await createStaff(t, other, { tables: 'read' });
    for (const id of [rivalStaff.userId, other.userId]) {
      expect((await as(t, op.headers).del(`/api/my-users/${id}`)).statusCode, id).toBe(404);
    }
    expect(await findUser(rivalStaff.userId, other.headers)).toBeDefined();
    expect((await as(t, rivalStaff.headers).get('/api/auth/me')).statusCode).toBe(200);
  });
});
