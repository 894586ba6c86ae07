/**
 * The simulated provider's payment intents through the payments platform: confirming with the test
 * cards (the card form route), holds and their capture, release and lapse, refunds, idempotency keys,
 * what the real provider refuses; and no simulated routes under another provider.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { AppError } from '../../../platform/errors.js';
import { confirm, statusOf } from '../payments.test-helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const payments = () => t.ctx.payments;
const newIntent = (
  amountPence = 2500,
  capture: 'automatic' | 'manual' = 'automatic',
  metadata: Record<string, string> = { kind: 'test' },
) => payments().createIntent({ amountPence, capture, metadata });

describe('simulated payment intents', () => {
  it('are created as pi_… with a client secret, in GBP, awaiting a payment method', async () => {
    const intent = await newIntent(2500, 'automatic', { kind: 'test', order: 'A1' });
    expect(intent.id).toMatch(/^pi_[a-z2-7]{26}$/);
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_[A-Za-z0-9_-]+$`));
    expect(intent).toMatchObject({
      amount: 2500,
      currency: 'gbp',
      status: 'requires_payment_method',
      capture_method: 'automatic',
      amount_received: 0,
    });
    expect(intent.metadata).toMatchObject({ kind: 'test', order: 'A1' });
    expect(payments().publishableKey).toBe('pk_test_simulated');
  });

  it('pm_card_visa succeeds an automatic intent; confirming again is a 409', async () => {
    const intent = await newIntent();
    const res = await confirm(t, intent.id, 'pm_card_visa');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: intent.id, status: 'succeeded' });
    expect(await payments().retrieveIntent(intent.id)).toMatchObject({
      status: 'succeeded',
      amount_received: 2500,
      last_payment_error: null,
    });
    expect((await confirm(t, intent.id, 'pm_card_visa')).statusCode).toBe(409);
  });

  it('pm_card_chargeDeclined leaves it requires_payment_method with a last_payment_error; a good card then succeeds', async () => {
    const intent = await newIntent();
    const declined = await confirm(t, intent.id, 'pm_card_chargeDeclined');
    expect(declined.statusCode).toBe(200);
    expect(declined.json()).toEqual({
      id: intent.id,
      status: 'requires_payment_method',
      last_payment_error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
      },
    });
    expect((await payments().retrieveIntent(intent.id)).amount_received).toBe(0);
    const retry = await confirm(t, intent.id, 'pm_card_visa');
    expect(retry.json()).toEqual({ id: intent.id, status: 'succeeded' });
    expect((await payments().retrieveIntent(intent.id)).last_payment_error).toBeNull();
  });

  it('a card hold goes requires_capture on confirm and succeeded on (partial) capture; a second capture is a 409', async () => {
    const intent = await newIntent(5000, 'manual');
    const res = await confirm(t, intent.id, 'pm_card_visa');
    expect(res.json()).toEqual({ id: intent.id, status: 'requires_capture' });
    expect(await payments().retrieveIntent(intent.id)).toMatchObject({ amount_capturable: 5000, amount_received: 0 });
    expect(await statusOf(payments().captureIntent(intent.id, { amountPence: 6000 }))).toBe(400);
    const captured = await payments().captureIntent(intent.id, { amountPence: 3000 });
    expect(captured).toMatchObject({ status: 'succeeded', amount_received: 3000, amount_capturable: 0 });
    expect(await statusOf(payments().captureIntent(intent.id))).toBe(409);
    expect(await statusOf(payments().cancelIntent(intent.id))).toBe(409);
  });

  it('a declined hold stays uncaptureable', async () => {
    const intent = await newIntent(5000, 'manual');
    expect((await confirm(t, intent.id, 'pm_card_chargeDeclined')).json().status).toBe('requires_payment_method');
    expect(await statusOf(payments().captureIntent(intent.id))).toBe(409);
  });

  it('a released hold is canceled: capturing or confirming it is a 409', async () => {
    const intent = await newIntent(5000, 'manual');
    await confirm(t, intent.id, 'pm_card_visa');
    expect(await payments().cancelIntent(intent.id)).toMatchObject({ status: 'canceled', amount_capturable: 0 });
    expect(await statusOf(payments().captureIntent(intent.id))).toBe(409);
    expect((await confirm(t, intent.id, 'pm_card_visa')).statusCode).toBe(409);
    expect(await statusOf(payments().cancelIntent(intent.id))).toBe(409);
  });

  it('a declined hold can be retried with a good card, and a hold awaiting capture cannot be refunded', async () => {
    const intent = await newIntent(5000, 'manual');
    expect((await confirm(t, intent.id, 'pm_card_chargeDeclined')).json().status).toBe('requires_payment_method');
    expect((await confirm(t, intent.id, 'pm_card_visa')).json()).toEqual({ id: intent.id, status: 'requires_capture' });
    expect(await statusOf(payments().refund(intent.id))).toBe(409);
    expect(await payments().retrieveIntent(intent.id)).toMatchObject({
      status: 'requires_capture',
      amount_capturable: 5000,
      last_payment_error: null,
    });
  });

  it('capture and release honour idempotency keys like the real provider: a retry returns the first result', async () => {
    const hold = await newIntent(5000, 'manual');
    await confirm(t, hold.id, 'pm_card_visa');
    const first = await payments().captureIntent(hold.id, { amountPence: 2000, idempotencyKey: `capture-${hold.id}` });
    const retry = await payments().captureIntent(hold.id, { amountPence: 2000, idempotencyKey: `capture-${hold.id}` });
    expect(retry).toMatchObject({ id: first.id, status: 'succeeded', amount_received: 2000 });
    // Without the key, a second capture is refused.
    expect(await statusOf(payments().captureIntent(hold.id, { amountPence: 2000 }))).toBe(409);
    // The key names one request: other parameters, or another operation, are refused as the provider does.
    expect(await statusOf(payments().captureIntent(hold.id, { amountPence: 1000, idempotencyKey: `capture-${hold.id}` }))).toBe(400);
    expect(await statusOf(payments().refund(hold.id, { idempotencyKey: `capture-${hold.id}` }))).toBe(400);

    const other = await newIntent(5000, 'manual');
    await confirm(t, other.id, 'pm_card_visa');
    const released = await payments().cancelIntent(other.id, { idempotencyKey: `release-${other.id}` });
    expect((await payments().cancelIntent(other.id, { idempotencyKey: `release-${other.id}` })).status).toBe(released.status);
    expect(released.status).toBe('canceled');
    expect(await statusOf(payments().cancelIntent(other.id))).toBe(409);
  });

  it('concurrent capture and release of one hold: exactly one wins', async () => {
    for (let i = 0; i < 5; i++) {
      const hold = await newIntent(5000, 'manual');
      await confirm(t, hold.id, 'pm_card_visa');
      const results = await Promise.allSettled([payments().captureIntent(hold.id), payments().cancelIntent(hold.id)]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const loser = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(loser.reason).toMatchObject({ status: 409 });
      const final = await payments().retrieveIntent(hold.id);
      const winner = (results.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{ status: string }>).value;
      expect(final.status).toBe(winner.status);
    }
  });

  it('concurrent full refunds of one payment: only one is made', async () => {
    for (let i = 0; i < 5; i++) {
      const intent = await newIntent(4000);
      await confirm(t, intent.id, 'pm_card_visa');
      const results = await Promise.allSettled([payments().refund(intent.id), payments().refund(intent.id), payments().refund(intent.id)]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const rows = await t.db.kysely.selectFrom('sim_refunds').select('amount').where('payment_intent_id', '=', intent.id).execute();
      expect(rows).toEqual([{ amount: 4000 }]);
    }
  });

  it('an unpaid intent can be canceled', async () => {
    const intent = await newIntent();
    expect((await payments().cancelIntent(intent.id)).status).toBe('canceled');
    expect((await confirm(t, intent.id, 'pm_card_visa')).statusCode).toBe(409);
  });

  it('an uncaptured hold lapses after seven days', async () => {
    const intent = await newIntent(5000, 'manual');
    await confirm(t, intent.id, 'pm_card_visa');
    t.clock.advance(7 * 24 * 3600_000 - 60_000);
    expect((await payments().retrieveIntent(intent.id)).status).toBe('requires_capture');
    t.clock.advance(120_000);
    expect((await payments().retrieveIntent(intent.id)).status).toBe('canceled');
    expect(await statusOf(payments().captureIntent(intent.id))).toBe(409);
  });

  it('refunds in part and in full, never beyond what was received', async () => {
    const intent = await newIntent(4000);
    expect(await statusOf(payments().refund(intent.id))).toBe(409);
    await confirm(t, intent.id, 'pm_card_visa');
    const partial = await payments().refund(intent.id, { amountPence: 1500 });
    expect(partial).toMatchObject({ payment_intent: intent.id, amount: 1500, currency: 'gbp', status: 'succeeded' });
    expect(partial.id).toMatch(/^re_/);
    expect(await statusOf(payments().refund(intent.id, { amountPence: 2501 }))).toBe(400);
    expect((await payments().refund(intent.id)).amount).toBe(2500);
    expect(await statusOf(payments().refund(intent.id, { amountPence: 1 }))).toBe(409);
  });

  it('a refund repeated with the same idempotency key is made once', async () => {
    const intent = await newIntent(4000);
    await confirm(t, intent.id, 'pm_card_visa');
    const first = await payments().refund(intent.id, { amountPence: 1000, idempotencyKey: 'refund-once' });
    const again = await payments().refund(intent.id, { amountPence: 1000, idempotencyKey: 'refund-once' });
    expect(again.id).toBe(first.id);
    const rows = await t.db.kysely.selectFrom('sim_refunds').select('amount').where('payment_intent_id', '=', intent.id).execute();
    expect(rows).toEqual([{ amount: 1000 }]);
  });

  it('an intent created twice with the same idempotency key is one intent', async () => {
    const a = await payments().createIntent({ amountPence: 1200, metadata: { kind: 'test' }, idempotencyKey: 'order-42' });
    const b = await payments().createIntent({ amountPence: 1200, metadata: { kind: 'test' }, idempotencyKey: 'order-42' });
    expect(b.id).toBe(a.id);
    const [c, d] = await Promise.all([
      payments().createIntent({ amountPence: 1200, metadata: { kind: 'test' }, idempotencyKey: 'order-43' }),
      payments().createIntent({ amountPence: 1200, metadata: { kind: 'test' }, idempotencyKey: 'order-43' }),
    ]);
    expect(d.id).toBe(c.id);
  });

  it('refuses what the real provider refuses', async () => {
    expect(await statusOf(newIntent(29))).toBe(400);
    expect(await statusOf(newIntent(30.5))).toBe(400);
    expect(await statusOf(payments().retrieveIntent('pi_doesnotexist'))).toBe(404);
    const intent = await newIntent();
    const unknownCard = await confirm(t, intent.id, 'pm_card_amex_fake');
    expect(unknownCard.statusCode).toBe(400);
    expect(unknownCard.json().error).toMatch(/pm_card_visa/);
    expect((await confirm(t, 'pi_doesnotexist', 'pm_card_visa')).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/public/simulated-payments/${intent.id}/confirm`, payload: {} })).statusCode,
    ).toBe(400);
    const provider = t.ctx.payments.provider!;
    const destined = (destination: string) =>
      provider.createPaymentIntent({ amount: 1000, captureMethod: 'automatic', metadata: {}, destination, applicationFeeAmount: 50 });
    await expect(destined('acct_nobody')).rejects.toMatchObject({ kind: 'not_found' });
    const account = await provider.createConnectedAccount({ metadata: {} });
    await expect(destined(account.id)).rejects.toMatchObject({ kind: 'invalid_request', code: 'insufficient_capabilities_for_transfer' });
    await expect(
      provider.createPaymentIntent({ amount: 1000, captureMethod: 'automatic', metadata: {}, applicationFeeAmount: 50 }),
    ).rejects.toMatchObject({ kind: 'invalid_request' });
  });
});

describe('under other providers', () => {
  it('the simulated routes do not exist and payment features answer 503 when unconfigured', async () => {
    const none = await createTestApp({ PAYMENTS_PROVIDER: 'none' });
    try {
      expect(
        (
          await none.app.inject({
            method: 'POST',
            url: '/api/public/simulated-payments/pi_x/confirm',
            payload: { payment_method: 'pm_card_visa' },
          })
        ).statusCode,
      ).toBe(404);
      expect((await none.app.inject({ url: '/simulated/onboarding/acct_x' })).statusCode).toBe(404);
      expect(none.ctx.payments.publishableKey).toBeNull();
      expect(none.ctx.payments.configured).toBe(false);
      const error = await none.ctx.payments.createIntent({ amountPence: 1000, metadata: { kind: 'test' } }).catch((e) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error.status).toBe(503);
    } finally {
      await none.close();
    }
  });
});
