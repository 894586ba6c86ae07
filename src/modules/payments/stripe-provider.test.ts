/**
 * The Stripe adapter against a local HTTP server that records each request (method, path, form body,
 * Idempotency-Key) and answers like the Stripe API. STRIPE_API_BASE points the official SDK at it;
 * nothing here touches the network.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, type TestApp } from '../../../test/helpers/app.js';
import { owedPence } from './ledger.js';
import { deliver } from './payments.test-helpers.js';
import { createStripeProvider, sdkHostOptions } from './stripe-provider.js';

interface Call {
  method: string;
  path: string;
  form: Record<string, string>;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

interface Failure {
  method: string;
  path: RegExp;
  status: number;
  error: Record<string, unknown>;
  times: number;
  headers?: Record<string, string>;
}

type StripeObject = Record<string, unknown>;

function metadataOf(form: Record<string, string>, prefix = 'metadata') {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) {
    const match = new RegExp(`^${prefix.replace(/[[\]]/g, '\\$&')}\\[([^\\]]+)\\]$`).exec(key);
    if (match) metadata[match[1]] = value;
  }
  return metadata;
}

/** A small stand-in for the Stripe API: enough state to answer the calls the adapter makes. */
function fakeStripe() {
  const calls: Call[] = [];
  const failures: Failure[] = [];
  const objects = new Map<string, StripeObject>();
  let seq = 0;
  const next = (prefix: string) => `${prefix}_fake${++seq}`;

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const form = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? url.search : raw));
      const call: Call = {
        method: req.method ?? '',
        path: url.pathname,
        form,
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        authorization: req.headers.authorization,
      };
      calls.push(call);
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${seq}`, ...headers });
        res.end(JSON.stringify(body));
      };
      const failure = failures.find((f) => f.times > 0 && f.method === call.method && f.path.test(call.path));
      if (failure) {
        failure.times--;
        return send(failure.status, { error: failure.error }, failure.headers);
      }
      const answer = route(call);
      if (!answer) return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such object: ${call.path}` } });
      send(200, answer);
    });
  });

  function store(object: StripeObject) {
    objects.set(object.id as string, object);
    return object;
  }

  function route({ method, path, form }: Call): StripeObject | undefined {
    const parts = path.split('/').filter(Boolean); // ['v1', resource, id?, action?]
    const [, resource, id, action] = parts;
    if (method === 'POST' && path === '/v1/payment_intents') {
      const piId = next('pi');
      return store({
        id: piId,
        object: 'payment_intent',
        amount: Number(form.amount),
        currency: form.currency,
        status: 'requires_payment_method',
        capture_method: form.capture_method,
        client_secret: `${piId}_secret_fake`,
        metadata: metadataOf(form),
        transfer_data: form['transfer_data[destination]'] ? { destination: form['transfer_data[destination]'] } : null,
        application_fee_amount: form.application_fee_amount ? Number(form.application_fee_amount) : null,
        amount_capturable: 0,
        amount_received: 0,
        last_payment_error: null,
        created: 1_780_000_000,
      });
    }
    if (resource === 'payment_intents' && id) {
      const pi = objects.get(id);
      if (!pi) return undefined;
      if (method === 'GET') return pi;
      if (action === 'capture') {
        return store({
          ...pi,
          status: 'succeeded',
          amount_received: form.amount_to_capture ? Number(form.amount_to_capture) : pi.amount_capturable,
          amount_capturable: 0,
          application_fee_amount: form.application_fee_amount ? Number(form.application_fee_amount) : pi.application_fee_amount,
        });
      }
      if (action === 'cancel') return store({ ...pi, status: 'canceled', amount_capturable: 0 });
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const pi = objects.get(form.payment_intent);
      return store({ id: next('re'), object: 'refund', amount: Number(form.amount ?? pi?.amount_received), currency: 'gbp', payment_intent: form.payment_intent, status: 'succeeded' });
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const csId = next('cs');
      return store({
        id: csId,
        object: 'checkout.session',
        url: `https://checkout.stripe.test/c/pay/${csId}`,
        status: 'open',
        payment_status: 'unpaid',
        payment_intent: null,
        amount_total: Number(form['line_items[0][price_data][unit_amount]']),
        currency: 'gbp',
        metadata: metadataOf(form),
        expires_at: Number(form.expires_at ?? 1_780_086_400),
      });
    }
    if (path.startsWith('/v1/checkout/sessions/')) {
      const cs = objects.get(parts[3]);
      if (!cs) return undefined;
      if (method === 'GET') return cs;
      if (parts[4] === 'expire') return store({ ...cs, status: 'expired', url: null });
    }
    if (method === 'POST' && path === '/v1/accounts') {
      return store({ id: next('acct'), object: 'account', email: form.email ?? null, details_submitted: false, charges_enabled: false, payouts_enabled: false });
    }
    if (method === 'GET' && resource === 'accounts' && id) return objects.get(id);
    if (method === 'POST' && path === '/v1/account_links') {
      return { object: 'account_link', url: `https://connect.stripe.test/setup/e/${form.account}`, created: 1_780_000_000, expires_at: 1_780_000_300 };
    }
    if (method === 'POST' && path === '/v1/transfers') {
      return store({ id: next('tr'), object: 'transfer', amount: Number(form.amount), currency: form.currency, destination: form.destination });
    }
    return undefined;
  }

  return {
    calls,
    objects,
    server,
    url: '',
    fail(failure: Omit<Failure, 'times'> & { times?: number }) {
      failures.push({ times: 1, ...failure });
    },
    callsTo(method: string, path: string | RegExp) {
      return calls.filter((c) => c.method === method && (typeof path === 'string' ? c.path === path : path.test(c.path)));
    },
    update(id: string, fields: StripeObject) {
      objects.set(id, { ...objects.get(id)!, ...fields });
    },
    reset() {
      calls.length = 0;
      failures.length = 0;
    },
  };
}

const fake = fakeStripe();
beforeAll(async () => {
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => fake.server.close(() => resolve()));
});
beforeEach(() => fake.reset());

const provider = () => createStripeProvider({ secretKey: 'sk_test_fake', apiBase: fake.url, maxNetworkRetries: 1 });

describe('sdkHostOptions', () => {
  it('splits STRIPE_API_BASE into the host options of the SDK', () => {
    expect(sdkHostOptions('http://127.0.0.1:12111')).toEqual({ host: '127.0.0.1', port: 12111, protocol: 'http' });
    expect(sdkHostOptions('https://stripe-mock.internal')).toEqual({ host: 'stripe-mock.internal', port: 443, protocol: 'https' });
    expect(sdkHostOptions(undefined)).toEqual({});
  });
});

describe('Stripe adapter requests', () => {
  it('creates a destination-charge card hold: amount, GBP, manual capture, destination, fee, metadata, idempotency key', async () => {
    const intent = await provider().createPaymentIntent(
      { amount: 5_000, captureMethod: 'manual', destination: 'acct_op', applicationFeeAmount: 250, metadata: { kind: 'booking_deposit', booking_id: 'bkg_1' } },
      { idempotencyKey: 'hold-bkg_1' },
    );
    const [call] = fake.callsTo('POST', '/v1/payment_intents');
    expect(call.authorization).toBe('Bearer sk_test_fake');
    expect(call.idempotencyKey).toBe('hold-bkg_1');
    expect(call.form).toMatchObject({
      amount: '5000',
      currency: 'gbp',
      capture_method: 'manual',
      'transfer_data[destination]': 'acct_op',
      application_fee_amount: '250',
      'metadata[kind]': 'booking_deposit',
      'metadata[booking_id]': 'bkg_1',
      'automatic_payment_methods[enabled]': 'true',
    });
    expect(intent).toMatchObject({ amount: 5_000, status: 'requires_payment_method', capture_method: 'manual', destination: 'acct_op', application_fee_amount: 250 });
    expect(intent.client_secret).toMatch(/_secret_/);
  });

  it('creates a platform charge without destination or fee, and keys every POST', async () => {
    await provider().createPaymentIntent({ amount: 1_000, captureMethod: 'automatic', metadata: { kind: 'keys_topup' } });
    const [call] = fake.callsTo('POST', '/v1/payment_intents');
    expect(call.form.capture_method).toBe('automatic');
    expect(call.form).not.toHaveProperty('transfer_data[destination]');
    expect(call.form).not.toHaveProperty('application_fee_amount');
    expect(call.idempotencyKey).toMatch(/^maitred-[0-9a-f-]{36}$/);
  });

  it('captures (partially, with the fee on the captured part), cancels and refunds with reversal of the transfer', async () => {
    const p = provider();
    const hold = await p.createPaymentIntent({ amount: 6_000, captureMethod: 'manual', destination: 'acct_op', applicationFeeAmount: 300, metadata: {} });
    fake.update(hold.id, { status: 'requires_capture', amount_capturable: 6_000 });
    const captured = await p.capturePaymentIntent(hold.id, { amountToCapture: 3_000, applicationFeeAmount: 150 }, { idempotencyKey: 'cap-1' });
    const [capture] = fake.callsTo('POST', `/v1/payment_intents/${hold.id}/capture`);
    expect(capture.form).toEqual({ amount_to_capture: '3000', application_fee_amount: '150' });
    expect(capture.idempotencyKey).toBe('cap-1');
    expect(captured).toMatchObject({ status: 'succeeded', amount_received: 3_000, application_fee_amount: 150 });

    const refund = await p.createRefund({ paymentIntentId: hold.id, amount: 1_000, reverseTransfer: true, refundApplicationFee: true }, { idempotencyKey: 'ref-1' });
    const [refundCall] = fake.callsTo('POST', '/v1/refunds');
    expect(refundCall.form).toEqual({ payment_intent: hold.id, amount: '1000', reverse_transfer: 'true', refund_application_fee: 'true' });
    expect(refundCall.idempotencyKey).toBe('ref-1');
    expect(refund).toMatchObject({ amount: 1_000, payment_intent: hold.id, status: 'succeeded' });

    const other = await p.createPaymentIntent({ amount: 2_000, captureMethod: 'manual', metadata: {} });
    expect((await p.cancelPaymentIntent(other.id)).status).toBe('canceled');
    expect(fake.callsTo('POST', `/v1/payment_intents/${other.id}/cancel`)[0].idempotencyKey).toBeTruthy();
    expect(fake.callsTo('GET', /./)).toEqual([]);
    expect((await p.retrievePaymentIntent(other.id)).status).toBe('canceled');
  });

  it('creates checkout sessions as destination charges and expires them', async () => {
    const p = provider();
    const session = await p.createCheckoutSession(
      {
        amount: 2_400,
        name: 'Gift voucher',
        metadata: { kind: 'voucher_purchase', intent_id: 'vin_1' },
        successUrl: 'https://a.example/ok',
        cancelUrl: 'https://a.example/no',
        destination: 'acct_op',
        applicationFeeAmount: 120,
        customerEmail: 'buyer@example.test',
        expiresAt: 1_780_003_600,
      },
      { idempotencyKey: 'cs-vin_1' },
    );
    const [call] = fake.callsTo('POST', '/v1/checkout/sessions');
    expect(call.idempotencyKey).toBe('cs-vin_1');
    expect(call.form).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'gbp',
      'line_items[0][price_data][unit_amount]': '2400',
      'line_items[0][price_data][product_data][name]': 'Gift voucher',
      'metadata[kind]': 'voucher_purchase',
      'payment_intent_data[metadata][intent_id]': 'vin_1',
      'payment_intent_data[transfer_data][destination]': 'acct_op',
      'payment_intent_data[application_fee_amount]': '120',
      success_url: 'https://a.example/ok',
      cancel_url: 'https://a.example/no',
      customer_email: 'buyer@example.test',
      expires_at: '1780003600',
    });
    expect(session).toMatchObject({ status: 'open', amount_total: 2_400, metadata: { kind: 'voucher_purchase', intent_id: 'vin_1' } });
    expect((await p.expireCheckoutSession(session.id)).status).toBe('expired');
    expect(fake.callsTo('POST', `/v1/checkout/sessions/${session.id}/expire`)).toHaveLength(1);
  });

  it('creates Express connected accounts, onboarding links and transfers', async () => {
    const p = provider();
    const account = await p.createConnectedAccount({ email: 'owner@example.test', businessName: 'Harbour Bars', metadata: { operator_id: 'op_1' } }, { idempotencyKey: 'connect-account-op_1' });
    const [create] = fake.callsTo('POST', '/v1/accounts');
    expect(create.idempotencyKey).toBe('connect-account-op_1');
    expect(create.form).toMatchObject({
      type: 'express',
      country: 'GB',
      email: 'owner@example.test',
      'business_profile[name]': 'Harbour Bars',
      'capabilities[card_payments][requested]': 'true',
      'capabilities[transfers][requested]': 'true',
      'metadata[operator_id]': 'op_1',
    });
    expect(account).toEqual({ id: account.id, email: 'owner@example.test', details_submitted: false, charges_enabled: false, payouts_enabled: false });

    const link = await p.createAccountLink({ account: account.id, returnUrl: 'https://m.example/return', refreshUrl: 'https://m.example/refresh' });
    expect(fake.callsTo('POST', '/v1/account_links')[0].form).toEqual({
      account: account.id,
      return_url: 'https://m.example/return',
      refresh_url: 'https://m.example/refresh',
      type: 'account_onboarding',
    });
    expect(link.url).toBe(`https://connect.stripe.test/setup/e/${account.id}`);

    const transfer = await p.createTransfer({ amount: 9_500, destination: account.id, metadata: { operator_id: 'op_1' } }, { idempotencyKey: 'transfer-led_1' });
    const [transferCall] = fake.callsTo('POST', '/v1/transfers');
    expect(transferCall.form).toEqual({ amount: '9500', currency: 'gbp', destination: account.id, 'metadata[operator_id]': 'op_1' });
    expect(transferCall.idempotencyKey).toBe('transfer-led_1');
    expect(transfer).toMatchObject({ amount: 9_500, destination: account.id });
  });

  it('retries a failed request with the same idempotency key', async () => {
    fake.fail({ method: 'POST', path: /^\/v1\/transfers$/, status: 500, error: { type: 'api_error', message: 'Something went wrong' } });
    const transfer = await provider().createTransfer({ amount: 100, destination: 'acct_x', metadata: {} }, { idempotencyKey: 'transfer-retry' });
    const attempts = fake.callsTo('POST', '/v1/transfers');
    expect(attempts).toHaveLength(2);
    expect(attempts.map((a) => a.idempotencyKey)).toEqual(['transfer-retry', 'transfer-retry']);
    expect(transfer.amount).toBe(100);
  });

  it('translates Stripe errors into provider-neutral kinds', async () => {
    const p = provider();
    fake.fail({ method: 'POST', path: /confirm|payment_intents$/, status: 402, error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } });
    await expect(p.createPaymentIntent({ amount: 100, captureMethod: 'automatic', metadata: {} })).rejects.toMatchObject({ kind: 'card', code: 'card_declined' });
    await expect(p.retrievePaymentIntent('pi_missing')).rejects.toMatchObject({ kind: 'not_found' });
    fake.fail({
      method: 'POST',
      path: /capture$/,
      status: 400,
      error: { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: 'This PaymentIntent could not be captured because it has a status of canceled.' },
    });
    await expect(p.capturePaymentIntent('pi_any')).rejects.toMatchObject({ kind: 'state' });
    fake.fail({ method: 'POST', path: /refunds$/, status: 400, error: { type: 'invalid_request_error', code: 'parameter_invalid_integer', message: 'Invalid integer' } });
    await expect(p.createRefund({ paymentIntentId: 'pi_any', amount: 1 })).rejects.toMatchObject({ kind: 'invalid_request' });
    fake.fail({ method: 'GET', path: /accounts/, status: 401, error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    await expect(p.retrieveConnectedAccount('acct_any')).rejects.toMatchObject({ kind: 'unavailable' });
    const offline = createStripeProvider({ secretKey: 'sk_test_fake', apiBase: 'http://127.0.0.1:9', maxNetworkRetries: 0 });
    await expect(offline.retrieveConnectedAccount('acct_any')).rejects.toMatchObject({ kind: 'unavailable' });
  });
});

describe('the platform on the Stripe provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PAYMENTS_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_PUBLISHABLE_KEY: 'pk_test_fake', STRIPE_API_BASE: fake.url });
  });
  afterAll(async () => t.close());

  const START = '/api/my-operator/payout/connect/start';
  const STATUS = '/api/my-operator/payout/status';

  it('publishes the Stripe key and has no simulated routes', async () => {
    expect(t.ctx.payments.publishableKey).toBe('pk_test_fake');
    expect(t.ctx.payments.providerName).toBe('stripe');
    const res = await t.app.inject({ method: 'POST', url: '/api/public/simulated-payments/pi_x/confirm', payload: { payment_method: 'pm_card_visa' } });
    expect(res.statusCode).toBe(404);
  });

  it('onboards through an Express account and account link, reads status from Stripe, and transfers what is owed', async () => {
    const op = await createOperator(t, 'Quay Group');
    const venueId = await insertVenue(t, op.operatorId);

    // Before onboarding: a charge on the platform account.
    const early = await t.ctx.payments.createIntent({ operatorId: op.operatorId, venueId, amountPence: 4_000, metadata: { kind: 'booking_deposit', booking_id: 'bkg_s1' }, idempotencyKey: 'deposit-bkg_s1' });
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
    expect(accountCall.form).toMatchObject({ type: 'express', 'metadata[operator_id]': op.operatorId, email: op.email, 'business_profile[name]': 'Quay Group' });
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

    expect((await t.app.inject({ url: STATUS, headers: op.headers })).json()).toMatchObject({ provider: 'stripe', status: 'onboarding', account_id: accountId });
    fake.update(accountId, { details_submitted: true });
    expect((await t.app.inject({ url: STATUS, headers: op.headers })).json()).toMatchObject({ status: 'pending', details_submitted: true });
    expect(fake.callsTo('GET', `/v1/accounts/${accountId}`)).toHaveLength(2);
    expect(fake.callsTo('POST', '/v1/transfers')).toEqual([]);

    // Stripe enables the account and says so with account.updated: the platform re-reads it and settles.
    fake.update(accountId, { charges_enabled: true, payouts_enabled: true });
    const event = { id: 'evt_acct_1', type: 'account.updated', created: 1, data: { object: { id: accountId, object: 'account', charges_enabled: true } } };
    expect((await deliver(t, event)).statusCode).toBe(200);
    const [transfer] = fake.callsTo('POST', '/v1/transfers');
    expect(transfer.form).toMatchObject({ amount: '3800', currency: 'gbp', destination: accountId, 'metadata[operator_id]': op.operatorId });
    expect(transfer.idempotencyKey).toMatch(/^transfer-led_/);
    expect(await owedPence(t.db.kysely, op.operatorId)).toBe(0);
    const cached = await t.db.kysely.selectFrom('operators').select('payment_connect_status').where('id', '=', op.operatorId).executeTakeFirstOrThrow();
    expect(cached.payment_connect_status).toBe('enabled');
    expect((await deliver(t, event)).statusCode).toBe(200);
    expect(fake.callsTo('POST', '/v1/transfers')).toHaveLength(1);

    // After onboarding: a destination charge with the platform fee, held for manual capture.
    fake.reset();
    const hold = await t.ctx.payments.createIntent({ operatorId: op.operatorId, venueId, amountPence: 7_000, capture: 'manual', metadata: { kind: 'booking_hold', booking_id: 'bkg_s2' }, idempotencyKey: 'hold-bkg_s2' });
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
    expect(fake.callsTo('POST', '/v1/refunds')[0].form).toMatchObject({ amount: '1000', reverse_transfer: 'true', refund_application_fee: 'true' });
  });

  it('answers 502 when Stripe fails during onboarding, and status error when it cannot be read', async () => {
    const op = await createOperator(t);
    fake.fail({ method: 'POST', path: /^\/v1\/accounts$/, status: 500, error: { type: 'api_error', message: 'down' }, headers: { 'stripe-should-retry': 'false' } });
    const res = await t.app.inject({ method: 'POST', url: START, headers: op.headers });
    expect(res.statusCode).toBe(502);
    expect(typeof res.json().error).toBe('string');
    expect((await t.app.inject({ url: STATUS, headers: op.headers })).json()).toEqual({ connected: false, provider: 'stripe', status: 'not_started' });

    expect((await t.app.inject({ method: 'POST', url: START, headers: op.headers })).statusCode).toBe(200);
    fake.fail({ method: 'POST', path: /account_links/, status: 500, error: { type: 'api_error', message: 'down' }, headers: { 'stripe-should-retry': 'false' } });
    expect((await t.app.inject({ method: 'POST', url: START, headers: op.headers })).statusCode).toBe(502);

    fake.fail({ method: 'GET', path: /^\/v1\/accounts\//, status: 500, error: { type: 'api_error', message: 'down' }, headers: { 'stripe-should-retry': 'false' } });
    const status = await t.app.inject({ url: STATUS, headers: op.headers });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({ connected: true, provider: 'stripe', status: 'error' });
    const cached = await t.db.kysely.selectFrom('operators').select('payment_connect_status').where('id', '=', op.operatorId).executeTakeFirstOrThrow();
    expect(cached.payment_connect_status).toBe('onboarding');
  });

  it('maps provider failures of money calls to 502 and 409', async () => {
    fake.fail({ method: 'POST', path: /^\/v1\/payment_intents$/, status: 500, error: { type: 'api_error', message: 'down' }, headers: { 'stripe-should-retry': 'false' } });
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
      error: { type: 'invalid_request_error', code: 'parameter_invalid_empty', message: "Destination acct_internal_42 cannot receive transfer_data: account restricted by platform_settings" },
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
