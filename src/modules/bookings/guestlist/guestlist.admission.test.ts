/**
 * Admission rules changing a guest-list booking, through HTTP on both engines: the list profile's group
 * gives a discount (fewer keys, with a promo code on top), automatic approval (`approved`, the
 * confirmation mail), more plus-ones; conditions on the guest's bookings at the venue and on their tags
 * (through the guests module's `admissionFacts`) decide whether a rule applies at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { insertBooking } from '../core/bookings.test-support.js';
import {
  FRIDAY,
  guestlistVenue,
  guestWithKeys,
  insertAdmission,
  insertList,
  insertListProfile,
  insertPromo,
  joinList,
  ledgerOf,
} from './guestlist.test-support.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'public_booking=1000/60' });
});

afterAll(async () => {
  await t.close();
});

/** A venue (2 plus-ones by default) whose £10 paid list uses a list profile with this admission group. */
async function listWith(...rules: Record<string, unknown>[]) {
  const { op, venueId } = await guestlistVenue(t, { max_plus_ones: 2 });
  const groupId = await insertAdmission(t, venueId, ...rules);
  const profile = await insertListProfile(t, venueId, {}, groupId);
  const ruleId = await insertList(t, venueId, { list_profile_id: profile });
  return { operatorId: op.operatorId, venueId, ruleId };
}

const paid = (ruleId: string, party_size: number, extra: Record<string, unknown> = {}) => ({
  rule_id: ruleId,
  date: FRIDAY,
  party_size,
  option_kind: 'paid',
  ...extra,
});

describe('admission rules on the guest list', () => {
  it('a discount spends fewer keys, and a promo code discounts what is left', async () => {
    const { venueId, ruleId } = await listWith({ act_discount_enabled: 1, act_discount_pct: 25 });
    await insertPromo(t, venueId, { code: 'HALF', discount_pct: 50 });
    const guest = await guestWithKeys(t, 100);
    const discounted = await joinList(t, venueId, paid(ruleId, 2), guest.headers);
    expect(discounted.json()).toMatchObject({ keys_spent: 15, status: 'pending', auto_approved: false });
    // £20 less 25 % is £15, less 50 % is £7.50: 8 keys (rounded up).
    const both = await joinList(t, venueId, paid(ruleId, 2, { promo_code: 'HALF' }), guest.headers);
    expect(both.json()).toMatchObject({ keys_spent: 8 });
    expect((await ledgerOf(t, guest.userId)).balance).toBe(77);
  });

  it('auto-approval makes the booking approved and mails the confirmation', async () => {
    const { venueId, ruleId } = await listWith({ act_autoapprove_enabled: 1 });
    const guest = await guestWithKeys(t, 10);
    const res = await joinList(t, venueId, paid(ruleId, 1), guest.headers);
    expect(res.json()).toEqual({ success: true, booking_id: expect.any(String), status: 'approved', keys_spent: 10, auto_approved: true });
    const mail = await t.db.kysely.selectFrom('mail_outbox').select('subject').where('recipient', '=', guest.email).execute();
    expect(mail).toEqual([{ subject: 'Your booking at Test Venue on Friday, 19 June 2026 is confirmed' }]);
  });

  it('a plus-ones allowance admits a larger party than the venue’s', async () => {
    const { venueId, ruleId } = await listWith({ act_maxplus_enabled: 1, act_maxplus: 5 });
    const guest = await guestWithKeys(t, 100);
    expect((await joinList(t, venueId, paid(ruleId, 6), guest.headers)).json()).toMatchObject({ keys_spent: 60 });
    const tooMany = await joinList(t, venueId, paid(ruleId, 7), guest.headers);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ party_size_max: 6 });
  });

  it('a rule whose conditions the guest does not meet changes nothing; meeting them applies it', async () => {
    const { operatorId, venueId, ruleId } = await listWith({
      cond_bookings_enabled: 1,
      cond_bookings_min: 2,
      act_discount_enabled: 1,
      act_discount_pct: 50,
      act_autoapprove_enabled: 1,
      act_maxplus_enabled: 1,
      act_maxplus: 4,
    });
    const guest = await guestWithKeys(t, 100);
    const newcomer = await joinList(t, venueId, paid(ruleId, 2), guest.headers);
    expect(newcomer.json()).toMatchObject({ keys_spent: 20, status: 'pending', auto_approved: false });
    expect((await joinList(t, venueId, paid(ruleId, 4), guest.headers)).statusCode).toBe(400);
    // Pending, cancelled and other venues' bookings do not count; approved and checked-in ones here do.
    const { venueId: elsewhere } = await guestlistVenue(t);
    await insertBooking(t, operatorId, elsewhere, { user_id: guest.userId, status: 'checked_in' });
    await insertBooking(t, operatorId, venueId, { user_id: guest.userId, status: 'cancelled' });
    await insertBooking(t, operatorId, venueId, { user_id: guest.userId, status: 'checked_in' });
    expect((await joinList(t, venueId, paid(ruleId, 2), guest.headers)).json()).toMatchObject({ keys_spent: 20, status: 'pending' });
    await insertBooking(t, operatorId, venueId, { user_id: guest.userId, status: 'approved' });
    const regular = await joinList(t, venueId, paid(ruleId, 5), guest.headers);
    expect(regular.json()).toMatchObject({ keys_spent: 25, status: 'approved', auto_approved: true });
  });

  it('a tag condition reads the guest’s tags at the operator (global or this venue’s)', async () => {
    const { operatorId, venueId, ruleId } = await listWith({ cond_tags_enabled: 1, cond_tags: ['VIP'], act_autoapprove_enabled: 1 });
    const guest = await guestWithKeys(t, 100);
    expect((await joinList(t, venueId, paid(ruleId, 1), guest.headers)).json()).toMatchObject({ status: 'pending' });
    const at = t.clock.now().toISOString();
    const { venueId: elsewhere } = await guestlistVenue(t);
    await t.db.kysely
      .insertInto('guest_tags')
      .values({ operator_id: operatorId, user_id: guest.userId, venue_id: elsewhere, tag: 'vip', created_at: at })
      .execute();
    expect((await joinList(t, venueId, paid(ruleId, 1), guest.headers)).json()).toMatchObject({ status: 'pending' });
    await t.db.kysely
      .insertInto('guest_tags')
      .values({ operator_id: operatorId, user_id: guest.userId, venue_id: '', tag: 'vip', created_at: at })
      .execute();
    expect((await joinList(t, venueId, paid(ruleId, 1), guest.headers)).json()).toMatchObject({ status: 'approved', auto_approved: true });
  });
});
