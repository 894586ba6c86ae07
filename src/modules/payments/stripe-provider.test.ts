/**
 * The Stripe adapter's requests against the fake Stripe API (`stripe-fake.test-support.ts`): what each
 * call sends (form fields, idempotency keys), retries, and Stripe errors as provider-neutral kinds.
 */
import { describe, expect, it } from 'vitest';
import { useFakeStripe } from './stripe-fake.test-support.js';
import { createStripeProvider, sdkHostOptions } from './stripe-provider.js';

const fake = useFakeStripe();

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
      {
        amount: 5_000,
        captureMethod: 'manual',
        destination: 'acct_op',
        applicationFeeAmount: 250,
        metadata: { kind: 'booking_deposit', booking_id: 'bkg_1' },
      },
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
    expect(intent).toMatchObject({
      amount: 5_000,
      status: 'requires_payment_method',
      capture_method: 'manual',
      destination: 'acct_op',
      application_fee_amount: 250,
    });
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
    const hold = await p.createPaymentIntent({
      amount: 6_000,
      captureMethod: 'manual',
      destination: 'acct_op',
      applicationFeeAmount: 300,
      metadata: {},
    });
    fake.update(hold.id, { status: 'requires_capture', amount_capturable: 6_000 });
    const captured = await p.capturePaymentIntent(
      hold.id,
      { amountToCapture: 3_000, applicationFeeAmount: 150 },
      { idempotencyKey: 'cap-1' },
    );
    const [capture] = fake.callsTo('POST', `/v1/payment_intents/${hold.id}/capture`);
    expect(capture.form).toEqual({ amount_to_capture: '3000', application_fee_amount: '150' });
    expect(capture.idempotencyKey).toBe('cap-1');
    expect(captured).toMatchObject({ status: 'succeeded', amount_received: 3_000, application_fee_amount: 150 });

    const refund = await p.createRefund(
      { paymentIntentId: hold.id, amount: 1_000, reverseTransfer: true, refundApplicationFee: true },
      { idempotencyKey: 'ref-1' },
    );
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
    const account = await p.createConnectedAccount(
      { email: 'owner@example.test', businessName: 'Harbour Bars', metadata: { operator_id: 'op_1' } },
      { idempotencyKey: 'connect-account-op_1' },
    );
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
    expect(account).toEqual({
      id: account.id,
      email: 'owner@example.test',
      details_submitted: false,
      charges_enabled: false,
      payouts_enabled: false,
    });

    const link = await p.createAccountLink({
      account: account.id,
      returnUrl: 'https://m.example/return',
      refreshUrl: 'https://m.example/refresh',
    });
    expect(fake.callsTo('POST', '/v1/account_links')[0].form).toEqual({
      account: account.id,
      return_url: 'https://m.example/return',
      refresh_url: 'https://m.example/refresh',
      type: 'account_onboarding',
    });
    expect(link.url).toBe(`https://connect.stripe.test/setup/e/${account.id}`);

    const transfer = await p.createTransfer(
      { amount: 9_500, destination: account.id, metadata: { operator_id: 'op_1' } },
      { idempotencyKey: 'transfer-led_1' },
    );
    const [transferCall] = fake.callsTo('POST', '/v1/transfers');
    expect(transferCall.form).toEqual({ amount: '9500', currency: 'gbp', destination: account.id, 'metadata[operator_id]': 'op_1' });
    expect(transferCall.idempotencyKey).toBe('transfer-led_1');
    expect(transfer).toMatchObject({ amount: 9_500, destination: account.id });
  });

  it('retries a failed request with the same idempotency key', async () => {
    fake.fail({ method: 'POST', path: /^\/v1\/transfers$/, status: 500, error: { type: 'api_error', message: 'Something went wrong' } });
    const transfer = await provider().createTransfer(
      { amount: 100, destination: 'acct_x', metadata: {} },
      { idempotencyKey: 'transfer-retry' },
    );
    const attempts = fake.callsTo('POST', '/v1/transfers');
    expect(attempts).toHaveLength(2);
    expect(attempts.map((a) => a.idempotencyKey)).toEqual(['transfer-retry', 'transfer-retry']);
    expect(transfer.amount).toBe(100);
  });

  it('translates Stripe errors into provider-neutral kinds', async () => {
    const p = provider();
    fake.fail({
      method: 'POST',
      path: /confirm|payment_intents$/,
      status: 402,
      error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
    });
    await expect(p.createPaymentIntent({ amount: 100, captureMethod: 'automatic', metadata: {} })).rejects.toMatchObject({
      kind: 'card',
      code: 'card_declined',
    });
    await expect(p.retrievePaymentIntent('pi_missing')).rejects.toMatchObject({ kind: 'not_found' });
    fake.fail({
      method: 'POST',
      path: /capture$/,
      status: 400,
      error: {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message: 'This PaymentIntent could not be captured because it has a status of canceled.',
      },
    });
    await expect(p.capturePaymentIntent('pi_any')).rejects.toMatchObject({ kind: 'state' });
    fake.fail({
      method: 'POST',
      path: /refunds$/,
      status: 400,
      error: { type: 'invalid_request_error', code: 'parameter_invalid_integer', message: 'Invalid integer' },
    });
    await expect(p.createRefund({ paymentIntentId: 'pi_any', amount: 1 })).rejects.toMatchObject({ kind: 'invalid_request' });
    fake.fail({
      method: 'GET',
      path: /accounts/,
      status: 401,
      error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
    });
    await expect(p.retrieveConnectedAccount('acct_any')).rejects.toMatchObject({ kind: 'unavailable' });
    const offline = createStripeProvider({ secretKey: 'sk_test_fake', apiBase: 'http://127.0.0.1:9', maxNetworkRetries: 0 });
    await expect(offline.retrieveConnectedAccount('acct_any')).rejects.toMatchObject({ kind: 'unavailable' });
  });
});
