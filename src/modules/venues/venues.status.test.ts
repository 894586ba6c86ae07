import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, type TestApp } from '../../../test/helpers/app.js';
import { api, completeVenue, insertBooking, readVenue } from './venues.test-support.js';

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t);
});
afterAll(async () => t.close());

const setStatus = (id: string, who: { headers: Record<string, string> } | null, status: string) =>
  http.put(`/api/my-venues/${id}/status`, who, { status });

describe('PUT /api/my-venues/:id/status: going live', () => {
  it('moves a complete draft venue live', async () => {
    const op = await createOperator(t);
    const id = await completeVenue(t, op.operatorId, { status: 'draft' });
    const res = await setStatus(id, op, 'live');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, status: 'live' });
    expect((await readVenue(t, op, id)).status).toBe('live');
  });

  it('lists every missing field of a new venue, logo as `logo`', async () => {
    const op = await createOperator(t);
    const id = (await http.post('/api/my-venues', op, { name: 'Fresh', address: '1 Road' })).json().id;
    expect((await setStatus(id, op, 'draft')).statusCode).toBe(200);
    const res = await setStatus(id, op, 'live');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      request_id: expect.any(String),
      error: expect.stringContaining('venue_type, phone, email, backdoor_capacity, last_entry_time, logo'),
      missing: ['venue_type', 'phone', 'email', 'backdoor_capacity', 'last_entry_time', 'logo'],
    });
    expect((await readVenue(t, op, id)).status).toBe('draft');
  });

  const blanks: [string, Record<string, unknown>][] = [
    ['name', { name: '' }],
    ['address', { address: ' ' }],
    ['venue_type', { venue_type: null }],
    ['phone', { phone: null }],
    ['email', { email: '' }],
    ['backdoor_capacity', { backdoor_capacity: null }],
    ['last_entry_time', { last_entry_time: null }],
    ['logo', { logo_url: null }],
  ];
  for (const [field, blank] of blanks) {
    it(`refuses to go live without ${field}`, async () => {
      const op = await createOperator(t);
      const id = await completeVenue(t, op.operatorId, { status: 'draft', ...blank });
      const res = await setStatus(id, op, 'live');
      expect(res.statusCode).toBe(400);
      expect(res.json().missing).toEqual([field]);
      expect(res.json().error).toMatch(new RegExp(field));
      expect((await readVenue(t, op, id)).status).toBe('draft');
    });
  }

  it('accepts a zero door capacity as set', async () => {
    const op = await createOperator(t);
    const id = await completeVenue(t, op.operatorId, { status: 'draft', backdoor_capacity: 0 });
    expect((await setStatus(id, op, 'live')).statusCode).toBe(200);
  });

  it('answers live for a live venue without re-checking', async () => {
    const op = await createOperator(t);
    const id = await insertVenue(t, op.operatorId);
    const res = await setStatus(id, op, 'live');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, status: 'live' });
  });
});

describe('PUT /api/my-venues/:id/status: back to draft', () => {
  it('moves a venue without upcoming reservations to draft', async () => {
    const op = await createOperator(t);
    const id = await completeVenue(t, op.operatorId);
    // Past, inactive and other venues' bookings do not count.
    await insertBooking(t, op.operatorId, id, { booking_date: '2026-06-14', status: 'confirmed' });
    await insertBooking(t, op.operatorId, id, { booking_date: '2026-06-20', status: 'cancelled' });
    await insertBooking(t, op.operatorId, id, { booking_date: '2026-06-20', status: 'rejected' });
    await insertBooking(t, op.operatorId, id, { booking_date: '2026-06-20', status: 'expired' });
    await insertBooking(t, op.operatorId, await completeVenue(t, op.operatorId), { booking_date: '2026-06-20' });
    const res = await setStatus(id, op, 'draft');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, status: 'draft' });
    expect((await readVenue(t, op, id)).status).toBe('draft');
  });

  for (const status of ['pending', 'pending_payment', 'approved', 'confirmed', 'checked_in']) {
    it(`refuses with 409 while a ${status} booking is upcoming`, async () => {
      const op = await createOperator(t);
      const id = await completeVenue(t, op.operatorId);
      await insertBooking(t, op.operatorId, id, { booking_date: '2026-07-01', status });
      const res = await setStatus(id, op, 'draft');
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatch(/upcoming reservations/);
      expect((await readVenue(t, op, id)).status).toBe('live');
    });
  }

  it("counts today's bookings by the venue's own calendar", async () => {
    const op = await createOperator(t);
    // 2026-06-15T12:00Z is already 16 June in Auckland and still 15 June in London.
    const auckland = await completeVenue(t, op.operatorId, { timezone: 'Pacific/Auckland' });
    await insertBooking(t, op.operatorId, auckland, { booking_date: '2026-06-15' });
    expect((await setStatus(auckland, op, 'draft')).statusCode).toBe(200);
    const london = await completeVenue(t, op.operatorId);
    await insertBooking(t, op.operatorId, london, { booking_date: '2026-06-15' });
    expect((await setStatus(london, op, 'draft')).statusCode).toBe(409);
  });
});

describe('PUT /api/my-venues/:id/status: access and validation', () => {
  it('validates the status', async () => {
    const op = await createOperator(t);
    const id = await insertVenue(t, op.operatorId);
    for (const payload of [{ status: 'closed' }, {}]) {
      const res = await http.put(`/api/my-venues/${id}/status`, op, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/status/);
    }
  });

  it('answers 401, 403, 404 across accounts and scopes', async () => {
    const op = await createOperator(t);
    const other = await createOperator(t);
    const mine = await insertVenue(t, op.operatorId);
    const second = await insertVenue(t, op.operatorId);
    const theirs = await insertVenue(t, other.operatorId);
    expect((await setStatus(mine, null, 'draft')).statusCode).toBe(401);
    expect((await setStatus(mine, await createStaff(t, op, { 'venues.settings': 'read' }), 'draft')).statusCode).toBe(403);
    expect((await setStatus(theirs, op, 'draft')).statusCode).toBe(404);
    expect((await setStatus(second, await createStaff(t, op, { 'venues.settings': 'write' }, [mine]), 'draft')).statusCode).toBe(404);
    expect((await readVenue(t, other, theirs)).status).toBe('live');
  });
});

describe('app listing', () => {
  it('requests a listing for a live venue and withdraws a pending one', async () => {
    const op = await createOperator(t);
    const id = await insertVenue(t, op.operatorId, { app_listing_status: 'none' });
    const requested = await http.post(`/api/my-venues/${id}/request-listing`, op);
    expect(requested.statusCode).toBe(200);
    expect(requested.json()).toEqual({ success: true, app_listing_status: 'pending' });
    expect((await readVenue(t, op, id)).app_listing_status).toBe('pending');

    const withdrawn = await http.post(`/api/my-venues/${id}/withdraw-listing`, op);
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json()).toEqual({ success: true, app_listing_status: 'none' });
    expect((await readVenue(t, op, id)).app_listing_status).toBe('none');
  });

  it('re-requests from any listing state while live', async () => {
    const op = await createOperator(t);
    const id = await insertVenue(t, op.operatorId, { app_listing_status: 'approved' });
    expect((await http.post(`/api/my-venues/${id}/request-listing`, op)).json().app_listing_status).toBe('pending');
  });

  it('refuses to request a listing for a draft venue (409)', async () => {
    const op = await createOperator(t);
    const id = await insertVenue(t, op.operatorId, { status: 'draft', app_listing_status: 'none' });
    const res = await http.post(`/api/my-venues/${id}/request-listing`, op);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/live/);
    expect((await readVenue(t, op, id)).app_listing_status).toBe('none');
  });

  it('refuses to withdraw a listing that is not pending (409)', async () => {
    const op = await createOperator(t);
    for (const state of ['none', 'approved']) {
      const id = await insertVenue(t, op.operatorId, { app_listing_status: state });
      const res = await http.post(`/api/my-venues/${id}/withdraw-listing`, op);
      expect(res.statusCode).toBe(409);
      expect((await readVenue(t, op, id)).app_listing_status).toBe(state);
    }
  });

  it('answers 401, 403, 404 across accounts and scopes', async () => {
    const op = await createOperator(t);
    const other = await createOperator(t);
    const mine = await insertVenue(t, op.operatorId);
    const second = await insertVenue(t, op.operatorId);
    const theirs = await insertVenue(t, other.operatorId);
    const reader = await createStaff(t, op, { 'venues.settings': 'read' });
    const scoped = await createStaff(t, op, { 'venues.settings': 'write' }, [mine]);
    for (const action of ['request-listing', 'withdraw-listing']) {
      expect((await http.post(`/api/my-venues/${mine}/${action}`, null)).statusCode).toBe(401);
      expect((await http.post(`/api/my-venues/${mine}/${action}`, reader)).statusCode).toBe(403);
      expect((await http.post(`/api/my-venues/${theirs}/${action}`, op)).statusCode).toBe(404);
      expect((await http.post(`/api/my-venues/${second}/${action}`, scoped)).statusCode).toBe(404);
    }
    expect((await readVenue(t, other, theirs)).app_listing_status).toBe('pending');
  });
});
