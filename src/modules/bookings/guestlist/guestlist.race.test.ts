/**
 * The guest list under concurrency and at the door, through HTTP on both engines: one guest's 20
 * concurrent joins never overspend their keys; 30 guests racing for a list's last places (and a venue's
 * door capacity across two lists) never oversell it; staff guest-list places respect the same capacity;
 * check-in works for a guest-list booking; a door reject, a rejection or a cancellation gives the keys
 * back exactly once, however often or concurrently it is asked, and so does the guest’s own cancellation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, venueApi, type TestApp } from '../../../../test/helpers/app.js';
import { countRows } from '../../../../test/helpers/rows.js';
import {
  FRIDAY,
  guestlistVenue,
  guestWithKeys,
  insertAdmission,
  insertList,
  insertListProfile,
  joinList,
  ledgerOf,
} from './guestlist.test-support.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'public_booking=1000/60,login_failures_ip=1000/900,login_failures_email_ip=1000/900' });
});

afterAll(async () => {
  await t.close();
});

const join = (ruleId: string, party_size = 1, option_kind = 'paid') => ({ rule_id: ruleId, date: FRIDAY, party_size, option_kind });

async function activeCovers(venueId: string): Promise<number> {
  const rows = await t.db.kysely
    .selectFrom('bookings')
    .select('guest_count')
    .where('venue_id', '=', venueId)
    .where('status', 'in', ['pending', 'approved', 'confirmed', 'checked_in'])
    .execute();
  return rows.reduce((sum, row) => sum + row.guest_count, 0);
}

describe('guest-list races', () => {
  it('20 concurrent joins by one guest with keys for 3: exactly 3 succeed, the balance stays at 0 or more', async () => {
    const { venueId } = await guestlistVenue(t);
    const ruleId = await insertList(t, venueId);
    const guest = await guestWithKeys(t, 35);
    const answers = await Promise.all(Array.from({ length: 20 }, () => joinList(t, venueId, join(ruleId), guest.headers)));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(3);
    expect(codes.filter((c) => c === 402)).toHaveLength(17);
    const ledger = await ledgerOf(t, guest.userId);
    expect(ledger.balance).toBe(5);
    const spends = ledger.entries.filter((e) => e.type === 'spend');
    expect(spends.map((e) => e.delta)).toEqual([-10, -10, -10]);
    const booked = answers.filter((a) => a.statusCode === 200).map((a) => a.json().booking_id as string);
    expect(new Set(spends.map((e) => e.booking_id))).toEqual(new Set(booked));
    expect(await countRows(t, 'bookings', { user_id: guest.userId })).toBe(3);
  });

  it('the guest’s ledger lock alone holds when the joins are at different venues', async () => {
    const lists = await Promise.all(
      [0, 1, 2, 3].map(async () => {
        const { venueId } = await guestlistVenue(t);
        return { venueId, ruleId: await insertList(t, venueId) };
      }),
    );
    const guest = await guestWithKeys(t, 30);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => joinList(t, lists[i % 4].venueId, join(lists[i % 4].ruleId), guest.headers)),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.statusCode === 402)).toHaveLength(17);
    const ledger = await ledgerOf(t, guest.userId);
    expect(ledger.balance).toBe(0);
    expect(ledger.entries.filter((e) => e.type === 'spend')).toHaveLength(3);
  });

  it('30 guests racing for a list’s last 3 places: exactly 3 get them', async () => {
    const { venueId } = await guestlistVenue(t);
    const ruleId = await insertList(t, venueId, { max_covers_enabled: 1, max_covers: 10 });
    const early = await guestWithKeys(t, 100);
    expect((await joinList(t, venueId, join(ruleId, 4), early.headers)).statusCode).toBe(200);
    expect((await joinList(t, venueId, join(ruleId, 3), early.headers)).statusCode).toBe(200);
    const guests = await Promise.all(Array.from({ length: 30 }, (_, i) => guestWithKeys(t, 10, `Racer ${i}`)));
    const answers = await Promise.all(guests.map((g) => joinList(t, venueId, join(ruleId), g.headers)));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(3);
    expect(codes.filter((c) => c === 409)).toHaveLength(27);
    expect(answers.find((a) => a.statusCode === 409)!.json()).toMatchObject({ reason: 'max_covers', remaining: 0 });
    expect(await activeCovers(venueId)).toBe(10);
    // Only the winners spent keys.
    const spent = await t.db.kysely.selectFrom('billing_ledger').select('user_id').where('type', '=', 'spend').execute();
    expect(spent.filter((row) => guests.some((g) => g.userId === row.user_id))).toHaveLength(3);
  });

  it('the venue’s door capacity holds across its lists under 30 concurrent requests', async () => {
    const { venueId } = await guestlistVenue(t, { backdoor_capacity: 5 });
    const lists = [await insertList(t, venueId), await insertList(t, venueId, { name: 'Second list' })];
    const guests = await Promise.all(Array.from({ length: 30 }, (_, i) => guestWithKeys(t, 10, `Door ${i}`)));
    const answers = await Promise.all(guests.map((g, i) => joinList(t, venueId, join(lists[i % 2]), g.headers)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(5);
    expect(answers.find((a) => a.statusCode === 409)!.json()).toMatchObject({ reason: 'door_capacity' });
    expect(await activeCovers(venueId)).toBe(5);
  });
});

describe('staff guest-list places and the door', () => {
  it('staff guest-list bookings respect the list’s max covers (from its rule) and the door capacity', async () => {
    const { op, venueId } = await guestlistVenue(t, { backdoor_capacity: 8 });
    const api = venueApi(t, op.headers, venueId);
    const ruleId = await insertList(t, venueId, { max_covers_enabled: 1, max_covers: 4 });
    const staffPlace = (party_size: number, access_rule_id?: string) =>
      api.post('/staff-guestlist-bookings', {
        guest_name: 'Door Friend',
        date: FRIDAY,
        party_size,
        ...(access_rule_id ? { access_rule_id } : {}),
      });
    expect((await staffPlace(3, ruleId)).statusCode).toBe(200);
    const guest = await guestWithKeys(t, 100);
    const full = await joinList(t, venueId, join(ruleId, 2), guest.headers);
    expect(full.statusCode).toBe(409);
    expect((await joinList(t, venueId, join(ruleId, 1), guest.headers)).statusCode).toBe(200);
    const over = await staffPlace(1, ruleId);
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ reason: 'max_covers', remaining: 0 });
    // Places off any list count against the door: 4 taken of 8.
    expect((await staffPlace(4)).statusCode).toBe(200);
    expect((await staffPlace(1)).json()).toMatchObject({ reason: 'door_capacity', remaining: 0 });
    // 30 concurrent staff places for a fresh door: never more than its capacity.
    const { op: op2, venueId: venue2 } = await guestlistVenue(t, { backdoor_capacity: 6 });
    const api2 = venueApi(t, op2.headers, venue2);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => api2.post('/staff-guestlist-bookings', { guest_name: 'Rush', date: FRIDAY, party_size: 2 })),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(3);
    expect(await activeCovers(venue2)).toBe(6);
  });

  it('checks a guest-list booking in by its QR code once approved', async () => {
    const { op, venueId } = await guestlistVenue(t);
    const ruleId = await insertList(t, venueId);
    const guest = await guestWithKeys(t, 10);
    const { booking_id } = (await joinList(t, venueId, join(ruleId), guest.headers)).json();
    const qr = (await t.app.inject({ url: `/api/public/venues/${venueId}/booking/${booking_id}/qr` })).json();
    // The list is on Friday: staff override the check-in window (door-timing.test.ts tests the window).
    const checkIn = () =>
      t.app.inject({ method: 'POST', url: '/api/check-in', headers: op.headers, payload: { qr_token: qr.qr_token, force: true } });
    expect((await checkIn()).json()).toMatchObject({ status: 'pending' });
    expect((await checkIn()).statusCode).toBe(409);
    expect((await t.app.inject({ method: 'POST', url: `/api/bookings/${booking_id}/approve`, headers: op.headers })).statusCode).toBe(200);
    expect((await checkIn()).json()).toMatchObject({ success: true, booking_id, status: 'checked_in', guest_count: 1 });
  });

  it('a door reject gives the keys back once, even when asked concurrently or again', async () => {
    const { op, venueId } = await guestlistVenue(t);
    const ruleId = await insertList(t, venueId);
    const guest = await guestWithKeys(t, 30);
    const { booking_id } = (await joinList(t, venueId, join(ruleId, 2), guest.headers)).json();
    expect((await ledgerOf(t, guest.userId)).balance).toBe(10);
    const reject = () =>
      t.app.inject({ method: 'POST', url: '/api/door-reject', headers: op.headers, payload: { booking_id, reason: 'Dress code' } });
    const answers = await Promise.all(Array.from({ length: 5 }, reject));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(4);
    expect((await reject()).statusCode).toBe(409);
    const ledger = await ledgerOf(t, guest.userId);
    expect(ledger.balance).toBe(30);
    expect(ledger.entries.filter((e) => e.type === 'refund')).toEqual([{ type: 'refund', delta: 20, booking_id }]);
    expect(await countRows(t, 'booking_history', { booking_id, action: 'keys_refund' })).toBe(1);
  });

  it('a rejection refunds once across unreject and reject again; a staff cancel refunds; a no-show keeps the keys', async () => {
    const { op, venueId } = await guestlistVenue(t);
    const ruleId = await insertList(t, venueId);
    const guest = await guestWithKeys(t, 30);
    const staff = (id: string, action: string) =>
      t.app.inject({ method: 'POST', url: `/api/bookings/${id}/${action}`, headers: op.headers, payload: {} });
    const first = (await joinList(t, venueId, join(ruleId), guest.headers)).json().booking_id;
    expect((await staff(first, 'reject')).statusCode).toBe(200);
    expect((await staff(first, 'unreject')).statusCode).toBe(200);
    expect((await staff(first, 'reject')).statusCode).toBe(200);
    const second = (await joinList(t, venueId, join(ruleId), guest.headers)).json().booking_id;
    expect((await staff(second, 'staff-cancel')).statusCode).toBe(200);
    const third = (await joinList(t, venueId, join(ruleId), guest.headers)).json().booking_id;
    await staff(third, 'approve');
    const noShow = await t.app.inject({
      method: 'PATCH',
      url: `/api/bookings/${third}/status`,
      headers: op.headers,
      payload: { status: 'no_show', force: true }, // before Friday's list: an override
    });
    expect(noShow.statusCode, noShow.body).toBe(200);
    const ledger = await ledgerOf(t, guest.userId);
    expect(ledger.entries.filter((e) => e.type === 'refund').map((e) => [e.booking_id, e.delta])).toEqual(
      expect.arrayContaining([
        [first, 10],
        [second, 10],
      ]),
    );
    expect(ledger.entries.filter((e) => e.type === 'refund')).toHaveLength(2);
    expect(ledger.balance).toBe(20);
  });

  it('the guest cancelling through the manage link of the confirmation gets the keys back', async () => {
    const { venueId } = await guestlistVenue(t);
    const profile = await insertListProfile(t, venueId, {}, await insertAdmission(t, venueId, { act_autoapprove_enabled: 1 }));
    const ruleId = await insertList(t, venueId, { list_profile_id: profile });
    const guest = await guestWithKeys(t, 10);
    const { booking_id, status } = (await joinList(t, venueId, join(ruleId), guest.headers)).json();
    expect(status).toBe('approved');
    const mail = await t.db.kysely
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('recipient', '=', guest.email)
      .executeTakeFirstOrThrow();
    const token = decodeURIComponent(/manage\?token=([^\s&"]+)/.exec(mail.text_body)![1]);
    const cancel = await t.app.inject({ method: 'POST', url: '/api/public/bookings/manage/cancel', payload: { token } });
    expect(cancel.json()).toMatchObject({ success: true, booking_id, status: 'cancelled' });
    expect((await ledgerOf(t, guest.userId)).balance).toBe(10);
  });
});
