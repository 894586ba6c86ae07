/**
 * Bookings staff make (table bookings, walk-ins, guest-list places), auto-assign and the door reject:
 * each with its validation, its refusals, permissions and the cross-tenant 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuest, createStaff, createTestApp, setupVenue, type TestApp, type TestOperator } from '../../../../test/helpers/app.js';
import { insertAccessRule } from '../../../../test/helpers/rows.js';
import { insertBooking, insertTable, slotsHeld } from '../core/bookings.test-support.js';
import { slotsOf } from '../core/slots.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const FRIDAY = '2026-06-19';
const staffBook = (op: { headers: Record<string, string> }, venueId: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/my-venues/${venueId}/staff-bookings`, headers: { ...op.headers, ...headers }, payload });
const guestlistBook = (op: { headers: Record<string, string> }, venueId: string, payload: object) =>
  t.app.inject({ method: 'POST', url: `/api/my-venues/${venueId}/staff-guestlist-bookings`, headers: op.headers, payload });
const post = (op: TestOperator, id: string, path: string, payload?: object) =>
  t.app.inject({ method: 'POST', url: `/api/bookings/${id}/${path}`, headers: op.headers, ...(payload ? { payload } : {}) });
const mailTo = (email: string) => t.db.kysely.selectFrom('mail_outbox').selectAll().where('recipient', '=', email).execute();

/** A venue with tables of 2, 4 and 6 seats. */
async function floor() {
  const { op, venueId } = await setupVenue(t, { email: 'hello@venue.test' });
  const two = await insertTable(t, venueId, { table_number: '1', capacity: 2 });
  const four = await insertTable(t, venueId, { table_number: '2', capacity: 4 });
  const six = await insertTable(t, venueId, { table_number: '3', capacity: 6 });
  return { op, venueId, two, four, six };
}

describe('POST /api/my-venues/:venueId/staff-bookings', () => {
  it('books the smallest free table that seats the party, holds its slots and mails the guest', async () => {
    const { op, venueId, four } = await floor();
    const res = await staffBook(op, venueId, {
      date: FRIDAY,
      time: '19:00',
      party_size: 3,
      guest_name: ' Ada Lovelace ',
      guest_email: 'Ada@Example.test',
      notes: 'Birthday',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { id, booking } = res.json();
    expect(booking).toMatchObject({
      id,
      status: 'confirmed',
      source: 'staff',
      kind: 'table',
      booking_date: FRIDAY,
      start_time: '19:00',
      duration_minutes: 120,
      // 19:00 in London in June is 18:00 UTC.
      starts_at: '2026-06-19T18:00:00.000Z',
      ends_at: '2026-06-19T20:00:00.000Z',
      guest_name: 'Ada Lovelace',
      guest_email: 'Ada@Example.test',
      guest_count: 3,
      notes: 'Birthday',
      table_ids: [four],
    });
    expect(booking.history).toEqual([
      expect.objectContaining({ action: 'create', to_status: 'confirmed', actor: expect.objectContaining({ kind: 'staff' }) }),
    ]);
    expect(await slotsHeld(t, id)).toEqual({ [four]: slotsOf(new Date('2026-06-19T18:00:00Z'), new Date('2026-06-19T20:00:00Z')) });
    const mail = await mailTo('Ada@Example.test');
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toMatch(/confirmed/);
    // The email is matched to a guest record (created now, without a password).
    const guest = await t.db.kysely.selectFrom('users').selectAll().where('email', '=', 'ada@example.test').executeTakeFirstOrThrow();
    expect(guest).toMatchObject({ role: 'guest', password_hash: null, name: 'Ada Lovelace' });
    const row = await t.db.kysely.selectFrom('bookings').select('user_id').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.user_id).toBe(guest.id);
  });

  it('seats at named tables; refuses taken, blocked, inactive, too small and unknown ones', async () => {
    const { op, venueId, two, four, six } = await floor();
    const at = { date: FRIDAY, time: '19:00', guest_name: 'Grace' };
    const first = await staffBook(op, venueId, { ...at, party_size: 2, table_ids: [six] });
    expect(first.json().booking.table_ids).toEqual([six]);
    const taken = await staffBook(op, venueId, { ...at, time: '20:00', party_size: 2, table_ids: [six] });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatch(/Table 3/);
    const small = await staffBook(op, venueId, { ...at, party_size: 5, table_ids: [two] });
    expect(small.statusCode).toBe(409);
    expect(small.json().error).toMatch(/seat 2/);
    expect((await staffBook(op, venueId, { ...at, party_size: 2, table_ids: ['tbl_nope'] })).statusCode).toBe(404);
    await t.db.kysely.updateTable('venue_tables').set({ status: 'inactive' }).where('id', '=', two).execute();
    expect((await staffBook(op, venueId, { ...at, party_size: 2, table_ids: [two] })).statusCode).toBe(409);
    const block = await t.app.inject({
      method: 'POST',
      url: `/api/my-venues/${venueId}/tables/block`,
      headers: op.headers,
      payload: { table_ids: [four], from: `${FRIDAY}T18:00`, to: `${FRIDAY}T23:00` },
    });
    expect(block.statusCode, block.body).toBe(200);
    const blocked = await staffBook(op, venueId, { ...at, party_size: 2, table_ids: [four] });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().error).toMatch(/blocked/);
    // Nothing free seats 2 at 19:00 now (6 taken, 4 blocked, 2 inactive): the automatic choice is a 409 too.
    const none = await staffBook(op, venueId, { ...at, party_size: 2 });
    expect(none.statusCode).toBe(409);
    expect(none.json().reason).toBe('no_table');
    // ...but a booking without a table yet is fine.
    const unseated = await staffBook(op, venueId, { ...at, party_size: 2, table_ids: [] });
    expect(unseated.statusCode, unseated.body).toBe(200);
    expect(unseated.json().booking.table_ids).toEqual([]);
  });

  it('a walk-in is seated now, checked in, and not mailed', async () => {
    const { op, venueId, two } = await floor();
    const res = await staffBook(op, venueId, { walk_in: true, party_size: 2, guest_name: 'Walk-in', guest_email: 'walkin@example.test' });
    expect(res.statusCode, res.body).toBe(200);
    // The test clock is 2026-06-15 12:00 UTC: 13:00 in London.
    expect(res.json().booking).toMatchObject({
      source: 'walk_in',
      status: 'checked_in',
      booking_date: '2026-06-15',
      start_time: '13:00',
      table_ids: [two],
    });
    expect(res.json().booking.checked_in_at).toBe(t.clock.now().toISOString());
    expect(await mailTo('walkin@example.test')).toHaveLength(0);
  });

  it('books a known guest by user_id, copying their details; an unknown, staff or other operator’s guest id is a 404', async () => {
    const { op, venueId } = await floor();
    const guest = await createGuest(t, 'Known Guest');
    // Not on this operator's roster yet: a raw user id names nobody here (security round 2).
    expect((await staffBook(op, venueId, { date: FRIDAY, time: '18:00', party_size: 2, user_id: guest.userId })).statusCode).toBe(404);
    // Known once they have a booking here.
    const first = await staffBook(op, venueId, {
      date: FRIDAY,
      time: '20:00',
      party_size: 2,
      guest_name: 'Known Guest',
      guest_email: guest.email,
      send_confirmation: false,
    });
    expect(first.statusCode, first.body).toBe(200);
    const res = await staffBook(op, venueId, {
      date: FRIDAY,
      time: '18:00',
      party_size: 2,
      user_id: guest.userId,
      send_confirmation: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking).toMatchObject({ guest_name: 'Known Guest', guest_email: guest.email });
    expect(await mailTo(guest.email)).toHaveLength(0);
    expect((await staffBook(op, venueId, { date: FRIDAY, time: '18:00', party_size: 2, user_id: 'usr_nope' })).statusCode).toBe(404);
    expect((await staffBook(op, venueId, { date: FRIDAY, time: '18:00', party_size: 2, user_id: op.userId })).statusCode).toBe(404);
  });

  it('validates the body', async () => {
    const { op, venueId } = await floor();
    const ok = { date: FRIDAY, time: '19:00', party_size: 2, guest_name: 'Ada' };
    const bad = [
      { ...ok, date: undefined },
      { ...ok, time: '25:00' },
      { ...ok, date: '2026-02-30' },
      { ...ok, party_size: 0 },
      { ...ok, guest_name: undefined },
      { ...ok, guest_name: '   ' },
      { ...ok, guest_email: 'nope' },
      { ...ok, duration_minutes: 10 },
      { ...ok, status: 'cancelled' },
      { ...ok, guest_name: 'a\u0000b' },
    ];
    for (const body of bad) expect((await staffBook(op, venueId, body)).statusCode, JSON.stringify(body)).toBe(400);
    const guestlistRule = await insertAccessRule(t, venueId, { name: 'List', rule_type: 'guestlist' });
    expect((await staffBook(op, venueId, { ...ok, access_rule_id: guestlistRule })).statusCode).toBe(400);
    expect((await staffBook(op, venueId, { ...ok, access_rule_id: 'acr_nope' })).statusCode).toBe(404);
    expect(await t.db.kysely.selectFrom('bookings').select('id').where('venue_id', '=', venueId).execute()).toHaveLength(0);
  });

  it('an Idempotency-Key retry answers the first booking; another body under it is a 409', async () => {
    const { op, venueId } = await floor();
    const body = { date: FRIDAY, time: '19:00', party_size: 2, guest_name: 'Ada' };
    const key = { 'idempotency-key': 'staff-retry-1' };
    const first = await staffBook(op, venueId, body, key);
    const again = await staffBook(op, venueId, body, key);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    expect((await staffBook(op, venueId, { ...body, party_size: 3 }, key)).statusCode).toBe(409);
    expect(await t.db.kysely.selectFrom('bookings').select('id').where('venue_id', '=', venueId).execute()).toHaveLength(1);
  });

  it('20 concurrent staff bookings for one named table give exactly one booking', async () => {
    const { op, venueId, six } = await floor();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        staffBook(op, venueId, { date: FRIDAY, time: '19:00', party_size: 2, guest_name: `G${i}`, table_ids: [six] }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(19);
  });

  it('needs bookings write at that venue: read-only 403, another account 404', async () => {
    const { op, venueId } = await floor();
    const body = { date: FRIDAY, time: '19:00', party_size: 2, guest_name: 'Ada' };
    const reader = await createStaff(t, op, { bookings: 'read' });
    expect((await staffBook(reader, venueId, body)).statusCode).toBe(403);
    const other = await setupVenue(t);
    expect((await staffBook(other.op, venueId, body)).statusCode).toBe(404);
    expect((await guestlistBook(other.op, venueId, { date: FRIDAY, party_size: 2, guest_name: 'Ada' })).statusCode).toBe(404);
  });
});

describe('POST /api/my-venues/:venueId/staff-guestlist-bookings', () => {
  it('adds a guest and plus-ones to a list, approved, without a table, timed by the rule', async () => {
    const { op, venueId } = await floor();
    const rule = await insertAccessRule(t, venueId, { name: 'Friday list', rule_type: 'guestlist', time_from: '22:00', time_to: '03:00' });
    const res = await guestlistBook(op, venueId, {
      date: FRIDAY,
      party_size: 4,
      access_rule_id: rule,
      guest_name: 'Lin',
      guest_email: 'lin@example.test',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking).toMatchObject({
      kind: 'guestlist',
      rule_type: 'guestlist',
      status: 'approved',
      access_rule_id: rule,
      start_time: '22:00',
      guest_count: 4,
      table_ids: [],
    });
    expect(await mailTo('lin@example.test')).toHaveLength(1);
    const untimed = await guestlistBook(op, venueId, { date: FRIDAY, party_size: 1, guest_name: 'No rule', status: 'pending' });
    expect(untimed.json().booking).toMatchObject({ start_time: null, starts_at: null, status: 'pending' });
    const tableRule = await insertAccessRule(t, venueId, { name: 'Dinner', rule_type: 'table' });
    expect((await guestlistBook(op, venueId, { date: FRIDAY, party_size: 1, guest_name: 'X', access_rule_id: tableRule })).statusCode).toBe(
      400,
    );
    expect((await guestlistBook(op, venueId, { party_size: 1, guest_name: 'X' })).statusCode).toBe(400);
  });
});

describe('POST /api/bookings/:id/auto-assign', () => {
  it('moves a booking to the smallest free table that seats it; no change when already best', async () => {
    const { op, venueId, two, six } = await floor();
    const id = await insertBooking(t, op.operatorId, venueId, { tableIds: [six], guest_count: 2 });
    const res = await post(op, id, 'auto-assign');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking.table_ids).toEqual([two]);
    expect(res.json().booking.history.at(-1)).toMatchObject({ action: 'auto_assign', detail: { from: [six], to: [two] } });
    expect(Object.keys(await slotsHeld(t, id))).toEqual([two]);
    const again = await post(op, id, 'auto-assign');
    expect(again.json().booking.history).toHaveLength(1);
  });

  it('refuses a locked booking, an inactive one, and one nothing free can seat', async () => {
    const { op, venueId, six } = await floor();
    const locked = await insertBooking(t, op.operatorId, venueId, { tableIds: [six], table_locked: 1 });
    expect((await post(op, locked, 'auto-assign')).statusCode).toBe(409);
    const cancelled = await insertBooking(t, op.operatorId, venueId, { status: 'cancelled' });
    const refused = await post(op, cancelled, 'auto-assign');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().status).toBe('cancelled');
    const huge = await insertBooking(t, op.operatorId, venueId, { guest_count: 20 });
    expect((await post(op, huge, 'auto-assign')).statusCode).toBe(409);
    const other = await setupVenue(t);
    expect((await post(other.op, huge, 'auto-assign')).statusCode).toBe(404);
  });
});

describe('POST /api/door-reject', () => {
  const reject = (op: { headers: Record<string, string> }, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/door-reject', headers: op.headers, payload });

  it('turns a guest away by booking id: door_rejected, tables freed, reason kept; a second time is a 409', async () => {
    const { op, venueId, four } = await floor();
    const id = await insertBooking(t, op.operatorId, venueId, { tableIds: [four] });
    const res = await reject(op, { booking_id: id, reason: 'Dress code' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking).toMatchObject({ status: 'door_rejected', cancel_reason: 'Dress code' });
    expect(res.json().booking.history.at(-1)).toMatchObject({
      action: 'door_reject',
      from_status: 'confirmed',
      to_status: 'door_rejected',
    });
    expect(await slotsHeld(t, id)).toEqual({});
    const again = await reject(op, { booking_id: id });
    expect(again.statusCode).toBe(409);
    expect(again.json().status).toBe('door_rejected');
  });

  it('turns a guest away by QR token, refunding their deposit', async () => {
    const { op, venueId } = await floor();
    await t.db.kysely.updateTable('venues').set({ status: 'live' }).where('id', '=', venueId).execute();
    const intent = await t.ctx.payments.createIntent({
      operatorId: op.operatorId,
      venueId,
      amountPence: 2500,
      capture: 'automatic',
      metadata: { kind: 'test' },
    });
    await t.ctx.payments.confirmSimulated(intent.id, 'pm_card_visa');
    const id = await insertBooking(t, op.operatorId, venueId, {
      deposit_type: 'deposit',
      deposit_pence: 2500,
      payment_intent_id: intent.id,
      payment_status: 'paid',
    });
    const qr = await t.app.inject({ url: `/api/public/venues/${venueId}/booking/${id}/qr` });
    expect(qr.statusCode, qr.body).toBe(200);
    const res = await reject(op, { qr_token: qr.json().qr_token, refund: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking).toMatchObject({ status: 'door_rejected', payment_status: 'refunded', refunded_pence: 2500 });
    expect(res.json().booking.history.at(-1).detail).toMatchObject({ refund: true, refunded_pence: 2500 });
  });

  it('needs exactly one of booking_id and qr_token, a real token, the permission and the venue', async () => {
    const { op, venueId } = await floor();
    const id = await insertBooking(t, op.operatorId, venueId);
    expect((await reject(op, {})).statusCode).toBe(400);
    expect((await reject(op, { booking_id: id, qr_token: 'mq1.x.y' })).statusCode).toBe(400);
    expect((await reject(op, { qr_token: 'not-a-token' })).statusCode).toBe(400);
    const reader = await createStaff(t, op, { bookings: 'read' });
    expect((await reject(reader, { booking_id: id })).statusCode).toBe(403);
    const other = await setupVenue(t);
    expect((await reject(other.op, { booking_id: id })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/bookings/${id}`, headers: op.headers })).json().status).toBe('confirmed');
  });
});
