/**
 * `GET /api/my-events/:id/cancellation-preview` on both engines: what cancelling an event would cancel and
 * refund (paid, awaiting payment, free, checked in), that reading it changes nothing, that the cascade
 * then does what it said, and the 401/403/404 answers (permission, another account, a venue outside the role).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, type TestApp } from '../../../test/helpers/app.js';
import { addTicketType, bookingRow, buy, buyPaid, createEvent, eventsApi, finalize, onSale, setupEvents } from './events.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('cancellation preview', () => {
  it('lists each booking with what it would refund, changes nothing, and matches what the cascade then does', async () => {
    const { op, events, eventId, ticketTypeId } = await onSale(t, { name: 'Standard', price_pence: 2000 });
    const free = await addTicketType(events, eventId, { name: 'Guest list', price_pence: 0 });
    const paid = await buyPaid(t, eventId, ticketTypeId, 2, 'paid@example.test');
    expect((await finalize(t, eventId, paid.payment_intent_id)).json()).toMatchObject({ status: 'confirmed' });
    const unpaid = (await buy(t, eventId, ticketTypeId, { email: 'unpaid@example.test' })).json();
    const freeBooking = (await buy(t, eventId, free, { email: 'free@example.test' })).json();
    const inside = (await buy(t, eventId, free, { email: 'inside@example.test' })).json();
    const checkIn = await t.app.inject({
      method: 'PATCH',
      url: `/api/bookings/${inside.booking_id}/status`,
      headers: op.headers,
      payload: { status: 'checked_in', force: true },
    });
    expect(checkIn.statusCode, checkIn.body).toBe(200);

    const res = await events.get(`/${eventId}/cancellation-preview`);
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json();
    expect(preview).toMatchObject({
      event_id: eventId,
      status: 'approved',
      cancelled_bookings: 3,
      refunded_bookings: 1,
      refund_pence: 4000,
      kept_checked_in: 1,
    });
    const byId = new Map(preview.bookings.map((b: { id: string }) => [b.id, b]));
    expect(byId.get(paid.booking_id)).toMatchObject({
      status: 'confirmed',
      guest_email: 'paid@example.test',
      ticket_name: 'Standard',
      quantity: 2,
      paid_pence: 4000,
      refund_pence: 4000,
      outcome: 'refund',
    });
    expect(byId.get(unpaid.booking_id)).toMatchObject({ status: 'pending_payment', refund_pence: 0, outcome: 'release_payment' });
    expect(byId.get(freeBooking.booking_id)).toMatchObject({ ticket_name: 'Guest list', quantity: 1, refund_pence: 0, outcome: 'cancel' });
    expect(byId.has(inside.booking_id)).toBe(false);

    // Reading it moved nothing.
    expect((await events.get(`/${eventId}`)).json().data.status).toBe('approved');
    expect(await bookingRow(t, paid.booking_id)).toMatchObject({ status: 'confirmed', refunded_pence: 0 });

    // The cascade does what the preview said; afterwards nothing is left to cancel.
    expect((await events.patch(`/${eventId}/status`, { status: 'cancelled' })).json()).toMatchObject({ cancelled_bookings: 3 });
    expect(await bookingRow(t, paid.booking_id)).toMatchObject({ status: 'cancelled', refunded_pence: 4000 });
    expect(await bookingRow(t, inside.booking_id)).toMatchObject({ status: 'checked_in' });
    expect((await events.get(`/${eventId}/cancellation-preview`)).json()).toMatchObject({
      status: 'cancelled',
      bookings: [],
      cancelled_bookings: 0,
      refund_pence: 0,
      kept_checked_in: 1,
    });
  });

  it('a partly refunded booking would be refunded only what is left', async () => {
    const { op, events, eventId, ticketTypeId } = await onSale(t, { price_pence: 1500 });
    const paid = await buyPaid(t, eventId, ticketTypeId, 2);
    await finalize(t, eventId, paid.payment_intent_id);
    await t.db.kysely
      .updateTable('bookings')
      .set({ refunded_pence: 1000, payment_status: 'partially_refunded' })
      .where('id', '=', paid.booking_id)
      .execute();
    expect(op.operatorId).toBeTruthy();
    expect((await events.get(`/${eventId}/cancellation-preview`)).json()).toMatchObject({
      refund_pence: 2000,
      bookings: [{ id: paid.booking_id, paid_pence: 3000, refund_pence: 2000, outcome: 'refund' }],
    });
  });

  it('an event without bookings would cancel nothing', async () => {
    const { venueId, events } = await setupEvents(t);
    const id = await createEvent(events, venueId);
    expect((await events.get(`/${id}/cancellation-preview`)).json()).toEqual({
      event_id: id,
      status: 'draft',
      bookings: [],
      cancelled_bookings: 0,
      refunded_bookings: 0,
      refund_pence: 0,
      kept_checked_in: 0,
    });
  });

  it('answers 401 without a session, 403 without events read, 404 for another account, a venue outside the role or no event', async () => {
    const { op, venueId, events } = await setupEvents(t);
    const id = await createEvent(events, venueId);
    const otherVenue = await insertVenue(t, op.operatorId);
    const there = await createEvent(events, otherVenue);
    const url = (eventId: string) => `/${eventId}/cancellation-preview`;

    expect((await eventsApi(t, {}).get(url(id))).statusCode).toBe(401);
    expect((await eventsApi(t, (await createStaff(t, op, { tables: 'write' })).headers).get(url(id))).statusCode).toBe(403);
    expect((await eventsApi(t, (await createStaff(t, op, { bookings: 'read' })).headers).get(url(id))).statusCode).toBe(403);
    expect((await eventsApi(t, (await createStaff(t, op, { events: 'read' })).headers).get(url(id))).statusCode).toBe(200);
    expect((await eventsApi(t, (await createOperator(t)).headers).get(url(id))).statusCode).toBe(404);
    const scoped = eventsApi(t, (await createStaff(t, op, { events: 'read' }, [venueId])).headers);
    expect((await scoped.get(url(id))).statusCode).toBe(200);
    expect((await scoped.get(url(there))).statusCode).toBe(404);
    expect((await events.get(url('evt_missing'))).statusCode).toBe(404);
  });
});
