/**
 * Voucher settings over HTTP on both engines: the defaults, upserts that keep what is left out, every
 * validation rule, access control, and the link to the vouchers widget and the public configs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, insertVenue, setupVenue, venueApi, type TestApp } from '../../../test/helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const DEFAULTS = {
  enabled: false,
  expiration_months: 12,
  min_amount_pence: 1000,
  max_amount_pence: 50000,
  fixed_amounts: [2500, 5000, 10000],
  allow_custom: true,
  min_qty: 1,
  max_qty: 10,
  terms: '',
};

describe('voucher settings', () => {
  it('answers the defaults, then what was saved; fields left out keep their value', async () => {
    const { api } = await setupVenue(t);
    const initial = await api.get('/voucher-settings');
    expect(initial.statusCode).toBe(200);
    expect(initial.headers['cache-control']).toBe('private, no-store');
    expect(initial.json()).toEqual({ data: DEFAULTS });

    const saved = await api.put('/voucher-settings', {
      enabled: 1,
      expiration_months: 6,
      min_amount_pence: 500,
      max_amount_pence: 20000,
      fixed_amounts: [1000, 2000],
      allow_custom: false,
      min_qty: 2,
      max_qty: 4,
      terms: '  No cash value.  ',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ success: true });
    const stored = {
      enabled: true,
      expiration_months: 6,
      min_amount_pence: 500,
      max_amount_pence: 20000,
      fixed_amounts: [1000, 2000],
      allow_custom: false,
      min_qty: 2,
      max_qty: 4,
      terms: 'No cash value.',
    };
    expect((await api.get('/voucher-settings')).json()).toEqual({ data: stored });

    expect((await api.put('/voucher-settings', { max_qty: 8, terms: null })).statusCode).toBe(200);
    expect((await api.put('/voucher-settings', { fixed_amounts: null, allow_custom: true })).statusCode).toBe(200);
    expect((await api.get('/voucher-settings')).json().data).toEqual({
      ...stored,
      max_qty: 8,
      terms: '',
      fixed_amounts: null,
      allow_custom: true,
    });
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['min above max', { min_amount_pence: 5000, max_amount_pence: 4999 }, /min_amount_pence must not exceed max_amount_pence/],
    ['min above the stored max', { min_amount_pence: 60000 }, /min_amount_pence must not exceed max_amount_pence/],
    ['min_qty above max_qty', { min_qty: 5, max_qty: 4 }, /min_qty must not exceed max_qty/],
    ['on with nothing to buy', { enabled: true, allow_custom: false, fixed_amounts: [] }, /nothing to buy/],
    ['zero months', { expiration_months: 0 }, /expiration_months/],
    ['a fractional amount', { min_amount_pence: 10.5 }, /min_amount_pence/],
    ['an amount below 50 pence', { max_amount_pence: 49 }, /max_amount_pence/],
    ['duplicate fixed amounts', { fixed_amounts: [2500, 2500] }, /fixed_amounts/],
    ['too many fixed amounts', { fixed_amounts: Array.from({ length: 21 }, (_, i) => 100 * (i + 1)) }, /fixed_amounts/],
    ['a quantity above 50', { max_qty: 51 }, /max_qty/],
    ['enabled as text', { enabled: 'yes' }, /enabled/],
    ['terms too long', { terms: 'x'.repeat(5001) }, /terms/],
  ])('refuses %s (400) and keeps the settings', async (_label, body, message) => {
    const { api } = await setupVenue(t);
    const res = await api.put('/voucher-settings', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
    expect((await api.get('/voucher-settings')).json().data).toEqual(DEFAULTS);
  });

  it('answers 401 without a session, 403 without the permission, 404 for another account’s venue', async () => {
    const { op, venueId, api } = await setupVenue(t);
    expect((await t.app.inject({ url: `/api/my-venues/${venueId}/voucher-settings` })).statusCode).toBe(401);
    const reader = venueApi(t, (await createStaff(t, op, { vouchers: 'read' })).headers, venueId);
    expect((await reader.get('/voucher-settings')).statusCode).toBe(200);
    expect((await reader.put('/voucher-settings', { enabled: true })).statusCode).toBe(403);
    const other = venueApi(t, (await createStaff(t, op, { bookings: 'write' })).headers, venueId);
    expect((await other.get('/voucher-settings')).statusCode).toBe(403);

    const stranger = await createOperator(t, 'Stranger');
    const theirs = venueApi(t, op.headers, await insertVenue(t, stranger.operatorId));
    expect((await theirs.get('/voucher-settings')).statusCode).toBe(404);
    expect((await theirs.put('/voucher-settings', { enabled: true })).statusCode).toBe(404);
    expect((await api.get('/voucher-settings')).json().data.enabled).toBe(false);
  });
});

describe('the vouchers widget follows the settings', () => {
  it('refuses the widget while vouchers are off, allows it once they are on, and the public configs report them', async () => {
    const { venueId, api } = await setupVenue(t, { status: 'live' });
    const publicConfig = async (name: string) => (await t.app.inject({ url: `/api/public/venues/${venueId}/${name}` })).json();

    const refused = await api.put('/widget-settings/vouchers', { enabled: true });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatch(/turn them on/);
    expect((await api.get('/widget-settings')).json().vouchers_enabled).toBe(false);

    expect((await api.put('/voucher-settings', { enabled: true, terms: 'Twelve months.' })).statusCode).toBe(200);
    expect((await api.get('/widget-settings')).json().vouchers_enabled).toBe(true);
    const allowed = await api.put('/widget-settings/vouchers', { enabled: true });
    expect(allowed.statusCode, allowed.body).toBe(200);

    const config = await publicConfig('voucher-config');
    expect(config.widget.enabled).toBe(true);
    expect(config.settings).toEqual({ ...DEFAULTS, enabled: true, terms: 'Twelve months.' });
    const combo = await publicConfig('combo-widget-config');
    expect(combo.enabled.vouchers).toBe(true);
    expect(combo.links.vouchers).toBe(`http://maitred.test/widget/${allowed.json().public_id}`);

    // Turned off again: the widget stops selling at once, and cannot be switched on.
    expect((await api.put('/voucher-settings', { enabled: false })).statusCode).toBe(200);
    expect((await publicConfig('voucher-config')).widget.enabled).toBe(false);
    expect((await publicConfig('combo-widget-config')).links.vouchers).toBeNull();
    expect((await api.put('/widget-settings/vouchers', { enabled: true })).statusCode).toBe(400);
  });
});
