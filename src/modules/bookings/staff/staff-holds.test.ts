/**
 * Card holds on the staff floor (simulated provider): capture (full or partial), release, their
 * idempotent retries and the 409s between them; requesting a hold; and staff-cancel giving money back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, setupVenue, type TestApp, type TestOperator } from '../../../../test/helpers/app.js';
import { insertBooking } from '../core/bookings.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const post = (op: TestOperator, id: string, path: string, payload?: object) =>
  t.app.inject({ method: 'POST', url: `/api/bookings/${id}/${path}`, headers: op.headers, ...(payload ? { payload } : {}) });

/** An intent of the venue, paid with the test card: a hold (`requires_capture`) or a paid deposit. */
async function paidIntent(operatorId: string, venueId: string, amountPence: number, capture: 'manual' | 'automatic') {
  const intent = await t.ctx.payments.createIntent({ operatorId, venueId, amountPence, capture, metadata: { kind: 'test' } });
  const confirmed = await t.ctx.payments.confirmSimulated(intent.id, 'pm_card_visa');
  expect(confirmed.status).toBe(capture === 'manual' ? 'requires_capture' : 'succeeded');
  return intent.id;
}

async function heldBooking(amountPence = 2000) {
  const { op, venueId } = await setupVenue(t);
  const intentId = await paidIntent(op.operatorId, venueId, amountPence, 'manual');
  const id = await insertBooking(t, op.operatorId, venueId, {
    deposit_type: 'hold',
    deposit_pence: amountPence,
    payment_intent_id: intentId,
    payment_status: 'held',
  });
  return { op, venueId, id, intentId };
}

describe('hold capture and release', () => {
  it('captures part of a hold; a retry answers the same; releasing it then is a 409', async () => {
    const { op, id, intentId } = await heldBooking(2000);
    expect((await post(op, id, 'hold/capture', { amount_pence: 2001 })).statusCode).toBe(400);
    const res = await post(op, id, 'hold/capture', { amount_pence: 1500 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking).toMatchObject({ payment_status: 'captured', captured_pence: 1500 });
    expect(res.json().booking.history.at(-1)).toMatchObject({
      action: 'hold_capture',
      detail: { payment_intent_id: intentId, captured_pence: 1500 },
    });
    expect((await t.ctx.payments.retrieveIntent(intentId)).amount_received).toBe(1500);

    const retry = await post(op, id, 'hold/capture', { amount_pence: 1500 });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().booking).toMatchObject({ payment_status: 'captured', captured_pence: 1500 });
    expect(retry.json().booking.history).toHaveLength(1);

    const release = await post(op, id, 'hold/release');
    expect(release.statusCode).toBe(409);
    expect(release.json()).toEqual({
      request_id: expect.any(String),
      error: 'This hold was captured: it cannot be released',
      payment_status: 'captured',
    });
  });

  it('captures all of a hold without a body', async () => {
    const { op, id } = await heldBooking(3000);
    const res = await post(op, id, 'hold/capture');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking).toMatchObject({ payment_status: 'captured', captured_pence: 3000 });
  });

  it('releases a hold; a retry answers the same; capturing it then is a 409', async () => {
    const { op, id, intentId } = await heldBooking();
    const res = await post(op, id, 'hold/release');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking.payment_status).toBe('released');
    expect((await t.ctx.payments.retrieveIntent(intentId)).status).toBe('canceled');
    expect((await post(op, id, 'hold/release')).statusCode).toBe(200);
    const capture = await post(op, id, 'hold/capture');
    expect(capture.statusCode).toBe(409);
    expect(capture.json()).toEqual({
      request_id: expect.any(String),
      error: 'This hold was released: it cannot be captured',
      payment_status: 'released',
    });
  });

  it('a booking without a hold: capture and release are 409s', async () => {
    const { op, venueId } = await setupVenue(t);
    const id = await insertBooking(t, op.operatorId, venueId);
    expect((await post(op, id, 'hold/capture')).statusCode).toBe(409);
    expect((await post(op, id, 'hold/release')).statusCode).toBe(409);
  });

  it('the provider is the truth when the booking missed a capture made elsewhere', async () => {
    const { op, id, intentId } = await heldBooking(2000);
    await t.ctx.payments.captureIntent(intentId, { amountPence: 1000 });
    const release = await post(op, id, 'hold/release');
    expect(release.statusCode).toBe(409);
    const read = await t.app.inject({ method: 'GET', url: `/api/bookings/${id}`, headers: op.headers });
    expect(read.json()).toMatchObject({ payment_status: 'captured', captured_pence: 1000 });
  });
});

describe('hold request', () => {
  it('creates a card hold for the booking; a repeat answers the same intent; once authorised it can be captured', async () => {
    const { op, venueId } = await setupVenue(t);
    const id = await insertBooking(t, op.operatorId, venueId);
    const missing = await post(op, id, 'hold/request');
    expect(missing.statusCode).toBe(400);
    expect((await post(op, id, 'hold/request', { amount_pence: 49 })).statusCode).toBe(400);

    const res = await post(op, id, 'hold/request', { amount_pence: 2500 });
    expect(res.statusCode, res.body).toBe(200);
    const { payment_intent_id: intentId, payment_client_secret: secret } = res.json();
    expect(secret).toMatch(new RegExp(`^${intentId}_secret_`));
    const intent = await t.ctx.payments.retrieveIntent(intentId, { operatorId: op.operatorId, venueId });
    expect(intent).toMatchObject({ amount: 2500, capture_method: 'manual', status: 'requires_payment_method' });
    expect(intent.metadata).toMatchObject({ kind: 'booking_hold', booking_id: id });

    expect((await post(op, id, 'hold/request', { amount_pence: 2500 })).json()).toEqual(res.json());
    const booking = (await t.app.inject({ method: 'GET', url: `/api/bookings/${id}`, headers: op.headers })).json();
    expect(booking).toMatchObject({ deposit_type: 'hold', deposit_pence: 2500, payment_status: 'requires_payment' });
    expect(booking.history.map((h: { action: string }) => h.action)).toEqual(['hold_request']);

    await t.ctx.payments.confirmSimulated(intentId, 'pm_card_visa');
    expect((await post(op, id, 'hold/request')).statusCode).toBe(409);
    const captured = await post(op, id, 'hold/capture');
    expect(captured.statusCode, captured.body).toBe(200);
    expect(captured.json().booking).toMatchObject({ payment_status: 'captured', captured_pence: 2500 });
  });

  it('a new amount replaces an unauthorised hold; the booking’s deposit amount is the default', async () => {
    const { op, venueId } = await setupVenue(t);
    const id = await insertBooking(t, op.operatorId, venueId, { deposit_pence: 1200 });
    const first = (await post(op, id, 'hold/request')).json();
    expect((await t.ctx.payments.retrieveIntent(first.payment_intent_id)).amount).toBe(1200);
    const second = (await post(op, id, 'hold/request', { amount_pence: 1800 })).json();
    expect(second.payment_intent_id).not.toBe(first.payment_intent_id);
    expect((await t.ctx.payments.retrieveIntent(first.payment_intent_id)).status).toBe('canceled');
  });

  it('is a 409 for a booking that already holds money or is not active', async () => {
    const { op, id, venueId } = await heldBooking();
    expect((await post(op, id, 'hold/request', { amount_pence: 1000 })).statusCode).toBe(409);
    const cancelled = await insertBooking(t, op.operatorId, venueId, { status: 'cancelled' });
    expect((await post(op, cancelled, 'hold/request', { amount_pence: 1000 })).json()).toEqual({
      request_id: expect.any(String),
      error: 'This booking is cancelled: it cannot be given a card hold',
      status: 'cancelled',
    });
    const { op: stranger } = await setupVenue(t);
    expect((await post(stranger, id, 'hold/request', { amount_pence: 1000 })).statusCode).toBe(404);
  });
});

describe('staff-cancel with refund', () => {
  it('refunds a paid deposit and tells the guest', async () => {
    const { op, venueId } = await setupVenue(t);
    const intentId = await paidIntent(op.operatorId, venueId, 4000, 'automatic');
    const id = await insertBooking(t, op.operatorId, venueId, {
      deposit_type: 'deposit',
      deposit_pence: 4000,
      payment_intent_id: intentId,
      payment_status: 'paid',
      guest_email: 'refund-me@example.test',
    });
    const res = await post(op, id, 'staff-cancel', { reason: 'Private event', refund: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking).toMatchObject({ status: 'cancelled', payment_status: 'refunded', refunded_pence: 4000 });
    expect(res.json().booking.history.at(-1).detail).toMatchObject({ refund: true, refunded_pence: 4000 });
    const mail = (await t.ctx.mail.list({ limit: 100 })).filter((m) => m.to === 'refund-me@example.test');
    expect(mail).toHaveLength(1);
    expect(mail[0].text).toContain('£40.00');
  });

  it('releases a hold when asked to refund, and leaves money alone when not', async () => {
    const held = await heldBooking();
    const res = await post(held.op, held.id, 'staff-cancel', { refund: true });
    expect(res.json().booking).toMatchObject({ status: 'cancelled', payment_status: 'released' });
    expect((await t.ctx.payments.retrieveIntent(held.intentId)).status).toBe('canceled');

    const kept = await heldBooking();
    const noRefund = await post(kept.op, kept.id, 'staff-cancel', { refund: false });
    expect(noRefund.json().booking).toMatchObject({ status: 'cancelled', payment_status: 'held' });
    expect((await t.ctx.payments.retrieveIntent(kept.intentId)).status).toBe('requires_capture');
  });

  it('refuses a booking that cannot be cancelled before moving any money', async () => {
    const { op, venueId } = await setupVenue(t);
    const intentId = await paidIntent(op.operatorId, venueId, 1000, 'automatic');
    const id = await insertBooking(t, op.operatorId, venueId, { status: 'no_show', payment_intent_id: intentId, payment_status: 'paid' });
    expect((await post(op, id, 'staff-cancel', { refund: true })).statusCode).toBe(409);
    expect((await t.ctx.payments.retrieveIntent(intentId)).amount_received).toBe(1000);
    const row = await t.db.kysely
      .selectFrom('bookings')
      .select(['payment_status', 'refunded_pence'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ payment_status: 'paid', refunded_pence: 0 });
  });
});
