/**
 * Staff changes to a booking's details and tables: details, table lock, lifecycle flags, duration
 * (slots claimed again), close (slots freed from now), assign and unassign tables; each with its
 * history and its refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, insertVenueRow, setupVenue, type TestApp, type TestOperator } from '../../../../test/helpers/app.js';
import { insertBooking, insertTable, slotsHeld } from '../core/bookings.test-support.js';
import { slotOf, slotsOf } from '../core/slots.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const post = (op: TestOperator, id: string, path: string, payload?: object) =>
  t.app.inject({ method: 'POST', url: `/api/bookings/${id}/${path}`, headers: op.headers, ...(payload ? { payload } : {}) });
const patch = (op: TestOperator, id: string, path: string, payload: object) =>
  t.app.inject({ method: 'PATCH', url: `/api/bookings/${id}/${path}`, headers: op.headers, payload });

const slotsBetween = (from: string, to: string) => slotsOf(new Date(from), new Date(to));

describe('details, lock and lifecycle', () => {
  it('PATCH details changes what is sent, clears with null, records from/to in history', async () => {
    const { op, venueId } = await setupVenue(t);
    const id = await insertBooking(t, op.operatorId, venueId);
    const res = await patch(op, id, 'details', { guest_name: '  Grace Hopper ', guest_phone: null, notes: 'Window seat', guest_count: 3 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking).toMatchObject({
      guest_name: 'Grace Hopper',
      user_name: 'Grace Hopper',
      guest_email: 'ada@example.test',
      guest_phone: null,
      notes: 'Window seat',
      guest_count: 3,
    });
    expect(res.json().booking.history).toEqual([
      expect.objectContaining({
        action: 'update_details',
        detail: {
          guest_name: { from: 'Ada Lovelace', to: 'Grace Hopper' },
          guest_phone: { from: '+44 7700 900123', to: null },
          notes: { from: null, to: 'Window seat' },
          guest_count: { from: 2, to: 3 },
        },
      }),
    ]);
    // Nothing changed: no history.
    expect((await patch(op, id, 'details', { notes: 'Window seat' })).json().booking.history).toHaveLength(1);
    for (const body of [{ guest_name: '   ' }, { guest_email: 'nope' }, { guest_count: 0 }, { notes: 'x'.repeat(2001) }]) {
      expect((await patch(op, id, 'details', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('raising guest_count beyond what the tables seat is a 409', async () => {
    const { op, venueId } = await setupVenue(t);
    const table = await insertTable(t, venueId, { table_number: '1', capacity: 4 });
    const id = await insertBooking(t, op.operatorId, venueId, { tableIds: [table] });
    expect((await patch(op, id, 'details', { guest_count: 4 })).statusCode).toBe(200);
    const res = await patch(op, id, 'details', { guest_count: 5 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/seat 4/);
  });

  it('lock and unlock the tables', async () => {
    const { op, venueId } = await setupVenue(t);
    const id = await insertBooking(t, op.operatorId, venueId);
    const locked = await post(op, id, 'lock', { locked: true });
    expect(locked.json().booking).toMatchObject({ table_locked: true });
    expect((await post(op, id, 'lock', { locked: 1 })).json().booking.history).toHaveLength(1);
    t.clock.advance(1000);
    const unlocked = await post(op, id, 'lock', { locked: false });
    expect(unlocked.json().booking.table_locked).toBe(false);
    expect(unlocked.json().booking.history.map((h: { action: string }) => h.action)).toEqual(['lock_tables', 'unlock_tables']);
    expect((await post(op, id, 'lock', {})).statusCode).toBe(400);
  });

  it('lifecycle flags record the time (first time kept) and clear', async () => {
    const { op, venueId } = await setupVenue(t);
    const id = await insertBooking(t, op.operatorId, venueId);
    const first = t.clock.now().toISOString();
    expect((await post(op, id, 'lifecycle', { flag: 'arrived', value: true })).json().booking.lifecycle).toEqual({ arrived: first });
    t.clock.advance(10 * 60_000);
    const seated = (await post(op, id, 'lifecycle', { flag: 'seated', value: true })).json().booking;
    expect(seated.lifecycle).toEqual({ arrived: first, seated: t.clock.now().toISOString() });
    expect((await post(op, id, 'lifecycle', { flag: 'arrived', value: true })).json().booking.lifecycle.arrived).toBe(first);
    const seatedAt = t.clock.now().toISOString();
    t.clock.advance(1000);
    const cleared = (await post(op, id, 'lifecycle', { flag: 'arrived', value: false })).json().booking;
    expect(cleared.lifecycle).toEqual({ seated: seatedAt });
    expect(cleared.history.map((h: { detail: object }) => h.detail)).toEqual([
      { flag: 'arrived', value: true },
      { flag: 'seated', value: true },
      { flag: 'arrived', value: false },
    ]);
    expect((await post(op, id, 'lifecycle', { flag: 'dancing', value: true })).statusCode).toBe(400);
  });

  it('`late` marks guests running late (the floor’s late flag) until cleared', async () => {
    const { op, venueId } = await setupVenue(t);
    const id = await insertBooking(t, op.operatorId, venueId);
    const late = (await post(op, id, 'lifecycle', { flag: 'late', value: true })).json().booking;
    expect(late.lifecycle).toEqual({ late: t.clock.now().toISOString() });
    const list = (await t.app.inject({ url: `/api/my-venues/${venueId}/bookings`, headers: op.headers })).json().data;
    expect(list.find((b: { id: string }) => b.id === id).lifecycle).toEqual({ late: t.clock.now().toISOString() });
    expect((await post(op, id, 'lifecycle', { flag: 'late', value: false })).json().booking.lifecycle).toEqual({});
  });
});

describe('duration and close', () => {
  it('a longer stay claims the slots again; a taken or blocked table is a 409 and nothing changes', async () => {
    const { op, venueId } = await setupVenue(t);
    const table = await insertTable(t, venueId, { table_number: '1' });
    const id = await insertBooking(t, op.operatorId, venueId, { tableIds: [table] });
    const res = await post(op, id, 'duration', { duration_minutes: 150 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking).toMatchObject({ duration_minutes: 150, ends_at: '2026-06-20T21:30:00.000Z' });
    expect(res.json().booking.history.at(-1)).toMatchObject({ action: 'change_duration', detail: { from: 120, to: 150 } });
    expect(await slotsHeld(t, id)).toEqual({ [table]: slotsBetween('2026-06-20T19:00:00Z', '2026-06-20T21:30:00Z') });
    const bt = await t.db.kysely.selectFrom('booking_tables').select('ends_at').where('booking_id', '=', id).executeTakeFirstOrThrow();
    expect(bt.ends_at).toBe('2026-06-20T21:30:00.000Z');

    await insertBooking(t, op.operatorId, venueId, {
      starts_at: '2026-06-20T22:00:00.000Z',
      ends_at: '2026-06-20T23:00:00.000Z',
      tableIds: [table],
    });
    const taken = await post(op, id, 'duration', { duration_minutes: 195 });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatch(/no longer available.*Table 1/);
    expect(await slotsHeld(t, id)).toEqual({ [table]: slotsBetween('2026-06-20T19:00:00Z', '2026-06-20T21:30:00Z') });

    await insertVenueRow(t, 'table_blocks', venueId, {
      table_id: table,
      blocked_from: '2026-06-20T21:30:00.000Z',
      blocked_to: '2026-06-20T21:45:00.000Z',
      reason: 'Cleaning',
    });
    const blocked = await post(op, id, 'duration', { duration_minutes: 165 });
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().error).toBe('Table 1 is blocked at that time');

    const shorter = await post(op, id, 'duration', { duration_minutes: 60 });
    expect(shorter.json().booking.ends_at).toBe('2026-06-20T20:00:00.000Z');
    expect(await slotsHeld(t, id)).toEqual({ [table]: slotsBetween('2026-06-20T19:00:00Z', '2026-06-20T20:00:00Z') });
    expect((await post(op, id, 'duration', { duration_minutes: 10 })).statusCode).toBe(400);
  });

  it('duration, close and assign refuse inactive and untimed bookings with 409', async () => {
    const { op, venueId } = await setupVenue(t);
    const table = await insertTable(t, venueId, { table_number: '1' });
    const cancelled = await insertBooking(t, op.operatorId, venueId, { status: 'cancelled' });
    const untimed = await insertBooking(t, op.operatorId, venueId, { starts_at: null, ends_at: null, kind: 'guestlist' });
    for (const id of [cancelled, untimed]) {
      expect((await post(op, id, 'duration', { duration_minutes: 60 })).statusCode).toBe(409);
      expect((await post(op, id, 'close')).statusCode).toBe(409);
      expect((await post(op, id, 'assign-table', { table_ids: [table] })).statusCode).toBe(409);
    }
    expect((await post(op, cancelled, 'close')).json()).toEqual({
      request_id: expect.any(String),
      error: 'This booking is cancelled: it cannot be closed',
      status: 'cancelled',
    });
  });

  it('close ends the stay now and frees the slots from now on; closing again or before the start is a 409', async () => {
    const { op, venueId } = await setupVenue(t);
    const table = await insertTable(t, venueId, { table_number: '1' });
    const now = t.clock.now();
    const start = new Date(now.getTime() - 70 * 60_000).toISOString();
    const end = new Date(now.getTime() + 50 * 60_000).toISOString();
    const id = await insertBooking(t, op.operatorId, venueId, { status: 'checked_in', starts_at: start, ends_at: end, tableIds: [table] });
    const res = await post(op, id, 'close');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking).toMatchObject({ closed_at: now.toISOString(), ends_at: now.toISOString(), status: 'checked_in' });
    expect(res.json().booking.history.at(-1)).toMatchObject({ action: 'close' });
    const held = (await slotsHeld(t, id))[table];
    expect(held.at(-1)).toBe(slotOf(now) - 1);
    expect(held[0]).toBe(slotOf(new Date(start)));
    const bt = await t.db.kysely.selectFrom('booking_tables').select('ends_at').where('booking_id', '=', id).executeTakeFirstOrThrow();
    expect(bt.ends_at).toBe(now.toISOString());
    expect((await post(op, id, 'close')).statusCode).toBe(409);
    expect((await post(op, id, 'duration', { duration_minutes: 300 })).statusCode).toBe(409);

    // The table is free for a walk-in from now.
    const next = await insertBooking(t, op.operatorId, venueId, { starts_at: now.toISOString(), ends_at: end });
    expect((await post(op, next, 'assign-table', { table_ids: [table] })).statusCode).toBe(200);

    const future = await insertBooking(t, op.operatorId, venueId, { tableIds: [] });
    const early = await post(op, future, 'close');
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toMatch(/not started/);
  });
});

describe('assign and unassign tables', () => {
  it('seats the booking at other tables of its venue, moving its slots; history names before and after', async () => {
    const { op, venueId } = await setupVenue(t);
    const [one, two, three] = [
      await insertTable(t, venueId, { table_number: '1', capacity: 2 }),
      await insertTable(t, venueId, { table_number: '2', capacity: 2 }),
      await insertTable(t, venueId, { table_number: '3', capacity: 6 }),
    ];
    const id = await insertBooking(t, op.operatorId, venueId, { guest_count: 4, tableIds: [three] });
    const res = await post(op, id, 'assign-table', { table_ids: [two, one, one] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking.table_ids).toEqual([one, two].sort());
    expect(res.json().booking.history.at(-1)).toMatchObject({ action: 'assign_tables', detail: { from: [three], to: [two, one] } });
    const slots = slotsBetween('2026-06-20T19:00:00Z', '2026-06-20T21:00:00Z');
    expect(await slotsHeld(t, id)).toEqual({ [one]: slots, [two]: slots });

    t.clock.advance(1000);
    const unassigned = await post(op, id, 'unassign-table');
    expect(unassigned.json().booking.table_ids).toEqual([]);
    expect(await slotsHeld(t, id)).toEqual({});
    expect(unassigned.json().booking.history.at(-1)).toMatchObject({ action: 'unassign_tables' });
    // Nothing to unassign: no new history.
    expect((await post(op, id, 'unassign-table')).json().booking.history).toHaveLength(2);
  });

  it('refuses tables of another venue (404), inactive (409), too small (409), taken or blocked (409)', async () => {
    const { op, venueId } = await setupVenue(t);
    const { venueId: otherVenue } = await setupVenue(t);
    const foreign = await insertTable(t, otherVenue, { table_number: '1' });
    const small = await insertTable(t, venueId, { table_number: '1', capacity: 2 });
    const off = await insertTable(t, venueId, { table_number: '2', status: 'inactive' });
    const busy = await insertTable(t, venueId, { table_number: '3' });
    const blocked = await insertTable(t, venueId, { table_number: '4' });
    const id = await insertBooking(t, op.operatorId, venueId, { guest_count: 3 });
    await insertBooking(t, op.operatorId, venueId, {
      starts_at: '2026-06-20T20:45:00.000Z',
      ends_at: '2026-06-20T22:00:00.000Z',
      tableIds: [busy],
    });
    await insertVenueRow(t, 'table_blocks', venueId, {
      table_id: blocked,
      blocked_from: '2026-06-20T18:00:00.000Z',
      blocked_to: '2026-06-20T19:15:00.000Z',
      reason: '',
    });

    expect((await post(op, id, 'assign-table', { table_ids: [foreign] })).statusCode).toBe(404);
    expect((await post(op, id, 'assign-table', { table_ids: ['tbl_missing'] })).statusCode).toBe(404);
    expect((await post(op, id, 'assign-table', { table_ids: [off] })).json()).toEqual({
      request_id: expect.any(String),
      error: 'Table 2 is not active',
    });
    expect((await post(op, id, 'assign-table', { table_ids: [small] })).json()).toEqual({
      request_id: expect.any(String),
      error: 'Table 1 seat 2: the booking is for 3',
    });
    const taken = await post(op, id, 'assign-table', { table_ids: [busy] });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({
      request_id: expect.any(String),
      error: 'That table is no longer available at that time: Table 3',
      table_ids: [busy],
    });
    expect((await post(op, id, 'assign-table', { table_ids: [blocked] })).statusCode).toBe(409);
    expect((await post(op, id, 'assign-table', { table_ids: [] })).statusCode).toBe(400);
    expect(await slotsHeld(t, id)).toEqual({});
  });

  it('takes the table number as printed on the floor as well as the id (issue 26)', async () => {
    const { op, venueId } = await setupVenue(t);
    const six = await insertTable(t, venueId, { table_number: '6', capacity: 4 });
    const terrace = await insertTable(t, venueId, { table_number: 'T2', capacity: 2 });
    const id = await insertBooking(t, op.operatorId, venueId, { guest_count: 4 });
    const res = await post(op, id, 'assign-table', { table_ids: ['6'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking.table_ids).toEqual([six]);
    const mixed = await post(op, id, 'assign-table', { table_ids: [' t2 ', six] });
    expect(mixed.statusCode, mixed.body).toBe(200);
    expect(mixed.json().booking.table_ids).toEqual([six, terrace].sort());
    expect((await post(op, id, 'assign-table', { table_ids: ['99'] })).statusCode).toBe(404);
  });

  it('the slots decide when the occupancy check cannot see the other stay', async () => {
    const { op, venueId } = await setupVenue(t);
    const table = await insertTable(t, venueId, { table_number: '9' });
    const id = await insertBooking(t, op.operatorId, venueId);
    const other = await insertBooking(t, op.operatorId, venueId, { starts_at: '2026-06-21T19:00:00.000Z' });
    // A slot of the table held by another booking, with no booking_tables row to show it.
    await t.db.kysely
      .insertInto('booking_slots')
      .values({ table_id: table, slot: slotOf(new Date('2026-06-20T20:00:00Z')), booking_id: other, venue_id: venueId })
      .execute();
    const res = await post(op, id, 'assign-table', { table_ids: [table] });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('That table is no longer available at that time');
    const row = await t.db.kysely.selectFrom('booking_tables').select('table_id').where('booking_id', '=', id).execute();
    expect(row).toEqual([]);
  });
});
