import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, setupVenue, TINY_IMAGES, type TestApp } from '../../../test/helpers/app.js';
import { api } from './venues.test-support.js';

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp({ TURNSTILE_SITE_KEY: '1x00000000000000000000AA' });
  http = api(t);
});
afterAll(async () => t.close());

const PUBLIC_CACHE = 'public, max-age=0, s-maxage=60, stale-while-revalidate=120';
const publicUrl = (venueId: string, what: string) => `/api/public/venues/${venueId}/${what}`;
const CONFIGS = ['booking-widget-config', 'events-widget-config', 'voucher-config', 'combo-widget-config'];

const setup = (fields: Record<string, unknown> = {}) => setupVenue(t, { name: 'Widget Bar', ...fields });

const DEFAULT_WIDGET = {
  enabled: false,
  public_id: null,
  theme_mode: 'detailed',
  accent_color: '#b08d57',
  width: 'medium',
  custom_css: '',
  show_map: true,
  show_about: true,
  show_tandc: true,
  show_info_card: true,
  show_contact: true,
  logo_url: null,
};
const DEFAULT_BRANDING = {
  theme: 'classic',
  accent_color: '#b08d57',
  bg_color: '#ffffff',
  text_color: '#1f2933',
  font_key: 'sans',
  logo_url: null,
};

describe('GET booking-widget-config', () => {
  it('answers the venue, widget, branding, booking defaults and keys without a session', async () => {
    const { venueId } = await setup({
      phone: '+44 1',
      description: 'Cosy.',
      opening_hours: JSON.stringify({ fri: [{ open: '18:00', close: '02:00' }] }),
    });
    const res = await http.get(publicUrl(venueId, 'booking-widget-config'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      venue: {
        id: venueId,
        name: 'Widget Bar',
        address: '1 High Street, London',
        timezone: 'Europe/London',
        phone: '+44 1',
        email: null,
        website: null,
        description: 'Cosy.',
        opening_hours: { fri: [{ open: '18:00', close: '02:00' }] },
        logo_url: null,
        cover_image_url: null,
      },
      widget: DEFAULT_WIDGET,
      branding: DEFAULT_BRANDING,
      booking: {
        default_party_min: 1,
        default_party_max: 10,
        default_booking_duration: 120,
        max_plus_ones: 3,
        tables_enabled: false,
        guest_list_enabled: false,
        paid_guest_list_enabled: false,
      },
      publishable_key: 'pk_test_simulated',
      turnstile_site_key: '1x00000000000000000000AA',
    });
  });

  it('reflects the operator’s widget settings, theme and branding', async () => {
    const { op, venueId } = await setup();
    const base = `/api/my-venues/${venueId}`;
    const publicId = (await http.put(`${base}/widget-settings/bookings`, op, { enabled: true, width: 'wide' })).json().public_id;
    await http.put(`${base}/widget-theme`, op, { theme_mode: 'minimal', show_map: false });
    await http.put(`${base}/branding`, op, { accent_color: '#00ff00', font_key: 'mono' });
    const brandLogo = (await http.post(`${base}/branding-logo`, op, { data: TINY_IMAGES.png })).json().url;

    let config = (await http.get(publicUrl(venueId, 'booking-widget-config'))).json();
    expect(config.widget).toEqual({
      ...DEFAULT_WIDGET,
      enabled: true,
      public_id: publicId,
      theme_mode: 'minimal',
      accent_color: '#00ff00',
      width: 'wide',
      show_map: false,
      logo_url: brandLogo,
    });
    expect(config.branding).toEqual({ ...DEFAULT_BRANDING, accent_color: '#00ff00', font_key: 'mono', logo_url: brandLogo });

    // A widget's own logo wins over the brand logo.
    const widgetLogo = (await http.post(`${base}/widget-logo`, op, { data: TINY_IMAGES.gif })).json().url;
    config = (await http.get(publicUrl(venueId, 'booking-widget-config'))).json();
    expect(config.widget.logo_url).toBe(widgetLogo);
  });
});

describe('GET events-widget-config', () => {
  it('answers the events widget with the shared theme and keys', async () => {
    const { op, venueId } = await setup();
    const publicId = (await http.put(`/api/my-venues/${venueId}/widget-settings/events`, op, { enabled: true })).json().public_id;
    const res = await http.get(publicUrl(venueId, 'events-widget-config'));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.widget).toEqual({ ...DEFAULT_WIDGET, enabled: true, public_id: publicId });
    expect(body.venue).toMatchObject({ id: venueId, name: 'Widget Bar' });
    expect(body.branding).toEqual(DEFAULT_BRANDING);
    expect(body).toMatchObject({ publishable_key: 'pk_test_simulated', turnstile_site_key: '1x00000000000000000000AA' });
    expect(body.booking).toBeUndefined();
  });
});

describe('GET voucher-config', () => {
  it('answers the default settings for a venue without voucher settings', async () => {
    const { venueId } = await setup();
    const body = (await http.get(publicUrl(venueId, 'voucher-config'))).json();
    expect(body.settings).toEqual({
      enabled: false,
      expiration_months: 12,
      min_amount_pence: 1000,
      max_amount_pence: 50000,
      fixed_amounts: [2500, 5000, 10000],
      allow_custom: true,
      min_qty: 1,
      max_qty: 10,
      terms: '',
    });
    expect(body.widget.enabled).toBe(false);
    expect(body).toMatchObject({ publishable_key: 'pk_test_simulated', turnstile_site_key: '1x00000000000000000000AA' });
  });

  it('answers the stored settings, and the widget is on only while vouchers are on', async () => {
    const { op, venueId } = await setup();
    const at = t.clock.now().toISOString();
    await t.db.kysely
      .insertInto('voucher_settings')
      .values({
        venue_id: venueId,
        enabled: 1,
        expiration_months: 6,
        min_amount_pence: 500,
        max_amount_pence: 20000,
        fixed_amounts: '[1000,2000]',
        allow_custom: 0,
        min_qty: 2,
        max_qty: 4,
        terms: 'No cash value.',
        created_at: at,
        updated_at: at,
      })
      .execute();
    await http.put(`/api/my-venues/${venueId}/widget-settings/vouchers`, op, { enabled: true });
    let body = (await http.get(publicUrl(venueId, 'voucher-config'))).json();
    expect(body.settings).toEqual({
      enabled: true,
      expiration_months: 6,
      min_amount_pence: 500,
      max_amount_pence: 20000,
      fixed_amounts: [1000, 2000],
      allow_custom: false,
      min_qty: 2,
      max_qty: 4,
      terms: 'No cash value.',
    });
    expect(body.widget.enabled).toBe(true);

    await t.db.kysely.updateTable('voucher_settings').set({ enabled: 0, fixed_amounts: null }).where('venue_id', '=', venueId).execute();
    body = (await http.get(publicUrl(venueId, 'voucher-config'))).json();
    expect(body.settings).toMatchObject({ enabled: false, fixed_amounts: null });
    expect(body.widget.enabled).toBe(false);
  });
});

describe('GET combo-widget-config', () => {
  it('answers which widgets are on and links to them', async () => {
    const { op, venueId } = await setup();
    const base = `/api/my-venues/${venueId}`;
    let body = (await http.get(publicUrl(venueId, 'combo-widget-config'))).json();
    expect(body).toMatchObject({
      venue: { id: venueId, name: 'Widget Bar', timezone: 'Europe/London' },
      enabled: { bookings: false, events: false, vouchers: false },
      links: { bookings: null, events: null, vouchers: null },
    });

    const bookingsId = (await http.put(`${base}/widget-settings/bookings`, op, { enabled: true })).json().public_id;
    await http.put(`${base}/widget-settings/events`, op, { enabled: false });
    await t.db.kysely
      .insertInto('voucher_settings')
      .values({ venue_id: venueId, enabled: 1, created_at: t.clock.now().toISOString(), updated_at: t.clock.now().toISOString() })
      .execute();
    const vouchersId = (await http.put(`${base}/widget-settings/vouchers`, op, { enabled: true })).json().public_id;
    body = (await http.get(publicUrl(venueId, 'combo-widget-config'))).json();
    expect(body.enabled).toEqual({ bookings: true, events: false, vouchers: true });
    expect(body.links).toEqual({
      bookings: `http://maitred.test/widget/${bookingsId}`,
      events: null,
      vouchers: `http://maitred.test/widget/${vouchersId}`,
    });

    // Gift vouchers switched off later take the vouchers widget out of the combo.
    await t.db.kysely.updateTable('voucher_settings').set({ enabled: 0 }).where('venue_id', '=', venueId).execute();
    body = (await http.get(publicUrl(venueId, 'combo-widget-config'))).json();
    expect(body.enabled.vouchers).toBe(false);
    expect(body.links.vouchers).toBeNull();
  });
});

describe('public configs: caching and visibility', () => {
  for (const config of CONFIGS) {
    it(`${config}: edge-cacheable with an ETag, 304 when unchanged, new ETag when changed`, async () => {
      const { op, venueId } = await setup();
      const first = await http.get(publicUrl(venueId, config));
      expect(first.statusCode).toBe(200);
      expect(first.headers['cache-control']).toBe(PUBLIC_CACHE);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^W\/".+"$/);

      const again = await t.app.inject({ url: publicUrl(venueId, config), headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
      // A revalidation keeps the response edge-cacheable (the 304 refreshes the cached copy).
      expect(again.headers['cache-control']).toBe(PUBLIC_CACHE);
      // A different validator is not a match.
      const stale = await t.app.inject({ url: publicUrl(venueId, config), headers: { 'if-none-match': 'W/"something-else"' } });
      expect(stale.statusCode).toBe(200);
      expect(stale.headers.etag).toBe(etag);

      await http.put(`/api/my-venues/${venueId}/branding`, op, { accent_color: '#abcdef' });
      const changed = await t.app.inject({ url: publicUrl(venueId, config), headers: { 'if-none-match': etag } });
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
    });

    it(`${config}: 404 for an unknown venue and for a draft venue, never stored by a cache`, async () => {
      const unknown = await http.get(publicUrl('ven_doesnotexist', config));
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ request_id: expect.any(String), error: 'Venue not found' });
      // A 404 without directives is heuristically cacheable: it must say no-store, and carry no ETag.
      expect(unknown.headers['cache-control']).toBe('no-store');
      expect(unknown.headers.etag).toBeUndefined();
      const { venueId } = await setup({ status: 'draft' });
      const draft = await http.get(publicUrl(venueId, config));
      expect(draft.statusCode).toBe(404);
      expect(draft.headers['cache-control']).toBe('no-store');

      // Once live, the same URL answers the config, edge-cacheable.
      await t.db.kysely.updateTable('venues').set({ status: 'live' }).where('id', '=', venueId).execute();
      const live = await http.get(publicUrl(venueId, config));
      expect(live.statusCode).toBe(200);
      expect(live.headers['cache-control']).toBe(PUBLIC_CACHE);
    });
  }

  it('a public config answered during maintenance is not cached either', async () => {
    const { venueId } = await setup();
    await t.ctx.maintenance.set(true);
    try {
      const res = await http.get(publicUrl(venueId, 'booking-widget-config'));
      expect(res.statusCode).toBe(503);
      expect(res.headers['cache-control']).toBe('no-store');
    } finally {
      await t.ctx.maintenance.set(false);
    }
    expect((await http.get(publicUrl(venueId, 'booking-widget-config'))).headers['cache-control']).toBe(PUBLIC_CACHE);
  });

  it('authenticated responses stay private, errors included, and carry no ETag', async () => {
    const { op, venueId } = await setup();
    const other = await createOperator(t);
    const theirs = await insertVenue(t, other.operatorId);
    const urls = [
      '/api/my-venues',
      '/api/my-stats',
      `/api/my-venues/${venueId}/widget-settings`,
      `/api/my-venues/${venueId}/branding`,
      `/api/my-venues/${venueId}/stats`,
      `/api/my-venues/${venueId}/sisters`,
    ];
    for (const url of urls) {
      const res = await http.get(url, op);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('private, no-store');
      expect(res.headers.etag, url).toBeUndefined();
      const anonymous = await http.get(url, null);
      expect(anonymous.statusCode, url).toBe(401);
      expect(anonymous.headers['cache-control'], url).toBe('private, no-store');
    }
    for (const url of [`/api/my-venues/${theirs}/widget-settings`, `/api/my-venues/${theirs}/stats`]) {
      const res = await http.get(url, op);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['cache-control'], url).toBe('private, no-store');
    }
  });
});

describe('publishable and site keys by configuration', () => {
  it('answers the Stripe publishable key under the stripe provider, no site key when unset', async () => {
    const stripe = await createTestApp({
      PAYMENTS_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_live_like',
    });
    try {
      const op = await createOperator(stripe);
      const venueId = await insertVenue(stripe, op.operatorId);
      for (const config of ['booking-widget-config', 'events-widget-config', 'voucher-config']) {
        const body = (await stripe.app.inject({ url: publicUrl(venueId, config) })).json();
        expect(body).toMatchObject({ publishable_key: 'pk_test_live_like', turnstile_site_key: null });
      }
    } finally {
      await stripe.close();
    }
  });

  it('answers no publishable key while the stripe provider has no secret key (payments answer 503)', async () => {
    const half = await createTestApp({ PAYMENTS_PROVIDER: 'stripe', STRIPE_PUBLISHABLE_KEY: 'pk_test_orphan' });
    try {
      const op = await createOperator(half);
      const venueId = await insertVenue(half, op.operatorId);
      for (const config of ['booking-widget-config', 'events-widget-config', 'voucher-config']) {
        const body = (await half.app.inject({ url: publicUrl(venueId, config) })).json();
        expect(body.publishable_key, config).toBeNull();
      }
    } finally {
      await half.close();
    }
  });

  it('answers no publishable key when payments are off', async () => {
    const none = await createTestApp({ PAYMENTS_PROVIDER: 'none' });
    try {
      const op = await createOperator(none);
      const venueId = await insertVenue(none, op.operatorId);
      const body = (await none.app.inject({ url: publicUrl(venueId, 'booking-widget-config') })).json();
      expect(body.publishable_key).toBeNull();
    } finally {
      await none.close();
    }
  });
});
