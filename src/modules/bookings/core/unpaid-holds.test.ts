/**
 * Unpaid deposit holds (security round 2, finding 7): a deposit booking keeps its table for 10 minutes
 * awaiting payment, and a client address may keep at most 3, an email at most 2, live unpaid holds at
 * one venue (429 with Retry-After until the oldest lapses).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_NOW, type TestApp } from '../../../../test/helpers/app.js';
import { depositVenue } from '../public/deposits.test-support.js';

let t: TestApp;
let venueId: string;
let ruleId: string;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'public_booking=1000/60' });
  ({ venueId, ruleId } = await depositVenue(t, { tables: 6 }));
});
afterAll(async () => t.close());

const book = (address: string, email: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/public/venues/${venueId}/book`,
    remoteAddress: address,
    payload: {
      access_rule_id: ruleId,
      rule_type: 'table',
      date: '2026-07-03',
      time: '19:00',
      party_size: 2,
      guest_name: 'Holder',
      guest_email: email,
    },
  });

describe('unpaid deposit holds', () => {
  it('caps live unpaid holds per client address and per email; they lapse after 10 minutes', async () => {
    t.clock.set(TEST_NOW);
    const address = '198.51.100.40';
    for (const n of [1, 2, 3]) {
      const held = await book(address, `deposit${n}@example.test`);
      expect(held.statusCode, held.body).toBe(200);
      expect(held.json().requires_payment).toBe(true);
      const row = await t.db.kysely.selectFrom('bookings').selectAll().where('id', '=', held.json().booking_id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'pending_payment', payment_expires_at: '2026-06-15T12:10:00.000Z', hold_address: address });
    }
    const fourth = await book(address, 'deposit4@example.test');
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toMatchObject({ error: 'Too many requests. Please try again later.', reason: 'unpaid_holds' });
    expect(fourth.headers['retry-after']).toBe('600');

    expect((await book('198.51.100.41', 'twice@example.test')).statusCode).toBe(200);
    expect((await book('198.51.100.42', 'TWICE@example.test')).statusCode).toBe(200);
    expect((await book('198.51.100.43', 'twice@example.test')).statusCode).toBe(429);

    t.clock.advance(10 * 60_000);
    expect((await book(address, 'deposit4@example.test')).statusCode).toBe(200);
  });
});
