/**
 * A released deposit booking's intent is cancelled, and a cancel that fails is not lost (issue: no
 * silent failures on money paths): it is logged with its ids, kept in payment_intent_cancels, and the
 * sweep cancels it once the provider answers again; a refusal for good (the intent cannot be cancelled)
 * is logged as an error and not retried. Both engines.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createOperator,
  createTestApp,
  insertVenue,
  insertVenueRow,
  type TestApp,
  type TestOperator,
} from '../../../../test/helpers/app.js';
import { insertAccessRule, insertShift } from '../../../../test/helpers/rows.js';
import { AppError } from '../../../platform/errors.js';

let t: TestApp;
let op: TestOperator;
let venueId: string;
let ruleId: string;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'public_booking=1000/60' });
  op = await createOperator(t);
  venueId = await insertVenue(t, op.operatorId, { status: 'live', email: 'hello@venue.test' });
  await insertShift(t, venueId, { days_of_week: '["fri"]', time_type: 'custom', time_from: '18:00', time_to: '23:00' });
  const policy = await insertVenueRow(
    t,
    'payment_policies',
    venueId,
    { name: 'Deposit', deposit_type: 'deposit', refund_type: 'full' },
    'pp',
  );
  const pricelist = await insertVenueRow(t, 'pricelists', venueId, { name: 'Prices', default_price_pence: 1000 }, 'pl');
  ruleId = await insertAccessRule(t, venueId, {
    name: 'Deposit dinner',
    rule_type: 'table',
    days_of_week: '["fri"]',
    payment_policy_id: policy,
    pricelist_id: pricelist,
  });
  for (const number of ['1', '2', '3', '4']) {
    await insertVenueRow(
      t,
      'venue_tables',
      venueId,
      { table_number: number, capacity: 4, min_covers: 1, status: 'active', table_type: 'standard' },
      'tbl',
    );
  }
});
afterAll(async () => t.close());
afterEach(() => vi.restoreAllMocks());

let guests = 0;
async function depositBooking() {
  const n = ++guests;
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/public/venues/${venueId}/book`,
    payload: {
      access_rule_id: ruleId,
      rule_type: 'table',
      date: '2026-07-10',
      time: '18:00',
      party_size: 2,
      guest_name: `Payer ${n}`,
      guest_email: `payer${n}@example.test`,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { bookingId: res.json().booking_id as string, intentId: res.json().payment_intent_id as string };
}

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
