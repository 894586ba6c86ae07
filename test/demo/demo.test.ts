/**
 * `maitred demo`: a fresh database gets a complete, live demo venue with a week of bookings around the
 * (fixed) clock's today; a second run changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemo, DEMO_EMAIL, DEMO_PASSWORD } from '../../src/demo/demo.js';
import { createOperatorAccount } from '../../src/modules/team/index.js';
import { addDays, localToday } from '../../src/domain/venue-time.js';
import { bearer, createTestApp, login, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

interface Booking {
  id: string;
  status: string;
  booking_date: string;
  guest_count: number;
  guest_email: string;
  table_ids: string[];
  starts_at: string;
  ends_at: string;
  source: string;
  deposit_type: string;
  deposit_pence: number;
  payment_status: string;
}

const createOperator = (input: { operatorName: string; userName: string; email: string; password: string }) =>
  createOperatorAccount(t.db, input, t.clock.now());

describe('maitred demo', () => {
  it('builds a live, fully configured venue whose public widget configs answer', async () => {
    const demo = await runDemo(t.app, createOperator, t.ctx);
    expect(demo).toMatchObject({ email: DEMO_EMAIL, password: DEMO_PASSWORD, created: true, venue_id: expect.stringMatching(/^ven_/) });
    expect(demo.widgets).toEqual({
      bookings: expect.stringMatching(/^http:\/\/maitred\.test\/widget\/wgt_/),
      events: expect.stringMatching(/\/widget\/wgt_/),
      vouchers: expect.stringMatching(/\/widget\/wgt_/),
      combo: expect.stringMatching(/\/widget\/wgt_/),
    });

    for (const config of ['booking-widget-config', 'events-widget-config', 'voucher-config', 'combo-widget-config']) {
      const res = await t.app.inject({ url: `/api/public/venues/${demo.venue_id}/${config}` });
      expect(res.statusCode, `${config}: ${res.body}`).toBe(200);
    }

    // The login works, and the venue holds what the demo promises.
    const headers = bearer(await login(t, DEMO_EMAIL, DEMO_PASSWORD));
    const get = async (path: string) => (await t.app.inject({ url: `/api/my-venues/${demo.venue_id}${path}`, headers })).json().data;
    expect(await get('/tables')).toHaveLength(20);
    expect(await get('/floors')).toHaveLength(2);
    expect(await get('/tables/combos')).toHaveLength(3);
    expect(await get('/seating-areas')).toHaveLength(3);
    expect(await get('/time-periods')).toHaveLength(2);
    expect(await get('/shifts')).toHaveLength(2);
    expect((await get('/access-rules')).map((r: { rule_type: string }) => r.rule_type).sort()).toEqual(['guestlist', 'table', 'table']);
    expect(await get('/list-profiles')).toHaveLength(1);
    expect(await get('/table-profiles')).toHaveLength(1);
    expect(await get('/payment-policies')).toHaveLength(2);
    expect(await get('/pricelists')).toHaveLength(1);
    expect(await get('/promo-codes')).toEqual([expect.objectContaining({ code: 'WELCOME10' })]);
    expect(await get('/bundles')).toHaveLength(1);
    const venue = (await t.app.inject({ url: '/api/my-venues', headers })).json().data[0];
    expect(venue).toMatchObject({ status: 'live', logo_url: expect.stringContaining('/uploads/') });

    // Gift vouchers are on sale, with a voucher in each status (one part spent).
    expect((await get('/voucher-settings')).enabled).toBe(true);
    const vouchers: { status: string; amount_pence: number; remaining_pence: number }[] = await get('/vouchers');
    expect(vouchers.map((v) => v.status).sort()).toEqual(['active', 'active', 'expired', 'redeemed', 'refunded']);
    expect(vouchers.some((v) => v.status === 'active' && v.remaining_pence < v.amount_pence)).toBe(true);
  });

  it('has a week of bookings in many states, none sharing a table at the same time, that fill availability', async () => {
    const demo = await runDemo(t.app, createOperator, t.ctx);
    const headers = bearer(await login(t, DEMO_EMAIL, DEMO_PASSWORD));
    const today = localToday(t.clock.now(), 'Europe/London');
    const [from, to] = [addDays(today, -2), addDays(today, 5)];
    const res = await t.app.inject({ url: `/api/my-venues/${demo.venue_id}/bookings?from=${from}&to=${to}&limit=200`, headers });
    expect(res.statusCode, res.body).toBe(200);
    const bookings: Booking[] = res.json().data;
    expect(res.json().total).toBe(bookings.length);
    expect(bookings.length).toBeGreaterThanOrEqual(40);
    expect(new Set(bookings.map((b) => b.booking_date))).toEqual(new Set(Array.from({ length: 8 }, (_, i) => addDays(from, i))));
    const statuses = new Set(bookings.map((b) => b.status));
    expect(statuses.size).toBeGreaterThanOrEqual(4);
    for (const status of ['confirmed', 'pending', 'approved', 'checked_in', 'cancelled', 'no_show']) expect(statuses).toContain(status);
    for (const b of bookings) {
      expect(b.guest_count).toBeGreaterThanOrEqual(2);
      expect(b.guest_count).toBeLessThanOrEqual(8);
      expect(b.guest_email).toMatch(/@example\.test$/);
    }
    // Tables for all but two reservations today and two tomorrow (the floor's unassigned strip).
    const unassigned = bookings.filter((b) => b.table_ids.length === 0);
    expect(unassigned.map((b) => b.booking_date).sort()).toEqual([today, today, addDays(today, 1), addDays(today, 1)]);
    // The floor is alive today and tomorrow: bookings in several states on each.
    for (const date of [today, addDays(today, 1)])
      expect(bookings.filter((b) => b.booking_date === date).length).toBeGreaterThanOrEqual(10);
    // Tonight: a walk-in seated now, a card hold taken as the deposit and another asked for.
    const tonight = bookings.filter((b) => b.booking_date === today);
    expect(tonight.filter((b) => b.source === 'walk_in')).toEqual([
      expect.objectContaining({ status: 'checked_in', guest_count: 2, starts_at: t.clock.now().toISOString() }),
    ]);
    expect(tonight.filter((b) => b.deposit_type === 'hold').map((b) => [b.payment_status, b.deposit_pence])).toEqual(
      expect.arrayContaining([
        ['captured', 2000],
        ['requires_payment', 1500],
      ]),
    );
    // Tonight a table is blocked.
    const blocks = (await t.app.inject({ url: `/api/my-venues/${demo.venue_id}/tables/blocks`, headers })).json().data;
    expect(blocks).toEqual([expect.objectContaining({ table_number: '7', reason: 'Private party set-up' })]);
    // Checked in only once started; nothing upcoming is checked in or a no-show.
    const now = t.clock.now().toISOString();
    for (const b of bookings.filter((x) => ['checked_in', 'no_show'].includes(x.status))) expect(b.starts_at <= now).toBe(true);

    const overlaps = bookings.flatMap((a, i) =>
      bookings
        .slice(i + 1)
        .filter((b) => a.table_ids.some((id) => b.table_ids.includes(id)) && a.starts_at < b.ends_at && b.starts_at < a.ends_at)
        .map((b) => [a, b]),
    );
    expect(overlaps).toEqual([]);

    // Each booking's history begins with its creation and ends in its status.
    const [one] = bookings.filter((b) => b.status === 'checked_in');
    const detail = (await t.app.inject({ url: `/api/bookings/${one.id}`, headers })).json();
    expect(detail.history[0]).toMatchObject({ action: 'create' });
    expect(detail.history.at(-1)).toMatchObject({ action: 'check_in', to_status: 'checked_in' });

    // A party of eight finds the demo evenings full around 19:00, unlike the same weekday four weeks on.
    const dinner = async (date: string) => {
      const answer = (await t.app.inject({ url: `/api/public/venues/${demo.venue_id}/availability?date=${date}&party_size=8` })).json();
      const rule = answer.rules.find((r: { name: string }) => r.name === 'Dinner tables').id;
      return new Map<string, boolean>(
        answer.slots
          .filter((s: { access_rule_id: string }) => s.access_rule_id === rule)
          .map((s: { time: string; available: boolean }) => [s.time, s.available]),
      );
    };
    const busy = await dinner(addDays(today, 2));
    const quiet = await dinner(addDays(today, 30));
    expect(busy.get('19:00')).toBe(false);
    expect(quiet.get('19:00')).toBe(true);
    expect([...busy.values()]).toContain(true);
  });

  it('is idempotent: a second run finds the same account and venue and creates nothing', async () => {
    const first = await runDemo(t.app, createOperator, t.ctx);
    const second = await runDemo(t.app, createOperator, t.ctx);
    expect(second).toEqual({ ...first, created: false });
    const headers = bearer(await login(t, DEMO_EMAIL, DEMO_PASSWORD));
    expect((await t.app.inject({ url: '/api/my-venues', headers })).json().data).toHaveLength(1);
    expect((await t.app.inject({ url: `/api/my-venues/${second.venue_id}/tables`, headers })).json().data).toHaveLength(20);
    const total = async () => (await t.app.inject({ url: `/api/my-venues/${second.venue_id}/bookings?limit=1`, headers })).json().total;
    const before = await total();
    expect(before).toBeGreaterThan(0);
    const vouchers = async () => (await t.app.inject({ url: `/api/my-venues/${second.venue_id}/vouchers?limit=1`, headers })).json().total;
    const vouchersBefore = await vouchers();
    expect(vouchersBefore).toBe(5);
    await runDemo(t.app, createOperator, t.ctx);
    expect(await total()).toBe(before);
    expect(await vouchers()).toBe(vouchersBefore);
  });
});
