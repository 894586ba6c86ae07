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

const members = async (headers = op.headers) => (await as(t, headers).get('/api/my-operator/members')).json().data as Record<string, string>[];
const search = async (q: string, headers = op.headers) => as(t, headers).get(`/api/my-operator/users-search?q=${encodeURIComponent(q)}`);

describe('members', () => {
  it('lists the primary contact as the first member', async () => {
    const fresh = await createOperator(t, 'Solo Co');
    const res = await as(t, fresh.headers).get('/api/my-operator/members');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      { id: expect.stringMatching(/^mem_/), user_id: fresh.userId, role: 'owner', name: 'Solo Co Owner', email: fresh.email, created_at: expect.any(String) },
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

  it('refuses users outside the account and invalid bodies, changing nothing', async () => {
    const before = await members();
    const rivalStaff = await createStaff(t, other, { tables: 'read' });
    const guest = await createGuest(t);
    for (const userId of [rivalStaff.userId, other.userId, guest.userId, 'usr_unknown']) {
      const res = await as(t, op.headers).post('/api/my-operator/members', { user_id: userId });
      expect(res.statusCode, userId).toBe(404);
    }
    const staff = await createStaff(t, op, { tables: 'read' });
    for (const body of [{}, { user_id: '' }, { user_id: 7 }, { user_id: staff.userId, role: '' }, { user_id: staff.userId, role: 'x'.repeat(51) }]) {
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
    expect((await search('KITCHEN', searcher.headers)).json().data).toEqual([{ id: zelda, name: 'Zelda Quintero', email: 'zq@kitchen.test' }]);
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
