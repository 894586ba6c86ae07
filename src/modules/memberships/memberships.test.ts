/**
 * Memberships (docs/memberships.md): tier CRUD with validation, permissions and tenancy; the public tiers
 * of a live venue; a signed-in guest's purchase through the simulated checkout, fulfilled by the
 * `membership` webhook once (renewals extend from the expiry, replays change nothing); the member price
 * and perk tags on the next ticket (not after expiry, not from another operator's tier); the CRM record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGuest,
  createOperator,
  createStaff,
  createTestApp,
  expectCreated,
  insertVenue,
  insertVenueRow,
  login,
  bearer,
  type TestApp,
  type TestOperator,
} from '../../../test/helpers/app.js';
import { deliver, eventId } from '../payments/payments.test-helpers.js';
import { addTicketType, buy, onSale } from '../events/events.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const TIERS = '/api/my-operator/membership-tiers';
const GOLD = {
  name: 'Gold',
  description: 'The good stuff',
  price_pence: 2500,
  period: 'monthly',
  perks: ['member', 'Gold'],
  ticket_discount_pct: 20,
};

function api(headers: Record<string, string>) {
  return {
    get: (path = '') => t.app.inject({ method: 'GET', url: `${TIERS}${path}`, headers }),
    post: (payload: object) => t.app.inject({ method: 'POST', url: TIERS, headers, payload }),
    patch: (path: string, payload: object) => t.app.inject({ method: 'PATCH', url: `${TIERS}${path}`, headers, payload }),
    del: (path: string) => t.app.inject({ method: 'DELETE', url: `${TIERS}${path}`, headers }),
  };
}

async function createTier(op: TestOperator, fields: Record<string, unknown> = {}): Promise<string> {
  return expectCreated(await api(op.headers).post({ ...GOLD, ...fields }));
}

/** Sessions lapse while the clock moves on by weeks: sign in again. */
const signIn = async (who: { email: string }) => bearer(await login(t, who.email));

const buyMembership = (headers: Record<string, string>, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/me/memberships', headers, payload });

const myMemberships = async (headers: Record<string, string>) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/me/memberships', headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    tier: { id: string; name: string };
    expires_at: string;
    started_at: string;
    active: boolean;
    operator_name: string;
  }[];
};

/** Pays the checkout session on the simulated provider's hosted page (its paid event reaches the webhook in-process). */
async function pay(checkoutUrl: string) {
  const path = new URL(checkoutUrl).pathname;
  const res = await t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'payment_method=pm_card_visa',
  });
  expect(res.statusCode, res.body).toBe(303);
  return res.headers.location as string;
}

/** Buys one period and pays it; answers the purchase body. */
async function buyAndPay(headers: Record<string, string>, payload: Record<string, unknown>) {
  const res = await buyMembership(headers, payload);
  expect(res.statusCode, res.body).toBe(200);
  await pay(res.json().checkout_url);
  return res.json() as { purchase_id: string; checkout_session_id: string; renewal: boolean };
}

describe('membership tiers (operator)', () => {
  it('creates, lists, reads and updates a tier', async () => {
    const op = await createOperator(t);
    const id = await createTier(op, { perks: [' member ', 'MEMBER', 'Gold'] });
    const list = await api(op.headers).get();
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data).toEqual([
      {
        id,
        name: 'Gold',
        description: 'The good stuff',
        price_pence: 2500,
        period: 'monthly',
        period_days: null,
        perks: ['member', 'Gold'],
        ticket_discount_pct: 20,
        active: true,
        archived: false,
        archived_at: null,
        member_count: 0,
        created_at: t.clock.now().toISOString(),
        updated_at: t.clock.now().toISOString(),
      },
    ]);
    const patched = await api(op.headers).patch(`/${id}`, { period: 'days', period_days: 90, active: false, price_pence: 3000 });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await api(op.headers).get(`/${id}`)).json()).toMatchObject({
      period: 'days',
      period_days: 90,
      active: false,
      price_pence: 3000,
    });
    // Back to a calendar period: the day count is cleared.
    await api(op.headers).patch(`/${id}`, { period: 'yearly' });
    expect((await api(op.headers).get(`/${id}`)).json()).toMatchObject({ period: 'yearly', period_days: null });
  });

  it('refuses invalid tiers and changes nothing', async () => {
    const op = await createOperator(t);
    const bad: [string, Record<string, unknown>][] = [
      ['blank name', { name: '   ' }],
      ['price below the minimum', { price_pence: 10 }],
      ['fractional price', { price_pence: 10.5 }],
      ['unknown period', { period: 'weekly' }],
      ['days without a count', { period: 'days' }],
      ['discount over 100', { ticket_discount_pct: 101 }],
      ['blank perk', { perks: [''] }],
      ['unknown field', { colour: 'gold' }],
    ];
    for (const [label, fields] of bad) {
      const res = await api(op.headers).post({ ...GOLD, ...fields });
      expect(res.statusCode, label).toBe(400);
      expect(res.json().error, label).toEqual(expect.any(String));
    }
    expect((await api(op.headers).get()).json().data).toEqual([]);
    const id = await createTier(op);
    expect((await api(op.headers).patch(`/${id}`, { period: 'days' })).statusCode).toBe(400);
    expect((await api(op.headers).patch(`/${id}`, { name: ' ' })).statusCode).toBe(400);
    expect((await api(op.headers).get(`/${id}`)).json()).toMatchObject({ name: 'Gold', period: 'monthly' });
  });

  it('needs catalogue read to list and write to change; another account’s tier is not found', async () => {
    const op = await createOperator(t);
    const id = await createTier(op);
    const reader = await createStaff(t, op, { catalogue: 'read' });
    const nobody = await createStaff(t, op, { tables: 'write' });
    expect((await api(reader.headers).get()).statusCode).toBe(200);
    expect((await api(reader.headers).get(`/${id}`)).statusCode).toBe(200);
    expect((await api(reader.headers).post(GOLD)).statusCode).toBe(403);
    expect((await api(reader.headers).patch(`/${id}`, { name: 'X' })).statusCode).toBe(403);
    expect((await api(reader.headers).del(`/${id}`)).statusCode).toBe(403);
    expect((await api(nobody.headers).get()).statusCode).toBe(403);
    expect((await api({}).get()).statusCode).toBe(401);
    const guest = await createGuest(t);
    expect((await api(guest.headers).get()).statusCode).toBe(403);

    const other = await createOperator(t, 'Other Group');
    expect((await api(other.headers).get()).json().data).toEqual([]);
    expect((await api(other.headers).get(`/${id}`)).statusCode).toBe(404);
    expect((await api(other.headers).patch(`/${id}`, { name: 'Stolen' })).statusCode).toBe(404);
    expect((await api(other.headers).del(`/${id}`)).statusCode).toBe(404);
    expect((await api(op.headers).get(`/${id}`)).json().name).toBe('Gold');
  });

  it('deletes a tier nobody bought, archives one with members (read-only, off sale)', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const unused = await createTier(op, { name: 'Unused' });
    const del = await api(op.headers).del(`/${unused}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toEqual({ success: true, archived: false });
    expect((await api(op.headers).get(`/${unused}`)).statusCode).toBe(404);

    const gold = await createTier(op);
    const guest = await createGuest(t);
    await buyAndPay(guest.headers, { tier_id: gold });
    const archived = await api(op.headers).del(`/${gold}`);
    expect(archived.json()).toEqual({ success: true, archived: true });
    expect((await api(op.headers).get(`/${gold}`)).json()).toMatchObject({
      archived: true,
      active: false,
      archived_at: t.clock.now().toISOString(),
      member_count: 1,
    });
    expect((await api(op.headers).patch(`/${gold}`, { active: true })).statusCode).toBe(409);
    const publicList = await t.app.inject({ method: 'GET', url: `/api/public/venues/${venueId}/membership-tiers` });
    expect(publicList.json().data).toEqual([]);
    expect((await buyMembership(guest.headers, { tier_id: gold })).statusCode).toBe(404);
    // The member keeps the membership to its expiry.
    expect((await myMemberships(guest.headers))[0]).toMatchObject({ active: true, tier: { id: gold } });
  });
});

describe('public tiers', () => {
  it('lists the active tiers of a live venue’s operator, cheapest first, and nothing else', async () => {
    const op = await createOperator(t, 'Venue Group');
    const venueId = await insertVenue(t, op.operatorId);
    const silver = await createTier(op, { name: 'Silver', price_pence: 1000, ticket_discount_pct: 10, perks: [] });
    const gold = await createTier(op);
    await createTier(op, { name: 'Hidden', active: false });
    const res = await t.app.inject({ method: 'GET', url: `/api/public/venues/${venueId}/membership-tiers` });
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json())).toEqual(['venue', 'data']);
    expect(res.json().venue).toEqual({ id: venueId, name: expect.any(String) });
    expect(res.json().data).toEqual([
      {
        id: silver,
        name: 'Silver',
        description: 'The good stuff',
        price_pence: 1000,
        period: 'monthly',
        period_days: null,
        perks: [],
        ticket_discount_pct: 10,
      },
      {
        id: gold,
        name: 'Gold',
        description: 'The good stuff',
        price_pence: 2500,
        period: 'monthly',
        period_days: null,
        perks: ['member', 'Gold'],
        ticket_discount_pct: 20,
      },
    ]);
    const draft = await insertVenue(t, op.operatorId, { status: 'draft' });
    expect((await t.app.inject({ method: 'GET', url: `/api/public/venues/${draft}/membership-tiers` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/public/venues/ven_missing/membership-tiers' })).statusCode).toBe(404);
  });
});

describe('buying and renewing', () => {
  it('a paid checkout starts the membership; renewal extends from the expiry; replays change nothing', async () => {
    const op = await createOperator(t, 'Night Group');
    const gold = await createTier(op);
    const guest = await createGuest(t, 'Mia Member');

    const started = await buyMembership(guest.headers, { tier_id: gold, return_path: '/account/memberships' });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toEqual({
      purchase_id: expect.stringMatching(/^mpu_/),
      checkout_session_id: expect.stringMatching(/^cs_test_/),
      checkout_url: expect.stringMatching(/^http:\/\/maitred\.test\/simulated\/checkout\//),
      amount_pence: 2500,
      renewal: false,
    });
    // Nothing before payment.
    expect(await myMemberships(guest.headers)).toEqual([]);
    const back = await pay(started.json().checkout_url);
    expect(back).toBe(`http://maitred.test/account/memberships?membership=paid&purchase=${started.json().purchase_id}`);

    const first = await myMemberships(guest.headers);
    expect(first).toEqual([
      {
        id: expect.any(String),
        operator_id: op.operatorId,
        operator_name: 'Night Group',
        tier: expect.objectContaining({ id: gold, name: 'Gold', price_pence: 2500 }),
        started_at: '2026-06-15T12:00:00.000Z',
        expires_at: '2026-07-15T12:00:00.000Z',
        active: true,
      },
    ]);
    expect((await api(op.headers).get(`/${gold}`)).json().member_count).toBe(1);

    // The paid event delivered again (same id), and as a new event for the same session: no second period.
    const recorded = await t.db.kysely
      .selectFrom('webhook_events')
      .select(['payload', 'outcome'])
      .where('kind', '=', 'membership')
      .where('type', '=', 'checkout.session.completed')
      .execute();
    const ours = recorded.find((r) => r.payload.includes(started.json().purchase_id))!;
    expect(ours.outcome).toBe('fulfilled');
    const event = JSON.parse(ours.payload);
    expect((await deliver(t, event)).statusCode).toBe(200);
    expect((await deliver(t, { ...event, id: eventId() })).statusCode).toBe(200);
    expect((await myMemberships(guest.headers))[0].expires_at).toBe('2026-07-15T12:00:00.000Z');

    // Renewal ten days later: extended from the expiry, start kept.
    t.clock.advance(10 * 86_400_000);
    try {
      const headers = await signIn(guest);
      const renewal = await buyAndPay(headers, { tier_id: gold });
      expect(renewal.renewal).toBe(true);
      expect((await myMemberships(headers))[0]).toMatchObject({
        started_at: '2026-06-15T12:00:00.000Z',
        expires_at: '2026-08-15T12:00:00.000Z',
        active: true,
      });
      const purchases = await t.db.kysely
        .selectFrom('membership_purchases')
        .select(['status', 'expires_at'])
        .where('user_id', '=', guest.userId)
        .orderBy('expires_at')
        .execute();
      expect(purchases).toEqual([
        { status: 'fulfilled', expires_at: '2026-07-15T12:00:00.000Z' },
        { status: 'fulfilled', expires_at: '2026-08-15T12:00:00.000Z' },
      ]);
    } finally {
      t.clock.set('2026-06-15T12:00:00.000Z');
    }
  });

  it('a lapsed membership starts anew; another tier waits until the running one ends', async () => {
    const op = await createOperator(t);
    const gold = await createTier(op);
    const silver = await createTier(op, { name: 'Silver', price_pence: 1000, period: 'days', period_days: 7 });
    const guest = await createGuest(t);
    await buyAndPay(guest.headers, { tier_id: silver });
    expect((await myMemberships(guest.headers))[0].expires_at).toBe('2026-06-22T12:00:00.000Z');

    const refused = await buyMembership(guest.headers, { tier_id: gold });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/Silver membership runs until/);

    t.clock.advance(8 * 86_400_000);
    try {
      const headers = await signIn(guest);
      expect((await myMemberships(headers))[0].active).toBe(false);
      const switched = await buyAndPay(headers, { tier_id: gold });
      expect(switched.renewal).toBe(false);
      expect((await myMemberships(headers))[0]).toMatchObject({
        tier: { id: gold },
        started_at: '2026-06-23T12:00:00.000Z',
        expires_at: '2026-07-23T12:00:00.000Z',
        active: true,
      });
    } finally {
      t.clock.set('2026-06-15T12:00:00.000Z');
    }
  });

  it('sends the guest back with the outcome in the query and the return path’s screen (#…) kept after it', async () => {
    const op = await createOperator(t);
    const gold = await createTier(op);
    const guest = await createGuest(t);
    const started = await buyMembership(guest.headers, { tier_id: gold, return_path: '/account?venue=v1#memberships' });
    expect(started.statusCode, started.body).toBe(200);
    const { purchase_id, checkout_url } = started.json();
    const session = await t.db.kysely
      .selectFrom('sim_checkout_sessions')
      .select(['success_url', 'cancel_url'])
      .where('id', '=', started.json().checkout_session_id)
      .executeTakeFirstOrThrow();
    expect(session.cancel_url).toBe(`http://maitred.test/account?venue=v1&membership=cancelled&purchase=${purchase_id}#memberships`);
    expect(await pay(checkout_url)).toBe(`http://maitred.test/account?venue=v1&membership=paid&purchase=${purchase_id}#memberships`);
  });

  it('refuses what cannot be bought, and callers who are not signed-in guests', async () => {
    const op = await createOperator(t);
    const gold = await createTier(op);
    const off = await createTier(op, { name: 'Off', active: false });
    const guest = await createGuest(t);
    expect((await buyMembership({}, { tier_id: gold })).statusCode).toBe(401);
    expect((await buyMembership(op.headers, { tier_id: gold })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/me/memberships', headers: op.headers })).statusCode).toBe(403);
    expect((await buyMembership(guest.headers, { tier_id: off })).statusCode).toBe(404);
    expect((await buyMembership(guest.headers, { tier_id: 'mtr_missing' })).statusCode).toBe(404);
    expect((await buyMembership(guest.headers, { tier_id: gold, return_path: '//evil.example' })).statusCode).toBe(400);
    expect((await buyMembership(guest.headers, { tier_id: gold, return_path: 'https://evil.example' })).statusCode).toBe(400);
    expect((await buyMembership(guest.headers, {})).statusCode).toBe(400);
    // A venue of another operator is not the tier's.
    const other = await createOperator(t);
    const elsewhere = await insertVenue(t, other.operatorId);
    expect((await buyMembership(guest.headers, { tier_id: gold, venue_id: elsewhere })).statusCode).toBe(404);
    const pending = await t.db.kysely.selectFrom('membership_purchases').select('id').where('user_id', '=', guest.userId).execute();
    expect(pending).toEqual([]);
  });

  it('ignores a paid session whose amount is not the purchase’s', async () => {
    const op = await createOperator(t);
    const gold = await createTier(op);
    const guest = await createGuest(t);
    const started = (await buyMembership(guest.headers, { tier_id: gold })).json();
    const forged = {
      id: eventId(),
      type: 'checkout.session.completed',
      created: 1_780_000_000,
      data: {
        object: {
          id: started.checkout_session_id,
          object: 'checkout.session',
          payment_intent: 'pi_forged',
          payment_status: 'paid',
          status: 'complete',
          amount_total: 30,
          currency: 'gbp',
          metadata: { kind: 'membership', user_id: guest.userId, tier: 'Gold', tier_id: gold, purchase_id: started.purchase_id },
        },
      },
    };
    expect((await deliver(t, forged)).statusCode).toBe(200);
    expect(await myMemberships(guest.headers)).toEqual([]);
    // The genuine payment still fulfils it.
    await pay(started.checkout_url);
    expect((await myMemberships(guest.headers))[0].active).toBe(true);
  });
});

describe('member price, perks and the CRM record', () => {
  it('a member pays the member price on the next ticket; not after expiry, not with another operator’s tier', async () => {
    const sale = await onSale(t, { name: 'Standard', price_pence: 2000 }, { event_date: '2026-09-20' });
    const gold = await createTier(sale.op);
    const member = await createGuest(t, 'Mo Member');
    await buyAndPay(member.headers, { tier_id: gold, venue_id: sale.venueId });

    const options = await t.app.inject({
      method: 'GET',
      url: `/api/public/events/${sale.eventId}/booking-options`,
      headers: member.headers,
    });
    expect(options.json().ticket_types[0]).toMatchObject({ price_pence: 2000, member_price_pence: 1600 });
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/public/events/${sale.eventId}/booking-options` });
    expect(anonymous.json().ticket_types[0]).toMatchObject({ price_pence: 2000, member_price_pence: null });

    const bought = await buy(t, sale.eventId, sale.ticketTypeId, { headers: member.headers, email: member.email, quantity: 2 });
    expect(bought.statusCode, bought.body).toBe(200);
    expect(bought.json()).toMatchObject({ requires_payment: true, amount_pence: 3200 });
    // Typing the member's email proves nothing.
    const impostor = await buy(t, sale.eventId, sale.ticketTypeId, { email: member.email });
    expect(impostor.json()).toMatchObject({ amount_pence: 2000 });

    // A member of another operator pays the full price here.
    const otherOp = await createOperator(t, 'Rival Group');
    const rivalTier = await createTier(otherOp, { ticket_discount_pct: 50 });
    const rivalMember = await createGuest(t);
    await buyAndPay(rivalMember.headers, { tier_id: rivalTier });
    expect(
      (await buy(t, sale.eventId, sale.ticketTypeId, { headers: rivalMember.headers, email: rivalMember.email })).json(),
    ).toMatchObject({
      amount_pence: 2000,
    });

    // After the expiry, the full price again.
    t.clock.advance(31 * 86_400_000);
    try {
      const headers = await signIn(member);
      const lapsedOptions = await t.app.inject({ method: 'GET', url: `/api/public/events/${sale.eventId}/booking-options`, headers });
      expect(lapsedOptions.json().ticket_types[0].member_price_pence).toBeNull();
      expect((await buy(t, sale.eventId, sale.ticketTypeId, { headers, email: member.email })).json()).toMatchObject({
        amount_pence: 2000,
      });
    } finally {
      t.clock.set('2026-06-15T12:00:00.000Z');
    }
  });

  it('perk tags count as guest tags for admission rules while the membership runs', async () => {
    const sale = await onSale(t);
    const group = await insertVenueRow(t, 'admission_groups', sale.venueId, { name: 'Members' }, 'agr');
    await insertVenueRow(
      t,
      'admission_rules',
      sale.venueId,
      { group_id: group, name: 'Members in', cond_tags_enabled: 1, cond_tags: '["member"]', act_autoapprove_enabled: 1 },
      'arl',
    );
    const typeId = await addTicketType(sale.events, sale.eventId, {
      name: 'Members night',
      price_pence: 0,
      admission_rule_group_id: group,
    });
    const tier = await createTier(sale.op, { ticket_discount_pct: 0, perks: ['Member'] });
    const member = await createGuest(t);
    const stranger = await createGuest(t);
    expect((await buy(t, sale.eventId, typeId, { headers: member.headers, email: member.email })).json()).toMatchObject({
      requires_confirmation: true,
    });
    await buyAndPay(member.headers, { tier_id: tier });
    expect((await buy(t, sale.eventId, typeId, { headers: member.headers, email: member.email })).json()).toMatchObject({ free: true });
    expect((await buy(t, sale.eventId, typeId, { headers: stranger.headers, email: stranger.email })).json()).toMatchObject({
      requires_confirmation: true,
    });
  });

  it('shows the tier on the guest’s CRM record of that operator only', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const gold = await createTier(op);
    const guest = await createGuest(t, 'Cara Crm');
    await buyAndPay(guest.headers, { tier_id: gold, venue_id: venueId });

    const detail = await t.app.inject({ method: 'GET', url: `/api/my-guests/${guest.userId}`, headers: op.headers });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().guest.membership_tier).toBe('Gold');
    expect(detail.json().membership).toEqual({
      tier_id: gold,
      tier_name: 'Gold',
      started_at: '2026-06-15T12:00:00.000Z',
      expires_at: '2026-07-15T12:00:00.000Z',
      active: true,
    });

    // Another operator does not see it (the guest is not on its roster at all).
    const other = await createOperator(t);
    expect((await t.app.inject({ method: 'GET', url: `/api/my-guests/${guest.userId}`, headers: other.headers })).statusCode).toBe(404);

    t.clock.advance(40 * 86_400_000);
    try {
      const lapsed = await t.app.inject({ method: 'GET', url: `/api/my-guests/${guest.userId}`, headers: await signIn(op) });
      expect(lapsed.json().guest.membership_tier).toBe('');
      expect(lapsed.json().membership).toMatchObject({ tier_name: 'Gold', active: false });
    } finally {
      t.clock.set('2026-06-15T12:00:00.000Z');
    }
  });
});
