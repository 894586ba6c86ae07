/**
 * A deposit booking is confirmed only by its own payment of its whole deposit (payments' one check,
 * `payment-match.ts`), through the `booking_deposit` webhook and through finalize alike, on both engines:
 * a payment for less, in another currency, or of another booking's intent leaves it `pending_payment`,
 * and the genuine payment's event still confirms it afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { depositBooker, depositVenue } from './deposits.test-support.js';
import { confirm, deliver, sessionEvent } from '../../payments/payments.test-helpers.js';

let t: TestApp;
let venueId: string;
let operatorId: string;
let depositBooking: ReturnType<typeof depositBooker>;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'public_booking=1000/60' });
  const venue = await depositVenue(t);
  venueId = venue.venueId;
  operatorId = venue.operatorId;
  depositBooking = depositBooker(t, venue);
});
afterAll(async () => t.close());

const statusOf = async (bookingId: string) =>
  (await t.db.kysely.selectFrom('bookings').select(['status', 'payment_status']).where('id', '=', bookingId).executeTakeFirstOrThrow())
    .status;

const paid = (bookingId: string, fields: { payment_intent: string; amount_total: number; currency?: string }) => {
  const event = sessionEvent('checkout.session.completed', { ...fields, metadata: { kind: 'booking_deposit', booking_id: bookingId } });
  if (fields.currency) Object.assign(event.data.object, { currency: fields.currency });
  return event;
};

describe('the booking_deposit webhook', () => {
  it('confirms nothing for less than the deposit, or in another currency; the genuine payment then confirms it', async () => {
    const { bookingId, intentId } = await depositBooking();
    for (const wrong of [
      { payment_intent: intentId, amount_total: 1 },
      { payment_intent: intentId, amount_total: 1999 },
      { payment_intent: intentId, amount_total: 2000, currency: 'usd' },
    ]) {
      const res = await deliver(t, paid(bookingId, wrong));
      expect(res.json()).toEqual({ received: true });
      expect(await statusOf(bookingId), JSON.stringify(wrong)).toBe('pending_payment');
    }
    const outcomes = await t.db.kysely
      .selectFrom('webhook_events')
      .select('outcome')
      .where('target_key', '=', `booking_deposit:${bookingId}`)
      .execute();
    expect(outcomes.map((row) => row.outcome)).toEqual(['ignored', 'ignored', 'ignored']);

    // A mismatched session did not claim the booking: its own payment of £20 still confirms it.
    expect((await deliver(t, paid(bookingId, { payment_intent: intentId, amount_total: 2000, currency: 'gbp' }))).statusCode).toBe(200);
    expect(await statusOf(bookingId)).toBe('confirmed');
  });

  it("is not confirmed by another booking's payment, even of the same amount", async () => {
    const mine = await depositBooking('2026-07-17');
    const theirs = await depositBooking('2026-07-17');
    expect((await confirm(t, theirs.intentId, 'pm_card_visa')).statusCode).toBe(200);
    expect((await deliver(t, paid(mine.bookingId, { payment_intent: theirs.intentId, amount_total: 2000 }))).statusCode).toBe(200);
    expect(await statusOf(mine.bookingId)).toBe('pending_payment');
    // Nor by a session naming an intent nobody created.
    expect((await deliver(t, paid(mine.bookingId, { payment_intent: 'pi_made_up', amount_total: 2000 }))).statusCode).toBe(200);
    expect(await statusOf(mine.bookingId)).toBe('pending_payment');
  });
});

describe('finalize', () => {
  const finalize = (bookingId: string) =>
    t.app.inject({ method: 'POST', url: `/api/public/venues/${venueId}/book/finalize`, payload: { booking_id: bookingId } });

  it("confirms nothing when the booking's intent paid less than its deposit (409), and does not release it", async () => {
    const { bookingId } = await depositBooking('2026-07-24');
    // An intent of £1 at the same venue, paid, then (as a bug or a tampered row would) named by the booking.
    const cheap = await t.ctx.payments.createIntent({
      amountPence: 100,
      metadata: { kind: 'booking_deposit', booking_id: bookingId },
      operatorId,
      venueId,
    });
    expect((await confirm(t, cheap.id, 'pm_card_visa')).statusCode).toBe(200);
    await t.db.kysely.updateTable('bookings').set({ payment_intent_id: cheap.id }).where('id', '=', bookingId).execute();
    const res = await finalize(bookingId);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ request_id: expect.any(String), error: 'The payment does not match this booking or purchase' });
    expect(await statusOf(bookingId)).toBe('pending_payment');
  });

  it('still confirms a booking paid in full', async () => {
    const { bookingId, intentId } = await depositBooking('2026-07-31');
    expect((await confirm(t, intentId, 'pm_card_visa')).statusCode).toBe(200);
    expect((await finalize(bookingId)).json()).toEqual({ ok: true, booking_id: bookingId, status: 'confirmed' });
  });
});
