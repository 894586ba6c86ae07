/**
 * A typed email is a contact address, never proof of identity (security round 2, finding 1): an anonymous
 * buyer who types a VIP's email is priced and approved exactly like a stranger; the VIP's perks (tags, visits)
 * apply only when the VIP is signed in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuest, createTestApp, insertVenueRow, type TestApp } from '../../../test/helpers/app.js';
import { insertBooking } from '../bookings/core/bookings.test-support.js';
import { addTicketType, bookingRow, buy, onSale } from './events.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** The answer without what differs between any two purchases (ids, the payment's secrets). */
const outcome = (body: Record<string, unknown>) => {
  const { booking_id: _b, payment_intent_id: _p, client_secret: _c, ...rest } = body;
  return rest;
};

async function vipSale(rule: Record<string, unknown>) {
  const sale = await onSale(t);
  const group = await insertVenueRow(t, 'admission_groups', sale.venueId, { name: 'Regulars' }, 'agr');
  await insertVenueRow(
    t,
    'admission_rules',
    sale.venueId,
    { group_id: group, name: 'VIP', act_autoapprove_enabled: 1, act_discount_enabled: 1, act_discount_pct: 50, ...rule },
    'arl',
  );
  const typeId = await addTicketType(sale.events, sale.eventId, { name: 'VIP', price_pence: 2000, admission_rule_group_id: group });
  const vip = await createGuest(t, 'Vera VIP');
  return { ...sale, typeId, vip };
}

describe('create-intent: perks only for a signed-in guest', () => {
  it('an anonymous buyer typing a tagged VIP’s email gets the public price and a pending request, like a stranger', async () => {
    const { op, eventId, typeId, vip } = await vipSale({ cond_tags_enabled: 1, cond_tags: '["vip"]' });
    await t.db.kysely
      .insertInto('guest_tags')
      .values({ operator_id: op.operatorId, user_id: vip.userId, venue_id: '', tag: 'vip', created_at: t.clock.now().toISOString() })
      .execute();

    const stranger = await buy(t, eventId, typeId, { email: 'stranger@example.test' });
    const impostor = await buy(t, eventId, typeId, { email: vip.email.toUpperCase() });
    expect(stranger.statusCode, stranger.body).toBe(200);
    expect(impostor.statusCode, impostor.body).toBe(200);
    expect(outcome(stranger.json())).toEqual({ requires_confirmation: true, status: 'pending', amount_pence: 2000 });
    expect(outcome(impostor.json())).toEqual(outcome(stranger.json()));
    const row = await bookingRow(t, impostor.json().booking_id);
    expect({ status: row.status, total_pence: row.total_pence }).toEqual({ status: 'pending', total_pence: 2000 });

    // The VIP signed in gets the perks: auto-approved at half price, awaiting payment.
    const signedIn = await buy(t, eventId, typeId, { email: vip.email, headers: vip.headers });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(outcome(signedIn.json())).toEqual({ requires_payment: true, status: 'pending_payment', amount_pence: 1000 });
    expect((await bookingRow(t, signedIn.json().booking_id)).user_id).toBe(vip.userId);
  });

  it('a "N visits" rule counts only a signed-in guest’s visits, never those of the email typed', async () => {
    const { op, venueId, eventId, typeId, vip } = await vipSale({ cond_bookings_enabled: 1, cond_bookings_min: 2 });
    for (let i = 0; i < 3; i++) await insertBooking(t, op.operatorId, venueId, { user_id: vip.userId, status: 'checked_in' });

    const stranger = await buy(t, eventId, typeId, { email: 'new-face@example.test' });
    const impostor = await buy(t, eventId, typeId, { email: vip.email });
    expect(outcome(impostor.json())).toEqual(outcome(stranger.json()));
    expect(outcome(impostor.json())).toEqual({ requires_confirmation: true, status: 'pending', amount_pence: 2000 });

    const signedIn = await buy(t, eventId, typeId, { email: 'any-contact@example.test', headers: vip.headers });
    expect(outcome(signedIn.json())).toEqual({ requires_payment: true, status: 'pending_payment', amount_pence: 1000 });
  });
});
