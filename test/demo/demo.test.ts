/** `maitred demo`: a fresh database gets a complete, live demo venue; a second run changes nothing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemo, DEMO_EMAIL, DEMO_PASSWORD } from '../../src/demo/demo.js';
import { createOperatorAccount } from '../../src/modules/team/index.js';
import { bearer, createTestApp, login, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const createOperator = (input: { operatorName: string; userName: string; email: string; password: string }) =>
  createOperatorAccount(t.db, input, t.clock.now());

describe('maitred demo', () => {
  it('builds a live, fully configured venue whose public widget configs answer', async () => {
    const demo = await runDemo(t.app, createOperator);
    expect(demo).toMatchObject({ email: DEMO_EMAIL, password: DEMO_PASSWORD, created: true, venue_id: expect.stringMatching(/^ven_/) });
    expect(demo.widgets).toEqual({
      bookings: expect.stringMatching(/^http:\/\/maitred\.test\/widget\/wgt_/),
      events: expect.stringMatching(/\/widget\/wgt_/),
      vouchers: null,
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
  });

  it('is idempotent: a second run finds the same account and venue and creates nothing', async () => {
    const first = await runDemo(t.app, createOperator);
    const second = await runDemo(t.app, createOperator);
    expect(second).toEqual({ ...first, created: false });
    const headers = bearer(await login(t, DEMO_EMAIL, DEMO_PASSWORD));
    expect((await t.app.inject({ url: '/api/my-venues', headers })).json().data).toHaveLength(1);
    expect((await t.app.inject({ url: `/api/my-venues/${second.venue_id}/tables`, headers })).json().data).toHaveLength(20);
  });
});
