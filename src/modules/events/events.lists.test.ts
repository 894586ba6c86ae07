/**
 * The event lists, conflict check, stats and door list over HTTP on both engines: offset paging with
 * `limit`/`offset` and the 1-based `page`, cursor paging, a venue's list; conflicts and affected
 * reservations; every stats field; the door list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, insertVenue, type TestApp } from '../../../test/helpers/app.js';
import { addTicketType, buy, buyPaid, createEvent, finalize, onSale, setupEvents } from './events.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('GET /api/my-events and /api/my-venues/:id/events', () => {
  it('pages by offset, by 1-based page and by cursor, in date and time order', async () => {
    const { op, venueId, events } = await setupEvents(t);
    const ids: string[] = [];
    for (let day = 1; day <= 5; day++)
      ids.push(await createEvent(events, venueId, { name: `Night ${day}`, event_date: `2026-08-0${day}` }));
    ids.push(await createEvent(events, venueId, { name: 'Matinee', event_date: '2026-08-05', start_time: '14:00' }));
    // Same date: 14:00 before 21:00.
    const order = [...ids.slice(0, 4), ids[5], ids[4]];
    const names = (res: { json(): { data: { id: string }[] } }) => res.json().data.map((e) => e.id);

    const first = await events.get('?limit=2');
    expect(first.json()).toMatchObject({ total: 6, limit: 2, offset: 0, has_more: true });
    expect(names(first)).toEqual(order.slice(0, 2));
    expect(names(await events.get('?limit=2&offset=2'))).toEqual(order.slice(2, 4));
    const page3 = await events.get('?limit=2&page=3');
    expect(page3.json()).toMatchObject({ offset: 4, has_more: false });
    expect(names(page3)).toEqual(order.slice(4));
    expect(names(await events.get('?page=1'))).toEqual(order);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await events.get(`?paging=cursor&limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).not.toHaveProperty('total');
      seen.push(...names(res));
      cursor = res.json().cursor;
    } while (cursor);
    expect(seen).toEqual(order);

    const otherVenue = await insertVenue(t, op.operatorId);
    const elsewhere = await createEvent(events, otherVenue);
    expect((await events.get('')).json().total).toBe(7);
    const venueList = await events.raw('GET', `/api/my-venues/${venueId}/events?limit=10`);
    expect(venueList.json()).toMatchObject({ total: 6 });
    expect(names(venueList)).not.toContain(elsewhere);
  });

  it.each(['?page=0', '?page=1&offset=2', '?limit=201', '?limit=0', '?cursor=%%%', '?paging=cursor&offset=5'])(
    'refuses %s (400)',
    async (query) => {
      const { events } = await setupEvents(t);
      expect((await events.get(query)).statusCode).toBe(400);
    },
  );
});

describe('GET /api/events/conflict-check', () => {
  it('names the approved and pending events of the date and counts the reservations an event would affect', async () => {
    const { venueId, events } = await setupEvents(t);
    const approved = await createEvent(events, venueId, { name: 'On', status: 'approved' });
    const pending = await createEvent(events, venueId, { name: 'Asked', status: 'pending_venue_approval' });
    await createEvent(events, venueId, { name: 'Draft' });
    const at = t.clock.now().toISOString();
    for (const [status, guests] of [
      ['confirmed', 4],
      ['pending', 2],
      ['cancelled', 6],
    ] as const) {
      await t.db.kysely
        .insertInto('bookings')
        .values({
          id: `bkg_c${status}${venueId}`,
          operator_id: await opOf(venueId),
          venue_id: venueId,
          kind: 'table',
          status,
          booking_date: '2026-07-10',
          guest_count: guests,
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    const check = (query: string) => events.raw('GET', `/api/events/conflict-check?venue_id=${venueId}${query}`);
    const res = await check('&date=2026-07-10');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ has_event_conflict: true, events: expect.any(Array), affected_bookings: 2, affected_guests: 6 });
    expect(res.json().events).toHaveLength(2);
    expect(res.json().events).toEqual(
      expect.arrayContaining([
        { id: approved, name: 'On', status: 'approved' },
        { id: pending, name: 'Asked', status: 'pending_venue_approval' },
      ]),
    );
    expect((await check(`&date=2026-07-10&exclude_event_id=${approved}`)).json().events).toEqual([
      { id: pending, name: 'Asked', status: 'pending_venue_approval' },
    ]);
    expect((await check('&date=2026-07-11')).json()).toEqual({
      has_event_conflict: false,
      events: [],
      affected_bookings: 0,
      affected_guests: 0,
    });
    expect((await check('&date=2026-02-30')).statusCode).toBe(400);
    expect((await check('')).statusCode).toBe(400);
    expect((await events.raw('GET', '/api/events/conflict-check?venue_id=ven_missing&date=2026-07-10')).statusCode).toBe(404);
  });
});

async function opOf(venueId: string): Promise<string> {
  return (await t.db.kysely.selectFrom('venues').select('operator_id').where('id', '=', venueId).executeTakeFirstOrThrow()).operator_id;
}

describe('stats and the door list', () => {
  it('counts bookings by status, committed guests, revenue, a daily timeline and the latest bookings', async () => {
    const { op, eventId, ticketTypeId, events } = await onSale(t, { name: 'Paid', price_pence: 1000 }, { guest_list_capacity: 100 });
    const free = await addTicketType(events, eventId, { name: 'Free' });
    const paid = await buyPaid(t, eventId, ticketTypeId, 3, 'paid@example.test');
    await finalize(t, eventId, paid.payment_intent_id);
    t.clock.advance(24 * 3600_000);
    const unpaid = (await buy(t, eventId, ticketTypeId, { email: 'unpaid@example.test' })).json();
    const freeOne = (await buy(t, eventId, free, { quantity: 2, email: 'free@example.test' })).json();
    const cancelled = (await buy(t, eventId, free, { email: 'cancel@example.test' })).json();
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/bookings/${cancelled.booking_id}/staff-cancel`,
      headers: op.headers,
      payload: {},
    });
    expect(cancel.statusCode, cancel.body).toBe(200);

    const stats = (await events.get(`/${eventId}/stats`)).json();
    expect(stats).toMatchObject({
      capacity: 100,
      event_mode: 'ticketed',
      total_bookings: 4,
      active_bookings: 3,
      approved: 2,
      pending: 1,
      checked_in: 0,
      cancelled: 1,
      committed_guests: 5,
      revenue: 3000,
      timeline: [
        { date: '2026-06-15', count: 1 },
        { date: '2026-06-16', count: 3 },
      ],
    });
    expect(stats.recent).toHaveLength(4);
    expect(stats.recent[3]).toEqual({ id: paid.booking_id, status: 'confirmed', guest_count: 3, user_name: 'Ada Guest' });
    expect(stats.tickets).toEqual(
      expect.arrayContaining([
        { ticket_type_id: ticketTypeId, name: 'Paid', capacity: null, sold: 4 },
        { ticket_type_id: free, name: 'Free', capacity: null, sold: 2 },
      ]),
    );

    const door = (await events.get(`/${eventId}/bookings`)).json().data;
    expect(door.map((d: { id: string }) => d.id).sort()).toEqual(
      [paid.booking_id, unpaid.booking_id, freeOne.booking_id, cancelled.booking_id].sort(),
    );
    expect(door.find((d: { id: string }) => d.id === paid.booking_id)).toMatchObject({
      status: 'confirmed',
      guest_count: 3,
      guest_email: 'paid@example.test',
      ticket_name: 'Paid',
      quantity: 3,
      total_pence: 3000,
      payment_status: 'paid',
    });
  });
});
