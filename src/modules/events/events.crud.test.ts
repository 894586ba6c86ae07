/**
 * Events CRUD over HTTP on both engines: required fields, the caller's venue, the same-day clash (409
 * with `conflict`), read-back, the edit rules, delete, the listing request and withdrawal, and the
 * 401/403/404 answers of each route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, type TestApp } from '../../../test/helpers/app.js';
import { addTicketType, buy, createEvent, EVENT_DATE, eventsApi, onSale, setupEvents } from './events.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('POST /api/my-events', () => {
  it('creates a draft and reads it back with every field', async () => {
    const { venueId, events } = await setupEvents(t);
    const res = await events.post('', {
      venue_id: venueId,
      name: '  Disco Inferno ',
      event_date: EVENT_DATE,
      start_time: '21:00',
      end_time: '02:00',
      last_entry_time: '00:30',
      event_type: 'club_night',
      event_genre: 'disco',
      description: 'All night long',
      guest_list_capacity: 120,
      visibility: 'public',
      event_mode: 'ticketed',
      image_url: 'https://images.example/disco.jpg',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, id: expect.stringMatching(/^evt_/), cancelled_bookings: 0 });
    const read = await events.get(`/${res.json().id}`);
    expect(read.json().data).toMatchObject({
      id: res.json().id,
      venue_id: venueId,
      venue_name: 'Test Venue',
      name: 'Disco Inferno',
      event_date: EVENT_DATE,
      start_time: '21:00',
      end_time: '02:00',
      last_entry_time: '00:30',
      event_type: 'club_night',
      event_genre: 'disco',
      description: 'All night long',
      guest_list_capacity: 120,
      committed_guests: 0,
      status: 'draft',
      visibility: 'public',
      event_mode: 'ticketed',
      image_url: 'https://images.example/disco.jpg',
      image_attribution: null,
      app_listing_status: 'none',
    });
    const list = (await events.get('')).json();
    expect(list).toMatchObject({ total: 1, limit: 50, offset: 0, has_more: false });
    expect(list.data[0]).toMatchObject({ id: res.json().id, venue_name: 'Test Venue', committed_guests: 0 });
  });

  it.each([
    ['without venue_id', { name: 'X', event_date: EVENT_DATE }],
    ['without name', { event_date: EVENT_DATE }],
    ['with a blank name', { name: '  ', event_date: EVENT_DATE }],
    ['without event_date', { name: 'X' }],
    ['with an impossible date', { name: 'X', event_date: '2026-02-30' }],
    ['with a bad clock time', { name: 'X', event_date: EVENT_DATE, start_time: '25:00' }],
    ['with a negative capacity', { name: 'X', event_date: EVENT_DATE, guest_list_capacity: -1 }],
    ['with visibility other than public', { name: 'X', event_date: EVENT_DATE, visibility: 'private' }],
    ['with an unknown status', { name: 'X', event_date: EVENT_DATE, status: 'cancelled' }],
  ])('refuses a body %s (400)', async (label, body) => {
    const { venueId, events } = await setupEvents(t);
    const res = await events.post('', label === 'without venue_id' ? body : { venue_id: venueId, ...body });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toEqual(expect.any(String));
  });

  it('refuses a venue of another account or outside the role (404)', async () => {
    const { events } = await setupEvents(t);
    const other = await createOperator(t);
    const foreign = await insertVenue(t, other.operatorId);
    expect((await events.post('', { venue_id: foreign, name: 'X', event_date: EVENT_DATE })).statusCode).toBe(404);
    expect((await events.post('', { venue_id: 'ven_missing', name: 'X', event_date: EVENT_DATE })).statusCode).toBe(404);
  });

  it('refuses approved on a date held by an approved or pending event: 409 with the conflict', async () => {
    const { venueId, events } = await setupEvents(t);
    const first = await createEvent(events, venueId, { name: 'First', status: 'approved' });
    const res = await events.post('', { venue_id: venueId, name: 'Second', event_date: EVENT_DATE, status: 'approved' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ request_id: expect.any(String), error: expect.any(String), conflict: { event_id: first, name: 'First' } });

    // A draft on the same date is fine; a pending submission holds the date like an approved event.
    await createEvent(events, venueId, { name: 'Draft' });
    const pending = await createEvent(events, venueId, { name: 'Submitted', event_date: '2026-07-11', status: 'pending_venue_approval' });
    const clash = await events.post('', { venue_id: venueId, name: 'Third', event_date: '2026-07-11', status: 'approved' });
    expect(clash.json()).toEqual({
      request_id: expect.any(String),
      error: expect.any(String),
      conflict: { event_id: pending, name: 'Submitted' },
    });
    // Another venue's date is free.
    const otherVenue = await insertVenue(t, (await eventsOwner(events)).operatorId);
    expect(
      (await events.post('', { venue_id: otherVenue, name: 'Elsewhere', event_date: EVENT_DATE, status: 'approved' })).statusCode,
    ).toBe(200);
  });
});

/** The account of an events API (its venues), from its first event. */
async function eventsOwner(events: ReturnType<typeof eventsApi>) {
  const first = (await events.get('')).json().data[0];
  const row = await t.db.kysely.selectFrom('events').select('operator_id').where('id', '=', first.id).executeTakeFirstOrThrow();
  return { operatorId: row.operator_id };
}

describe('PUT /api/my-events/:id', () => {
  it('changes the fields sent and keeps the rest; venue_id is fixed', async () => {
    const { venueId, events } = await setupEvents(t);
    const id = await createEvent(events, venueId, { description: 'Keep me' });
    expect((await events.put(`/${id}`, { name: 'Renamed', event_date: '2026-07-17', end_time: '03:00' })).json()).toEqual({
      success: true,
    });
    expect((await events.get(`/${id}`)).json().data).toMatchObject({
      name: 'Renamed',
      event_date: '2026-07-17',
      end_time: '03:00',
      description: 'Keep me',
    });
    expect((await events.put(`/${id}`, { venue_id: venueId })).statusCode).toBe(200);
    const moved = await events.put(`/${id}`, { venue_id: await insertVenue(t, (await eventsOwner(events)).operatorId) });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().error).toMatch(/venue_id/);
    expect((await events.get(`/${id}`)).json().data.venue_id).toBe(venueId);
  });

  it('freezes the date and times once the event has bookings, and keeps capacity above committed guests', async () => {
    const { eventId, ticketTypeId, events } = await onSale(t, {}, { guest_list_capacity: 10 });
    expect((await events.put(`/${eventId}`, { start_time: '22:00' })).statusCode).toBe(200);
    expect((await buy(t, eventId, ticketTypeId, { quantity: 3 })).json()).toMatchObject({ free: true });

    for (const change of [{ event_date: '2026-07-11' }, { start_time: '23:00' }, { end_time: '04:00' }, { last_entry_time: '01:00' }]) {
      const res = await events.put(`/${eventId}`, change);
      expect(res.statusCode, JSON.stringify(change)).toBe(409);
    }
    // The same values are not a change.
    expect((await events.put(`/${eventId}`, { event_date: EVENT_DATE, start_time: '22:00', name: 'Same night' })).statusCode).toBe(200);

    const below = await events.put(`/${eventId}`, { guest_list_capacity: 2 });
    expect(below.statusCode).toBe(409);
    expect(below.json()).toMatchObject({ committed_guests: 3 });
    expect((await events.put(`/${eventId}`, { guest_list_capacity: 3 })).statusCode).toBe(200);
    expect((await events.put(`/${eventId}`, { guest_list_capacity: null })).statusCode).toBe(200);
    expect((await events.get(`/${eventId}`)).json().data).toMatchObject({
      committed_guests: 3,
      guest_list_capacity: null,
      name: 'Same night',
    });
  });

  it('refuses moving an approved event onto a date another event holds (409 with conflict)', async () => {
    const { venueId, events } = await setupEvents(t);
    const holder = await createEvent(events, venueId, { name: 'Holder', event_date: '2026-08-01', status: 'approved' });
    const id = await createEvent(events, venueId, { name: 'Mover', status: 'approved' });
    const res = await events.put(`/${id}`, { event_date: '2026-08-01' });
    expect(res.statusCode).toBe(409);
    expect(res.json().conflict).toEqual({ event_id: holder, name: 'Holder' });
    // A draft may share the date.
    const draft = await createEvent(events, venueId, { name: 'Draft' });
    expect((await events.put(`/${draft}`, { event_date: '2026-08-01' })).statusCode).toBe(200);
  });
});

describe('DELETE /api/my-events/:id', () => {
  it('deletes an unpublished event without bookings; refuses a published one and one with bookings (409)', async () => {
    const { venueId, events } = await setupEvents(t);
    const draft = await createEvent(events, venueId);
    expect((await events.del(`/${draft}`)).json()).toEqual({ success: true });
    expect((await events.get(`/${draft}`)).statusCode).toBe(404);

    const live = await createEvent(events, venueId, { status: 'approved', event_date: '2026-09-01' });
    expect((await events.del(`/${live}`)).statusCode).toBe(409);

    const ticket = await addTicketType(events, live);
    expect((await buy(t, live, ticket)).statusCode).toBe(200);
    expect((await events.patch(`/${live}/status`, { status: 'cancelled' })).json()).toMatchObject({ cancelled_bookings: 1 });
    const withBookings = await events.del(`/${live}`);
    expect(withBookings.statusCode).toBe(409);
    expect(withBookings.json()).toMatchObject({ bookings: 1 });
  });
});

describe('listing requests', () => {
  it('requests a listing of an approved event only, and withdraws only a pending one', async () => {
    const { venueId, events } = await setupEvents(t);
    const draft = await createEvent(events, venueId);
    expect((await events.post(`/${draft}/request-listing`)).statusCode).toBe(409);
    const live = await createEvent(events, venueId, { status: 'approved' });
    expect((await events.post(`/${live}/withdraw-listing`)).statusCode).toBe(409);
    expect((await events.post(`/${live}/request-listing`)).json()).toEqual({ app_listing_status: 'pending' });
    expect((await events.get(`/${live}`)).json().data.app_listing_status).toBe('pending');
    expect((await events.post(`/${live}/withdraw-listing`)).json()).toEqual({ success: true });
    expect((await events.get(`/${live}`)).json().data.app_listing_status).toBe('none');
    expect((await events.post(`/${live}/withdraw-listing`)).statusCode).toBe(409);
  });
});

describe('access', () => {
  it('answers 401 without a session, 403 without the permission, 404 for another account’s event', async () => {
    const { op, venueId, events } = await setupEvents(t);
    const id = await createEvent(events, venueId);
    const ticket = await addTicketType(events, id);
    const routes: [string, string, object?][] = [
      ['GET', '/api/my-events'],
      ['GET', `/api/my-venues/${venueId}/events`],
      ['POST', '/api/my-events', { venue_id: venueId, name: 'X', event_date: EVENT_DATE }],
      ['GET', `/api/my-events/${id}`],
      ['PUT', `/api/my-events/${id}`, { name: 'Y' }],
      ['PATCH', `/api/my-events/${id}/status`, { status: 'draft' }],
      ['POST', `/api/my-events/${id}/approve`],
      ['POST', `/api/my-events/${id}/reject`],
      ['POST', `/api/my-events/${id}/request-listing`],
      ['POST', `/api/my-events/${id}/withdraw-listing`],
      ['DELETE', `/api/my-events/${id}`],
      ['GET', `/api/my-events/${id}/stats`],
      ['GET', `/api/my-events/${id}/bookings`],
      ['GET', `/api/events/conflict-check?venue_id=${venueId}&date=${EVENT_DATE}`],
      ['POST', '/api/my-events/image', { data: 'x' }],
      ['POST', '/api/my-events/generate-image', { name: 'X' }],
      ['GET', `/api/my-events/${id}/ticket-types`],
      ['POST', `/api/my-events/${id}/ticket-types`, { name: 'VIP' }],
      ['PUT', `/api/my-events/${id}/ticket-types/${ticket}`, { name: 'VIP' }],
      ['DELETE', `/api/my-events/${id}/ticket-types/${ticket}`],
    ];
    const noRole = await createStaff(t, op, { tables: 'write' });
    const readOnly = await createStaff(t, op, { events: 'read' });
    const other = await createOperator(t);
    for (const [method, url, payload] of routes) {
      const as = (headers: Record<string, string>) => eventsApi(t, headers).raw(method as 'GET', url, payload);
      expect((await as({})).statusCode, `${method} ${url} anonymous`).toBe(401);
      expect((await as(noRole.headers)).statusCode, `${method} ${url} without events`).toBe(403);
      const isRead = method === 'GET';
      if (!isRead) expect((await as(readOnly.headers)).statusCode, `${method} ${url} read-only`).toBe(403);
      if (url !== '/api/my-events' && !url.endsWith('/image') && !url.endsWith('/generate-image')) {
        expect((await as(other.headers)).statusCode, `${method} ${url} other account`).toBe(404);
      }
    }
  });

  it('limits a venue-scoped role to its venues (404 elsewhere) and lets an organiser read stats, the door list and conflicts', async () => {
    const { op, venueId, events } = await setupEvents(t);
    const otherVenue = await insertVenue(t, op.operatorId);
    const here = await createEvent(events, venueId);
    const there = await createEvent(events, otherVenue);
    const scoped = eventsApi(t, (await createStaff(t, op, { events: 'write' }, [venueId])).headers);
    expect((await scoped.get('')).json().data.map((e: { id: string }) => e.id)).toEqual([here]);
    expect((await scoped.get(`/${there}`)).statusCode).toBe(404);
    expect((await scoped.put(`/${there}`, { name: 'No' })).statusCode).toBe(404);
    expect((await scoped.post('', { venue_id: otherVenue, name: 'No', event_date: EVENT_DATE })).statusCode).toBe(404);
    expect((await scoped.raw('GET', `/api/my-venues/${otherVenue}/events`)).statusCode).toBe(404);

    const door = eventsApi(t, (await createStaff(t, op, { bookings: 'read' })).headers);
    expect((await door.get(`/${here}/stats`)).statusCode).toBe(200);
    expect((await door.get(`/${here}/bookings`)).statusCode).toBe(200);
    expect((await door.raw('GET', `/api/events/conflict-check?venue_id=${venueId}&date=${EVENT_DATE}`)).statusCode).toBe(200);
    expect((await door.get(`/${here}`)).statusCode).toBe(403);
    expect((await door.get('')).statusCode).toBe(403);
  });
});
