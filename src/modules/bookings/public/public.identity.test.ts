/**
 * A typed email is a contact address, never proof of identity (security round 2, finding 1), for public
 * table bookings: an anonymous caller typing the email of a VIP (tagged, with visits) books at the public
 * price with the status a stranger gets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuest, createTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { insertAccessRule } from '../../../../test/helpers/rows.js';
import { depositVenue } from './deposits.test-support.js';
import { insertBooking } from '../core/bookings.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'public_booking=1000/60' });
});
afterAll(async () => t.close());

const FRIDAY = '2026-06-19';

/** The answer without what differs between any two bookings (ids, links, the payment's secret). */
const outcome = (body: Record<string, unknown>) => {
  const {
    booking_id: _b,
    reference: _r,
    manage_url: _m,
    payment_client_secret: _s,
    client_secret: _c,
    payment_intent_id: _p,
    ...rest
  } = body;
  return rest;
};

describe('public table bookings: a VIP’s email typed by anyone earns nothing', () => {
  it('books at the public price with a stranger’s status, with and without a deposit', async () => {
    const { operatorId, venueId, ruleId: depositRule } = await depositVenue(t);
    const freeRule = await insertAccessRule(t, venueId, { name: 'Dinner', rule_type: 'table', days_of_week: '["fri"]' });
    // The VIP: tagged at the operator, with three visits.
    const vip = await createGuest(t, 'Vera VIP');
    await t.db.kysely
      .insertInto('guest_tags')
      .values({ operator_id: operatorId, user_id: vip.userId, venue_id: '', tag: 'vip', created_at: t.clock.now().toISOString() })
      .execute();
    for (let i = 0; i < 3; i++) await insertBooking(t, operatorId, venueId, { user_id: vip.userId, status: 'checked_in' });

    const book = (rule: string, time: string, email: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/public/venues/${venueId}/book`,
        payload: { access_rule_id: rule, rule_type: 'table', date: FRIDAY, time, party_size: 2, guest_name: 'Someone', guest_email: email },
      });
    for (const [rule, expected] of [
      [freeRule, { ok: true, status: 'confirmed' }],
      [depositRule, { requires_payment: true, amount_pence: 2000 }],
    ] as const) {
      const stranger = await book(rule, '18:00', `stranger-${rule}@example.test`);
      const impostor = await book(rule, '18:00', vip.email);
      expect(stranger.statusCode, stranger.body).toBe(200);
      expect(impostor.statusCode, impostor.body).toBe(200);
      expect(outcome(stranger.json())).toMatchObject(expected);
      expect(outcome(impostor.json())).toEqual(outcome(stranger.json()));
      const rows = await t.db.kysely
        .selectFrom('bookings')
        .select(['status', 'total_pence', 'deposit_pence'])
        .where('id', 'in', [stranger.json().booking_id, impostor.json().booking_id])
        .execute();
      expect(rows[0]).toEqual(rows[1]);
    }
  });
});
