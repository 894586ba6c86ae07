/**
 * A released deposit booking's intent is cancelled, and a cancel that fails is not lost (issue: no
 * silent failures on money paths): it is logged with its ids, kept in payment_intent_cancels, and the
 * sweep cancels it once the provider answers again; a refusal for good (the intent cannot be cancelled)
 * is logged as an error and not retried. Both engines.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { depositBooker, depositVenue } from './deposits.test-support.js';
import { AppError } from '../../../platform/errors.js';

let t: TestApp;
let depositBooking: ReturnType<typeof depositBooker>;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'public_booking=1000/60' });
  const venue = await depositVenue(t);
  depositBooking = depositBooker(t, venue);
});
afterAll(async () => t.close());
afterEach(() => vi.restoreAllMocks());

const intentStatus = async (intentId: string) => (await t.ctx.payments.retrieveIntent(intentId)).status;
const retries = () => t.db.kysely.selectFrom('payment_intent_cancels').selectAll().execute();
const statusOf = async (bookingId: string) =>
  (await t.db.kysely.selectFrom('bookings').select('status').where('id', '=', bookingId).executeTakeFirstOrThrow()).status;

describe('the intent of a released deposit booking', () => {
  it('is cancelled by the sweep that releases the booking', async () => {
    const { bookingId, intentId } = await depositBooking();
    t.clock.advance(11 * 60_000);
    expect(await t.ctx.bookings.expireUnpaid()).toBeGreaterThanOrEqual(1);
    expect(await statusOf(bookingId)).toBe('expired');
    expect(await intentStatus(intentId)).toBe('canceled');
    expect(await retries()).toEqual([]);
  });

  it('a cancel the provider fails is logged with its ids, kept, and cancelled by a later sweep', async () => {
    const { bookingId, intentId } = await depositBooking();
    const warn = vi.spyOn(t.ctx.log, 'warn');
    const cancel = vi.spyOn(t.ctx.payments.provider!, 'cancelPaymentIntent').mockRejectedValueOnce(new Error('provider unreachable'));
    t.clock.advance(11 * 60_000);
    await t.ctx.bookings.expireUnpaid();
    expect(await statusOf(bookingId)).toBe('expired');
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(await intentStatus(intentId)).not.toBe('canceled');
    expect(await retries()).toEqual([
      expect.objectContaining({
        intent_id: intentId,
        subject: `booking:${bookingId}`,
        idempotency_key: `booking-release-${bookingId}`,
        attempts: 1,
      }),
    ]);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ intentId, subject: `booking:${bookingId}` }),
      expect.stringMatching(/the sweep retries it/),
    );

    // Not before its time; then the next sweep cancels it with the same idempotency key, and forgets it.
    expect(await t.ctx.payments.retryIntentCancels()).toBe(0);
    t.clock.advance(61_000);
    await t.ctx.bookings.expireUnpaid();
    expect(cancel).toHaveBeenLastCalledWith(intentId, { idempotencyKey: `booking-release-${bookingId}` });
    expect(await intentStatus(intentId)).toBe('canceled');
    expect(await retries()).toEqual([]);
  });

  it('a refusal for good is logged as an error and not retried', async () => {
    const { intentId } = await depositBooking();
    const error = vi.spyOn(t.ctx.log, 'error');
    vi.spyOn(t.ctx.payments.provider!, 'cancelPaymentIntent').mockRejectedValueOnce(new AppError(409, 'This payment cannot be cancelled'));
    t.clock.advance(11 * 60_000);
    await t.ctx.bookings.expireUnpaid();
    expect(error).toHaveBeenCalledWith(expect.objectContaining({ intentId }), 'payment intent could not be cancelled');
    expect(await retries()).toEqual([]);
  });
});
