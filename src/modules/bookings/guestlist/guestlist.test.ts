/**
 * The guest list through HTTP on both engines: the options (door pricing from the rule, its list
 * profile and the venue; surge; room left; draft and unknown venues), and joining with keys: the answer
 * and what it wrote (booking, ledger, history, roster, mail), sessions (401, 403), every validation
 * error, keys short (402), idempotent retries, and promo codes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, insertVenue, type TestApp } from '../../../../test/helpers/app.js';
import { countRows, readRow } from '../../../../test/helpers/rows.js';
import {
  FRIDAY,
  guestlistVenue,
  guestWithKeys,
  insertList,
  insertListProfile,
  insertPromo,
  joinList,
  ledgerOf,
} from './guestlist.test-support.js';

let t: TestApp;
let venueId: string;
let operatorId: string;
let ruleId: string;
let opHeaders: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'public_booking=1000/60' });
  const setup = await guestlistVenue(t, { max_plus_ones: 2, guest_list_enabled: 1 });
  venueId = setup.venueId;
  operatorId = setup.op.operatorId;
  opHeaders = setup.op.headers;
  ruleId = await insertList(t, venueId, { queue_skip_price_enabled: 1, queue_skip_price_value: 2500 });
});

afterAll(async () => {
  await t.close();
});

const options = (venue: string, query = `?date=${FRIDAY}`) =>
  t.app.inject({ url: `/api/public/venues/${venue}/guestlist-options${query}` });

describe('GET /api/public/venues/:venueId/guestlist-options', () => {
  it('lists the guest lists with their door pricing, party bounds and room', async () => {
    const res = await options(venueId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=0, s-maxage=1');
    const body = res.json();
    expect(body).toMatchObject({ date: FRIDAY, pence_per_key: 100, door_capacity: null, venue: { id: venueId } });
    const list = body.rules.find((r: { id: string }) => r.id === ruleId);
    expect(list).toMatchObject({
      available: true,
      reason: null,
      arrival_time: '20:00',
      party_size_min: 1,
      party_size_max: 3,
      max_plus_ones: 2,
      committed_covers: 0,
      max_covers: null,
      remaining_capacity: null,
      surge: null,
    });
    // The venue's guest_list_enabled opens a free list (the rule leaves the toggle off).
    expect(list.options).toEqual([
      { kind: 'free', price_pence: 0, promo_eligible: false, places: null, available: true },
      { kind: 'paid', price_pence: 1000, promo_eligible: true, places: null, available: true },
      { kind: 'queue_skip', price_pence: 2500, promo_eligible: true, places: null, available: true },
    ]);
  });

  it('takes the list profile’s values where the rule’s toggles are off, surge above the threshold and room left', async () => {
    const { venueId: venue } = await guestlistVenue(t, { backdoor_capacity: 10, queue_skip_price: 800 });
    const profile = await insertListProfile(t, venue, {
      paid_guest_list_enabled: true,
      paid_guest_list_value: 2000,
      free_guest_list_enabled: true,
      free_guest_list_value: 2,
      max_covers_enabled: true,
      max_covers: 6,
      surge_threshold_enabled: true,
      surge_threshold_value: 2,
      surge_price_enabled: true,
      surge_price_value: 3000,
    });
    // The rule's own paid price wins over the profile's; its toggle off for queue skip leaves the venue's.
    const rule = await insertList(t, venue, { list_profile_id: profile, paid_guest_list_value: 1500 });
    const before = (await options(venue)).json().rules[0];
    expect(before).toMatchObject({ list_profile_id: profile, max_covers: 6, remaining_capacity: 6 });
    expect(before.surge).toEqual({ threshold: 2, price_pence: 3000, active: false });
    expect(before.options.map((o: { kind: string; price_pence: number }) => [o.kind, o.price_pence])).toEqual([
      ['free', 0],
      ['paid', 1500],
      ['queue_skip', 800],
    ]);

    const guest = await guestWithKeys(t, 100);
    const joined = await joinList(t, venue, { rule_id: rule, date: FRIDAY, party_size: 2, option_kind: 'free' }, guest.headers);
    expect(joined.statusCode, joined.body).toBe(200);
    const freeFull = await joinList(t, venue, { rule_id: rule, date: FRIDAY, party_size: 1, option_kind: 'free' }, guest.headers);
    expect(freeFull.statusCode).toBe(409);
    expect(freeFull.json()).toMatchObject({ reason: 'free_full' });
    const after = (await options(venue)).json().rules[0];
    expect(after).toMatchObject({ committed_covers: 2, remaining_capacity: 4 });
    expect(after.surge.active).toBe(true);
    expect(after.options).toEqual([
      { kind: 'free', price_pence: 0, promo_eligible: false, places: 2, available: false },
      { kind: 'paid', price_pence: 3000, promo_eligible: true, places: null, available: true },
      { kind: 'queue_skip', price_pence: 3000, promo_eligible: true, places: null, available: true },
    ]);
  });

  it('says why a list cannot be joined on a date, and refuses a bad date', async () => {
    const monday = await insertList(t, venueId, { name: 'Weekend list', days_of_week: '["fri","sat"]' });
    const rules = (await options(venueId, '?date=2026-06-22')).json().rules;
    expect(rules.find((r: { id: string }) => r.id === monday)).toMatchObject({ available: false, reason: 'closed', arrival_time: null });
    const horizon = (await options(venueId, '?date=2026-12-04')).json().rules;
    expect(horizon.find((r: { id: string }) => r.id === ruleId)).toMatchObject({ available: false, reason: 'horizon' });
    expect((await options(venueId, '?date=2026-02-30')).statusCode).toBe(400);
    // Without a date: the venue's today (Monday 2026-06-15 at TEST_NOW).
    expect((await options(venueId, '')).json().date).toBe('2026-06-15');
  });

  it('offers a free list when the list is priced nowhere', async () => {
    const { venueId: venue } = await guestlistVenue(t);
    await insertList(t, venue, { paid_guest_list_enabled: 0, paid_guest_list_value: null });
    expect((await options(venue)).json().rules[0].options).toEqual([
      { kind: 'free', price_pence: 0, promo_eligible: false, places: null, available: true },
    ]);
  });

  it('answers 404 for a draft or unknown venue', async () => {
    const draft = await insertVenue(t, operatorId, { status: 'draft' });
    await insertList(t, draft);
    expect((await options(draft)).statusCode).toBe(404);
    expect((await options('ven_nope')).statusCode).toBe(404);
  });
});

describe('POST /api/public/venues/:venueId/guestlist-bookings', () => {
  it('joins a paid list: keys spent, booking pending, ledger, history, roster and mail written', async () => {
    const guest = await guestWithKeys(t, 50);
    const res = await joinList(t, venueId, { rule_id: ruleId, date: FRIDAY, party_size: 3, option_kind: 'paid' }, guest.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const answer = res.json();
    expect(answer).toEqual({ success: true, booking_id: expect.any(String), status: 'pending', keys_spent: 30, auto_approved: false });
    const booking = await readRow(t, 'bookings', answer.booking_id);
    expect(booking).toMatchObject({
      kind: 'guestlist',
      status: 'pending',
      user_id: guest.userId,
      access_rule_id: ruleId,
      booking_date: FRIDAY,
      start_time: '20:00',
      guest_count: 3,
      total_pence: 3000,
      guest_email: guest.email,
    });
    const ledger = await ledgerOf(t, guest.userId);
    expect(ledger.balance).toBe(20);
    expect(ledger.entries.filter((e) => e.type === 'spend')).toEqual([{ type: 'spend', delta: -30, booking_id: answer.booking_id }]);
    expect(await countRows(t, 'booking_history', { booking_id: answer.booking_id, action: 'create' })).toBe(1);
    expect(await countRows(t, 'guest_roster', { operator_id: operatorId, user_id: guest.userId })).toBe(1);
    const mail = await t.db.kysely
      .selectFrom('mail_outbox')
      .select(['recipient', 'subject'])
      .where('recipient', '=', guest.email)
      .execute();
    expect(mail).toEqual([{ recipient: guest.email, subject: `Your guest-list request at Test Venue on ${FRIDAY}` }]);
  });

  it('joins the free list without keys', async () => {
    const guest = await guestWithKeys(t, 0);
    const res = await joinList(t, venueId, { rule_id: ruleId, date: FRIDAY, party_size: 1, option_kind: 'free' }, guest.headers);
    expect(res.json()).toMatchObject({ status: 'pending', keys_spent: 0 });
    expect((await ledgerOf(t, guest.userId)).entries).toEqual([]);
  });

  it('answers 402 when the keys do not cover the price, and books nothing', async () => {
    const guest = await guestWithKeys(t, 9);
    const res = await joinList(t, venueId, { rule_id: ruleId, date: FRIDAY, party_size: 1, option_kind: 'paid' }, guest.headers);
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ error: expect.stringContaining('Not enough keys'), keys_needed: 10, keys_balance: 9 });
    expect(await countRows(t, 'bookings', { user_id: guest.userId })).toBe(0);
    expect((await ledgerOf(t, guest.userId)).balance).toBe(9);
  });

  it('needs a guest session: 401 without one, 403 for an operator', async () => {
    const body = { rule_id: ruleId, date: FRIDAY, party_size: 1, option_kind: 'free' };
    expect((await joinList(t, venueId, body)).statusCode).toBe(401);
    expect((await joinList(t, venueId, { junk: true })).statusCode).toBe(401);
    expect((await joinList(t, venueId, body, opHeaders)).statusCode).toBe(403);
  });

  it('refuses bad rules, dates, parties and options', async () => {
    const guest = await guestWithKeys(t, 100);
    const { venueId: other } = await guestlistVenue(t);
    const foreign = await insertList(t, other);
    const table = await insertList(t, venueId, { name: 'Tables', rule_type: 'table' });
    const optedOut = await insertList(t, venueId, { name: 'Hidden', app_opt_out: 1 });
    const weekend = await insertList(t, venueId, { name: 'Weekend', days_of_week: '["fri","sat"]' });
    const blackout = '2026-06-26';
    await t.db.kysely
      .insertInto('blackouts')
      .values({
        id: 'bo_guestlist',
        venue_id: venueId,
        date_from: blackout,
        date_to: blackout,
        description: 'Private hire',
        affects_guestlist: 1,
        affects_events: 0,
        affects_reservations: 0,
        created_at: t.clock.now().toISOString(),
        updated_at: t.clock.now().toISOString(),
      })
      .execute();
    const base = { rule_id: ruleId, date: FRIDAY, party_size: 1, option_kind: 'paid' };
    const cases: [string, Record<string, unknown>, number, string | RegExp][] = [
      ['unknown rule', { rule_id: 'ar_nope' }, 404, 'Access rule not found'],
      ['another venue’s rule', { rule_id: foreign }, 404, 'Access rule not found'],
      ['a rule opted out of the app', { rule_id: optedOut }, 404, 'Access rule not found'],
      ['a table rule', { rule_id: table }, 400, /guest-list access rule/],
      ['not a calendar date', { date: '2026-02-30' }, 400, /real calendar date/],
      ['a malformed date', { date: '19/06/2026' }, 400, /date/],
      ['a day the list does not run', { rule_id: weekend, date: '2026-06-22' }, 400, 'This guest list does not run on that date'],
      ['a blackout', { date: blackout }, 400, 'The guest list is closed on that date'],
      ['a past date', { date: '2026-06-12' }, 400, 'The guest list for that date has closed'],
      ['beyond the horizon', { date: '2026-12-04' }, 400, 'The guest list for that date is not open yet'],
      ['too many plus-ones', { party_size: 4 }, 400, /at most 3 .*2 plus-ones/],
      ['no party', { party_size: 0 }, 400, /party_size/],
      ['an unknown option', { option_kind: 'vip' }, 400, /option_kind/],
      ['a promo code on the free list', { option_kind: 'free', promo_code: 'ANY' }, 400, 'A promo code applies only to a paid option'],
      ['an unknown venue', { venue: 'ven_nope' }, 404, 'Venue not found'],
    ];
    for (const [label, change, status, message] of cases) {
      const { venue = venueId, ...fields } = change as { venue?: string };
      const res = await joinList(t, venue, { ...base, ...fields }, guest.headers);
      expect([label, res.statusCode]).toEqual([label, status]);
      if (typeof message === 'string') expect(res.json().error, label).toBe(message);
      else expect(res.json().error, label).toMatch(message);
    }
    const paidOnly = await insertList(t, other, { name: 'Paid only' });
    const notOffered = await joinList(t, other, { ...base, rule_id: paidOnly, option_kind: 'queue_skip' }, guest.headers);
    expect(notOffered.statusCode).toBe(400);
    expect(notOffered.json().error).toBe('option_kind queue_skip is not offered on this guest list (offered: paid)');
    expect((await ledgerOf(t, guest.userId)).balance).toBe(100);
    expect(await countRows(t, 'bookings', { user_id: guest.userId })).toBe(0);
  });

  it('answers a retry with the same Idempotency-Key once, spending keys once; another body is 409', async () => {
    const guest = await guestWithKeys(t, 40);
    const body = { rule_id: ruleId, date: FRIDAY, party_size: 2, option_kind: 'paid' };
    const first = await joinList(t, venueId, body, guest.headers, 'retry-1');
    const again = await joinList(t, venueId, body, guest.headers, 'retry-1');
    expect(first.statusCode, first.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await countRows(t, 'bookings', { user_id: guest.userId })).toBe(1);
    expect((await ledgerOf(t, guest.userId)).balance).toBe(20);
    const other = await joinList(t, venueId, { ...body, party_size: 1 }, guest.headers, 'retry-1');
    expect(other.statusCode).toBe(409);
    expect((await ledgerOf(t, guest.userId)).balance).toBe(20);
    // The key is the guest's own: another guest's same key books anew.
    const second = await guestWithKeys(t, 40);
    const theirs = await joinList(t, venueId, body, second.headers, 'retry-1');
    expect(theirs.json().booking_id).not.toBe(first.json().booking_id);
  });
});

describe('promo codes on the guest list', () => {
  it('discounts the keys and counts its redemption once per booking', async () => {
    const promo = await insertPromo(t, venueId, { code: 'HALF', discount_pct: 50, max_uses: 2 });
    const guest = await guestWithKeys(t, 100);
    const body = { rule_id: ruleId, date: FRIDAY, party_size: 3, option_kind: 'paid', promo_code: ' half ' };
    const first = await joinList(t, venueId, body, guest.headers, 'promo-1');
    expect(first.json()).toMatchObject({ keys_spent: 15 });
    await joinList(t, venueId, body, guest.headers, 'promo-1');
    expect((await readRow(t, 'promo_codes', promo))!.uses).toBe(1);
    expect((await joinList(t, venueId, body, guest.headers)).json().keys_spent).toBe(15);
    const exhausted = await joinList(t, venueId, body, guest.headers);
    expect(exhausted.statusCode).toBe(400);
    expect(exhausted.json()).toEqual({
      request_id: expect.any(String),
      error: 'That promo code has been used up',
      reason: 'promo_exhausted',
    });
    expect((await readRow(t, 'promo_codes', promo))!.uses).toBe(2);
    expect((await ledgerOf(t, guest.userId)).balance).toBe(70);
  });

  it('refuses unknown, expired and other venues’ codes, and a refused booking leaves the code unused', async () => {
    const { venueId: other } = await guestlistVenue(t);
    await insertPromo(t, other, { code: 'ELSEWHERE' });
    await insertPromo(t, venueId, { code: 'OLD', expires_at: '2026-06-01T00:00:00.000Z' });
    const rich = await insertPromo(t, venueId, { code: 'RICH', discount_pct: 10 });
    const guest = await guestWithKeys(t, 5);
    const base = { rule_id: ruleId, date: FRIDAY, party_size: 1, option_kind: 'paid' };
    for (const [code, error] of [
      ['NOPE', 'That promo code is not valid here'],
      ['ELSEWHERE', 'That promo code is not valid here'],
      ['OLD', 'That promo code has expired'],
    ]) {
      const res = await joinList(t, venueId, { ...base, promo_code: code }, guest.headers);
      expect([code, res.statusCode, res.json().error]).toEqual([code, 400, error]);
    }
    // 10 % off £10 is 9 keys: more than the guest holds, so nothing is booked and the code stays unused.
    const short = await joinList(t, venueId, { ...base, promo_code: 'RICH' }, guest.headers);
    expect(short.statusCode).toBe(402);
    expect((await readRow(t, 'promo_codes', rich))!.uses).toBe(0);
  });
});

describe('rate limit', () => {
  it('counts every join attempt per address before the session or body is read: 429 with Retry-After', async () => {
    const limited = await createTestApp({ RATE_LIMITS: 'public_booking=2/60' });
    try {
      const attempt = () =>
        limited.app.inject({ method: 'POST', url: `/api/public/venues/${venueId}/guestlist-bookings`, payload: { junk: true } });
      expect((await attempt()).statusCode).toBe(401);
      expect((await attempt()).statusCode).toBe(401);
      const refused = await attempt();
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ request_id: expect.any(String), error: 'Too many requests. Please try again later.' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});
