/**
 * Ticket types over HTTP on both engines: create and read back in order, the venue-scoped profile and
 * admission-group references (400 otherwise; detached when those are deleted), capacity never below
 * the tickets sold, delete refused once sold, and 404 for another event's or account's ticket type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, venueApi, type TestApp } from '../../../test/helpers/app.js';
import { addTicketType, buy, createEvent, eventsApi, onSale, setupEvents } from './events.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('ticket types', () => {
  it('creates, lists by sort_order and updates; capacity null is unlimited', async () => {
    const { venueId, events } = await setupEvents(t);
    const eventId = await createEvent(events, venueId);
    const late = await addTicketType(events, eventId, { name: 'Late', price_pence: 1500, capacity: 100, sort_order: 2 });
    const early = await addTicketType(events, eventId, { name: 'Early', price_pence: 1000, sort_order: 1 });
    const list = (await events.get(`/${eventId}/ticket-types`)).json().data;
    expect(list).toEqual([
      {
        id: early,
        event_id: eventId,
        name: 'Early',
        price_pence: 1000,
        capacity: null,
        sort_order: 1,
        max_per_order: 10,
        admission_rule_group_id: null,
        ticket_profile_id: null,
        sold: 0,
      },
      expect.objectContaining({ id: late, name: 'Late', capacity: 100, sort_order: 2 }),
    ]);
    expect((await events.put(`/${eventId}/ticket-types/${late}`, { name: 'Door', capacity: null })).json()).toEqual({ success: true });
    expect((await events.get(`/${eventId}/ticket-types`)).json().data[1]).toMatchObject({
      name: 'Door',
      capacity: null,
      price_pence: 1500,
    });
  });

  it.each([
    [{}],
    [{ name: '' }],
    [{ name: '   ' }],
    [{ name: 'X', price_pence: -1 }],
    [{ name: 'X', capacity: -5 }],
    [{ name: 'X', price_pence: 1.5 }],
  ])('refuses %j (400)', async (body) => {
    const { venueId, events } = await setupEvents(t);
    const eventId = await createEvent(events, venueId);
    expect((await events.post(`/${eventId}/ticket-types`, body)).statusCode).toBe(400);
  });

  it('takes only the event venue’s own ticket profile and admission group (400), and follows their deletion', async () => {
    const { venueId, events, api, op } = await setupEvents(t);
    const eventId = await createEvent(events, venueId);
    const profile = (await api.post('/ticket-profiles', { name: 'Standard' })).json().id;
    const group = (await api.post('/admission-groups', { name: 'Door' })).json().id;
    const sister = await insertVenue(t, op.operatorId);
    const sisterApi = venueApi(t, op.headers, sister);
    const foreignProfile = (await sisterApi.post('/ticket-profiles', { name: 'Elsewhere' })).json().id;
    const foreignGroup = (await sisterApi.post('/admission-groups', { name: 'Elsewhere' })).json().id;

    for (const body of [
      { ticket_profile_id: foreignProfile },
      { admission_rule_group_id: foreignGroup },
      { ticket_profile_id: 'prf_missing' },
    ]) {
      const res = await events.post(`/${eventId}/ticket-types`, { name: 'X', ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const id = await addTicketType(events, eventId, { ticket_profile_id: profile, admission_rule_group_id: group });
    expect((await events.put(`/${eventId}/ticket-types/${id}`, { name: 'X', ticket_profile_id: foreignProfile })).statusCode).toBe(400);

    expect((await api.del(`/ticket-profiles/${profile}`)).statusCode).toBe(200);
    expect((await api.del(`/admission-groups/${group}`)).statusCode).toBe(200);
    expect((await events.get(`/${eventId}/ticket-types`)).json().data[0]).toMatchObject({
      ticket_profile_id: null,
      admission_rule_group_id: null,
    });
  });

  it('keeps capacity at or above the tickets sold, and refuses deleting a type that sold (409)', async () => {
    const { eventId, ticketTypeId, events } = await onSale(t, { capacity: 10 });
    expect((await buy(t, eventId, ticketTypeId, { quantity: 4 })).statusCode).toBe(200);
    expect((await events.get(`/${eventId}/ticket-types`)).json().data[0]).toMatchObject({ sold: 4 });
    const below = await events.put(`/${eventId}/ticket-types/${ticketTypeId}`, { name: 'GA', capacity: 3 });
    expect(below.statusCode).toBe(409);
    expect(below.json()).toMatchObject({ sold: 4 });
    expect((await events.put(`/${eventId}/ticket-types/${ticketTypeId}`, { name: 'GA', capacity: 4 })).statusCode).toBe(200);
    expect((await events.del(`/${eventId}/ticket-types/${ticketTypeId}`)).statusCode).toBe(409);
    const unsold = await addTicketType(events, eventId, { name: 'Unsold' });
    expect((await events.del(`/${eventId}/ticket-types/${unsold}`)).json()).toEqual({ success: true });
    expect((await events.get(`/${eventId}/ticket-types`)).json().data).toHaveLength(1);
  });

  it('answers 404 for a ticket type of another event and for another account', async () => {
    const { venueId, events } = await setupEvents(t);
    const a = await createEvent(events, venueId);
    const b = await createEvent(events, venueId);
    const ofA = await addTicketType(events, a);
    expect((await events.put(`/${b}/ticket-types/${ofA}`, { name: 'X' })).statusCode).toBe(404);
    expect((await events.del(`/${b}/ticket-types/${ofA}`)).statusCode).toBe(404);
    expect((await events.del(`/${a}/ticket-types/tkt_missing`)).statusCode).toBe(404);
    const stranger = eventsApi(t, (await createOperator(t)).headers);
    expect((await stranger.get(`/${a}/ticket-types`)).statusCode).toBe(404);
    expect((await stranger.post(`/${a}/ticket-types`, { name: 'X' })).statusCode).toBe(404);
  });
});
