/**
 * Unpaid ticket holds (security round 2, finding 7): tickets per order capped by the ticket type's
 * `max_per_order` (default 10), live unpaid holds capped per client address and per email at a venue
 * (429 with Retry-After until the oldest lapses), and the hold itself 10 minutes long.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_NOW, type TestApp } from '../../../test/helpers/app.js';
import { bookingRow, buy, onSale } from './events.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'event_tickets=1000/60' });
});
afterAll(async () => t.close());

const options = async (eventId: string) => (await t.app.inject({ url: `/api/public/events/${eventId}/booking-options` })).json();

describe('tickets per order', () => {
  it('refuses more than the ticket type’s max_per_order (default 10) in one order, and the venue can change it', async () => {
    const { eventId, ticketTypeId, events } = await onSale(t, { name: 'Standard', price_pence: 1000, capacity: 100 });
    const fifty = await buy(t, eventId, ticketTypeId, { quantity: 50, email: 'bulk@example.test' });
    expect(fifty.statusCode).toBe(400);
    expect(fifty.json()).toEqual({ request_id: expect.any(String), error: 'At most 10 tickets of this type per order', max_per_order: 10 });
    expect((await buy(t, eventId, ticketTypeId, { quantity: 11, email: 'bulk@example.test' })).statusCode).toBe(400);
    expect((await options(eventId)).ticket_types[0]).toMatchObject({ id: ticketTypeId, max_per_order: 10, remaining: 100 });
    expect((await buy(t, eventId, ticketTypeId, { quantity: 10, email: 'ten@example.test' })).statusCode).toBe(200);

    expect((await events.put(`/${eventId}/ticket-types/${ticketTypeId}`, { name: 'Standard', max_per_order: 4 })).statusCode).toBe(200);
    expect((await events.get(`/${eventId}/ticket-types`)).json().data[0]).toMatchObject({ max_per_order: 4 });
    expect((await buy(t, eventId, ticketTypeId, { quantity: 5, email: 'five@example.test' })).json().max_per_order).toBe(4);
    expect((await events.put(`/${eventId}/ticket-types/${ticketTypeId}`, { name: 'Standard', max_per_order: 0 })).statusCode).toBe(400);
    expect((await events.put(`/${eventId}/ticket-types/${ticketTypeId}`, { name: 'Standard', max_per_order: 51 })).statusCode).toBe(400);
  });
});

describe('unpaid holds', () => {
  it('two anonymous requests can no longer hold a whole event: holds per address and per email are capped (429)', async () => {
    t.clock.set(TEST_NOW);
    const { eventId, ticketTypeId } = await onSale(t, { name: 'Standard', price_pence: 1000, capacity: 100 });
    const address = '198.51.100.20';
    for (const n of [1, 2, 3]) {
      const held = await buy(t, eventId, ticketTypeId, { quantity: 10, ip: address, email: `holder${n}@example.test` });
      expect(held.statusCode, held.body).toBe(200);
      expect(await bookingRow(t, held.json().booking_id)).toMatchObject({
        status: 'pending_payment',
        payment_expires_at: new Date(Date.parse(TEST_NOW) + 10 * 60_000).toISOString(),
      });
    }
    const fourth = await buy(t, eventId, ticketTypeId, { quantity: 10, ip: address, email: 'holder4@example.test' });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({ error: 'Too many requests. Please try again later.', reason: 'unpaid_holds' });
    expect(fourth.headers['retry-after']).toBe('600');

    // The same email from other addresses: two holds, not three.
    expect((await buy(t, eventId, ticketTypeId, { ip: '198.51.100.21', email: 'Same@Example.test' })).statusCode).toBe(200);
    expect((await buy(t, eventId, ticketTypeId, { ip: '198.51.100.22', email: 'same@example.test' })).statusCode).toBe(200);
    const third = await buy(t, eventId, ticketTypeId, { ip: '198.51.100.23', email: 'SAME@example.test' });
    expect(third.statusCode).toBe(429);
    expect((await options(eventId)).ticket_types[0].remaining).toBe(68);

    // Once the holds lapse (10 minutes), the address may hold again.
    t.clock.advance(9 * 60_000);
    expect((await buy(t, eventId, ticketTypeId, { ip: address, email: 'holder5@example.test' })).statusCode).toBe(429);
    t.clock.advance(60_000);
    expect((await buy(t, eventId, ticketTypeId, { ip: address, email: 'holder5@example.test' })).statusCode).toBe(200);
  });

  it('counts per venue, and free tickets are not holds', async () => {
    t.clock.set(TEST_NOW);
    const address = '198.51.100.30';
    const first = await onSale(t, { name: 'Paid', price_pence: 500 });
    for (const n of [1, 2, 3])
      expect((await buy(t, first.eventId, first.ticketTypeId, { ip: address, email: `v${n}@example.test` })).statusCode).toBe(200);
    const free = await onSale(t, { name: 'Free', price_pence: 0 });
    for (const n of [1, 2, 3, 4])
      expect((await buy(t, free.eventId, free.ticketTypeId, { ip: address, email: `f${n}@example.test` })).statusCode).toBe(200);
    const other = await onSale(t, { name: 'Elsewhere', price_pence: 500 });
    expect((await buy(t, other.eventId, other.ticketTypeId, { ip: address, email: 'v1@example.test' })).statusCode).toBe(200);
  });
});
