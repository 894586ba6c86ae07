/**
 * The staff reservation floor: the venue bookings list (filters, offset and cursor paging), status
 * moves (approve, reject, unreject, staff-cancel, PATCH status) with their history, slots and mail, and
 * who may call them (401, 403, cross-tenant and out-of-scope 404).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, setupVenue, type TestApp } from '../../../../test/helpers/app.js';
import { insertBooking, insertTable, slotsHeld } from '../core/bookings.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

describe('venue bookings list', () => {
  async function venueWithBookings() {
    const { op, venueId, api } = await setupVenue(t);
    const ids = {
      lateJune20: await insertBooking(t, op.operatorId, venueId, { starts_at: '2026-06-20T20:00:00.000Z', guest_name: 'Zed Smith' }),
      earlyJune20: await insertBooking(t, op.operatorId, venueId, {
        starts_at: '2026-06-20T18:00:00.000Z',
        ends_at: '2026-06-20T20:00:00.000Z',
        status: 'pending',
        guest_name: 'Anna Bell',
        guest_email: 'ANNA@Example.test',
      }),
      guestlist: await insertBooking(t, op.operatorId, venueId, {
        starts_at: null,
        ends_at: null,
        booking_date: '2026-06-20',
        kind: 'guestlist',
        guest_name: 'No Time',
        guest_phone: '07700 900555',
      }),
      june21: await insertBooking(t, op.operatorId, venueId, {
        starts_at: '2026-06-21T19:00:00.000Z',
        status: 'cancelled',
        guest_name: '100%_sure',
      }),
      june25: await insertBooking(t, op.operatorId, venueId, { starts_at: '2026-06-25T19:00:00.000Z', guest_name: 'Later' }),
    };
    return { op, venueId, api, ids };
  }

  it('lists the venue’s bookings by date, start time (untimed first) and id, with the spec’s list fields', async () => {
    const { api, ids, venueId, op } = await venueWithBookings();
    const other = await insertVenue(t, op.operatorId, { name: 'Sister' });
    await insertBooking(t, op.operatorId, other);
    const table = await insertTable(t, venueId, { table_number: '7' });
    await t.db.kysely
      .insertInto('booking_tables')
      .values({
        booking_id: ids.june25,
        table_id: table,
        venue_id: venueId,
        starts_at: '2026-06-25T19:00:00.000Z',
        ends_at: '2026-06-25T21:00:00.000Z',
      })
      .execute();

    const res = await api.get('/bookings');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ total: 5, limit: 50, offset: 0, has_more: false });
    expect(body.data.map((b: { id: string }) => b.id)).toEqual([ids.guestlist, ids.earlyJune20, ids.lateJune20, ids.june21, ids.june25]);
    expect(body.data[1]).toMatchObject({
      id: ids.earlyJune20,
      status: 'pending',
      guest_count: 2,
      booking_date: '2026-06-20',
      venue_name: 'Test Venue',
      user_name: 'Anna Bell',
      start_time: '18:00',
      table_ids: [],
      table_locked: false,
    });
    expect(body.data[4].table_ids).toEqual([table]);
  });

  it('filters by date, from/to, one or several statuses and q (name, email, phone; case-insensitive; wildcards literal)', async () => {
    const { api, ids } = await venueWithBookings();
    const idsOf = async (query: string) => {
      const res = await api.get(`/bookings?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.map((b: { id: string }) => b.id);
    };
    expect(await idsOf('date=2026-06-21')).toEqual([ids.june21]);
    expect(await idsOf('from=2026-06-21&to=2026-06-25')).toEqual([ids.june21, ids.june25]);
    expect(await idsOf('from=2026-06-22')).toEqual([ids.june25]);
    expect(await idsOf('to=2026-06-20')).toEqual([ids.guestlist, ids.earlyJune20, ids.lateJune20]);
    expect(await idsOf('status=pending')).toEqual([ids.earlyJune20]);
    expect(await idsOf('status=pending,cancelled')).toEqual([ids.earlyJune20, ids.june21]);
    expect(await idsOf('q=anna%40EXAMPLE')).toEqual([ids.earlyJune20]);
    expect(await idsOf('q=smith')).toEqual([ids.lateJune20]);
    expect(await idsOf('q=900555')).toEqual([ids.guestlist]);
    expect(await idsOf('q=%25_')).toEqual([ids.june21]);
    expect(await idsOf('q=_')).toEqual([ids.june21]);
    expect(await idsOf('q=%20%20')).toHaveLength(5);
    expect(await idsOf('status=confirmed&q=later')).toEqual([ids.june25]);
  });

  it('refuses bad filters and paging with 400', async () => {
    const { api } = await venueWithBookings();
    for (const query of [
      'date=2026-02-30',
      'date=20-06-2026',
      'from=2026-06-25&to=2026-06-20',
      'status=pending,bogus',
      'status=,',
      'limit=0',
      'limit=201',
      'offset=-1',
      'paging=offset',
      'cursor=***',
      'paging=cursor&offset=5',
    ]) {
      const res = await api.get(`/bookings?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toEqual({ request_id: expect.any(String), error: expect.any(String) });
    }
  });

  it('pages by offset', async () => {
    const { api, ids } = await venueWithBookings();
    const first = (await api.get('/bookings?limit=2')).json();
    expect(first).toMatchObject({ total: 5, limit: 2, offset: 0, has_more: true });
    expect(first.data.map((b: { id: string }) => b.id)).toEqual([ids.guestlist, ids.earlyJune20]);
    const last = (await api.get('/bookings?limit=2&offset=4')).json();
    expect(last).toMatchObject({ total: 5, limit: 2, offset: 4, has_more: false });
    expect(last.data.map((b: { id: string }) => b.id)).toEqual([ids.june25]);
  });

  it('pages by cursor through every row once, even when rows are added behind the cursor', async () => {
    const { api, ids, op, venueId } = await venueWithBookings();
    const seen: string[] = [];
    let res = (await api.get('/bookings?paging=cursor&limit=2')).json();
    expect(res).toEqual({ data: expect.any(Array), limit: 2, has_more: true, cursor: expect.any(String) });
    seen.push(...res.data.map((b: { id: string }) => b.id));
    // A booking sorted before the cursor appears on no later page.
    await insertBooking(t, op.operatorId, venueId, { starts_at: '2026-06-19T19:00:00.000Z' });
    while (res.cursor) {
      res = (await api.get(`/bookings?limit=2&cursor=${res.cursor}`)).json();
      seen.push(...res.data.map((b: { id: string }) => b.id));
    }
    expect(res).toMatchObject({ has_more: false, cursor: null });
    expect(seen).toEqual([ids.guestlist, ids.earlyJune20, ids.lateJune20, ids.june21, ids.june25]);

    const filtered = (await api.get('/bookings?paging=cursor&status=confirmed&limit=1')).json();
    expect(filtered.has_more).toBe(true);
    const next = (await api.get(`/bookings?status=confirmed&limit=5&cursor=${filtered.cursor}`)).json();
    expect(next).toMatchObject({ has_more: false, cursor: null });
    expect(next.data.every((b: { status: string }) => b.status === 'confirmed')).toBe(true);
  });
});

describe('status moves', () => {
  it('approve, reject, unreject: moves with history; a refused move is a 409 naming the current status', async () => {
    const { op, venueId } = await setupVenue(t);
    const table = await insertTable(t, venueId, { table_number: '1' });
    const id = await insertBooking(t, op.operatorId, venueId, { status: 'pending', tableIds: [table] });
    const held = await slotsHeld(t, id);
    expect(held[table]).toHaveLength(8);

    const approved = await call('POST', `/api/bookings/${id}/approve`, op.headers);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ success: true, booking: { id, status: 'approved', table_ids: [table] } });
    expect(approved.json().booking.history).toEqual([
      expect.objectContaining({
        action: 'approve',
        from_status: 'pending',
        to_status: 'approved',
        actor: expect.objectContaining({ kind: 'staff', id: op.userId }),
      }),
    ]);

    const again = await call('POST', `/api/bookings/${id}/approve`, op.headers);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      request_id: expect.any(String),
      error: 'This booking is approved: it cannot be approved',
      status: 'approved',
    });

    const rejected = await call('POST', `/api/bookings/${id}/reject`, op.headers);
    expect(rejected.json().booking.status).toBe('rejected');
    expect(await slotsHeld(t, id)).toEqual({});

    const unrejected = await call('POST', `/api/bookings/${id}/unreject`, op.headers);
    expect(unrejected.statusCode, unrejected.body).toBe(200);
    expect(unrejected.json().booking.status).toBe('pending');
    expect(await slotsHeld(t, id)).toEqual(held);
    expect((await call('POST', `/api/bookings/${id}/unreject`, op.headers)).json()).toEqual({
      request_id: expect.any(String),
      error: 'This booking is pending: it cannot be unrejected',
      status: 'pending',
    });
  });

  it('unreject is a 409 when another booking took the tables meanwhile', async () => {
    const { op, venueId } = await setupVenue(t);
    const table = await insertTable(t, venueId, { table_number: '1' });
    const id = await insertBooking(t, op.operatorId, venueId, { status: 'pending', tableIds: [table] });
    await call('POST', `/api/bookings/${id}/reject`, op.headers);
    await insertBooking(t, op.operatorId, venueId, {
      starts_at: '2026-06-20T20:00:00.000Z',
      ends_at: '2026-06-20T22:00:00.000Z',
      tableIds: [table],
    });
    const res = await call('POST', `/api/bookings/${id}/unreject`, op.headers);
    expect(res.statusCode).toBe(409);
    expect((await t.db.kysely.selectFrom('bookings').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status).toBe(
      'rejected',
    );
  });

  it('PATCH status moves as the table allows; checked_in stamps the time; cancelled mails the guest', async () => {
    const { op, venueId } = await setupVenue(t);
    // Today at 14:00 (BST; the clock reads 13:00): inside the check-in window.
    const today = { starts_at: '2026-06-15T13:00:00.000Z', ends_at: '2026-06-15T15:00:00.000Z' };
    const id = await insertBooking(t, op.operatorId, venueId, { status: 'approved', ...today });
    const checkedIn = await call('PATCH', `/api/bookings/${id}/status`, op.headers, { status: 'checked_in' });
    expect(checkedIn.statusCode, checkedIn.body).toBe(200);
    expect(checkedIn.json().booking).toMatchObject({ status: 'checked_in', checked_in_at: t.clock.now().toISOString() });
    const back = await call('PATCH', `/api/bookings/${id}/status`, op.headers, { status: 'pending' });
    expect(back.statusCode).toBe(409);
    expect(back.json()).toEqual({
      request_id: expect.any(String),
      error: 'This booking is checked in: it cannot be returned to pending',
      status: 'checked_in',
    });
    expect((await call('PATCH', `/api/bookings/${id}/status`, op.headers, { status: 'expired' })).statusCode).toBe(400);
    expect((await call('PATCH', `/api/bookings/${id}/status`, op.headers, {})).statusCode).toBe(400);

    const other = await insertBooking(t, op.operatorId, venueId, { guest_email: 'patch-cancel@example.test' });
    const cancelled = await call('PATCH', `/api/bookings/${other}/status`, op.headers, { status: 'cancelled' });
    expect(cancelled.json().booking).toMatchObject({ status: 'cancelled', cancelled_at: t.clock.now().toISOString() });
    const outbox = await t.ctx.mail.list({ limit: 100 });
    expect(outbox.filter((m) => m.to === 'patch-cancel@example.test')).toHaveLength(1);
  });

  it('staff-cancel frees the tables, keeps the reason, writes history and mails the guest in the same transaction', async () => {
    const { op, venueId } = await setupVenue(t);
    const table = await insertTable(t, venueId, { table_number: '3' });
    const id = await insertBooking(t, op.operatorId, venueId, { tableIds: [table], guest_email: 'cancel-me@example.test' });
    const res = await call('POST', `/api/bookings/${id}/staff-cancel`, op.headers, { reason: 'Kitchen flood' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking).toMatchObject({ status: 'cancelled', cancel_reason: 'Kitchen flood', table_ids: [table] });
    expect(res.json().booking.history.at(-1)).toMatchObject({
      action: 'staff_cancel',
      to_status: 'cancelled',
      detail: { reason: 'Kitchen flood', refund: false },
    });
    expect(await slotsHeld(t, id)).toEqual({});
    const mail = (await t.ctx.mail.list({ limit: 100 })).filter((m) => m.to === 'cancel-me@example.test');
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toBe('Your booking at Test Venue has been cancelled');
    expect(mail[0].text).toContain('Kitchen flood');

    const again = await call('POST', `/api/bookings/${id}/staff-cancel`, op.headers);
    expect(again.statusCode).toBe(409);
    expect(again.json().status).toBe('cancelled');
    expect((await t.ctx.mail.list({ limit: 100 })).filter((m) => m.to === 'cancel-me@example.test')).toHaveLength(1);

    // No body at all is fine; no email, no mail.
    const quiet = await insertBooking(t, op.operatorId, venueId, { guest_email: null });
    const before = (await t.ctx.mail.list({ limit: 1000 })).length;
    expect((await call('POST', `/api/bookings/${quiet}/staff-cancel`, op.headers)).statusCode).toBe(200);
    expect((await t.ctx.mail.list({ limit: 1000 })).length).toBe(before);
    expect((await call('POST', `/api/bookings/${quiet}/staff-cancel`, op.headers, { reason: 5 })).statusCode).toBe(400);
  });
});

describe('who may call', () => {
  it('401 without a token, 403 without the bookings permission, 403 for writes with read only', async () => {
    const { op, venueId } = await setupVenue(t);
    const id = await insertBooking(t, op.operatorId, venueId, { status: 'pending' });
    expect((await call('GET', `/api/my-venues/${venueId}/bookings`, {})).statusCode).toBe(401);
    expect((await call('GET', `/api/bookings/${id}`, {})).statusCode).toBe(401);
    expect((await call('POST', `/api/bookings/${id}/approve`, {})).statusCode).toBe(401);
    expect((await call('POST', `/api/bookings/${id}/staff-cancel`, {}, { reason: 5 })).statusCode).toBe(401);

    const tablesOnly = await createStaff(t, op, { tables: 'write' });
    expect((await call('GET', `/api/my-venues/${venueId}/bookings`, tablesOnly.headers)).statusCode).toBe(403);
    expect((await call('GET', `/api/bookings/${id}`, tablesOnly.headers)).statusCode).toBe(403);
    expect((await call('POST', `/api/bookings/${id}/approve`, tablesOnly.headers)).statusCode).toBe(403);

    const reader = await createStaff(t, op, { bookings: 'read' });
    expect((await call('GET', `/api/my-venues/${venueId}/bookings`, reader.headers)).statusCode).toBe(200);
    expect((await call('GET', `/api/bookings/${id}`, reader.headers)).statusCode).toBe(200);
    for (const [method, path, body] of [
      ['POST', 'approve'],
      ['POST', 'staff-cancel', {}],
      ['PATCH', 'status', { status: 'approved' }],
      ['PATCH', 'details', { notes: 'x' }],
      ['POST', 'lock', { locked: true }],
      ['POST', 'hold/release'],
    ] as const) {
      expect((await call(method, `/api/bookings/${id}/${path}`, reader.headers, body)).statusCode, path).toBe(403);
    }

    const writer = await createStaff(t, op, { bookings: 'write' });
    const res = await call('POST', `/api/bookings/${id}/approve`, writer.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().booking.history[0].actor).toEqual({ kind: 'staff', id: writer.userId, name: 'Staff Member' });
  });

  it('another account’s booking and a booking outside the role’s venues are 404s, and nothing changes', async () => {
    const { op, venueId } = await setupVenue(t);
    const sister = await insertVenue(t, op.operatorId, { name: 'Sister' });
    const id = await insertBooking(t, op.operatorId, venueId, { status: 'pending' });
    const stranger = await createOperator(t, 'Stranger');
    const scoped = await createStaff(t, op, { bookings: 'write' }, [sister]);

    for (const headers of [stranger.headers, scoped.headers]) {
      expect((await call('GET', `/api/bookings/${id}`, headers)).statusCode).toBe(404);
      expect((await call('POST', `/api/bookings/${id}/approve`, headers)).statusCode).toBe(404);
      expect((await call('POST', `/api/bookings/${id}/staff-cancel`, headers, { refund: true })).statusCode).toBe(404);
      expect((await call('PATCH', `/api/bookings/${id}/details`, headers, { notes: 'x' })).statusCode).toBe(404);
      expect((await call('POST', `/api/bookings/${id}/hold/capture`, headers)).statusCode).toBe(404);
      expect((await call('GET', `/api/my-venues/${venueId}/bookings`, headers)).statusCode).toBe(404);
    }
    expect((await call('GET', `/api/my-venues/${sister}/bookings`, scoped.headers)).json().data).toEqual([]);
    expect((await call('GET', '/api/bookings/bkg_nope', op.headers)).statusCode).toBe(404);
    const row = await t.db.kysely.selectFrom('bookings').select(['status', 'notes']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'pending', notes: null });
  });
});
