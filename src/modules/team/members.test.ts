import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuest, createOperator, createStaff, createTestApp, type TestApp, type TestOperator } from '../../../test/helpers/app.js';
import { as, insertClientUserRow } from './team.test-support.js';

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
beforeAll(async () => {
  t = await createTestApp();
  [op, other] = await Promise.all([createOperator(t, 'Members Co'), createOperator(t, 'Rival Co')]);
});
afterAll(async () => t.close());

const members = async (headers = op.headers) =>
  (await as(t, headers).get('/api/my-operator/members')).json().data as Record<string, string>[];
const search = async (q: string, headers = op.headers) => as(t, headers).get(`/api/my-operator/users-search?q=${encodeURIComponent(q)}`);

describe('members', () => {
  it('lists the primary contact as the first member', async () => {
    const fresh = await createOperator(t, 'Solo Co');
    const res = await as(t, fresh.headers).get('/api/my-operator/members');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      {
        id: expect.stringMatching(/^mem_/),
        user_id: fresh.userId,
        role: 'owner',
        name: 'Solo Co Owner',
        email: fresh.email,
        created_at: expect.any(String),
      },
    ]);
  });

  it('adds a portal user (role defaults to member), lists them, and refuses a second add', async () => {
    const staff = await createStaff(t, op, { tables: 'read' });
    const add = await as(t, op.headers).post('/api/my-operator/members', { user_id: staff.userId });
    expect(add.statusCode).toBe(200);
    expect(add.json()).toEqual({ success: true, id: expect.stringMatching(/^mem_/) });
    expect(await members()).toContainEqual({
      id: add.json().id,
      user_id: staff.userId,
      role: 'member',
      name: 'Staff Member',
      email: staff.email,
      created_at: expect.any(String),
    });

    const again = await as(t, op.headers).post('/api/my-operator/members', { user_id: staff.userId, role: 'manager' });
    expect(again.statusCode).toBe(409);
    expect((await members()).filter((m) => m.user_id === staff.userId)).toHaveLength(1);

    const other = await createStaff(t, op, { tables: 'read' });
    const withRole = await as(t, op.headers).post('/api/my-operator/members', { user_id: other.userId, role: 'manager' });
    expect(withRole.statusCode).toBe(200);
    expect((await members()).find((m) => m.id === withRole.json().id)?.role).toBe('manager');
  });

  it('refuses guests, unknown users and invalid bodies, changing nothing', async () => {
    const before = await members();
    const guest = await createGuest(t);
    for (const userId of [guest.userId, 'usr_unknown']) {
      const res = await as(t, op.headers).post('/api/my-operator/members', { user_id: userId });
      expect(res.statusCode, userId).toBe(404);
    }
    const staff = await createStaff(t, op, { tables: 'read' });
    for (const body of [
      {},
      { user_id: '' },
      { user_id: 7 },
      { user_id: staff.userId, role: '' },
      { user_id: staff.userId, role: 'x'.repeat(51) },
    ]) {
      const res = await as(t, op.headers).post('/api/my-operator/members', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const blank = await as(t, op.headers).post('/api/my-operator/members', { user_id: staff.userId, role: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toBe('role must not be blank');
    expect(await members()).toEqual(before);
    expect(await members(other.headers)).toHaveLength(1);
  });

  it('updates a member’s role; another account’s member is not found', async () => {
    const staff = await createStaff(t, op, { tables: 'read' });
    const { id } = (await as(t, op.headers).post('/api/my-operator/members', { user_id: staff.userId })).json();
    const res = await as(t, op.headers).put(`/api/my-operator/members/${id}`, { role: ' supervisor ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect((await members()).find((m) => m.id === id)?.role).toBe('supervisor');

    for (const body of [{}, { role: '' }, { role: '  ' }, { role: 3 }]) {
      expect((await as(t, op.headers).put(`/api/my-operator/members/${id}`, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await members()).find((m) => m.id === id)?.role).toBe('supervisor');

    const rivalMemberId = (await members(other.headers))[0]!.id;
    expect((await as(t, op.headers).put(`/api/my-operator/members/${rivalMemberId}`, { role: 'hijacked' })).statusCode).toBe(404);
    expect((await as(t, op.headers).put('/api/my-operator/members/mem_unknown', { role: 'x' })).statusCode).toBe(404);
    expect((await members(other.headers))[0]!.role).toBe('owner');
  });

  it('removes a member but never the primary contact, nor another account’s member', async () => {
    const staff = await createStaff(t, op, { tables: 'read' });
    const { id } = (await as(t, op.headers).post('/api/my-operator/members', { user_id: staff.userId })).json();

    const primary = (await members()).find((m) => m.user_id === op.userId)!;
    const refused = await as(t, op.headers).del(`/api/my-operator/members/${primary.id}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe("The account's primary contact cannot be removed from the team");
    expect((await members()).some((m) => m.id === primary.id)).toBe(true);

    const rivalMemberId = (await members(other.headers))[0]!.id;
    expect((await as(t, op.headers).del(`/api/my-operator/members/${rivalMemberId}`)).statusCode).toBe(404);
    expect(await members(other.headers)).toHaveLength(1);

    const removed = await as(t, op.headers).del(`/api/my-operator/members/${id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ success: true });
    expect((await members()).some((m) => m.id === id)).toBe(false);
    // Leaving the team does not delete the portal user.
    const users = (await as(t, op.headers).get('/api/my-users')).json().data as { id: string }[];
    expect(users.some((u) => u.id === staff.userId)).toBe(true);
    expect((await as(t, op.headers).del(`/api/my-operator/members/${id}`)).statusCode).toBe(404);
  });
});

describe('GET /api/my-operator/users-search', () => {
  it('finds the account’s client users by name or email, any case, who are not yet members', async () => {
    const searcher = await createOperator(t, 'Search Co');
    const zelda = await insertClientUserRow(t, searcher.operatorId, 'Zelda Quintero', 'zq@kitchen.test');
    const quinn = await insertClientUserRow(t, searcher.operatorId, 'Someone Else', 'QUINTERO.S@bar.test');
    const member = await insertClientUserRow(t, searcher.operatorId, 'Member Quintero', 'mq@bar.test');
    await as(t, searcher.headers).post('/api/my-operator/members', { user_id: member });
    // Same name in another account, and a guest: never candidates.
    await insertClientUserRow(t, other.operatorId, 'Rival Quintero', 'rq@rival.test');
    await createGuest(t, 'Guest Quintero');

    const res = await search('quinTERO', searcher.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      { id: quinn, name: 'Someone Else', email: 'quintero.s@bar.test' },
      { id: zelda, name: 'Zelda Quintero', email: 'zq@kitchen.test' },
    ]);
    expect((await search('KITCHEN', searcher.headers)).json().data).toEqual([
      { id: zelda, name: 'Zelda Quintero', email: 'zq@kitchen.test' },
    ]);
    // The primary contact is already a member.
    expect((await search('Search Co Owner', searcher.headers)).json().data).toEqual([]);
  });

  it('treats LIKE wildcards literally and returns at most 20', async () => {
    const bulk = await createOperator(t, 'Bulk Co');
    for (let i = 0; i < 22; i++) await insertClientUserRow(t, bulk.operatorId, `Waiter ${String(i).padStart(2, '0')}`, `w${i}@bulk.test`);
    const res = await search('waiter', bulk.headers);
    expect(res.json().data).toHaveLength(20);
    expect(res.json().data[0].name).toBe('Waiter 00');
    expect((await search('%%', bulk.headers)).json().data).toEqual([]);
    expect((await search('__', bulk.headers)).json().data).toEqual([]);
    const percent = await insertClientUserRow(t, bulk.operatorId, '100% Barista', 'barista@bulk.test');
    expect((await search('0%', bulk.headers)).json().data).toEqual([{ id: percent, name: '100% Barista', email: 'barista@bulk.test' }]);
  });

  it('requires q of at least 2 characters', async () => {
    for (const url of ['/api/my-operator/users-search', '/api/my-operator/users-search?q=', '/api/my-operator/users-search?q=a']) {
      const res = await as(t, op.headers).get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toMatch(/q/);
    }
    const padded = await search(' a ');
    expect(padded.statusCode).toBe(400);
    expect(padded.json().error).toBe('q must be at least 2 characters');
  });
});

/**
 * A person from another account joins the team: found by their whole email only, added by id, listed,
 * relabelled and removed here, while staying in their own account with no access to this one.
 */
describe('members from another account', () => {
  it('finds an operator-side user of any account by their exact email (any case), id, name and email only', async () => {
    const searcher = await createOperator(t, 'Exact Co');
    const rivalStaff = await createStaff(t, other, { tables: 'read' });
    for (const q of [rivalStaff.email, rivalStaff.email.toUpperCase(), `  ${rivalStaff.email} `]) {
      const res = await search(q, searcher.headers);
      expect(res.statusCode, q).toBe(200);
      expect(res.json(), q).toEqual({ data: [{ id: rivalStaff.userId, name: 'Staff Member', email: rivalStaff.email }] });
    }
    // Another account's Owner too.
    expect((await search(other.email, searcher.headers)).json().data).toEqual([
      { id: other.userId, name: 'Rival Co Owner', email: other.email },
    ]);
  });

  it('never matches part of a name or email across accounts', async () => {
    const searcher = await createOperator(t, 'Partial Co');
    const email = 'xavier.unique-partial@faraway.test';
    await insertClientUserRow(t, other.operatorId, 'Xavier Farawayson', email);
    for (const q of [
      'Xavier',
      'Farawayson',
      'xavier.unique-partial',
      'faraway.test',
      '@faraway.test',
      email.slice(0, -1),
      `x${email}`,
      email.slice(1),
    ]) {
      const res = await search(q, searcher.headers);
      expect(res.statusCode, q).toBe(200);
      expect(res.json().data, q).toEqual([]);
    }
    expect((await search(email, searcher.headers)).json().data).toHaveLength(1);
  });

  it('never finds a guest, even by their exact email', async () => {
    const searcher = await createOperator(t, 'Guestless Co');
    const guest = await createGuest(t, 'Exact Guest');
    for (const q of [guest.email, guest.email.toUpperCase(), 'Exact Guest']) {
      expect((await search(q, searcher.headers)).json().data, q).toEqual([]);
    }
    expect((await as(t, searcher.headers).post('/api/my-operator/members', { user_id: guest.userId })).statusCode).toBe(404);
  });

  it('adds them as a member, lists, relabels and removes them, without moving them or giving them access', async () => {
    const team = await createOperator(t, 'Host Co');
    const rivalStaff = await createStaff(t, other, { tables: 'read' });
    const rivalMembersBefore = await members(other.headers);
    const found = (await search(rivalStaff.email, team.headers)).json().data[0];

    const add = await as(t, team.headers).post('/api/my-operator/members', { user_id: found.id, role: 'consultant' });
    expect(add.statusCode, add.body).toBe(200);
    const memberId = add.json().id as string;
    expect(await members(team.headers)).toContainEqual({
      id: memberId,
      user_id: rivalStaff.userId,
      role: 'consultant',
      name: 'Staff Member',
      email: rivalStaff.email,
      created_at: expect.any(String),
    });
    // Already a member: no longer a candidate, and a second add is refused.
    expect((await search(rivalStaff.email, team.headers)).json().data).toEqual([]);
    expect((await as(t, team.headers).post('/api/my-operator/members', { user_id: rivalStaff.userId })).statusCode).toBe(409);

    // They stay a user of their own account, with their own role, and reach nothing of the host's.
    const me = (await as(t, rivalStaff.headers).get('/api/auth/me')).json().user;
    expect(me).toMatchObject({ id: rivalStaff.userId, operator_id: other.operatorId });
    expect((await as(t, rivalStaff.headers).get('/api/me/permissions')).json()).toMatchObject({
      role_id: rivalStaff.roleId,
      is_owner: false,
    });
    const hostUsers = (await as(t, team.headers).get('/api/my-users')).json().data as { id: string }[];
    expect(hostUsers.map((u) => u.id)).toEqual([team.userId]);
    expect((await as(t, team.headers).put(`/api/my-users/${rivalStaff.userId}`, { name: 'Hijacked' })).statusCode).toBe(404);
    const rivalUsers = (await as(t, other.headers).get('/api/my-users')).json().data as { id: string }[];
    expect(rivalUsers.some((u) => u.id === rivalStaff.userId)).toBe(true);

    // The host's member row is invisible to the other account, which cannot change or remove it.
    expect(await members(other.headers)).toEqual(rivalMembersBefore);
    expect((await as(t, other.headers).put(`/api/my-operator/members/${memberId}`, { role: 'hijacked' })).statusCode).toBe(404);
    expect((await as(t, other.headers).del(`/api/my-operator/members/${memberId}`)).statusCode).toBe(404);

    const relabel = await as(t, team.headers).put(`/api/my-operator/members/${memberId}`, { role: 'advisor' });
    expect(relabel.statusCode).toBe(200);
    expect((await members(team.headers)).find((m) => m.id === memberId)?.role).toBe('advisor');
    const removed = await as(t, team.headers).del(`/api/my-operator/members/${memberId}`);
    expect(removed.statusCode).toBe(200);
    expect((await members(team.headers)).some((m) => m.id === memberId)).toBe(false);
    // Leaving the host's team leaves them in their own account.
    expect((await as(t, rivalStaff.headers).get('/api/auth/me')).statusCode).toBe(200);
  });

  it('drops the membership when their own account deletes the user', async () => {
    const team = await createOperator(t, 'Keeper Co');
    const rivalStaff = await createStaff(t, other, { tables: 'read' });
    expect((await as(t, team.headers).post('/api/my-operator/members', { user_id: rivalStaff.userId })).statusCode).toBe(200);
    expect((await as(t, other.headers).del(`/api/my-users/${rivalStaff.userId}`)).statusCode).toBe(200);
    expect((await members(team.headers)).some((m) => m.user_id === rivalStaff.userId)).toBe(false);
  });
});
