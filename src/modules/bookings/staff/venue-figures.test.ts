/**
 * `GET /api/my-venues/:venueId/stats/daily`: a venue's figures per venue-local date over a range, on
 * both engines: covers, no-shows, cancellations, deposits, tickets and covers per start time; the
 * range checks; the stats permission, the role's venue scope and another account's venue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOperator,
  createStaff,
  createTestApp,
  insertVenue,
  setupVenue,
  venueApi,
  type TestApp,
} from '../../../../test/helpers/app.js';
import { insertBooking } from '../core/bookings.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const zero = {
  bookings: 0,
  covers: 0,
  no_shows: 0,
  no_show_covers: 0,
  cancelled: 0,
  deposits_pence: 0,
  deposits_refunded_pence: 0,
  tickets: 0,
  ticket_pence: 0,
};

describe('GET /stats/daily', () => {
  it('answers every date of the range with its figures, and covers per start time', async () => {
    const { op, venueId, api } = await setupVenue(t);
    const at = (date: string, time: string) => ({ starts_at: `${date}T${time}:00.000Z`, ends_at: `${date}T23:00:00.000Z` });
    const add = (fields: Parameters<typeof insertBooking>[3]) => insertBooking(t, op.operatorId, venueId, fields);
    await add({ ...at('2026-06-15', '12:00'), guest_count: 2 });
    await add({ ...at('2026-06-15', '12:00'), guest_count: 3, status: 'checked_in' });
    await add({ ...at('2026-06-15', '19:30'), guest_count: 4, status: 'pending' });
    await add({ ...at('2026-06-15', '20:00'), guest_count: 6, status: 'no_show' });
    await add({ ...at('2026-06-15', '20:00'), guest_count: 2, status: 'cancelled' });
    await add({
      ...at('2026-06-16', '19:00'),
      guest_count: 2,
      deposit_type: 'deposit',
      deposit_pence: 2000,
      payment_status: 'partially_refunded',
      refunded_pence: 500,
    });
    await add({
      ...at('2026-06-16', '20:00'),
      guest_count: 2,
      deposit_type: 'hold',
      deposit_pence: 3000,
      captured_pence: 1500,
      payment_status: 'captured',
    });
    await add({
      ...at('2026-06-16', '21:00'),
      guest_count: 2,
      deposit_type: 'deposit',
      deposit_pence: 2500,
      payment_status: 'requires_payment',
    });
    await add({ ...at('2026-06-17', '22:00'), kind: 'event', guest_count: 3, total_pence: 4500 });
    await add({ ...at('2026-06-17', '22:00'), kind: 'event', guest_count: 1, total_pence: 1500, status: 'cancelled' });
    // Outside the range, and another venue of the account.
    await add({ ...at('2026-06-19', '12:00'), guest_count: 8 });
    await insertBooking(t, op.operatorId, await insertVenue(t, op.operatorId), { ...at('2026-06-15', '12:00'), guest_count: 9 });

    const res = await api.get('/stats/daily?from=2026-06-14&to=2026-06-18');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.venue).toEqual({ id: venueId, name: expect.any(String), timezone: 'Europe/London' });
    expect(body).toMatchObject({ from: '2026-06-14', to: '2026-06-18' });
    expect(body.days).toEqual([
      { date: '2026-06-14', ...zero },
      { date: '2026-06-15', ...zero, bookings: 3, covers: 9, no_shows: 1, no_show_covers: 6, cancelled: 1 },
      { date: '2026-06-16', ...zero, bookings: 3, covers: 6, deposits_pence: 3500, deposits_refunded_pence: 500 },
      { date: '2026-06-17', ...zero, tickets: 3, ticket_pence: 4500 },
      { date: '2026-06-18', ...zero },
    ]);
    expect(body.times).toEqual([
      { date: '2026-06-15', start_time: '12:00', covers: 5 },
      { date: '2026-06-15', start_time: '19:30', covers: 4 },
      { date: '2026-06-16', start_time: '19:00', covers: 2 },
      { date: '2026-06-16', start_time: '20:00', covers: 2 },
      { date: '2026-06-16', start_time: '21:00', covers: 2 },
    ]);
  });

  it('refuses a missing, malformed, backwards or too long range (400)', async () => {
    const { api } = await setupVenue(t);
    for (const query of [
      '',
      '?from=2026-06-01',
      '?from=2026-6-1&to=2026-06-02',
      '?from=2026-02-30&to=2026-03-02',
      '?from=2026-06-10&to=2026-06-09',
    ]) {
      const res = await api.get(`/stats/daily${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error).toEqual(expect.any(String));
    }
    expect((await api.get('/stats/daily?from=2026-01-01&to=2026-04-02')).statusCode).toBe(200);
    const long = await api.get('/stats/daily?from=2026-01-01&to=2026-04-03');
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toMatch(/92 days/);
  });

  it('needs stats read (403), keeps to the role’s venues and the account (404), and a session (401)', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const other = await insertVenue(t, op.operatorId);
    const path = '/stats/daily?from=2026-06-15&to=2026-06-15';
    expect((await venueApi(t, {}, venueId).get(path)).statusCode).toBe(401);
    const host = await createStaff(t, op, { bookings: 'write' });
    expect((await venueApi(t, host.headers, venueId).get(path)).statusCode).toBe(403);
    const analyst = await createStaff(t, op, { stats: 'read' }, [venueId]);
    expect((await venueApi(t, analyst.headers, venueId).get(path)).statusCode).toBe(200);
    expect((await venueApi(t, analyst.headers, other).get(path)).statusCode).toBe(404);
    const stranger = await createOperator(t);
    expect((await venueApi(t, stranger.headers, venueId).get(path)).statusCode).toBe(404);
  });
});
