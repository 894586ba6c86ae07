/**
 * An on-sale through HTTP on both engines: purchases of 1–4 tickets race for a ticket type of 20. Sales
 * of one event are written together (group commit), each counted against the ones before it: exactly 20
 * tickets are sold. Once sold out, a purchase is refused from the cached picture, before any transaction.
 * The event itself is read from memory by an on-sale's requests, until it changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { buy, onSale } from './events.test-support.js';

const TOKEN = 'on-sale-metrics-token';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN });
});
afterAll(async () => t.close());

async function refusals(): Promise<Record<string, number>> {
  const text = (await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
  const counts: Record<string, number> = { cached: 0, transaction: 0 };
  for (const match of text.matchAll(/^maitred_sold_out_refusals_total\{kind="tickets",stage="(\w+)"\} (\d+)/gm))
    counts[match[1]] = Number(match[2]);
  return counts;
}

const sold = async (ticketTypeId: string) =>
  (
    await t.db.kysely
      .selectFrom('event_tickets')
      .innerJoin('bookings', 'bookings.id', 'event_tickets.booking_id')
      .select(['event_tickets.quantity'])
      .where('event_tickets.ticket_type_id', '=', ticketTypeId)
      .where('bookings.status', '=', 'confirmed')
      .execute()
  ).reduce((sum, row) => sum + row.quantity, 0);

describe('an on-sale', () => {
  it('sells exactly the tickets there are to a crowd, then refuses from the cached picture', async () => {
    const { eventId, ticketTypeId } = await onSale(t, { capacity: 20, max_per_order: 4 });
    const quantities = [2, 4, 1, 3];
    const crowdBefore = await refusals();
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => buy(t, eventId, ticketTypeId, { quantity: quantities[i % 4], email: `fan${i}@example.test` })),
    );
    const ok = answers.filter((a) => a.statusCode === 200);
    const refused = answers.filter((a) => a.statusCode === 409);
    expect(ok.length + refused.length).toBe(60);
    expect(ok.every((a) => a.json().free === true)).toBe(true);
    expect(await sold(ticketTypeId)).toBe(20);
    for (const answer of refused) expect(answer.json()).toMatchObject({ error: 'Not enough tickets left' });
    // At most 64 tickets' orders went on to the transaction at once (the 150 asked for would have): the others
    // waited for its commit and, sold out by then, were refused from the cached picture.
    const crowdAfter = await refusals();
    expect(crowdAfter.transaction - crowdBefore.transaction).toBeLessThanOrEqual(26);
    expect(crowdAfter.cached - crowdBefore.cached).toBeGreaterThanOrEqual(refused.length - 26);

    const before = await refusals();
    const late = await buy(t, eventId, ticketTypeId, { quantity: 1, email: 'late@example.test' });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ remaining: 0 });
    const after = await refusals();
    expect(after.cached - before.cached).toBe(1);
    expect(after.transaction - before.transaction).toBe(0);
    expect(await sold(ticketTypeId)).toBe(20);
  });

  it('serves the event from memory until it changes: an event taken off sale is refused by the very next purchase', async () => {
    const { eventId, ticketTypeId } = await onSale(t, { capacity: 10 });
    expect((await buy(t, eventId, ticketTypeId, { email: 'first@example.test' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: `/api/public/events/${eventId}/booking-options` })).statusCode).toBe(200);
    await t.db.kysely.updateTable('events').set({ status: 'cancelled' }).where('id', '=', eventId).execute();
    // Not the transaction's "no longer on sale" (409): the cached event is gone, the request reads it afresh.
    const after = await buy(t, eventId, ticketTypeId, { email: 'second@example.test' });
    expect(after.statusCode, after.body).toBe(404);
    expect((await t.app.inject({ url: `/api/public/events/${eventId}/booking-options` })).statusCode).toBe(404);
    expect(await sold(ticketTypeId)).toBe(1);
  });
});
