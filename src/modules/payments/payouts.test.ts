import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuest, createOperator, createStaff, createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { payoutSummary } from './payments.reports.js';
import { onboard } from './payments.test-helpers.js';

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

  it('connect/start creates the account and returns the local onboarding page; status is onboarding', async () => {
    const op = await createOperator(t, 'Harbour Bars');
    const res = await start(op.headers);
    expect(res.statusCode).toBe(200);
    const { url } = res.json();
    expect(url).toMatch(/^http:\/\/maitred\.test\/simulated\/onboarding\/acct_[a-z2-7]+$/);
    const accountId = url.split('/').pop();
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
    const urls = (await Promise.all(Array.from({ length: 5 }, () => start(op.headers)))).map((r) => r.json().url);
    expect(new Set(urls).size).toBe(1);
    expect((await start(op.headers)).json().url).toBe(urls[0]);
    const accounts = await t.db.kysely.selectFrom('sim_accounts').select('id').where('metadata', 'like', `%${op.operatorId}%`).execute();
    expect(accounts).toHaveLength(1);
  });

  it('finishing with verification pending gives pending; finishing verified gives enabled; the cache follows', async () => {
    const op = await createOperator(t);
    const { page: pendingPage } = await onboard(t, op.headers, 'pending');
    expect(pendingPage).toContain('verification is pending');
    expect(await cached(op.operatorId)).toBe('pending');
    expect((await status(op.headers)).json()).toMatchObject({ status: 'pending', details_submitted: true, charges_enabled: false, payouts_enabled: false });

    const { page } = await onboard(t, op.headers, 'verified');
    expect(page).toContain('Onboarding is complete');
    // The provider's account.updated event already moved the cached status, before any status read.
    expect(await cached(op.operatorId)).toBe('enabled');
    expect((await payoutSummary(t.db, op.operatorId, 'simulated')).status).toBe('enabled');
    expect((await status(op.headers)).json()).toMatchObject({ connected: true, status: 'enabled', details_submitted: true, charges_enabled: true, payouts_enabled: true });
  });

  it('status is read from the provider on each call', async () => {
    const op = await createOperator(t);
    const { accountId } = await onboard(t, op.headers, 'verified');
    // The provider disables payouts (e.g. a verification lapse): the next read says pending.
    await t.db.kysely.updateTable('sim_accounts').set({ payouts_enabled: 0 }).where('id', '=', accountId).execute();
    expect((await status(op.headers)).json()).toMatchObject({ status: 'pending', charges_enabled: true, payouts_enabled: false });
    expect(await cached(op.operatorId)).toBe('pending');
  });

  it('a provider read failure answers status error and keeps the cached status', async () => {
    const op = await createOperator(t);
    const url = (await start(op.headers)).json().url as string;
    const accountId = url.split('/').pop()!;
    await t.db.kysely.deleteFrom('sim_accounts').where('id', '=', accountId).execute();
    const res = await status(op.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ connected: true, provider: 'simulated', status: 'error', account_id: accountId });
    expect(await cached(op.operatorId)).toBe('onboarding');
    // Onboarding can no longer be started against the lost account: a provider failure, 502.
    expect((await start(op.headers)).statusCode).toBe(502);
  });

  it('the onboarding page refuses an unknown outcome and unknown accounts', async () => {
    const op = await createOperator(t);
    const path = new URL((await start(op.headers)).json().url).pathname;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect((await t.app.inject({ method: 'POST', url: path, headers: form, payload: 'outcome=maybe' })).statusCode).toBe(400);
    expect(await cached(op.operatorId)).toBe('onboarding');
    expect((await t.app.inject({ url: '/simulated/onboarding/acct_nobody' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/simulated/onboarding/acct_nobody', headers: form, payload: 'outcome=verified' })).statusCode).toBe(404);
  });

  it("one operator's onboarding is not another's", async () => {
    const a = await createOperator(t);
    const b = await createOperator(t);
    await onboard(t, a.headers, 'verified');
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

  it('connect/start needs operators.settings:write; status needs payouts:read', async () => {
    const op = await createOperator(t);
    const reader = await createStaff(t, op, { payouts: 'read', 'operators.settings': 'read' });
    expect((await start(reader.headers)).statusCode).toBe(403);
    expect((await status(reader.headers)).statusCode).toBe(200);
    const other = await createStaff(t, op, { tables: 'write' });
    expect((await status(other.headers)).statusCode).toBe(403);
    const settings = await createStaff(t, op, { 'operators.settings': 'write' });
    expect((await start(settings.headers)).statusCode).toBe(200);
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
        const summary = await payoutSummary(app.db, op.operatorId, app.config.paymentsProvider, app.ctx.payments.configured);
        expect(summary).toEqual({ provider: env.PAYMENTS_PROVIDER, status: 'unconfigured', source: 'config' });
      } finally {
        await app.close();
      }
    });
  }
});
