/**
 * The roster (offset and cursor paging, role venue scope), membership from the booking engine, vouchers and
 * walk-ins, and permissions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGuest,
  createOperator,
  createStaff,
  createTestApp,
  insertVenue,
  insertVenueRow,
  setupVenue,
  type TestApp,
} from '../../../test/helpers/app.js';
import { insertAccessRule, insertShift } from '../../../test/helpers/rows.js';
import { confirm } from '../payments/payments.test-helpers.js';
import { enableVouchers, issueComp } from '../vouchers/vouchers.test-support.js';
import { at, bookingOf, crm, guestUser } from './guests.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const ids = (body: { data: { id: string }[] }) => body.data.map((g) => g.id);

describe('GET /api/my-guests', () => {
  it('lists the guests of the operator’s venues, latest seen first, with the Guest fields', async () => {
    const { op, venueId } = await setupVenue(t);
    const other = await insertVenue(t, op.operatorId, { name: 'Second' });
    const ada = await guestUser(t, 'Ada Lovelace', { email: 'ada.roster@example.test', phone: '+44 7700 900123' });
    const bob = await guestUser(t, 'Bob Babbage');
    await bookingOf(t, op.operatorId, venueId, ada, {
      ...at('2026-05-01'),
      status: 'checked_in',
      captured_pence: 2500,
      payment_status: 'captured',
    });
    await bookingOf(t, op.operatorId, other, ada, at('2026-06-20'));
    t.clock.advance(60_000);
    await bookingOf(t, op.operatorId, venueId, bob, at('2026-06-21'));
    // Another operator's guest is not listed.
    const stranger = await setupVenue(t);
    await bookingOf(t, stranger.op.operatorId, stranger.venueId, await guestUser(t, 'Stranger'), at('2026-06-20'));

    const res = await crm(t, op.headers).get('');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 2, limit: 50, offset: 0, has_more: false });
    expect(ids(body)).toEqual([bob, ada]);
    expect(body.data[1]).toEqual({
      id: ada,
      name: 'Ada Lovelace',
      email: 'ada.roster@example.test',
      phone: '+44 7700 900123',
      membership_tier: '',
      // 10 per visit + 1 per whole £10 paid (£25).
      loyalty_points: 12,
      successful_visits: 1,
      venue_ids: [venueId, other].sort().join(','),
      profile_image_url: null,
    });
    expect(body.data[0]).toMatchObject({ id: bob, phone: '', loyalty_points: 0, successful_visits: 0, venue_ids: venueId });
  });

  it('pages by offset and by cursor, stable under a guest seen again between pages', async () => {
    const { op, venueId } = await setupVenue(t);
    const guests: string[] = [];
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1000);
      const id = await guestUser(t, `Pager ${i}`);
      await bookingOf(t, op.operatorId, venueId, id, at('2026-06-20'));
      guests.unshift(id);
    }
    const api = crm(t, op.headers);
    const second = (await api.get('?limit=2&offset=2')).json();
    expect(second).toMatchObject({ total: 5, limit: 2, offset: 2, has_more: true });
    expect(ids(second)).toEqual(guests.slice(2, 4));
    expect((await api.get('?limit=2&offset=4')).json()).toMatchObject({ has_more: false, data: [{ id: guests[4] }] });

    const first = (await api.get('?paging=cursor&limit=2')).json();
    expect(first).toEqual({ data: expect.any(Array), limit: 2, has_more: true, cursor: expect.any(String) });
    expect(ids(first)).toEqual(guests.slice(0, 2));
    // The first guest books again: it moves to the top, but the cursor's page does not repeat or skip anyone else.
    t.clock.advance(1000);
    await bookingOf(t, op.operatorId, venueId, guests[0], at('2026-06-27'));
    const next = (await api.get(`?limit=2&cursor=${first.cursor}`)).json();
    expect(ids(next)).toEqual(guests.slice(2, 4));
    const last = (await api.get(`?limit=2&cursor=${next.cursor}`)).json();
    expect(last).toMatchObject({ has_more: false, cursor: null });
    expect(ids(last)).toEqual([guests[4]]);
  });

  it('answers 400 for a bad cursor or page size', async () => {
    const { op } = await setupVenue(t);
    const api = crm(t, op.headers);
    expect((await api.get('?cursor=not-a-cursor!')).statusCode).toBe(400);
    expect((await api.get('?limit=201')).statusCode).toBe(400);
    expect((await api.get('?limit=0')).statusCode).toBe(400);
    expect((await api.get('?paging=cursor&offset=3')).statusCode).toBe(400);
  });

  it('shows a role limited to some venues only the guests of those venues', async () => {
    const { op, venueId } = await setupVenue(t);
    const other = await insertVenue(t, op.operatorId);
    const here = await guestUser(t, 'Here');
    const there = await guestUser(t, 'There');
    const both = await guestUser(t, 'Both');
    await bookingOf(t, op.operatorId, venueId, here, at('2026-06-20'));
    await bookingOf(t, op.operatorId, other, there, at('2026-06-20'));
    await bookingOf(t, op.operatorId, venueId, both, { ...at('2026-06-20'), status: 'checked_in' });
    await bookingOf(t, op.operatorId, other, both, { ...at('2026-06-21'), status: 'checked_in' });
    const staff = await createStaff(t, op, { guests: 'read' }, [venueId]);
    const body = (await crm(t, staff.headers).get('')).json();
    expect(body.total).toBe(2);
    expect(ids(body).sort()).toEqual([here, both].sort());
    // Figures and venue ids count the role's venues only.
    expect(body.data.find((g: { id: string }) => g.id === both)).toMatchObject({ successful_visits: 1, venue_ids: venueId });
    expect((await crm(t, staff.headers).get(`/${there}`)).statusCode).toBe(404);
  });

  it('answers 401 without a session, 403 without guests:read or for a guest user', async () => {
    const { op } = await setupVenue(t);
    expect((await t.app.inject({ method: 'GET', url: '/api/my-guests' })).statusCode).toBe(401);
    const staff = await createStaff(t, op, { tables: 'read' });
    expect((await crm(t, staff.headers).get('')).statusCode).toBe(403);
    const guest = await createGuest(t);
    expect((await crm(t, guest.headers).get('')).statusCode).toBe(403);
  });
});

describe('roster membership', () => {
  it('a staff booking, a comp voucher’s recipient and a walk-in join the roster; a portal user never does', async () => {
    const { op, venueId, api } = await setupVenue(t, { email: 'venue@example.test' });
    const staffBooked = await api.post('/staff-bookings', {
      date: '2026-06-19',
      time: '19:00',
      party_size: 2,
      guest_name: 'Grace Hopper',
      guest_email: 'grace.roster@example.test',
      table_ids: [],
    });
    expect(staffBooked.statusCode, staffBooked.body).toBe(200);
    await enableVouchers(api);
    await issueComp(api, { recipient_email: 'vera.voucher@example.test', recipient_name: 'Vera Voucher' });
    const walkIn = await api.post('/guests/walk-in', { name: 'Walter Walkin' });
    expect(walkIn.statusCode, walkIn.body).toBe(200);

    const names = (await crm(t, op.headers).get('')).json().data.map((g: { name: string }) => g.name);
    expect([...names].sort()).toEqual(['Grace Hopper', 'Vera Voucher', 'Walter Walkin']);
    expect(names).toContain('Grace Hopper');
    const portal = await createOperator(t);
    expect((await crm(t, op.headers).get(`/${portal.userId}`)).statusCode).toBe(404);
    const vera = (await crm(t, op.headers).get('/search?q=vera')).json().data[0];
    expect(vera).toMatchObject({ email: 'vera.voucher@example.test', venue_ids: venueId });
  });

  it('a public booking adds its guest (signed in or matched by email) in the booking’s transaction', async () => {
    const { op } = await setupVenue(t);
    const venueId = await insertVenue(t, op.operatorId, { status: 'live', email: 'live@venue.test' });
    await insertShift(t, venueId, { days_of_week: '["fri"]', time_type: 'custom', time_from: '18:00', time_to: '23:00' });
    const ruleId = await insertAccessRule(t, venueId, { name: 'Dinner', rule_type: 'table', days_of_week: '["fri"]' });
    await insertVenueRow(
      t,
      'venue_tables',
      venueId,
      { table_number: '1', capacity: 4, min_covers: 1, status: 'active', table_type: 'standard' },
      'tbl',
    );
    await insertVenueRow(
      t,
      'venue_tables',
      venueId,
      { table_number: '2', capacity: 4, min_covers: 1, status: 'active', table_type: 'standard' },
      'tbl',
    );
    const book = (payload: object, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: `/api/public/venues/${venueId}/book`, headers, payload });
    const base = { access_rule_id: ruleId, rule_type: 'table', date: '2026-06-19', time: '19:00', party_size: 2 };
    const anonymous = await book({ ...base, guest_name: 'Pam Public', guest_email: 'pam.public@example.test' });
    expect(anonymous.statusCode, anonymous.body).toBe(200);
    const signedIn = await createGuest(t, 'Sid Signed');
    const own = await book({ ...base, guest_name: 'Sid Signed', guest_email: 'other.address@example.test' }, signedIn.headers);
    expect(own.statusCode, own.body).toBe(200);
    const roster = (await crm(t, op.headers).get('')).json().data;
    expect(roster.map((g: { name: string }) => g.name).sort()).toEqual(['Pam Public', 'Sid Signed']);
    expect(roster.find((g: { name: string }) => g.name === 'Sid Signed').id).toBe(signedIn.userId);
  });

  it('a guest’s voucher purchase adds purchaser and recipient, once however often it is finalized', async () => {
    const { op, venueId, api } = await setupVenue(t, { status: 'live', email: 'venue@example.test' });
    await enableVouchers(api, { fixed_amounts: [2500], allow_custom: true, min_amount_pence: 1000, max_amount_pence: 20000 });
    const intent = await t.app.inject({
      method: 'POST',
      url: '/api/public/voucher-purchase/create-intent',
      payload: {
        venue_id: venueId,
        amount_pence: 2500,
        quantity: 1,
        delivery: 'email',
        recipient_name: 'Rosa Recipient',
        recipient_email: 'rosa.roster@example.test',
        purchaser_name: 'Sam Purchaser',
        purchaser_email: 'sam.roster@example.test',
      },
    });
    expect(intent.statusCode, intent.body).toBe(200);
    const { intent_id } = intent.json();
    expect((await confirm(t, intent_id, 'pm_card_visa')).statusCode).toBe(200);
    const finalize = () => t.app.inject({ method: 'POST', url: '/api/public/voucher-purchase/finalize', payload: { intent_id } });
    expect((await finalize()).statusCode).toBe(200);
    expect((await finalize()).statusCode).toBe(200);
    const roster = (await crm(t, op.headers).get('')).json();
    expect(roster.data.map((g: { email: string }) => g.email).sort()).toEqual(['rosa.roster@example.test', 'sam.roster@example.test']);
    expect(roster.data.every((g: { venue_ids: string }) => g.venue_ids === venueId)).toBe(true);
  });

  it('a walk-in’s id works as user_id for a staff booking, which joins its venue', async () => {
    const { op, venueId, api } = await setupVenue(t);
    const walkIn = (await api.post('/guests/walk-in', { name: ' Wendy Walkin ', phone: '+44 20 7946 0000' })).json();
    expect(walkIn).toEqual({
      id: expect.any(String),
      name: 'Wendy Walkin',
      email: `walkin+${walkIn.id}@guests.invalid`,
      phone: '+44 20 7946 0000',
    });
    const booked = await api.post('/staff-bookings', {
      date: '2026-06-19',
      time: '20:00',
      party_size: 2,
      user_id: walkIn.id,
      table_ids: [],
    });
    expect(booked.statusCode, booked.body).toBe(200);
    expect(booked.json().booking).toMatchObject({ guest_name: 'Wendy Walkin', guest_email: walkIn.email });
    const detail = (await crm(t, op.headers).get(`/${walkIn.id}`)).json();
    expect(detail.guest).toMatchObject({ id: walkIn.id, venue_ids: venueId });
    expect(detail.stats.total_bookings).toBe(1);
  });
});
