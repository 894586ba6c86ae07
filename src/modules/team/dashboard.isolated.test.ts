import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import {
  bearer,
  createGuest,
  createOperator,
  createStaff,
  createTestApp,
  insertVenue,
  login,
  TEST_NOW,
  type TestApp,
  type TestOperator,
} from '../../../test/helpers/app.js';
import { base32 } from '../../platform/ids.js';
import { revenuePence } from '../payments/payments.reports.js';
import { as } from './team.test-support.js';

// Revenue comes from the payments ledger; here we check what the dashboard asks it and how it adds up.
vi.mock('../payments/payments.reports.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../payments/payments.reports.js')>();
  return { ...actual, revenuePence: vi.fn(async () => 0) };
});
const revenue = vi.mocked(revenuePence);

let t: TestApp;
let op: TestOperator;
let other: TestOperator;
let venueA: string;
let venueB: string;
let venueC: string;
let guestUserId: string;

async function booking(operatorId: string, venueId: string, status: string, date: string, who: { userId?: string; email?: string }) {
  const at = t.clock.now().toISOString();
  await t.db.kysely
    .insertInto('bookings')
    .values({
      id: `bkg_${base32(randomBytes(16))}`,
      operator_id: operatorId,
      venue_id: venueId,
      kind: 'table',
      status,
      user_id: who.userId ?? null,
      booking_date: date,
      guest_email: who.email ?? null,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

beforeAll(async () => {
  t = await createTestApp();
  [op, other] = await Promise.all([createOperator(t, 'Dash Group'), createOperator(t, 'Elsewhere')]);
  venueA = await insertVenue(t, op.operatorId, { name: 'Anchor' });
  venueB = await insertVenue(t, op.operatorId, { name: 'Beacon', status: 'draft' });
  venueC = await insertVenue(t, other.operatorId, { name: 'Cove' });
  guestUserId = (await createGuest(t)).userId;

  // Today is 2026-06-15 (Europe/London).
  await booking(op.operatorId, venueA, 'confirmed', '2026-06-20', { userId: guestUserId });
  await booking(op.operatorId, venueB, 'confirmed', '2026-05-10', { userId: guestUserId }); // same guest again
  await booking(op.operatorId, venueA, 'pending', '2026-06-01', { email: 'Alice@Example.test' });
  await booking(op.operatorId, venueB, 'approved', '2026-04-01', { email: 'alice@example.test' }); // same guest, other case
  await booking(op.operatorId, venueB, 'checked_in', '2026-07-01', { email: 'erin@example.test' });
  await booking(op.operatorId, venueA, 'cancelled', '2026-06-10', { email: 'bob@example.test' });
  await booking(op.operatorId, venueA, 'rejected', '2026-06-11', { email: 'carol@example.test' });
  await booking(op.operatorId, venueB, 'expired', '2026-06-12', { email: 'dan@example.test' });
  await booking(op.operatorId, venueA, 'confirmed', '2026-06-13', {}); // nobody to count
  await booking(other.operatorId, venueC, 'confirmed', '2026-06-14', { email: 'frank@example.test' });
});
afterAll(async () => t.close());
afterEach(() => {
  t.clock.set(TEST_NOW);
  revenue.mockReset();
  revenue.mockImplementation(async () => 0);
});

describe('GET /api/client/dashboard', () => {
  it('summarises the whole account for the Owner', async () => {
    revenue.mockImplementation(async () => 12_345);
    const res = await as(t, op.headers).get('/api/client/dashboard');
    expect(res.statusCode).toBe(200);
    const operator = (await as(t, op.headers).get('/api/my-operator')).json();
    expect(res.json()).toEqual({
      operator,
      payout_status: { provider: 'simulated', status: 'not_started', source: 'cache' },
      stats: { venues: 2, total_guests: 3, month_guests: 2, revenue: 12_345 },
      staff_summary: { count: 1 },
      venues: [
        { id: venueA, name: 'Anchor', status: 'live' },
        { id: venueB, name: 'Beacon', status: 'draft' },
      ],
    });
    // June 2026 in London (BST) runs from 23:00 UTC on 31 May.
    expect(revenue).toHaveBeenCalledTimes(1);
    expect(revenue.mock.calls[0]![1]).toEqual({
      operatorId: op.operatorId,
      from: '2026-05-31T23:00:00.000Z',
      to: '2026-06-30T23:00:00.000Z',
    });
  });

  it('takes "this month" in Europe/London, not UTC', async () => {
    t.clock.set('2026-06-30T23:30:00.000Z'); // already 1 July in London
    const token = await login(t, op.email); // the earlier session has expired by now
    const stats = (await as(t, bearer(token)).get('/api/client/dashboard')).json().stats;
    expect(stats).toMatchObject({ total_guests: 3, month_guests: 1 });
    expect(revenue.mock.calls[0]![1]).toMatchObject({ from: '2026-06-30T23:00:00.000Z', to: '2026-07-31T23:00:00.000Z' });
  });

  it('limits venues, guests and revenue to a venue-scoped role’s venues', async () => {
    revenue.mockImplementation(async (_db, query) => (query.venueId === venueA ? 700 : 5));
    const staffA = await createStaff(t, op, { stats: 'read' }, [venueA]);
    const resA = (await as(t, staffA.headers).get('/api/client/dashboard')).json();
    expect(resA.venues).toEqual([{ id: venueA, name: 'Anchor', status: 'live' }]);
    expect(resA.stats).toEqual({ venues: 1, total_guests: 2, month_guests: 2, revenue: 700 });
    expect(revenue.mock.calls.map((c) => c[1])).toEqual([
      { operatorId: op.operatorId, venueId: venueA, from: '2026-05-31T23:00:00.000Z', to: '2026-06-30T23:00:00.000Z' },
    ]);

    const staffB = await createStaff(t, op, { stats: 'read' }, [venueB]);
    const resB = (await as(t, staffB.headers).get('/api/client/dashboard')).json();
    expect(resB.venues).toEqual([{ id: venueB, name: 'Beacon', status: 'draft' }]);
    expect(resB.stats).toEqual({ venues: 1, total_guests: 3, month_guests: 0, revenue: 5 });
  });

  it('counts the account’s portal users and reflects the cached payout status', async () => {
    const fresh = await createOperator(t, 'Counting Co');
    await createStaff(t, fresh, { stats: 'read' });
    await createStaff(t, fresh, { tables: 'read' });
    await t.db.kysely.updateTable('operators').set({ payment_connect_status: 'enabled' }).where('id', '=', fresh.operatorId).execute();
    const body = (await as(t, fresh.headers).get('/api/client/dashboard')).json();
    expect(body.staff_summary).toEqual({ count: 3 });
    expect(body.payout_status).toEqual({ provider: 'simulated', status: 'enabled', source: 'cache' });
    expect(body.stats).toEqual({ venues: 0, total_guests: 0, month_guests: 0, revenue: 0 });
    expect(body.venues).toEqual([]);
  });

  it('never counts another account’s venues or guests', async () => {
    const body = (await as(t, other.headers).get('/api/client/dashboard')).json();
    expect(body.venues).toEqual([{ id: venueC, name: 'Cove', status: 'live' }]);
    expect(body.stats).toMatchObject({ venues: 1, total_guests: 1, month_guests: 1 });
    expect(body.operator.id).toBe(other.operatorId);
  });
});
