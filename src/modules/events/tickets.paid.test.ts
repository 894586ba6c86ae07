/**
 * Paid tickets over HTTP on both engines with the simulated provider: create-intent (a destination
 * charge of price × quantity), the card, finalize (confirmed and mailed once, however often it is
 * called), the `event_booking` webhook fulfilment, and unpaid reservations released with their tickets
 * (the expiry sweep, `checkout.session.expired`, a canceled intent).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { confirm, deliver, sessionEvent } from '../payments/payments.test-helpers.js';
import { bookingRow, buy, buyPaid, finalize, onSale, outboxTo } from './events.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const options = async (eventId: string) => (await t.app.inject({ url: `/api/public/events/${eventId}/booking-options` })).json();

describe('paid tickets end to end', () => {
  it('holds the tickets on a payment intent, confirms once paid, mails them once, and finalize answers alike every time', async () => {
    const { op, venueId, eventId, ticketTypeId, events } = await onSale(t, { name: 'Standard', price_pence: 1250, capacity: 10 });
    const res = await buy(t, eventId, ticketTypeId, { quantity: 2, email: 'buyer@example.test' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      requires_payment: true,
      booking_id: expect.stringMatching(/^bkg_/),
      status: 'pending_payment',
      payment_intent_id: expect.stringMatching(/^pi_/),
      client_secret: expect.stringMatching(/^pi_.+_secret_/),
      amount_pence: 2500,
    });
    const record = await t.db.kysely
      .selectFrom('payment_records')
      .selectAll()
      .where('intent_id', '=', body.payment_intent_id)
      .executeTakeFirstOrThrow();
    expect(record).toMatchObject({ operator_id: op.operatorId, venue_id: venueId, amount_pence: 2500, kind: 'event_booking' });
    expect(await bookingRow(t, body.booking_id)).toMatchObject({
      status: 'pending_payment',
      payment_status: 'requires_payment',
      total_pence: 2500,
      payment_intent_id: body.payment_intent_id,
    });
    expect((await options(eventId)).ticket_types[0]).toMatchObject({ remaining: 8 });

    // Not paid yet: finalize says so and keeps the reservation.
    expect((await finalize(t, eventId, body.payment_intent_id)).json()).toEqual({
      success: false,
      booking_id: body.booking_id,
      status: 'pending_payment',
      payment_status: 'requires_payment',
    });
    expect((await confirm(t, body.payment_intent_id, 'pm_card_visa')).json()).toMatchObject({ status: 'succeeded' });
    const answers = [await finalize(t, eventId, body.payment_intent_id), await finalize(t, eventId, body.payment_intent_id)];
    for (const answer of answers) {
      expect(answer.json()).toEqual({ success: true, booking_id: body.booking_id, status: 'confirmed', payment_status: 'paid' });
    }
    expect((await outboxTo(t, 'buyer@example.test')).map((m) => m.subject)).toEqual(['Your tickets for Club Night at Test Venue']);
    const history = await t.db.kysely.selectFrom('booking_history').select('action').where('booking_id', '=', body.booking_id).execute();
    expect(history.map((h) => h.action).filter((a) => a === 'payment_confirmed')).toHaveLength(1);

    const stats = (await events.get(`/${eventId}/stats`)).json();
    expect(stats).toMatchObject({ revenue: 2500, committed_guests: 2, approved: 1, pending: 0, total_bookings: 1 });
    expect(stats.tickets).toEqual([{ ticket_type_id: ticketTypeId, name: 'Standard', capacity: 10, sold: 2 }]);
    expect((await events.get(`/${eventId}`)).json().data.committed_guests).toBe(2);
  });

  it('finalize answers 404 for an intent of another event or none', async () => {
    const { eventId, ticketTypeId } = await onSale(t, { price_pence: 900 });
    const other = await onSale(t, { price_pence: 900 });
    const paid = await buyPaid(t, eventId, ticketTypeId);
    expect((await finalize(t, other.eventId, paid.payment_intent_id)).statusCode).toBe(404);
    expect((await finalize(t, eventId, 'pi_missing')).statusCode).toBe(404);
    expect((await finalize(t, 'evt_missing', paid.payment_intent_id)).statusCode).toBe(404);
    expect((await finalize(t, eventId, '')).statusCode).toBe(400);
  });

  it('the event_booking webhook confirms once; finalize then answers the same booking', async () => {
    const { eventId, ticketTypeId } = await onSale(t, { price_pence: 1000 });
    const body = (await buy(t, eventId, ticketTypeId, { email: 'hook@example.test' })).json();
    const event = sessionEvent('checkout.session.completed', {
      payment_intent: body.payment_intent_id,
      amount_total: 1000,
      metadata: { kind: 'event_booking', booking_id: body.booking_id },
    });
    expect((await deliver(t, event)).json()).toEqual({ received: true });
    expect((await deliver(t, event)).statusCode).toBe(200);
    expect(await bookingRow(t, body.booking_id)).toMatchObject({ status: 'confirmed', payment_status: 'paid' });
    expect(await outboxTo(t, 'hook@example.test')).toHaveLength(1);
    const fulfilments = await t.db.kysely
      .selectFrom('payment_fulfilments')
      .selectAll()
      .where('target_key', '=', `event_booking:${body.booking_id}`)
      .execute();
    expect(fulfilments).toEqual([expect.objectContaining({ kind: 'event_booking', outcome: 'completed' })]);
  });
});

describe('event_booking events that match nothing', () => {
  it('are acknowledged and change nothing: an unknown booking, or an amount other than the booking’s', async () => {
    const { eventId, ticketTypeId } = await onSale(t, { price_pence: 1000 });
    const body = (await buy(t, eventId, ticketTypeId)).json();
    const wrongAmount = sessionEvent('checkout.session.completed', {
      amount_total: 1,
      metadata: { kind: 'event_booking', booking_id: body.booking_id },
    });
    expect((await deliver(t, wrongAmount)).json()).toEqual({ received: true });
    const unknown = sessionEvent('checkout.session.completed', {
      amount_total: 1000,
      metadata: { kind: 'event_booking', booking_id: 'bkg_missing' },
    });
    expect((await deliver(t, unknown)).statusCode).toBe(200);
    expect(await bookingRow(t, body.booking_id)).toMatchObject({ status: 'pending_payment' });
  });
});

describe('unpaid reservations give their tickets back', () => {
  it('when the payment window passes (the expiry sweep)', async () => {
    const { eventId, ticketTypeId } = await onSale(t, { price_pence: 1500, capacity: 2 });
    const body = (await buy(t, eventId, ticketTypeId, { quantity: 2 })).json();
    expect((await buy(t, eventId, ticketTypeId)).statusCode).toBe(409);
    t.clock.advance(16 * 60_000);
    expect(await t.ctx.bookings.expireUnpaid()).toBeGreaterThanOrEqual(1);
    expect(await bookingRow(t, body.booking_id)).toMatchObject({ status: 'expired', payment_status: 'released' });
    expect((await options(eventId)).ticket_types[0]).toMatchObject({ remaining: 2, sold_out: false });
    expect((await buy(t, eventId, ticketTypeId, { quantity: 2 })).json()).toMatchObject({ requires_payment: true });
    // Paying the released intent afterwards is refused by the provider; finalize reports the release.
    expect((await finalize(t, eventId, body.payment_intent_id)).json()).toMatchObject({ success: false, status: 'expired' });
  });

  it('when the provider says the checkout session expired', async () => {
    const { eventId, ticketTypeId } = await onSale(t, { price_pence: 1500, capacity: 1 });
    const body = (await buy(t, eventId, ticketTypeId)).json();
    const expired = sessionEvent('checkout.session.expired', {
      payment_intent: body.payment_intent_id,
      metadata: { kind: 'event_booking', booking_id: body.booking_id },
    });
    expect((await deliver(t, expired)).statusCode).toBe(200);
    expect(await bookingRow(t, body.booking_id)).toMatchObject({ status: 'expired' });
    expect((await buy(t, eventId, ticketTypeId)).statusCode).toBe(200);
  });

  it('when finalize finds the intent canceled; a declined card keeps the reservation until then', async () => {
    const { eventId, ticketTypeId } = await onSale(t, { price_pence: 1500, capacity: 1 });
    const body = (await buy(t, eventId, ticketTypeId)).json();
    expect((await confirm(t, body.payment_intent_id, 'pm_card_chargeDeclined')).json()).toMatchObject({
      status: 'requires_payment_method',
    });
    expect((await finalize(t, eventId, body.payment_intent_id)).json()).toMatchObject({ success: false, status: 'pending_payment' });
    await t.ctx.payments.cancelIntent(body.payment_intent_id);
    expect((await finalize(t, eventId, body.payment_intent_id)).json()).toMatchObject({
      success: false,
      status: 'expired',
      payment_status: 'released',
    });
    expect((await buy(t, eventId, ticketTypeId)).statusCode).toBe(200);
  });
});
