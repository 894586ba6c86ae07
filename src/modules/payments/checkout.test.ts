/**
 * The give-back step of the payment lifecycle (checkout.ts), each branch against a scripted provider:
 * what a cancellation releases or refunds, and what it does when the provider fails or the guest's
 * payment completes in the meantime. The flows (ask, finalize, fulfilments, expiry) are exercised end to
 * end by the deposit, ticket and voucher tests.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../db/connect.js';
import { AppError, conflict } from '../../platform/errors.js';
import { createCheckout, type GiveBackRequest } from './checkout.js';
import { FulfilmentRegistry } from './fulfilments.js';
import type { IntentCancelRequest } from './intent-cancels.js';
import type { IntentStatus, PaymentIntent } from './provider.js';

const intent = (status: IntentStatus, received = 0): PaymentIntent => ({
  id: 'pi_1',
  client_secret: null,
  amount: 2000,
  currency: 'gbp',
  status,
  capture_method: 'automatic',
  amount_capturable: 0,
  amount_received: received,
  metadata: {},
  destination: null,
  application_fee_amount: null,
  last_payment_error: null,
  created: 0,
});

/** A provider whose intent reads `statuses` in turn (the last one repeats), and whose cancel does `cancel`. */
function scripted(statuses: PaymentIntent[], cancel: () => void = () => undefined) {
  const calls = { cancels: 0, refunds: [] as { amountPence: number; idempotencyKey?: string }[], kept: [] as IntentCancelRequest[] };
  const reads = [...statuses];
  const charges = {
    retrieveIntent: () => Promise.resolve(reads.length > 1 ? reads.shift()! : reads[0]!),
    cancelIntent: () => {
      calls.cancels += 1;
      cancel();
      return Promise.resolve(intent('canceled'));
    },
    refund: (_id: string, request: { amountPence: number; idempotencyKey?: string }) => {
      calls.refunds.push(request);
      return Promise.resolve({ id: 're_1', payment_intent: 'pi_1', amount: request.amountPence, currency: 'gbp', status: 'succeeded' });
    },
    createIntent: () => Promise.reject(new Error('not used')),
  };
  const cancels = {
    cancelOrRetry: (request: IntentCancelRequest) => {
      try {
        cancel();
        calls.cancels += 1;
        return Promise.resolve(true);
      } catch {
        calls.kept.push(request);
        return Promise.resolve(false);
      }
    },
    retryDue: () => Promise.resolve(0),
  };
  const { giveBack } = createCheckout({
    db: {} as Db,
    log: pino({ level: 'silent' }),
    charges,
    cancels,
    fulfilments: new FulfilmentRegistry(),
  });
  return { giveBack, calls };
}

const request = (over: Partial<GiveBackRequest> = {}): GiveBackRequest => ({
  intentId: 'pi_1',
  scope: { operatorId: 'op_1', venueId: 'ven_1' },
  subject: 'booking:bkg_1',
  keys: { release: 'release:bkg_1', refund: 'refund:bkg_1' },
  paymentStatus: 'paid',
  refundedPence: 0,
  reason: 'Cancelled',
  onReleaseFailure: 'throw',
  ...over,
});

describe('giveBack', () => {
  it('gives nothing back without an intent', async () => {
    const { giveBack, calls } = scripted([intent('succeeded', 2000)]);
    expect(await giveBack(request({ intentId: null }))).toEqual({});
    expect(calls.refunds).toEqual([]);
  });

  it('releases an intent not paid yet (a hold, or a deposit never completed)', async () => {
    for (const status of ['requires_payment_method', 'requires_capture'] as const) {
      const { giveBack, calls } = scripted([intent(status)]);
      expect(await giveBack(request({ paymentStatus: 'requires_payment' }))).toEqual({ payment_status: 'released' });
      expect(calls.cancels).toBe(1);
    }
  });

  it('refunds what is left of a payment, under its own key, once', async () => {
    const { giveBack, calls } = scripted([intent('succeeded', 2000)]);
    expect(await giveBack(request({ refundedPence: 500 }))).toEqual({ payment_status: 'refunded', refunded_pence: 2000 });
    expect(calls.refunds).toEqual([{ amountPence: 1500, idempotencyKey: 'refund:bkg_1', reason: 'Cancelled', scope: request().scope }]);
  });

  it('refunds the share a policy allows, recorded as partial', async () => {
    const { giveBack } = scripted([intent('succeeded', 2000)]);
    expect(await giveBack(request({ refundable: (received) => received / 2 }))).toEqual({
      payment_status: 'partially_refunded',
      refunded_pence: 1000,
    });
  });

  it('nothing due: an awaited payment is recorded as paid, a settled one is left alone', async () => {
    const none = () => 0;
    expect(await scripted([intent('succeeded', 2000)]).giveBack(request({ paymentStatus: 'requires_payment', refundable: none }))).toEqual({
      payment_status: 'paid',
    });
    expect(await scripted([intent('succeeded', 2000)]).giveBack(request({ refundable: none }))).toEqual({});
  });

  it('a cancelled intent releases what awaited it and nothing else', async () => {
    expect(await scripted([intent('canceled')]).giveBack(request({ paymentStatus: 'held' }))).toEqual({ payment_status: 'released' });
    expect(await scripted([intent('canceled')]).giveBack(request({ paymentStatus: 'released' }))).toEqual({});
  });

  it('paid meanwhile (the cancel answers 409): refunded like any payment', async () => {
    const { giveBack, calls } = scripted([intent('requires_payment_method'), intent('succeeded', 2000)], () => {
      throw conflict('This PaymentIntent has a status of succeeded');
    });
    expect(await giveBack(request({ paymentStatus: 'requires_payment' }))).toEqual({ payment_status: 'refunded', refunded_pence: 2000 });
    expect(calls.refunds).toHaveLength(1);
  });

  it('a provider failure fails a request that can be retried, and changes nothing', async () => {
    const down = new AppError(502, 'The payment provider did not answer');
    const { giveBack, calls } = scripted([intent('requires_capture')], () => {
      throw down;
    });
    await expect(giveBack(request({ paymentStatus: 'held' }))).rejects.toBe(down);
    expect(calls.refunds).toEqual([]);
  });

  it('in a batch, a release the provider fails is kept for the sweep and the status left as it was', async () => {
    const { giveBack, calls } = scripted([intent('requires_payment_method')], () => {
      throw new AppError(502, 'The payment provider did not answer');
    });
    expect(await giveBack(request({ paymentStatus: 'requires_payment', onReleaseFailure: 'retry' }))).toEqual({});
    expect(calls.kept.map((kept) => kept.idempotencyKey)).toEqual(['release:bkg_1']);
  });
});
