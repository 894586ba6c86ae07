/** `GET /api/me/keys`: the signed-in user's keys balance, the billing ledger's sum; never another user's. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuest, createOperator, createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { addBillingEntry, grantKeys } from './index.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const balance = (headers?: Record<string, string>) => t.app.inject({ url: '/api/me/keys', headers });

describe('GET /api/me/keys', () => {
  it("answers the caller's balance: grants less spends, privately", async () => {
    const guest = await createGuest(t);
    const other = await createGuest(t);
    expect((await balance(guest.headers)).json()).toEqual({ balance: 0 });
    await grantKeys(t.db, guest.userId, 12, t.clock.now());
    await addBillingEntry(t.db.kysely, { userId: guest.userId, type: 'spend', delta: -5, at: t.clock.now() });
    await grantKeys(t.db, other.userId, 40, t.clock.now());
    const res = await balance(guest.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ balance: 7 });
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect((await balance(other.headers)).json()).toEqual({ balance: 40 });
  });

  it('is 401 without a session, and 0 for an operator user (keys are guests’ credit)', async () => {
    expect((await balance()).statusCode).toBe(401);
    expect((await balance({ authorization: 'Bearer nope' })).statusCode).toBe(401);
    const op = await createOperator(t);
    expect((await balance(op.headers)).json()).toEqual({ balance: 0 });
  });
});
