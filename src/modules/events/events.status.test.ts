/**
 * The event status table over HTTP on both engines: every transition, allowed and refused, and the
 * cancellation cascade (every booking cancelled, paid ones refunded through the simulated provider with
 * the refunds recorded, each guest mailed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { addTicketType, bookingRow, buy, buyPaid, createEvent, finalize, onSale, outboxTo, setupEvents } from './events.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const STATUSES = ['draft', 'approved', 'cancelled', 'rejected', 'pending_venue_approval'] as const;

/** An event of a fresh venue moved into `status` (through the API where it can, else written). */
async function eventIn(status: (typeof STATUSES)[number]) {
  const setup = await setupEvents(t);
  const initial = status === 'approved' || status === 'pending_venue_approval' ? status : 'draft';
  const id = await createEvent(setup.events, setup.venueId, { status: initial });
  if (status === 'cancelled' || status === 'rejected') {
    expect((await setup.events.patch(`/${id}/status`, { status })).statusCode).toBe(200);
  }
  expect((await setup.events.get(`/${id}`)).json().data.status).toBe(status);
  return { ...setup, id };
}

describe('approve and reject', () => {
  it.each(STATUSES)('approve from %s', async (from) => {
    const { events, id } = await eventIn(from);
    const res = await events.post(`/${id}/approve`);
    if (from === 'pending_venue_approval' || from === 'rejected') {
      expect(res.json()).toEqual({ success: true, cancelled_bookings: 0 });
      expect((await events.get(`/${id}`)).json().data.status).toBe('approved');
    } else {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ status: from });
      expect((await events.get(`/${id}`)).json().data.status).toBe(from);
    }
  });

  it.each(STATUSES)('reject from %s', async (from) => {
    const { events, id } = await eventIn(from);
    const res = await events.post(`/${id}/reject`);
    if (from === 'pending_venue_approval') {
      expect(res.json()).toEqual({ success: true, cancelled_bookings: 0 });
      expect((await events.get(`/${id}`)).json().data.status).toBe('rejected');
    } else {
      expect(res.statusCode).toBe(409);
      expect((await events.get(`/${id}`)).json().data.status).toBe(from);
    }
  });

  it('refuses approving a submission onto a date another approved event holds (409 with conflict)', async () => {
    const { venueId, events } = await setupEvents(t);
    const holder = await createEvent(events, venueId, { name: 'Holder', status: 'approved', event_date: '2026-07-20' });
    const rejected = await createEvent(events, venueId, { name: 'Late', event_date: '2026-07-20' });
    expect((await events.patch(`/${rejected}/status`, { status: 'rejected' })).statusCode).toBe(200);
    const res = await events.post(`/${rejected}/approve`);
    expect(res.statusCode).toBe(409);
    expect(res.json().conflict).toEqual({ event_id: holder, name: 'Holder' });
  });
});

describe('PATCH status without bookings', () => {
  const cases = STATUSES.flatMap((from) => (['approved', 'draft', 'cancelled', 'rejected'] as const).map((to) => [from, to] as const));
  it.each(cases)('%s → %s is allowed', async (from, to) => {
    const { events, id } = await eventIn(from);
    const res = await events.patch(`/${id}/status`, { status: to });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, status: to, cancelled_bookings: 0 });
    expect((await events.get(`/${id}`)).json().data.status).toBe(to);
  });

  it('refuses an unknown status (400) and approved onto a held date (409 with conflict)', async () => {
    const { venueId, events } = await setupEvents(t);
    const holder = await createEvent(events, venueId, { name: 'Holder', status: 'approved' });
    const draft = await createEvent(events, venueId);
    expect((await events.patch(`/${draft}/status`, { status: 'pending_venue_approval' })).statusCode).toBe(400);
    expect((await events.patch(`/${draft}/status`, {})).statusCode).toBe(400);
    const res = await events.patch(`/${draft}/status`, { status: 'approved' });
    expect(res.statusCode).toBe(409);
    expect(res.json().conflict).toEqual({ event_id: holder, name: 'Holder' });
  });
});

describe('PATCH status with active bookings', () => {
  it('refuses draft and rejected (409) but keeps approved; PUT back to draft is blocked too', async () => {
    const { events, eventId, ticketTypeId } = await onSale(t);
    expect((await buy(t, eventId, ticketTypeId, { quantity: 2 })).json()).toMatchObject({ free: true });
    const draft = await events.patch(`/${eventId}/status`, { status: 'draft' });
    expect(draft.statusCode).toBe(409);
    expect(draft.json().error).toMatch(/committed guests/);
    const rejected = await events.patch(`/${eventId}/status`, { status: 'rejected' });
    expect(rejected.statusCode).toBe(409);
    expect(rejected.json()).toMatchObject({ active_bookings: 1 });
    expect((await events.patch(`/${eventId}/status`, { status: 'approved' })).json()).toMatchObject({ success: true, status: 'approved' });
    expect((await events.put(`/${eventId}`, { status: 'draft' })).statusCode).toBe(409);
    expect((await events.get(`/${eventId}`)).json().data.status).toBe('approved');
  });

  it('an unpaid reservation counts as an active booking too', async () => {
    const { events, eventId, ticketTypeId } = await onSale(t, { price_pence: 1500 });
    expect((await buy(t, eventId, ticketTypeId)).json()).toMatchObject({ requires_payment: true });
    expect((await events.patch(`/${eventId}/status`, { status: 'draft' })).statusCode).toBe(409);
  });
});

describe('the cancellation cascade', () => {
  it('cancels every booking, refunds the paid ones through the provider, records the refunds and mails each guest', async () => {
    const { events, eventId, ticketTypeId } = await onSale(t, { price_pence: 2000 });
    const free = await addTicketType(events, eventId, { name: 'Guest list', price_pence: 0 });

    const paid = await buyPaid(t, eventId, ticketTypeId, 2, 'paid@example.test');
    expect((await finalize(t, eventId, paid.payment_intent_id)).json()).toMatchObject({ success: true, status: 'confirmed' });
    const unpaid = (await buy(t, eventId, ticketTypeId, { email: 'unpaid@example.test' })).json();
    const freeBooking = (await buy(t, eventId, free, { email: 'free@example.test' })).json();

    const res = await events.patch(`/${eventId}/status`, { status: 'cancelled' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, status: 'cancelled', cancelled_bookings: 3 });

    const paidRow = await bookingRow(t, paid.booking_id);
    expect(paidRow).toMatchObject({ status: 'cancelled', payment_status: 'refunded', refunded_pence: 4000 });
    const refunds = await t.db.kysely
      .selectFrom('sim_refunds')
      .selectAll()
      .where('payment_intent_id', '=', paid.payment_intent_id)
      .execute();
    expect(refunds.map((r) => r.amount)).toEqual([4000]);
    const ledger = await t.db.kysely
      .selectFrom('payment_ledger')
      .select(['type', 'amount_pence'])
      .where('type', '=', 'refund')
      .where('provider_ref', '=', refunds[0].id)
      .execute();
    expect(ledger).toEqual([{ type: 'refund', amount_pence: -4000 }]);

    expect(await bookingRow(t, unpaid.booking_id)).toMatchObject({ status: 'cancelled', payment_status: 'released', refunded_pence: 0 });
    expect(await bookingRow(t, freeBooking.booking_id)).toMatchObject({ status: 'cancelled', payment_status: 'none' });

    // Subjects sorted: the fixed clock gives both mails the same time.
    const subjects = async (to: string) => (await outboxTo(t, to)).map((m) => m.subject).sort();
    expect(await subjects('paid@example.test')).toEqual([
      'Your booking at Test Venue has been cancelled',
      'Your tickets for Club Night at Test Venue',
    ]);
    const notice = (await outboxTo(t, 'paid@example.test')).find((m) => /cancelled/.test(m.subject))!;
    expect(notice.text_body).toMatch(/£40\.00 is being refunded/);
    expect(await subjects('free@example.test')).toEqual([
      'Your booking at Test Venue has been cancelled',
      'Your tickets for Club Night at Test Venue',
    ]);
    expect(await subjects('unpaid@example.test')).toEqual(['Your booking at Test Venue has been cancelled']);

    // Again: nothing left to cancel, nothing refunded twice; no more sales.
    expect((await events.patch(`/${eventId}/status`, { status: 'cancelled' })).json()).toMatchObject({ cancelled_bookings: 0 });
    expect(
      await t.db.kysely.selectFrom('sim_refunds').selectAll().where('payment_intent_id', '=', paid.payment_intent_id).execute(),
    ).toHaveLength(1);
    expect((await buy(t, eventId, free)).statusCode).toBe(404);
    const stats = (await events.get(`/${eventId}/stats`)).json();
    expect(stats).toMatchObject({ cancelled: 3, active_bookings: 0, committed_guests: 0, revenue: 0 });
  });

  it('rejecting a submission reports the bookings it cancelled', async () => {
    const { events, eventId, ticketTypeId } = await onSale(t);
    expect((await buy(t, eventId, ticketTypeId)).statusCode).toBe(200);
    // The event is moved back to a submission behind the API's back: bookings of a pending event are cancelled on reject.
    await t.db.kysely.updateTable('events').set({ status: 'pending_venue_approval' }).where('id', '=', eventId).execute();
    expect((await events.post(`/${eventId}/reject`)).json()).toEqual({ success: true, cancelled_bookings: 1 });
  });
});
