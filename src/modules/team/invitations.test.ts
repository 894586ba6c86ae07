/**
 * Invitations: inviting by email (authority as for creating the user, conflicts, tenancy), the mailed
 * link, the public preview and acceptance (once, racing accepts create one user), revocation and expiry.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createOperator,
  createStaff,
  createTestApp,
  mailsTo,
  TEST_NOW,
  TEST_PASSWORD,
  uniqueEmail,
  type TestApp,
  type TestOperator,
} from '../../../test/helpers/app.js';
import { INVITATION_TTL_MS } from './invitations.service.js';
import { as } from './team.test-support.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let deskRole: string;
beforeAll(async () => {
  t = await createTestApp();
  [op, other] = await Promise.all([createOperator(t, 'Invite Co'), createOperator(t, 'Rival Co')]);
  deskRole = (await as(t, op.headers).post('/api/my-roles', { name: 'Front desk' })).json().id;
  await as(t, op.headers).put(`/api/my-roles/${deskRole}`, {
    name: 'Front desk',
    permissions: [{ permission_key: 'bookings', can_read: true, can_write: true }],
  });
});
beforeEach(() => t.clock.set(TEST_NOW));
afterAll(async () => t.close());

const publicCall = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, ...(payload ? { payload } : {}) });

async function invite(fields: Record<string, unknown> = {}, headers = op.headers) {
  const email = uniqueEmail('invitee');
  const res = await as(t, headers).post('/api/my-users/invitations', { email, name: 'Ivy Invitee', role_id: deskRole, ...fields });
  return { res, email: (fields.email as string | undefined) ?? email };
}

/** The token in the link of the newest invitation mailed to `email`. */
async function tokenFor(email: string) {
  const mails = await mailsTo(t, email);
  const match = /\/app\/invitation\?token=([A-Za-z0-9_-]+)/.exec(mails.at(-1)?.text_body ?? '');
  if (!match) throw new Error(`no invitation link mailed to ${email}`);
  return match[1];
}

const pendingIds = async (headers = op.headers) =>
  ((await as(t, headers).get('/api/my-users/invitations')).json().data as { id: string }[]).map((i) => i.id);
const accept = (token: string, password = 'invitee-password-1') => publicCall('POST', '/api/invitations/accept', { token, password });
const canLogin = async (email: string, password: string) =>
  (await publicCall('POST', '/api/auth/login', { email, password })).statusCode === 200;

describe('inviting and accepting', () => {
  it('invites, mails the link, previews, accepts once and the invitee signs in with the role', async () => {
    const { res, email } = await invite({ email: 'Ivy.Mixed@Example.TEST' });
    expect(res.statusCode, res.body).toBe(201);
    const invitation = res.json();
    expect(invitation).toEqual({
      id: expect.stringMatching(/^inv_/),
      email: 'ivy.mixed@example.test',
      name: 'Ivy Invitee',
      role_id: deskRole,
      invited_by: op.userId,
      created_at: TEST_NOW,
      expires_at: new Date(Date.parse(TEST_NOW) + 7 * 24 * 3600_000).toISOString(),
    });
    expect(await pendingIds()).toContain(invitation.id);
    expect((await as(t, op.headers).get('/api/my-users/invitations')).json().data).toContainEqual(invitation);

    const mails = await mailsTo(t, email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Invite Co Owner invited you to Invite Co on Maitred');
    expect(mails[0].text_body).toMatch(/http:\/\/maitred\.test\/app\/invitation\?token=[A-Za-z0-9_-]{43}/);
    expect(mails[0].html_body).toContain('http://maitred.test/app/invitation?token=');
    const token = await tokenFor(email);
    // Only a hash is stored.
    const stored = await t.db.kysely.selectFrom('invitations').selectAll().where('id', '=', invitation.id).executeTakeFirstOrThrow();
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token);

    const preview = await publicCall('GET', `/api/invitations/${token}`);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toEqual({
      operator_name: 'Invite Co',
      invited_by_name: 'Invite Co Owner',
      email: 'ivy.mixed@example.test',
      name: 'Ivy Invitee',
      role_name: 'Front desk',
      expires_at: invitation.expires_at,
    });

    const accepted = await accept(token);
    expect(accepted.statusCode, accepted.body).toBe(201);
    const userId = accepted.json().id;
    expect(accepted.json()).toEqual({ success: true, id: expect.stringMatching(/^usr_/) });
    expect(await canLogin('ivy.mixed@example.test', 'invitee-password-1')).toBe(true);
    const users = (await as(t, op.headers).get('/api/my-users')).json().data;
    expect(users).toContainEqual(expect.objectContaining({ id: userId, name: 'Ivy Invitee', role_id: deskRole, role_name: 'Front desk' }));
    const members = (await as(t, op.headers).get('/api/my-operator/members')).json().data;
    expect(members).toContainEqual(expect.objectContaining({ user_id: userId }));

    expect(await pendingIds()).not.toContain(invitation.id);
    expect((await publicCall('GET', `/api/invitations/${token}`)).statusCode).toBe(404);
    const again = await accept(token, 'another-password-2');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ error: 'Invitation not found' });
    expect(await canLogin('ivy.mixed@example.test', 'another-password-2')).toBe(false);
  });

  it('two accepts of one link at once create one user', async () => {
    const { res, email } = await invite();
    expect(res.statusCode).toBe(201);
    const token = await tokenFor(email);
    const answers = await Promise.all([accept(token, 'first-password-1'), accept(token, 'second-password-2')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 404]);
    const users = await t.db.kysely.selectFrom('users').select('id').where('email', '=', email).execute();
    expect(users).toHaveLength(1);
    const winner = answers.findIndex((a) => a.statusCode === 201);
    expect(await canLogin(email, winner === 0 ? 'first-password-1' : 'second-password-2')).toBe(true);
  });

  it('answers 404 for an unknown token and 400 for a short password', async () => {
    expect((await publicCall('GET', '/api/invitations/not-a-token')).statusCode).toBe(404);
    expect((await accept('not-a-token')).statusCode).toBe(404);
    const { email } = await invite();
    const token = await tokenFor(email);
    const short = await accept(token, 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toMatch(/password/);
    expect((await publicCall('POST', '/api/invitations/accept', { token })).statusCode).toBe(400);
    // Still pending after the refusals.
    expect((await publicCall('GET', `/api/invitations/${token}`)).statusCode).toBe(200);
  });

  it('refuses (409) an email that became an account after the invitation, and leaves the invitation pending', async () => {
    const { res, email } = await invite();
    const token = await tokenFor(email);
    const created = await as(t, op.headers).post('/api/my-users', { name: 'Quick', email, password: TEST_PASSWORD, role_id: deskRole });
    expect(created.statusCode).toBe(200);
    const answer = await accept(token);
    expect(answer.statusCode).toBe(409);
    expect(await pendingIds()).toContain(res.json().id);
  });
});

describe('validation and conflicts', () => {
  it('refuses bad fields with 400', async () => {
    const post = (body: object) => as(t, op.headers).post('/api/my-users/invitations', body);
    expect((await post({ email: 'not-an-email', name: 'X', role_id: deskRole })).statusCode).toBe(400);
    expect((await post({ email: uniqueEmail(), name: '', role_id: deskRole })).statusCode).toBe(400);
    expect((await post({ email: uniqueEmail(), name: '   ', role_id: deskRole })).statusCode).toBe(400);
    expect((await post({ email: uniqueEmail(), name: 'X' })).statusCode).toBe(400);
  });

  it('refuses (409) an email that has an account or a pending invitation of the account', async () => {
    const taken = await invite({ email: op.email });
    expect(taken.res.statusCode).toBe(409);
    expect(taken.res.json().error).toBe('An account with this email already exists');
    const first = await invite();
    expect(first.res.statusCode).toBe(201);
    const twice = await invite({ email: first.email.toUpperCase() });
    expect(twice.res.statusCode).toBe(409);
    expect(twice.res.json().error).toBe('This email already has a pending invitation');
    // Once revoked, the address can be invited again.
    expect((await as(t, op.headers).del(`/api/my-users/invitations/${first.res.json().id}`)).statusCode).toBe(204);
    expect((await invite({ email: first.email })).res.statusCode).toBe(201);
    expect(await mailsTo(t, taken.email)).toHaveLength(0);
  });
});

describe('permissions and authority', () => {
  it('needs users.user write to invite or revoke and read to list (403)', async () => {
    const reader = await createStaff(t, op, { 'users.user': 'read' });
    const headers = { authorization: `Bearer ${await loginAs(reader.email)}` };
    expect((await as(t, headers).get('/api/my-users/invitations')).statusCode).toBe(200);
    const { res } = await invite({}, headers);
    expect(res.statusCode).toBe(403);
    const mine = await invite();
    expect((await as(t, headers).del(`/api/my-users/invitations/${mine.res.json().id}`)).statusCode).toBe(403);
    const none = await createStaff(t, op, { bookings: 'read' });
    expect((await as(t, { authorization: `Bearer ${await loginAs(none.email)}` }).get('/api/my-users/invitations')).statusCode).toBe(403);
  });

  it('refuses to invite with a role stronger than the caller’s own, and to revoke such an invitation', async () => {
    const manager = await createStaff(t, op, { 'users.user': 'write' });
    const headers = { authorization: `Bearer ${await loginAs(manager.email)}` };
    const stronger = await invite({}, headers); // the desk role writes bookings, which the manager cannot
    expect(stronger.res.statusCode).toBe(403);
    expect(stronger.res.json().error).toBe('You cannot assign a role holding bookings:write: your own role does not hold it');
    const owner = await invite({ role_id: op.roleId }, headers);
    expect(owner.res.statusCode).toBe(403);
    expect(owner.res.json().error).toBe('Only an Owner can give someone the Owner role');
    const weak = (await as(t, op.headers).post('/api/my-roles', { name: 'Nothing yet' })).json().id;
    expect((await invite({ role_id: weak }, headers)).res.statusCode).toBe(201);
    const ownersInvite = await invite();
    const revoke = await as(t, headers).del(`/api/my-users/invitations/${ownersInvite.res.json().id}`);
    expect(revoke.statusCode).toBe(403);
    expect(await mailsTo(t, stronger.email)).toHaveLength(0);
  });

  it('keeps accounts apart: another account’s role is 404, its invitations are unseen and cannot be revoked', async () => {
    const foreignRole = await invite({ role_id: other.roleId });
    expect(foreignRole.res.statusCode).toBe(404);
    expect(foreignRole.res.json().error).toBe('Role not found');
    const mine = await invite();
    const id = mine.res.json().id;
    expect(await pendingIds(other.headers)).not.toContain(id);
    expect((await as(t, other.headers).del(`/api/my-users/invitations/${id}`)).statusCode).toBe(404);
    expect(await pendingIds()).toContain(id);
  });
});

describe('revocation and expiry', () => {
  it('a revoked invitation is no longer pending and its link stops working', async () => {
    const { res, email } = await invite();
    const token = await tokenFor(email);
    const id = res.json().id;
    expect((await as(t, op.headers).del(`/api/my-users/invitations/${id}`)).statusCode).toBe(204);
    expect(await pendingIds()).not.toContain(id);
    expect((await publicCall('GET', `/api/invitations/${token}`)).statusCode).toBe(404);
    expect((await accept(token)).statusCode).toBe(404);
    expect((await as(t, op.headers).del(`/api/my-users/invitations/${id}`)).statusCode).toBe(404);
  });

  it('expires after 7 days', async () => {
    const { res, email } = await invite();
    const token = await tokenFor(email);
    t.clock.set(new Date(Date.parse(TEST_NOW) + INVITATION_TTL_MS - 1).toISOString());
    expect((await publicCall('GET', `/api/invitations/${token}`)).statusCode).toBe(200);
    t.clock.set(new Date(Date.parse(TEST_NOW) + INVITATION_TTL_MS).toISOString());
    expect((await publicCall('GET', `/api/invitations/${token}`)).statusCode).toBe(404);
    expect((await accept(token)).statusCode).toBe(404);
    // A week on, the Owner's session has lapsed too: sign in again.
    const headers = { authorization: `Bearer ${await loginAs(op.email)}` };
    expect(await pendingIds(headers)).not.toContain(res.json().id);
    expect((await as(t, headers).del(`/api/my-users/invitations/${res.json().id}`)).statusCode).toBe(404);
    // An expired invitation does not block a new one.
    expect((await invite({ email }, headers)).res.statusCode).toBe(201);
  });
});

async function loginAs(email: string) {
  const res = await publicCall('POST', '/api/auth/login', { email, password: TEST_PASSWORD });
  return res.json().token as string;
}
