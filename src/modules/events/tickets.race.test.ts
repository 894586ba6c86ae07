/**
 * Overselling under concurrency, in one process on both engines: 30 purchases race for the last 3
 * tickets of a type (free, and paid where unpaid reservations hold tickets too), and purchases of two
 * ticket types race for the last places of the event's guest_list_capacity. Exactly what is left sells.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { addTicketType, buy, onSale } from './events.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const held = async (eventId: string) => {
  const rows = await t.db.kysely
    .selectFrom('event_tickets')
    .innerJoin('bookings', 'bookings.id', 'event_tickets.booking_id')
    .select(['event_tickets.ticket_type_id', 'event_tickets.quantity'])
    .where('event_tickets.event_id', '=', eventId)
    .where('bookings.status', 'in', ['pending', 'pending_payment', 'approved', 'confirmed', 'checked_in'])
    .execute();
  return rows.reduce((sum, row) => sum + row.quantity, 0);
};

describe('racing for the last tickets', () => {
  it.each([
    ['free', 0],
    ['paid', 1500],
  ])('30 concurrent %s purchases of the last 3 tickets sell exactly 3', async (_label, price) => {
    const { eventId, ticketTypeId } = await onSale(t, { capacity: 10, price_pence: price });
    expect((await buy(t, eventId, ticketTypeId, { quantity: 7 })).statusCode).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => buy(t, eventId, ticketTypeId, { email: `racer${i}@example.test` })),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(3);
    expect(codes.filter((c) => c === 409)).toHaveLength(27);
    expect(answers.find((a) => a.statusCode === 409)!.json()).toMatchObject({ remaining: 0 });
    expect(await held(eventId)).toBe(10);
  });

  it('purchases of two ticket types never overfill the event’s guest_list_capacity', async () => {
    const { events, eventId, ticketTypeId } = await onSale(t, {}, { guest_list_capacity: 5 });
    const second = await addTicketType(events, eventId, { name: 'VIP', price_pence: 2500 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => buy(t, eventId, i % 2 ? second : ticketTypeId, { quantity: 2, email: `pair${i}@example.test` })),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(2);
    expect(await held(eventId)).toBe(4);
    const last = await buy(t, eventId, ticketTypeId, { quantity: 1 });
    expect(last.statusCode).toBe(200);
    expect((await buy(t, eventId, ticketTypeId, { quantity: 1 })).json()).toMatchObject({ remaining: 0 });
  });
});
