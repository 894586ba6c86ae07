/**
 * The payments platform on the Stripe provider, against the fake Stripe API (`stripe-fake.test-support.ts`):
 * the publishable key, payout onboarding through an Express account, the transfer of what is owed,
 * destination charges after onboarding, and provider failures as HTTP errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, type TestApp } from '../../../test/helpers/app.js';
import { owedPence } from './ledger.js';
import { deliver } from './payments.test-helpers.js';
import { useFakeStripe } from './stripe-fake.test-support.js';

const fake = useFakeStripe();

describe('the platform on the Stripe provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
      STRIPE_API_BASE: fake.url,
    });
  });
  afterAll(async () => t.close());

  const START = '/api/my-operator/payout/connect/start';
  const STATUS = '/api/my-operator/payout/status';

  it('publishes the Stripe key and has no simulated routes', async () => {
    expect(t.ctx.payments.publishableKey).toBe('pk_test_fake');
    expect(t.ctx.payments.providerName).toBe('stripe');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/public/simulated-payments/pi_x/confirm',
      payload: { payment_method: 'pm_card_visa' },
    });
    expect(res.statusCode).toBe(404);
  });

  it('onboards through an Express account and account link, reads status from Stripe, and transfers what is owed', async () => {
    const op = await createOperator(t, 'Quay Group');
    const venueId = await insertVenue(t, op.operatorId);

    // Before onboarding: a charge on the platform account.
    const early = await t.ctx.payments.createIntent({
      operatorId: op.operatorId,
      venueId,
      amountPence: 4_000,
      metadata: { kind: 'booking_deposit', booking_id: 'bkg_s1' },
      idempotencyKey: 'deposit-bkg_s1',
    });
    const [earlyCall] = fake.callsTo('POST', '/v1/payment_intents');
    expect(earlyCall.idempotencyKey).toBe('deposit-bkg_s1');
    expect(earlyCall.form).not.toHaveProperty('transfer_data[destination]');
    fake.update(early.id, { status: 'succeeded', amount_received: 4_000 });
    await t.ctx.payments.retrieveIntent(early.id);
    expect(await owedPence(t.db.kysely, op.operatorId)).toBe(3_800);

    const start = await t.app.inject({ method: 'POST', url: START, headers: op.headers });
    expect(start.statusCode).toBe(200);
    const [accountCall] = fake.callsTo('POST', '/v1/accounts');
    expect(accountCall.idempotencyKey).toBe(`connect-account-${op.operatorId}`);
    expect(accountCall.form).toMatchObject({
      type: 'express',
      'metadata[operator_id]': op.operatorId,
      email: op.email,
      'business_profile[name]': 'Quay Group',
    });
    const accountId = String([...fake.objects.values()].find((o) => o.object === 'account' && o.email === op.email)!.id);
    expect(fake.callsTo('POST', '/v1/account_links')[0].form).toMatchObject({
      account: accountId,
      type: 'account_onboarding',
      return_url: 'http://maitred.test/payouts/onboarding/return',
      refresh_url: 'http://maitred.test/payouts/onboarding/refresh',
    });
    expect(start.json()).toEqual({ url: `https://connect.stripe.test/setup/e/${accountId}` });

    // A second start reuses the account: only a new link.
    await t.app.inject({ method: 'POST', url: START, headers: op.headers });
    expect(fake.callsTo('POST', '/v1/accounts')).toHaveLength(1);
    expect(fake.callsTo('POST', '/v1/account_links')).toHaveLength(2);

    expect((await t.app.inject({ url: STATUS, headers: op.headers })).json()).toMatchObject({
      provider: 'stripe',
      status: 'onboarding',
      account_id: accountId,
    });
    fake.update(accountId, { details_submitted: true });
    expect((await t.app.inject({ url: STATUS, headers: op.headers })).json()).toMatchObject({ status: 'pending', details_submitted: true });
    expect(fake.callsTo('GET', `/v1/accounts/${accountId}`)).toHaveLength(2);
    expect(fake.callsTo('POST', '/v1/transfers')).toEqual([]);

    // Stripe enables the account and says so with account.updated: the platform re-reads it and settles.
    fake.update(accountId, { charges_enabled: true, payouts_enabled: true });
    const event = {
      id: 'evt_acct_1',
      type: 'account.updated',
      created: 1,
      data: { object: { id: accountId, object: 'account', charges_enabled: true } },
    };
    expect((await deliver(t, event)).statusCode).toBe(200);
    const [transfer] = fake.callsTo('POST', '/v1/transfers');
    expect(transfer.form).toMatchObject({
      amount: '3800',
      currency: 'gbp',
      destination: accountId,
      'metadata[operator_id]': op.operatorId,
    });
    expect(transfer.idempotencyKey).toMatch(/^transfer-led_/);
    expect(await owedPence(t.db.kysely, op.operatorId)).toBe(0);
    const cached = await t.db.kysely
      .selectFrom('operators')
      .select('payment_connect_status')
      .where('id', '=', op.operatorId)
      .executeTakeFirstOrThrow();
    expect(cached.payment_connect_status).toBe('enabled');
    expect((await deliver(t, event)).statusCode).toBe(200);
    expect(fake.callsTo('POST', '/v1/transfers')).toHaveLength(1);

    // After onboarding: a destination charge with the platform fee, held for manual capture.
    fake.reset();
    const hold = await t.ctx.payments.createIntent({
      operatorId: op.operatorId,
      venueId,
      amountPence: 7_000,
      capture: 'manual',
      metadata: { kind: 'booking_hold', booking_id: 'bkg_s2' },
      idempotencyKey: 'hold-bkg_s2',
    });
    const [holdCall] = fake.callsTo('POST', '/v1/payment_intents');
    expect(holdCall.idempotencyKey).toBe('hold-bkg_s2');
    expect(holdCall.form).toMatchObject({
      amount: '7000',
      currency: 'gbp',
      capture_method: 'manual',
      'transfer_data[destination]': accountId,
      application_fee_amount: '350',
      'metadata[kind]': 'booking_hold',
      'metadata[operator_id]': op.operatorId,
    });
    expect(holdCall.form['metadata[maitred_payment_id]']).toMatch(/^pay_/);
    fake.update(hold.id, { status: 'requires_capture', amount_capturable: 7_000 });
    await t.ctx.payments.captureIntent(hold.id, { amountPence: 5_000, idempotencyKey: 'capture-bkg_s2' });
    const [captureCall] = fake.callsTo('POST', `/v1/payment_intents/${hold.id}/capture`);
    expect(captureCall.form).toEqual({ amount_to_capture: '5000', application_fee_amount: '250' });
    expect(captureCall.idempotencyKey).toBe('capture-bkg_s2');
    await t.ctx.payments.refund(hold.id, { amountPence: 1_000 });
    expect(fake.callsTo('POST', '/v1/refunds')[0].form).toMatchObject({
      amount: '1000',
      reverse_transfer: 'true',
      refund_application_fee: 'true',
    });
  });

  it('answers 502 when Stripe fails during onboarding, and status error when it cannot be read', async () => {
    const op = await createOperator(t);
    fake.fail({
      method: 'POST',
      path: /^\/v1\/accounts$/,
      status: 500,
      error: { type: 'api_error', message: 'down' },
      headers: { 'stripe-should-retry': 'false' },
    });
    const res = await t.app.inject({ method: 'POST', url: START, headers: op.headers });
    expect(res.statusCode).toBe(502);
    expect(typeof res.json().error).toBe('string');
    expect((await t.app.inject({ url: STATUS, headers: op.headers })).json()).toEqual({
      connected: false,
      provider: 'stripe',
      status: 'not_started',
    });

    expect((await t.app.inject({ method: 'POST', url: START, headers: op.headers })).statusCode).toBe(200);
    fake.fail({
      method: 'POST',
      path: /account_links/,
      status: 500,
      error: { type: 'api_error', message: 'down' },
      headers: { 'stripe-should-retry': 'false' },
    });
    expect((await t.app.inject({ method: 'POST', url: START, headers: op.headers })).statusCode).toBe(502);

    fake.fail({
      method: 'GET',
      path: /^\/v1\/accounts\//,
      status: 500,
      error: { type: 'api_error', message: 'down' },
      headers: { 'stripe-should-retry': 'false' },
    });
    const status = await t.app.inject({ url: STATUS, headers: op.headers });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({ connected: true, provider: 'stripe', status: 'error' });
    const cached = await t.db.kysely
      .selectFrom('operators')
      .select('payment_connect_status')
      .where('id', '=', op.operatorId)
      .executeTakeFirstOrThrow();
    expect(cached.payment_connect_status).toBe('onboarding');
  });

  it('maps provider failures of money calls to 502 and 409', async () => {
    fake.fail({
      method: 'POST',
      path: /^\/v1\/payment_intents$/,
      status: 500,
      error: { type: 'api_error', message: 'down' },
      headers: { 'stripe-should-retry': 'false' },
    });
    await expect(t.ctx.payments.createIntent({ amountPence: 1_000, metadata: { kind: 'test' } })).rejects.toMatchObject({ status: 502 });
    fake.fail({
      method: 'POST',
      path: /capture$/,
      status: 400,
      error: { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: 'already canceled' },
    });
    await expect(t.ctx.payments.captureIntent('pi_whatever')).rejects.toMatchObject({ status: 409 });
  });

  it("answers a refusal with 400 without passing on Stripe's account and parameter details", async () => {
    fake.fail({
      method: 'POST',
      path: /^\/v1\/payment_intents$/,
      status: 400,
      error: {
        type: 'invalid_request_error',
        code: 'parameter_invalid_empty',
        message: 'Destination acct_internal_42 cannot receive transfer_data: account restricted by platform_settings',
      },
    });
    const refused = await t.ctx.payments.createIntent({ amountPence: 1_000, metadata: { kind: 'test' } }).catch((error) => error);
    expect(refused).toMatchObject({ status: 400 });
    expect(refused.message).toBe('The payment provider refused the request.');
    // A refusal about the amount the caller asked for is theirs to read.
    fake.fail({
      method: 'POST',
      path: /^\/v1\/payment_intents$/,
      status: 400,
      error: { type: 'invalid_request_error', code: 'amount_too_small', message: 'Amount must be at least £0.30 gbp' },
    });
    const small = await t.ctx.payments.createIntent({ amountPence: 10, metadata: { kind: 'test' } }).catch((error) => error);
    expect(small).toMatchObject({ status: 400, message: 'Amount must be at least £0.30 gbp' });
  });
});
