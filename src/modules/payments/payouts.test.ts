import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuest, createOperator, createStaff, createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { accountIdOf, FORM, onboard, REFRESH_URL, startOnboarding } from './payments.test-helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const START = '/api/my-operator/payout/connect/start';
const STATUS = '/api/my-operator/payout/status';

const start = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: START, headers });
const status = (headers: Record<string, string>) => t.app.inject({ url: STATUS, headers });
const cached = async (operatorId: string) =>
  (await t.db.kysely.selectFrom('operators').select('payment_connect_status').where('id', '=', operatorId).executeTakeFirstOrThrow())
    .payment_connect_status;

describe('payout status and onboarding (simulated provider)', () => {
  it('before onboarding: not_started, not connected', async () => {
    const op = await createOperator(t);
    const res = await status(op.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.json()).toEqual({ connected: false, provider: 'simulated', status: 'not_started' });
    expect(await cached(op.operatorId)).toBe('not_started');
  });

  it('connect/start creates the account and returns a local onboarding link; status is onboarding', async () => {
    const op = await createOperator(t, 'Harbour Bars');
    const res = await start(op.headers);
    expect(res.statusCode).toBe(200);
    const { url } = res.json();
    // A link token, not the account id: the id alone (shown to anyone with payouts:read) opens nothing.
    expect(url).toMatch(/^http:\/\/maitred\.test\/simulated\/onboarding\/[A-Za-z0-9_-]{32}$/);
    const accountId = await accountIdOf(t, op.operatorId);
    expect(accountId).toMatch(/^acct_[a-z2-7]+$/);
    expect(url).not.toContain(accountId);
    expect(await cached(op.operatorId)).toBe('onboarding');

    const read = await status(op.headers);
    expect(read.json()).toEqual({
      connected: true,
      provider: 'simulated',
      status: 'onboarding',
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      account_id: accountId,
    });
    const account = await t.db.kysely.selectFrom('sim_accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
    expect(account.business_name).toBe('Harbour Bars');
    expect(account.email).toBe(op.email);
    expect(JSON.parse(account.metadata)).toEqual({ operator_id: op.operatorId });

    const page = await t.app.inject({ url: new URL(url).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<title>Payout onboarding (simulated)</title>');
    expect(page.body).toContain('Finish onboarding');
    expect(page.body).toContain(accountId);
  });

  it('reuses the account on a second start, and concurrent starts make one account', async () => {
    const op = await createOperator(t);
    const results = await Promise.all(Array.from({ length: 5 }, () => start(op.headers)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(5).fill(200));
    expect((await start(op.headers)).statusCode).toBe(200);
    const accounts = await t.db.kysely.selectFrom('sim_accounts').select('id').where('metadata', 'like', `%${op.operatorId}%`).execute();
    expect(accounts).toHaveLength(1);
    expect(accounts[0].id).toBe(await accountIdOf(t, op.operatorId));
    // Every start hands out a fresh link to that one account.
    expect(new Set(results.map((r) => r.json().url)).size).toBe(5);
  });

  it('finishing with verification pending gives pending; finishing verified gives enabled; the cache follows', async () => {
    const op = await createOperator(t);
    await onboard(t, op, 'pending');
    expect(await cached(op.operatorId)).toBe('pending');
    expect((await status(op.headers)).json()).toMatchObject({
      status: 'pending',
      details_submitted: true,
      charges_enabled: false,
      payouts_enabled: false,
    });

    await onboard(t, op, 'verified');
    // The provider's account.updated event already moved the cached status, before any status read.
    expect(await cached(op.operatorId)).toBe('enabled');
    expect((await t.ctx.payments.payoutSummary(op.operatorId)).status).toBe('enabled');
    expect((await status(op.headers)).json()).toMatchObject({
      connected: true,
      status: 'enabled',
      details_submitted: true,
      charges_enabled: true,
      payouts_enabled: true,
    });

    // Going through onboarding again never takes away what the account has.
    await onboard(t, op, 'pending');
    expect((await status(op.headers)).json()).toMatchObject({ status: 'enabled', charges_enabled: true, payouts_enabled: true });
    expect(await cached(op.operatorId)).toBe('enabled');
  });

  it('status is read from the provider on each call', async () => {
    const op = await createOperator(t);
    const { accountId } = await onboard(t, op, 'verified');
    // The provider disables payouts (e.g. a verification lapse): the next read says pending.
    await t.db.kysely.updateTable('sim_accounts').set({ payouts_enabled: 0 }).where('id', '=', accountId).execute();
    expect((await status(op.headers)).json()).toMatchObject({ status: 'pending', charges_enabled: true, payouts_enabled: false });
    expect(await cached(op.operatorId)).toBe('pending');
  });

  it('a provider read failure answers status error with the last known flags and keeps the cached status', async () => {
    const op = await createOperator(t);
    await onboard(t, op, 'pending');
    const accountId = await accountIdOf(t, op.operatorId);
    await t.db.kysely.deleteFrom('sim_accounts').where('id', '=', accountId).execute();
    const res = await status(op.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      connected: true,
      provider: 'simulated',
      status: 'error',
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: true,
      account_id: accountId,
    });
    expect(await cached(op.operatorId)).toBe('pending');
    // Onboarding can no longer be started against the lost account: a provider failure, 502.
    const failed = await start(op.headers);
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error).not.toContain(accountId);
  });
});

describe('the simulated onboarding page', () => {
  const account = (id: string) => t.db.kysely.selectFrom('sim_accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('refuses an unknown outcome and unknown links', async () => {
    const op = await createOperator(t);
    const path = await startOnboarding(t, op.headers);
    expect((await t.app.inject({ method: 'POST', url: path, headers: FORM, payload: 'outcome=maybe' })).statusCode).toBe(400);
    expect(await cached(op.operatorId)).toBe('onboarding');
    expect((await t.app.inject({ url: '/simulated/onboarding/not-a-link' })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: '/simulated/onboarding/not-a-link', headers: FORM, payload: 'outcome=verified' }))
        .statusCode,
    ).toBe(404);
  });

  it('cannot be reached with the account id alone', async () => {
    const op = await createOperator(t);
    await startOnboarding(t, op.headers);
    const accountId = await accountIdOf(t, op.operatorId);
    // Someone who can read payout status (and so the account id) but may not onboard.
    const reader = await createStaff(t, op, { payouts: 'read' });
    expect((await status(reader.headers)).json().account_id).toBe(accountId);
    expect((await start(reader.headers)).statusCode).toBe(403);
    expect((await t.app.inject({ url: `/simulated/onboarding/${accountId}` })).statusCode).toBe(404);
    const post = await t.app.inject({
      method: 'POST',
      url: `/simulated/onboarding/${accountId}`,
      headers: FORM,
      payload: 'outcome=verified',
    });
    expect(post.statusCode).toBe(404);
    expect(await account(accountId)).toMatchObject({ details_submitted: 0, charges_enabled: 0, payouts_enabled: 0 });
    expect((await status(op.headers)).json().status).toBe('onboarding');
  });

  it('a link is single-use: once finished it sends the browser to the refresh URL and changes nothing', async () => {
    const op = await createOperator(t);
    const { path, accountId } = await onboard(t, op, 'pending');
    const again = await t.app.inject({ method: 'POST', url: path, headers: FORM, payload: 'outcome=verified' });
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(REFRESH_URL);
    const page = await t.app.inject({ url: path });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe(REFRESH_URL);
    expect(await account(accountId)).toMatchObject({ details_submitted: 1, charges_enabled: 0, payouts_enabled: 0 });
  });

  it('a link expires after five minutes, as the real account links do; a new start gives a working one', async () => {
    const op = await createOperator(t);
    const path = await startOnboarding(t, op.headers);
    const accountId = await accountIdOf(t, op.operatorId);
    t.clock.advance(299_000);
    expect((await t.app.inject({ url: path })).statusCode).toBe(200);
    t.clock.advance(2_000);
    const page = await t.app.inject({ url: path });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe(REFRESH_URL);
    const post = await t.app.inject({ method: 'POST', url: path, headers: FORM, payload: 'outcome=verified' });
    expect(post.statusCode).toBe(303);
    expect(post.headers.location).toBe(REFRESH_URL);
    expect(await account(accountId)).toMatchObject({ details_submitted: 0, charges_enabled: 0 });
    expect((await status(op.headers)).json().status).toBe('onboarding');

    await onboard(t, op, 'verified');
    expect((await status(op.headers)).json().status).toBe('enabled');
  });

  it("one operator's onboarding is not another's", async () => {
    const a = await createOperator(t);
    const b = await createOperator(t);
    await onboard(t, a, 'verified');
    expect((await status(b.headers)).json()).toEqual({ connected: false, provider: 'simulated', status: 'not_started' });
    expect(await cached(b.operatorId)).toBe('not_started');
  });

  it('the return pages of hosted onboarding exist', async () => {
    expect((await t.app.inject({ url: '/payouts/onboarding/return' })).body).toContain('details were sent');
    expect((await t.app.inject({ url: '/payouts/onboarding/refresh' })).body).toContain('expired');
    expect((await t.app.inject({ url: '/payouts/onboarding/other' })).statusCode).toBe(404);
  });
});

describe('payout permissions', () => {
  it('401 without a session', async () => {
    expect((await t.app.inject({ method: 'POST', url: START })).statusCode).toBe(401);
    expect((await t.app.inject({ url: STATUS })).statusCode).toBe(401);
  });

  it('connect/start needs operators.settings:write; status needs payouts:read or operators.settings:read', async () => {
    const op = await createOperator(t);
    const reader = await createStaff(t, op, { payouts: 'read', 'operators.settings': 'read' });
    expect((await start(reader.headers)).statusCode).toBe(403);
    expect((await status(reader.headers)).statusCode).toBe(200);
    const payoutsOnly = await createStaff(t, op, { payouts: 'read' });
    expect((await status(payoutsOnly.headers)).statusCode).toBe(200);
    const other = await createStaff(t, op, { tables: 'write' });
    const refused = await status(other.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatch(/payouts:read or operators\.settings:read/);
    const settings = await createStaff(t, op, { 'operators.settings': 'write' });
    expect((await start(settings.headers)).statusCode).toBe(200);
    // Whoever starts onboarding can follow it.
    expect((await status(settings.headers)).statusCode).toBe(200);
  });

  it('guests are refused', async () => {
    const guest = await createGuest(t);
    expect((await status(guest.headers)).statusCode).toBe(403);
  });
});

describe('payouts when payments are not configured', () => {
  for (const env of [{ PAYMENTS_PROVIDER: 'none' }, { PAYMENTS_PROVIDER: 'stripe' }]) {
    it(`${JSON.stringify(env)}: connect/start is 503, status unconfigured`, async () => {
      const app = await createTestApp(env);
      try {
        const op = await createOperator(app);
        const res = await app.app.inject({ method: 'POST', url: START, headers: op.headers });
        expect(res.statusCode).toBe(503);
        expect(typeof res.json().error).toBe('string');
        const read = await app.app.inject({ url: STATUS, headers: op.headers });
        expect(read.statusCode).toBe(200);
        expect(read.json()).toEqual({ connected: false, provider: env.PAYMENTS_PROVIDER, status: 'unconfigured' });
        const summary = await app.ctx.payments.payoutSummary(op.operatorId);
        expect(summary).toEqual({ provider: env.PAYMENTS_PROVIDER, status: 'unconfigured', source: 'config' });
      } finally {
        await app.close();
      }
    });
  }
});
