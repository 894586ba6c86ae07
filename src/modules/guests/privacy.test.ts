/**
 * Privacy requests: the export of everything the operator holds on a guest, and erasure from the
 * operator's roster (personal fields anonymised, bookings and money kept, account kept unless it is the
 * operator's own walk-in record).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, createTestApp, insertVenue, setupVenue, venueApi, type TestApp } from '../../../test/helpers/app.js';
import { countRows, readRow } from '../../../test/helpers/rows.js';
import { addBillingEntry } from '../payments/index.js';
import { enableVouchers, issueComp } from '../vouchers/vouchers.test-support.js';
import { at, bookingOf, crm, guestUser } from './guests.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

async function guestWithHistory() {
  const { op, venueId, api } = await setupVenue(t, { name: 'Privacy Venue' });
  const email = `private.${Date.now()}@example.test`;
  const id = await guestUser(t, 'Priya Private', { email, phone: '+44 7700 900321' });
  const booking = await bookingOf(t, op.operatorId, venueId, id, {
    ...at('2026-06-01'),
    status: 'checked_in',
    guest_name: 'Priya Private',
    guest_email: email,
    guest_phone: '+44 7700 900321',
    notes: 'Allergic to nuts',
    payment_status: 'captured',
    captured_pence: 4000,
  });
  await t.db.kysely
    .insertInto('booking_history')
    .values({
      id: 'bkh_privacy_' + booking,
      booking_id: booking,
      at: t.clock.now().toISOString(),
      actor_kind: 'guest',
      actor_id: id,
      actor_name: 'Priya Private',
      action: 'create',
      from_status: null,
      to_status: 'confirmed',
      detail: '{}',
    })
    .execute();
  await addBillingEntry(t.db.kysely, { userId: id, type: 'spend', delta: -5, bookingId: booking, at: t.clock.now() });
  await enableVouchers(api);
  const voucher = (await issueComp(api, { recipient_email: email, recipient_name: 'Priya Private', amount_pence: 3000 })).id as string;
  await crm(t, op.headers).put(`/${id}/tags`, { tags: ['VIP'] });
  return { op, venueId, api, id, email, booking, voucher };
}

describe('GET /api/my-guests/:id/export', () => {
  it('answers everything held on the guest as JSON', async () => {
    const { op, venueId, id, email, booking, voucher } = await guestWithHistory();
    const res = await crm(t, op.headers).get(`/${id}/export`);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json();
    expect(data).toMatchObject({
      exported_at: t.clock.now().toISOString(),
      operator_id: op.operatorId,
      guest: { id, name: 'Priya Private', email, phone: '+44 7700 900321', membership_tier: null, profile_image_url: null, walk_in: false },
      roster: { venue_ids: [venueId] },
      tags: { global: ['VIP'], per_venue: [] },
      stats: { confirmed_visits: 1, total_bookings: 1, keys_spent: 5, spend_pence: 4000 },
      score: { breakdown: { visits: 10, spend: 4 } },
    });
    expect(data.bookings).toEqual([
      expect.objectContaining({
        id: booking,
        venue_name: 'Privacy Venue',
        guest_email: email,
        guest_phone: '+44 7700 900321',
        notes: 'Allergic to nuts',
        paid_pence: 4000,
      }),
    ]);
    expect(data.vouchers).toEqual([
      expect.objectContaining({ id: voucher, amount_pence: 3000, roles: ['recipient'], recipient_name: 'Priya Private' }),
    ]);
    expect(data.billing).toEqual([expect.objectContaining({ type: 'spend', delta: -5, booking_id: booking })]);
    expect(data.activity.map((i: { type: string }) => i.type).sort()).toEqual(['booking_created', 'tags_changed', 'voucher']);
  });
});

describe('DELETE /api/my-guests/:id', () => {
  it('anonymises the operator’s records, keeps bookings and money, and removes the guest from the roster', async () => {
    const { op, venueId, id, email, booking, voucher } = await guestWithHistory();
    // The same guest at another operator keeps everything.
    const stranger = await setupVenue(t);
    const theirs = await bookingOf(t, stranger.op.operatorId, stranger.venueId, id, { ...at('2026-06-02'), guest_email: email });

    const res = await crm(t, op.headers).del(`/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, bookings_anonymised: 1, vouchers_anonymised: 1, account_deleted: false });

    expect(await readRow(t, 'bookings', booking)).toMatchObject({
      user_id: null,
      guest_name: 'Erased guest',
      guest_email: null,
      guest_phone: null,
      notes: null,
      status: 'checked_in',
      captured_pence: 4000,
    });
    expect(await readRow(t, 'booking_history', `bkh_privacy_${booking}`)).toMatchObject({ actor_id: null, actor_name: 'Erased guest' });
    expect(await readRow(t, 'vouchers', voucher)).toMatchObject({ recipient_name: null, recipient_email: null, amount_pence: 3000 });
    expect(await countRows(t, 'billing_ledger', { user_id: id })).toBe(1);
    for (const table of ['guest_roster', 'guest_roster_venues', 'guest_tags', 'guest_search_terms', 'guest_activity']) {
      expect(await countRows(t, table, { user_id: id, operator_id: op.operatorId }), table).toBe(0);
    }
    const api = crm(t, op.headers);
    expect((await api.get(`/${id}`)).statusCode).toBe(404);
    expect((await api.get('')).json().data.map((g: { id: string }) => g.id)).not.toContain(id);
    expect((await api.get('/search?q=priya')).json().data).toEqual([]);
    expect((await venueApi(t, op.headers, venueId).get('/guests/search?q=priya')).json().data).toEqual([]);
    expect((await api.del(`/${id}`)).statusCode).toBe(404);
    // The account and the other operator's records stay.
    expect(await readRow(t, 'users', id)).toMatchObject({ email });
    expect(await readRow(t, 'bookings', theirs)).toMatchObject({ user_id: id, guest_email: email });
    expect((await crm(t, stranger.op.headers).get(`/${id}`)).statusCode).toBe(200);
  });

  it('a later booking brings the guest back without the erased history', async () => {
    const { op, venueId, id } = await guestWithHistory();
    await crm(t, op.headers).del(`/${id}`);
    await bookingOf(t, op.operatorId, venueId, id, at('2026-07-01'));
    const detail = (await crm(t, op.headers).get(`/${id}`)).json();
    expect(detail.stats).toMatchObject({ total_bookings: 1, confirmed_visits: 0, keys_spent: 0 });
    expect(detail.tags).toEqual({ global: [], per_venue: [] });
  });

  it('deletes a walk-in record this operator created', async () => {
    const { op, api } = await setupVenue(t);
    const walkIn = (await api.post('/guests/walk-in', { name: 'Gone Soon', phone: '07700 900000' })).json();
    const booked = await api.post('/staff-bookings', {
      date: '2026-06-19',
      time: '20:00',
      party_size: 2,
      user_id: walkIn.id,
      table_ids: [],
    });
    expect(booked.statusCode, booked.body).toBe(200);
    const res = await crm(t, op.headers).del(`/${walkIn.id}`);
    expect(res.json()).toEqual({ success: true, bookings_anonymised: 1, vouchers_anonymised: 0, account_deleted: true });
    expect(await readRow(t, 'users', walkIn.id)).toBeUndefined();
    expect(await readRow(t, 'bookings', booked.json().id)).toMatchObject({ user_id: null, guest_name: 'Erased guest', guest_phone: null });
  });

  it('answers 403 to a reader', async () => {
    const { id, op } = await guestWithHistory();
    const reader = await createStaff(t, op, { guests: 'read' });
    expect((await crm(t, reader.headers).del(`/${id}`)).statusCode).toBe(403);
    expect(await countRows(t, 'guest_roster', { user_id: id })).toBe(1);
  });
});

describe('export and erasure are account-wide acts', () => {
  it('a role limited to one venue cannot erase or export a guest it brought into scope with a staff booking (403); records elsewhere stay', async () => {
    const { op, id, email, booking } = await guestWithHistory();
    const other = await insertVenue(t, op.operatorId, { name: 'Second Venue' });
    const scoped = await createStaff(t, op, { guests: 'write', bookings: 'write', 'venues.settings': 'read' }, [other]);
    const staffBooked = await t.app.inject({
      method: 'POST',
      url: `/api/my-venues/${other}/staff-bookings`,
      headers: scoped.headers,
      payload: { guest_name: 'Priya', guest_email: email, party_size: 2, date: '2026-06-20', time: '19:00', table_ids: [] },
    });
    expect(staffBooked.statusCode, staffBooked.body).toBe(200);
    // The guest is now in the role's scope: it can read the guest's record at its venue...
    expect((await crm(t, scoped.headers).get(`/${id}`)).statusCode).toBe(200);
    // ...but neither erase nor export it.
    const erase = await crm(t, scoped.headers).del(`/${id}`);
    expect(erase.statusCode).toBe(403);
    expect(erase.json().error).toMatch(/every venue/);
    expect((await crm(t, scoped.headers).get(`/${id}/export`)).statusCode).toBe(403);
    expect(await readRow(t, 'bookings', booking)).toMatchObject({ user_id: id, guest_email: email, guest_name: 'Priya Private' });
    expect(await countRows(t, 'guest_roster', { user_id: id })).toBe(1);
  });

  it('a role covering every venue (no venue list) may export and erase', async () => {
    const { op, id, booking } = await guestWithHistory();
    const everywhere = await createStaff(t, op, { guests: 'write' });
    expect((await crm(t, everywhere.headers).get(`/${id}/export`)).statusCode).toBe(200);
    expect((await crm(t, everywhere.headers).del(`/${id}`)).statusCode).toBe(200);
    expect(await readRow(t, 'bookings', booking)).toMatchObject({ user_id: null, guest_name: 'Erased guest' });
  });
});
