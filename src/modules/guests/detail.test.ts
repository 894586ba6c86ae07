/**
 * A guest of the roster: detail (stats, score, tags, connection flag), all bookings, the keys ledger and
 * the activity feed; and the invisibility of any guest outside the caller's roster on every route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, setupVenue, venueApi, type TestApp } from '../../../test/helpers/app.js';
import { sequentialId } from '../../platform/ids.js';
import { addBillingEntry } from '../payments/index.js';
import { enableVouchers, issueComp } from '../vouchers/vouchers.test-support.js';
import { at, bookingOf, crm, guestUser } from './guests.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function history(bookingId: string, action: string, toStatus: string | null, atIso: string) {
  await t.db.kysely
    .insertInto('booking_history')
    .values({
      id: sequentialId('bkh'),
      booking_id: bookingId,
      at: atIso,
      actor_kind: 'staff',
      actor_id: null,
      actor_name: 'Sam',
      action,
      from_status: null,
      to_status: toStatus,
      detail: '{}',
    })
    .execute();
}

describe('GET /api/my-guests/:id', () => {
  it('answers the guest, bookings, stats, tags, connection flag and score with its breakdown', async () => {
    const { op, venueId } = await setupVenue(t, { name: 'The Anchor' });
    const other = await insertVenue(t, op.operatorId, { name: 'The Bell' });
    const ada = await guestUser(t, 'Ada Detail', { phone: '+44 7700 900999' });
    await t.db.kysely.updateTable('users').set({ membership_tier: 'gold' }).where('id', '=', ada).execute();
    const visit1 = await bookingOf(t, op.operatorId, venueId, ada, {
      ...at('2026-05-20'),
      status: 'checked_in',
      payment_status: 'captured',
      captured_pence: 3000,
      guest_count: 4,
    });
    await bookingOf(t, op.operatorId, other, ada, {
      ...at('2026-06-01'),
      status: 'checked_in',
      payment_status: 'paid',
      deposit_pence: 2000,
    });
    await bookingOf(t, op.operatorId, venueId, ada, { ...at('2026-06-05'), status: 'no_show' });
    await bookingOf(t, op.operatorId, venueId, ada, { ...at('2026-06-07'), status: 'cancelled' });
    await bookingOf(t, op.operatorId, venueId, ada, { ...at('2026-06-08'), status: 'door_rejected' });
    await addBillingEntry(t.db.kysely, { userId: ada, type: 'grant', delta: 50, at: t.clock.now() });
    await addBillingEntry(t.db.kysely, { userId: ada, type: 'spend', delta: -7, bookingId: visit1, at: t.clock.now() });
    expect((await crm(t, op.headers).put(`/${ada}/tags`, { tags: ['VIP', 'Wine lover'] })).statusCode).toBe(200);
    expect((await crm(t, op.headers).put(`/${ada}/tags`, { scope: 'venue', venue_id: other, tags: ['Window seat'] })).statusCode).toBe(200);

    const res = await crm(t, op.headers).get(`/${ada}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.guest).toMatchObject({ id: ada, name: 'Ada Detail', membership_tier: 'gold', successful_visits: 2, loyalty_points: 25 });
    expect(body.guest.venue_ids).toBe([venueId, other].sort().join(','));
    expect(body.bookings).toHaveLength(5);
    expect(body.bookings[0]).toEqual(
      expect.objectContaining({
        status: 'door_rejected',
        booking_date: '2026-06-08',
        venue_name: 'The Anchor',
        user_name: 'Ada Lovelace',
        guest_count: 2,
      }),
    );
    expect(body.stats).toEqual({
      loyalty_points: 25,
      confirmed_visits: 2,
      door_rejections: 1,
      total_bookings: 5,
      keys_spent: 7,
      no_shows: 1,
      cancellations: 1,
      spend_pence: 5000,
      last_visit_date: '2026-06-01',
    });
    expect(body.tags).toEqual({
      global: ['VIP', 'Wine lover'],
      per_venue: [{ venue_id: other, venue_name: 'The Bell', tags: ['Window seat'] }],
    });
    expect(body.is_connection).toBe(false);
    expect(body.connections).toBe(0);
    // 2 visits (20) + £50 paid (5) + last visit 14 days ago (20) − a no-show (10) − a door refusal (5) − a cancellation (3).
    expect(body.score).toEqual({
      total: 27,
      band: 'regular',
      breakdown: { visits: 20, spend: 5, recency: 20, no_shows: -10, door_rejections: -5, cancellations: -3 },
      days_since_last_visit: 14,
    });
  });

  it('scores a guest without a visit as new, and clamps at 0', async () => {
    const { op, venueId } = await setupVenue(t);
    const id = await guestUser(t, 'Never Came');
    for (const day of ['01', '02', '03']) await bookingOf(t, op.operatorId, venueId, id, { ...at(`2026-06-${day}`), status: 'no_show' });
    expect((await crm(t, op.headers).get(`/${id}`)).json().score).toMatchObject({ total: 0, band: 'new', days_since_last_visit: null });
  });
});

describe('the guest’s bookings, billing and activity', () => {
  it('lists all bookings, the ledger entries of the operator’s bookings only, and the last 10 activity items', async () => {
    const { op, venueId, api } = await setupVenue(t, { name: 'Feed Venue' });
    const email = 'feed.guest@example.test';
    const guest = await guestUser(t, 'Feed Guest', { email });
    const stranger = await setupVenue(t);
    const theirs = await bookingOf(t, stranger.op.operatorId, stranger.venueId, guest, at('2026-06-02'));
    await addBillingEntry(t.db.kysely, { userId: guest, type: 'spend', delta: -3, bookingId: theirs, at: t.clock.now() });
    const bookings: string[] = [];
    for (let i = 0; i < 25; i++)
      bookings.push(await bookingOf(t, op.operatorId, venueId, guest, at(`2026-0${4 + (i % 2)}-${String(1 + i).padStart(2, '0')}`)));
    await addBillingEntry(t.db.kysely, {
      userId: guest,
      type: 'spend',
      delta: -4,
      bookingId: bookings[0],
      note: 'Entry',
      at: new Date('2026-06-10T10:00:00Z'),
    });
    await addBillingEntry(t.db.kysely, {
      userId: guest,
      type: 'refund',
      delta: 4,
      bookingId: bookings[0],
      at: new Date('2026-06-11T10:00:00Z'),
    });

    const all = (await crm(t, op.headers).get(`/${guest}/bookings`)).json().data;
    expect(all).toHaveLength(25);
    expect((await crm(t, op.headers).get(`/${guest}`)).json().bookings).toHaveLength(20);
    const billing = (await crm(t, op.headers).get(`/${guest}/billing`)).json();
    expect(billing.data).toEqual([
      { id: expect.any(String), type: 'refund', delta: 4, note: null, booking_id: bookings[0], created_at: '2026-06-11T10:00:00.000Z' },
      { id: expect.any(String), type: 'spend', delta: -4, note: 'Entry', booking_id: bookings[0], created_at: '2026-06-10T10:00:00.000Z' },
    ]);

    for (let i = 0; i < 11; i++)
      await history(bookings[i], 'create', 'confirmed', `2026-06-01T0${Math.floor(i / 10)}:${String(i % 10).padStart(2, '0')}:00.000Z`);
    await history(bookings[3], 'check_in', 'checked_in', '2026-06-12T20:00:00.000Z');
    await history(bookings[4], 'cancelled', 'cancelled', '2026-06-13T09:00:00.000Z');
    await enableVouchers(api);
    t.clock.set(new Date('2026-06-14T09:00:00.000Z'));
    await issueComp(api, { recipient_email: email, recipient_name: 'Feed Guest', amount_pence: 2500 });
    t.clock.set(new Date('2026-06-14T10:00:00.000Z'));
    await crm(t, op.headers).put(`/${guest}/tags`, { tags: ['Regular'] });
    const feed = (await crm(t, op.headers).get(`/${guest}/activity`)).json().data;
    expect(feed).toHaveLength(10);
    expect(feed.slice(0, 4)).toEqual([
      {
        type: 'tags_changed',
        at: '2026-06-14T10:00:00.000Z',
        summary: 'Tags changed (global): +Regular',
        venue_id: null,
        venue_name: null,
        booking_id: null,
      },
      {
        type: 'voucher',
        at: '2026-06-14T09:00:00.000Z',
        summary: 'Voucher of £25.00 (recipient)',
        venue_id: venueId,
        venue_name: 'Feed Venue',
        booking_id: null,
      },
      expect.objectContaining({ type: 'booking_cancelled', booking_id: bookings[4], venue_name: 'Feed Venue' }),
      expect.objectContaining({ type: 'booking_checked_in', booking_id: bookings[3] }),
    ]);
    expect(feed[4]).toMatchObject({ type: 'booking_created', booking_id: bookings[10], at: '2026-06-01T01:00:00.000Z' });
    t.clock.set(new Date('2026-06-15T12:00:00.000Z'));
  });
});

describe('a guest outside the caller’s roster', () => {
  it('is 404 on every route, whatever the id', async () => {
    const { op, venueId } = await setupVenue(t);
    const mine = await guestUser(t, 'Mine');
    await bookingOf(t, op.operatorId, venueId, mine, at('2026-06-20'));
    const stranger = await setupVenue(t);
    const theirs = await guestUser(t, 'Theirs');
    await bookingOf(t, stranger.op.operatorId, stranger.venueId, theirs, at('2026-06-20'));
    const unrelated = await guestUser(t, 'Unrelated');
    const portal = await createOperator(t);
    const sameAccountStaff = await createStaff(t, op, { guests: 'write' });
    const api = crm(t, op.headers);
    for (const id of [theirs, unrelated, portal.userId, sameAccountStaff.userId, 'usr_doesnotexist', venueId]) {
      for (const path of ['', '/billing', '/activity', '/bookings', '/network', '/export']) {
        expect((await api.get(`/${id}${path}`)).statusCode, `${id}${path}`).toBe(404);
      }
      expect((await api.put(`/${id}/tags`, { tags: ['x'] })).statusCode).toBe(404);
      expect((await api.del(`/${id}`)).statusCode).toBe(404);
    }
    // The other operator sees its guest, and not ours.
    expect((await crm(t, stranger.op.headers).get(`/${theirs}`)).statusCode).toBe(200);
    expect((await crm(t, stranger.op.headers).get(`/${mine}`)).statusCode).toBe(404);
    expect(await t.db.kysely.selectFrom('guest_tags').selectAll().where('user_id', '=', theirs).execute()).toEqual([]);
  });

  it('answers 401 and 403 on the guest routes', async () => {
    const { op, venueId } = await setupVenue(t);
    const id = await guestUser(t, 'Guarded');
    await bookingOf(t, op.operatorId, venueId, id, at('2026-06-20'));
    const anon = crm(t, {});
    for (const path of ['', '/billing', '/activity', '/bookings', '/network', '/export'])
      expect((await anon.get(`/${id}${path}`)).statusCode).toBe(401);
    expect((await anon.put(`/${id}/tags`, { tags: [] })).statusCode).toBe(401);
    expect((await anon.del(`/${id}`)).statusCode).toBe(401);
    expect((await anon.get('/network')).statusCode).toBe(401);
    const reader = crm(t, (await createStaff(t, op, { guests: 'read' })).headers);
    expect((await reader.get(`/${id}`)).statusCode).toBe(200);
    expect((await reader.put(`/${id}/tags`, { tags: [] })).statusCode).toBe(403);
    expect((await reader.del(`/${id}`)).statusCode).toBe(403);
    expect(
      (await venueApi(t, (await createStaff(t, op, { guests: 'read' })).headers, venueId).post('/guests/walk-in', { name: 'X' }))
        .statusCode,
    ).toBe(403);
    const none = crm(t, (await createStaff(t, op, { tables: 'write' })).headers);
    for (const path of ['', '/billing', '/activity', '/bookings', '/network', '/export'])
      expect((await none.get(`/${id}${path}`)).statusCode).toBe(403);
    expect((await none.get('/network')).statusCode).toBe(403);
  });
});
