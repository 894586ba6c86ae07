/**
 * `GET /api/my-floor-venues`: the venues the caller may work on, with their zones and today, for any
 * portal user of the account (most roles lack the venue settings that `GET /api/my-venues` needs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, type TestApp } from '../../../../test/helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('GET /api/my-floor-venues', () => {
  it('lists the venues within the role’s scope by name, each with its zone and venue-local today', async () => {
    const op = await createOperator(t);
    // 2026-06-15T12:00Z is already the 16th in Auckland (UTC+12).
    const london = await insertVenue(t, op.operatorId, { name: 'B London' });
    const auckland = await insertVenue(t, op.operatorId, { name: 'A Auckland', timezone: 'Pacific/Auckland' });
    const outside = await insertVenue(t, op.operatorId, { name: 'C Elsewhere' });
    await insertVenue(t, (await createOperator(t)).operatorId, { name: 'Another account' });

    const host = await createStaff(t, op, { bookings: 'read' }, [london, auckland]);
    expect((await t.app.inject({ url: '/api/my-venues', headers: host.headers })).statusCode).toBe(403);
    const res = await t.app.inject({ url: '/api/my-floor-venues', headers: host.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      now: '2026-06-15T12:00:00.000Z',
      data: [
        { id: auckland, name: 'A Auckland', status: 'live', timezone: 'Pacific/Auckland', today: '2026-06-16' },
        { id: london, name: 'B London', status: 'live', timezone: 'Europe/London', today: '2026-06-15' },
      ],
    });
    // The Owner reaches every venue of the account, and no other account's.
    const owner = (await t.app.inject({ url: '/api/my-floor-venues', headers: op.headers })).json();
    expect(owner.data.map((v: { id: string }) => v.id)).toEqual([auckland, london, outside]);
  });

  it('answers any portal user of the account, whatever the role grants, within its venue scope; 401 without a token', async () => {
    const op = await createOperator(t);
    const first = await insertVenue(t, op.operatorId, { name: 'First' });
    await insertVenue(t, op.operatorId, { name: 'Second' });
    expect((await t.app.inject({ url: '/api/my-floor-venues' })).statusCode).toBe(401);
    // A vouchers-only role limited to one venue, and a team administrator with no venue permission at all.
    const vouchersOnly = await createStaff(t, op, { vouchers: 'read' }, [first]);
    const scoped = await t.app.inject({ url: '/api/my-floor-venues', headers: vouchersOnly.headers });
    expect(scoped.statusCode).toBe(200);
    expect(scoped.json().data.map((v: { name: string }) => v.name)).toEqual(['First']);
    const teamOnly = await createStaff(t, op, { 'users.user': 'write' });
    const all = await t.app.inject({ url: '/api/my-floor-venues', headers: teamOnly.headers });
    expect(all.json().data.map((v: { name: string }) => v.name)).toEqual(['First', 'Second']);
  });
});
