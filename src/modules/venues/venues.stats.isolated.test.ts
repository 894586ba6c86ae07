import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, TEST_NOW, type TestApp } from '../../../test/helpers/app.js';
import type { RevenueQuery } from '../payments/payments.reports.js';
import { api, insertBooking } from './venues.test-support.js';

// Revenue comes from the payments ledger; here it answers by the window asked for, so the tests see
// which windows the stats ask about and how they add them up.
const revenueByWindow = vi.hoisted(() => ({ answer: (_query: RevenueQuery): number => 0, calls: [] as RevenueQuery[] }));
vi.mock('../payments/payments.reports.js', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  revenuePence: async (_db: unknown, query: RevenueQuery) => {
    revenueByWindow.calls.push(query);
    return revenueByWindow.answer(query);
  },
}));

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t);
});
afterAll(async () => t.close());
beforeEach(() => {
  t.clock.set(TEST_NOW);
  revenueByWindow.calls = [];
  revenueByWindow.answer = (): number => 0;
});

describe('GET /api/my-venues/:id/stats', () => {
  it('counts bookings by status, today, guests and a 14-day chart in venue-local dates', async () => {
    // Wednesday 23:30 UTC is already Thursday 18 June in London (BST).
    t.clock.set('2026-06-17T23:30:00.000Z');
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId, { name: 'Stats Bar' });
    const book = (status: string, booking_date: string, extra: Parameters<typeof insertBooking>[3] = {}) =>
      insertBooking(t, op.operatorId, venueId, { status, booking_date, ...extra });
    await book('pending', '2026-06-18', { guest_email: 'Ann@Example.test' });
    await book('pending_payment', '2026-06-18', { guest_email: 'ann@example.test' });
    await book('approved', '2026-06-17', { guest_email: null, user_id: op.userId });
    await book('confirmed', '2026-06-05', { guest_email: 'bob@example.test' });
    await book('checked_in', '2026-06-04', { guest_email: 'cat@example.test' });
    await book('cancelled', '2026-06-18', { guest_email: 'dan@example.test' });
    await book('no_show', '2026-06-10', { guest_email: 'eve@example.test' });
    await book('confirmed', '2026-06-25', { guest_email: 'fay@example.test' });
    await insertBooking(t, op.operatorId, await insertVenue(t, op.operatorId), { status: 'pending', booking_date: '2026-06-18' });

    const res = await http.get(`/api/my-venues/${venueId}/stats`, op);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.json()).toEqual({
      venue: { id: venueId, name: 'Stats Bar' },
      revenue: { today: 0, week: 0, month: 0, alltime: 0 },
      bookings: { pending: 2, approved: 4, cancelled: 1, total: 8, today_count: 2 },
      // ann (twice, any case), the signed-in user, bob, cat, eve (no-show), fay; dan's booking was cancelled.
      unique_guests: 6,
      chart: [
        { booking_date: '2026-06-05', status: 'confirmed', count: 1 },
        { booking_date: '2026-06-10', status: 'no_show', count: 1 },
        { booking_date: '2026-06-17', status: 'approved', count: 1 },
        { booking_date: '2026-06-18', status: 'cancelled', count: 1 },
        { booking_date: '2026-06-18', status: 'pending', count: 1 },
        { booking_date: '2026-06-18', status: 'pending_payment', count: 1 },
      ],
    });
  });

  it('asks the ledger for today, this week and this month from venue-local midnight, and all time', async () => {
    t.clock.set('2026-06-17T23:30:00.000Z');
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const windows: Record<string, number> = {
      '2026-06-17T23:00:00.000Z': 1200, // Thursday 18 June, 00:00 BST
      '2026-06-14T23:00:00.000Z': 5600, // Monday 15 June
      '2026-05-31T23:00:00.000Z': 9100, // 1 June
      alltime: 25000,
    };
    revenueByWindow.answer = (q) => windows[q.from ?? 'alltime'] ?? -1;
    const res = await http.get(`/api/my-venues/${venueId}/stats`, op);
    expect(res.json().revenue).toEqual({ today: 1200, week: 5600, month: 9100, alltime: 25000 });
    expect(revenueByWindow.calls).toHaveLength(4);
    for (const call of revenueByWindow.calls) expect(call).toMatchObject({ operatorId: op.operatorId, venueId });
  });

  it('answers 401, 403 without stats:read, 404 for another account or outside the scope', async () => {
    const op = await createOperator(t);
    const other = await createOperator(t);
    const mine = await insertVenue(t, op.operatorId);
    const second = await insertVenue(t, op.operatorId);
    const theirs = await insertVenue(t, other.operatorId);
    expect((await http.get(`/api/my-venues/${mine}/stats`, null)).statusCode).toBe(401);
    expect((await http.get(`/api/my-venues/${mine}/stats`, await createStaff(t, op, { 'venues.settings': 'write' }))).statusCode).toBe(403);
    expect((await http.get(`/api/my-venues/${theirs}/stats`, op)).statusCode).toBe(404);
    const scoped = await createStaff(t, op, { stats: 'read' }, [mine]);
    expect((await http.get(`/api/my-venues/${second}/stats`, scoped)).statusCode).toBe(404);
    expect((await http.get(`/api/my-venues/${mine}/stats`, scoped)).statusCode).toBe(200);
  });
});

describe('GET /api/my-stats', () => {
  it('counts distinct guests over the account, and asks the ledger for this month', async () => {
    const op = await createOperator(t);
    const other = await createOperator(t);
    const a = await insertVenue(t, op.operatorId);
    const b = await insertVenue(t, op.operatorId);
    await insertBooking(t, op.operatorId, a, { booking_date: '2026-06-12', guest_email: 'ann@example.test', guest_count: 4 });
    await insertBooking(t, op.operatorId, b, { booking_date: '2026-05-02', guest_email: 'ANN@example.test' });
    await insertBooking(t, op.operatorId, b, { booking_date: '2026-06-20', guest_email: null, user_id: op.userId });
    await insertBooking(t, op.operatorId, a, { booking_date: '2026-06-20', guest_email: 'bob@example.test', status: 'rejected' });
    await insertBooking(t, other.operatorId, await insertVenue(t, other.operatorId), {
      booking_date: '2026-06-20',
      guest_email: 'zed@example.test',
    });
    revenueByWindow.answer = (q) =>
      q.venueId === undefined && q.from === '2026-05-31T23:00:00.000Z' && q.to === '2026-06-30T23:00:00.000Z' ? 7300 : -1;

    const res = await http.get('/api/my-stats', op);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.json()).toEqual({ venues: 2, total_guests: 2, month_guests: 2, revenue: 7300, partner: null });
    expect(revenueByWindow.calls).toHaveLength(1);
  });

  it("cuts this month by each venue's own calendar", async () => {
    // 23:30 UTC on 30 June: already July in London, still June in New York.
    t.clock.set('2026-06-30T23:30:00.000Z');
    const op = await createOperator(t);
    const london = await insertVenue(t, op.operatorId);
    const newYork = await insertVenue(t, op.operatorId, { timezone: 'America/New_York' });
    await insertBooking(t, op.operatorId, london, { booking_date: '2026-07-01', guest_email: 'ann@example.test' });
    await insertBooking(t, op.operatorId, london, { booking_date: '2026-06-10', guest_email: 'bob@example.test' });
    await insertBooking(t, op.operatorId, london, { booking_date: '2026-07-02', guest_email: 'cat@example.test', status: 'cancelled' });
    await insertBooking(t, op.operatorId, newYork, { booking_date: '2026-06-10', guest_email: 'ann@example.test' });
    await insertBooking(t, op.operatorId, newYork, { booking_date: '2026-07-01', guest_email: 'dan@example.test' });
    await insertBooking(t, op.operatorId, newYork, { booking_date: '2026-06-12', guest_email: 'eve@example.test', status: 'no_show' });
    const windows: Record<string, number> = {
      [`${london}|2026-06-30T23:00:00.000Z|2026-07-31T23:00:00.000Z`]: 300,
      [`${newYork}|2026-06-01T04:00:00.000Z|2026-07-01T04:00:00.000Z`]: 4000,
    };
    revenueByWindow.answer = (q) => windows[`${q.venueId}|${q.from}|${q.to}`] ?? -1;

    // Month: ann in London's July; ann and eve in New York's June.
    expect((await http.get('/api/my-stats', op)).json()).toEqual({
      venues: 2,
      total_guests: 4,
      month_guests: 2,
      revenue: 4300,
      partner: null,
    });
    expect(revenueByWindow.calls).toHaveLength(2);
  });

  it('counts only the venues of a scoped role', async () => {
    const op = await createOperator(t);
    const a = await insertVenue(t, op.operatorId);
    const b = await insertVenue(t, op.operatorId);
    await insertBooking(t, op.operatorId, a, { booking_date: '2026-06-20' });
    await insertBooking(t, op.operatorId, b, { booking_date: '2026-06-20' });
    await insertBooking(t, op.operatorId, b, { booking_date: '2026-06-21' });
    revenueByWindow.answer = (q) => (q.venueId === a ? 400 : q.venueId === b ? 900 : -1);
    const scoped = await createStaff(t, op, { stats: 'read' }, [a]);
    expect((await http.get('/api/my-stats', scoped)).json()).toEqual({
      venues: 1,
      total_guests: 1,
      month_guests: 1,
      revenue: 400,
      partner: null,
    });
    expect((await http.get('/api/my-stats', op)).json()).toMatchObject({ venues: 2, total_guests: 3, month_guests: 3 });
  });

  it('answers zeros for an account without venues', async () => {
    const op = await createOperator(t);
    expect((await http.get('/api/my-stats', op)).json()).toEqual({
      venues: 0,
      total_guests: 0,
      month_guests: 0,
      revenue: 0,
      partner: null,
    });
  });

  it('answers 401 and 403 without stats:read', async () => {
    const op = await createOperator(t);
    expect((await http.get('/api/my-stats', null)).statusCode).toBe(401);
    expect((await http.get('/api/my-stats', await createStaff(t, op, { venues: 'write' }))).statusCode).toBe(403);
  });
});
