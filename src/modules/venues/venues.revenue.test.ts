/**
 * Venue stats and my-stats read revenue from the real payments ledger (no mock here): guest payments
 * taken through `ctx.payments` and confirmed on the simulated provider, refunds netted off, each
 * window cut at venue-local midnight, another venue's and another account's money left out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, type TestApp } from '../../../test/helpers/app.js';
import { api } from './venues.test-support.js';

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t);
});
afterAll(async () => t.close());

let bookingCounter = 0;

/** A guest payment of `amountPence` to the venue, taken at `at` (the ledger records the clock). */
async function pay(operatorId: string, venueId: string, amountPence: number, at: string): Promise<string> {
  t.clock.set(at);
  const intent = await t.ctx.payments.createIntent({
    operatorId,
    venueId,
    amountPence,
    metadata: { kind: 'booking_deposit', booking_id: `bkg_revenue_${++bookingCounter}` },
  });
  const confirmed = await t.app.inject({
    method: 'POST',
    url: `/api/public/simulated-payments/${intent.id}/confirm`,
    payload: { payment_method: 'pm_card_visa' },
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  expect(confirmed.json().status).toBe('succeeded');
  return intent.id;
}

describe('revenue from the payments ledger', () => {
  it('venue stats net charges and refunds into today, this week, this month and all time', async () => {
    t.clock.set('2026-06-17T12:00:00.000Z'); // Wednesday; the sessions are opened "now"
    const op = await createOperator(t);
    const other = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId, { name: 'Paid Bar' });
    const sibling = await insertVenue(t, op.operatorId);
    const theirs = await insertVenue(t, other.operatorId);

    await pay(op.operatorId, venueId, 1_000, '2026-05-20T12:00:00.000Z'); // May: all time only
    await pay(op.operatorId, venueId, 2_000, '2026-06-02T12:00:00.000Z'); // this month
    await pay(op.operatorId, venueId, 4_000, '2026-06-15T09:00:00.000Z'); // Monday: this week
    // 23:30 UTC on Tuesday is already Wednesday 17 June in London (BST): today, not yesterday.
    const today = await pay(op.operatorId, venueId, 8_000, '2026-06-16T23:30:00.000Z');
    await pay(op.operatorId, sibling, 16_000, '2026-06-17T09:00:00.000Z');
    await pay(other.operatorId, theirs, 32_000, '2026-06-17T09:00:00.000Z');
    t.clock.set('2026-06-17T10:00:00.000Z');
    await t.ctx.payments.refund(today, { amountPence: 500 });

    t.clock.set('2026-06-17T12:00:00.000Z');
    const res = await http.get(`/api/my-venues/${venueId}/stats`, op);
    expect(res.statusCode).toBe(200);
    expect(res.json().revenue).toEqual({ today: 7_500, week: 11_500, month: 13_500, alltime: 14_500 });
    expect((await http.get(`/api/my-venues/${sibling}/stats`, op)).json().revenue).toEqual({
      today: 16_000,
      week: 16_000,
      month: 16_000,
      alltime: 16_000,
    });

    // my-stats: this month over the account (both venues), not May, not the other account.
    expect((await http.get('/api/my-stats', op)).json().revenue).toBe(13_500 + 16_000);
    expect((await http.get('/api/my-stats', other)).json().revenue).toBe(32_000);
    // A role limited to one venue sees that venue's money only.
    const scoped = await createStaff(t, op, { stats: 'read' }, [sibling]);
    expect((await http.get('/api/my-stats', scoped)).json().revenue).toBe(16_000);
  });

  it("cuts the account's month by each venue's own calendar", async () => {
    t.clock.set('2026-06-30T23:30:00.000Z');
    const op = await createOperator(t);
    const london = await insertVenue(t, op.operatorId);
    const newYork = await insertVenue(t, op.operatorId, { timezone: 'America/New_York' });
    // 30 June 23:30 UTC: already July in London, still June in New York.
    await pay(op.operatorId, london, 100, '2026-06-30T22:30:00.000Z'); // London's June
    await pay(op.operatorId, london, 200, '2026-06-30T23:10:00.000Z'); // London's July
    await pay(op.operatorId, newYork, 400, '2026-06-30T23:10:00.000Z'); // New York's June
    await pay(op.operatorId, newYork, 800, '2026-05-31T23:00:00.000Z'); // New York's May
    t.clock.set('2026-06-30T23:30:00.000Z');
    const stats = await http.get('/api/my-stats', op);
    expect(stats.statusCode, stats.body).toBe(200);
    expect(stats.json().revenue).toBe(200 + 400);
    expect((await http.get(`/api/my-venues/${london}/stats`, op)).json().revenue).toMatchObject({ today: 200, month: 200, alltime: 300 });
    expect((await http.get(`/api/my-venues/${newYork}/stats`, op)).json().revenue).toMatchObject({
      today: 400,
      month: 400,
      alltime: 1_200,
    });
  });
});
