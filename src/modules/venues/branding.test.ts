import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOperator,
  createStaff,
  createTestApp,
  insertVenue,
  setupVenue,
  TINY_IMAGES,
  type TestApp,
} from '../../../test/helpers/app.js';
import { api, readVenue } from './venues.test-support.js';

let t: TestApp;
let http: ReturnType<typeof api>;
beforeAll(async () => {
  t = await createTestApp();
  http = api(t);
});
afterAll(async () => t.close());

const DEFAULT_BRANDING = { theme: 'classic', accent_color: '#b08d57', bg_color: '#ffffff', text_color: '#1f2933', font_key: 'sans' };
const DEFAULT_THEME = {
  width: 'medium',
  theme_mode: 'detailed',
  custom_css: '',
  accent_color: '#b08d57',
  show_map: true,
  show_about: true,
  show_tandc: true,
  show_info_card: true,
  show_contact: true,
};

const base = (venueId: string) => `/api/my-venues/${venueId}`;
const enableVouchers = (venueId: string, enabled = 1) =>
  t.db.kysely
    .insertInto('voucher_settings')
    .values({ venue_id: venueId, enabled, created_at: t.clock.now().toISOString(), updated_at: t.clock.now().toISOString() })
    .onConflict((oc) => oc.column('venue_id').doUpdateSet({ enabled }))
    .execute();

describe('branding', () => {
  it('answers the defaults until saved, then the saved record', async () => {
    const { op, venueId } = await setupVenue(t);
    const initial = await http.get(`${base(venueId)}/branding`, op);
    expect(initial.statusCode).toBe(200);
    expect(initial.headers['cache-control']).toBe('private, no-store');
    expect(initial.json()).toEqual({ ...DEFAULT_BRANDING, logo_url: null, cover_image_url: null, updated_at: null });

    t.clock.advance(1000);
    const saved = await http.put(`${base(venueId)}/branding`, op, {
      theme: 'midnight',
      accent_color: '#FF0044',
      bg_color: '#000',
      text_color: '#fafafa',
      font_key: 'serif',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ success: true });
    expect((await http.get(`${base(venueId)}/branding`, op)).json()).toEqual({
      theme: 'midnight',
      accent_color: '#FF0044',
      bg_color: '#000',
      text_color: '#fafafa',
      font_key: 'serif',
      logo_url: null,
      cover_image_url: null,
      updated_at: t.clock.now().toISOString(),
    });

    // A partial update keeps the rest.
    await http.put(`${base(venueId)}/branding`, op, { font_key: 'mono' });
    expect((await http.get(`${base(venueId)}/branding`, op)).json()).toMatchObject({
      theme: 'midnight',
      accent_color: '#FF0044',
      font_key: 'mono',
    });
  });

  it('validates colours, font and theme', async () => {
    const { op, venueId } = await setupVenue(t);
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ accent_color: 'red' }, /accent_color/],
      [{ bg_color: '#12345' }, /bg_color/],
      [{ text_color: '#gggggg' }, /text_color/],
      [{ font_key: 'comic' }, /font_key/],
      [{ theme: '' }, /theme/],
      [{ theme: 'Has Spaces' }, /theme/],
    ];
    for (const [payload, message] of bad) {
      const res = await http.put(`${base(venueId)}/branding`, op, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toMatch(message);
    }
    expect((await http.get(`${base(venueId)}/branding`, op)).json()).toMatchObject(DEFAULT_BRANDING);
  });

  it('sets the brand logo only through branding-logo', async () => {
    const { op, venueId } = await setupVenue(t);
    const res = await http.post(`${base(venueId)}/branding-logo`, op, { data: TINY_IMAGES.webp });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, url: expect.stringMatching(/^http:\/\/maitred\.test\/uploads\/[0-9a-f]{64}\.webp$/) });
    const branding = (await http.get(`${base(venueId)}/branding`, op)).json();
    expect(branding).toMatchObject({ ...DEFAULT_BRANDING, logo_url: res.json().url });
    await http.put(`${base(venueId)}/branding`, op, { logo_url: 'http://evil/x.png', accent_color: '#111111' });
    expect((await http.get(`${base(venueId)}/branding`, op)).json()).toMatchObject({ logo_url: res.json().url, accent_color: '#111111' });
    // The venue logo is a different thing.
    expect((await readVenue(t, op, venueId)).logo_url).toBeNull();
  });

  it('uploads and removes the cover image, stored on the venue', async () => {
    const { op, venueId } = await setupVenue(t);
    const up = await http.post(`${base(venueId)}/cover-image`, op, { data: TINY_IMAGES.jpeg });
    expect(up.statusCode).toBe(200);
    expect(up.json()).toEqual({ success: true, url: expect.stringMatching(/\.jpg$/) });
    expect((await readVenue(t, op, venueId)).cover_image_url).toBe(up.json().url);
    expect((await http.get(`${base(venueId)}/branding`, op)).json().cover_image_url).toBe(up.json().url);

    const both = await http.post(`${base(venueId)}/cover-image`, op, { data: TINY_IMAGES.png, remove: true });
    expect(both.statusCode).toBe(400);
    const neither = await http.post(`${base(venueId)}/cover-image`, op, {});
    expect(neither.statusCode).toBe(400);
    expect(neither.json().error).toMatch(/data must be a base64 data URL/);
    expect((await http.post(`${base(venueId)}/cover-image`, op, { remove: 'yes' })).statusCode).toBe(400);
    expect((await readVenue(t, op, venueId)).cover_image_url).toBe(up.json().url);

    const removed = await http.post(`${base(venueId)}/cover-image`, op, { remove: true });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ success: true, url: null });
    expect((await readVenue(t, op, venueId)).cover_image_url).toBeNull();
  });

  it('needs venues.branding (read to read, write to change) and a reachable venue', async () => {
    const { op, venueId } = await setupVenue(t);
    const other = await createOperator(t);
    const theirs = await insertVenue(t, other.operatorId);
    const second = await insertVenue(t, op.operatorId);
    const reader = await createStaff(t, op, { 'venues.branding': 'read' });
    const outsider = await createStaff(t, op, { 'venues.settings': 'write' });
    const scoped = await createStaff(t, op, { 'venues.branding': 'write' }, [venueId]);
    const writes: [string, unknown][] = [
      ['branding', { font_key: 'mono' }],
      ['branding-logo', { data: TINY_IMAGES.png }],
      ['cover-image', { data: TINY_IMAGES.png }],
    ];
    expect((await http.get(`${base(venueId)}/branding`, null)).statusCode).toBe(401);
    expect((await http.get(`${base(venueId)}/branding`, outsider)).statusCode).toBe(403);
    expect((await http.get(`${base(venueId)}/branding`, reader)).statusCode).toBe(200);
    expect((await http.get(`${base(theirs)}/branding`, op)).statusCode).toBe(404);
    expect((await http.get(`${base(second)}/branding`, scoped)).statusCode).toBe(404);
    for (const [path, payload] of writes) {
      const method = path === 'branding' ? http.put : http.post;
      expect((await method(`${base(venueId)}/${path}`, null, payload)).statusCode).toBe(401);
      expect((await method(`${base(venueId)}/${path}`, reader, payload)).statusCode).toBe(403);
      expect((await method(`${base(theirs)}/${path}`, op, payload)).statusCode).toBe(404);
      expect((await method(`${base(second)}/${path}`, scoped, payload)).statusCode).toBe(404);
    }
    expect((await http.get(`${base(theirs)}/branding`, other)).json()).toMatchObject({
      ...DEFAULT_BRANDING,
      logo_url: null,
      cover_image_url: null,
    });
  });
});

describe('widget settings', () => {
  it('mints a stable public id per type on first read', async () => {
    const { op, venueId } = await setupVenue(t);
    const first = await http.get(`${base(venueId)}/widget-settings`, op);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-store');
    const body = first.json();
    expect(Object.keys(body.data)).toEqual(['bookings', 'events', 'vouchers', 'combo']);
    for (const type of ['bookings', 'events', 'vouchers', 'combo']) {
      expect(body.data[type]).toEqual({
        widget_type: type,
        enabled: false,
        public_id: expect.stringMatching(/^wgt_[a-z2-7]{26}$/),
        url: `http://maitred.test/widget/${body.data[type].public_id}`,
        logo_url: null,
        embed: {
          iframe: expect.stringContaining(`<iframe src="http://maitred.test/widget/${body.data[type].public_id}"`),
          loader: expect.stringContaining(`<div data-maitred-widget="${body.data[type].public_id}"`),
        },
      });
    }
    expect(new Set(Object.values(body.data).map((w) => (w as { public_id: string }).public_id)).size).toBe(4);
    expect(body.theme).toEqual(DEFAULT_THEME);
    expect(body.vouchers_enabled).toBe(false);

    const again = (await http.get(`${base(venueId)}/widget-settings`, op)).json();
    expect(again.data).toEqual(body.data);
    const otherVenue = (await http.get(`${base(await insertVenue(t, op.operatorId))}/widget-settings`, op)).json();
    expect(otherVenue.data.bookings.public_id).not.toBe(body.data.bookings.public_id);
  });

  it('mints the same ids under concurrent first reads', async () => {
    const { op, venueId } = await setupVenue(t);
    const reads = await Promise.all([1, 2, 3].map(() => http.get(`${base(venueId)}/widget-settings`, op)));
    for (const res of reads) expect(res.statusCode).toBe(200);
    const ids = reads.map((res) => res.json().data.bookings.public_id);
    expect(new Set(ids).size).toBe(1);
  });

  it('switches a widget on and off, keeping its public id, and writes width and custom_css to the theme', async () => {
    const { op, venueId } = await setupVenue(t);
    const on = await http.put(`${base(venueId)}/widget-settings/events`, op, {
      enabled: true,
      width: 'wide',
      custom_css: '.w { color: red }',
    });
    expect(on.statusCode).toBe(200);
    const publicId = on.json().public_id;
    expect(on.json()).toEqual({ success: true, public_id: expect.stringMatching(/^wgt_/) });
    let settings = (await http.get(`${base(venueId)}/widget-settings`, op)).json();
    expect(settings.data.events).toMatchObject({ enabled: true, public_id: publicId });
    expect(settings.data.bookings.enabled).toBe(false);
    expect(settings.theme).toEqual({ ...DEFAULT_THEME, width: 'wide', custom_css: '.w { color: red }' });

    const off = await http.put(`${base(venueId)}/widget-settings/events`, op, { enabled: 0 });
    expect(off.json()).toEqual({ success: true, public_id: publicId });
    settings = (await http.get(`${base(venueId)}/widget-settings`, op)).json();
    expect(settings.data.events).toMatchObject({ enabled: false, public_id: publicId });
    expect(settings.theme).toMatchObject({ width: 'wide', custom_css: '.w { color: red }' });

    await http.put(`${base(venueId)}/widget-settings/combo`, op, { enabled: true, custom_css: null });
    expect((await http.get(`${base(venueId)}/widget-settings`, op)).json().theme.custom_css).toBe('');
  });

  it('refuses to enable the vouchers widget while gift vouchers are off', async () => {
    const { op, venueId } = await setupVenue(t);
    const refused = await http.put(`${base(venueId)}/widget-settings/vouchers`, op, { enabled: true });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatch(/Gift vouchers are turned off/);
    await enableVouchers(venueId, 0);
    expect((await http.put(`${base(venueId)}/widget-settings/vouchers`, op, { enabled: 1 })).statusCode).toBe(400);
    expect((await http.get(`${base(venueId)}/widget-settings`, op)).json().data.vouchers.enabled).toBe(false);
    // Switching it off is always allowed.
    expect((await http.put(`${base(venueId)}/widget-settings/vouchers`, op, { enabled: false })).statusCode).toBe(200);

    await enableVouchers(venueId, 1);
    const allowed = await http.put(`${base(venueId)}/widget-settings/vouchers`, op, { enabled: true });
    expect(allowed.statusCode).toBe(200);
    const settings = (await http.get(`${base(venueId)}/widget-settings`, op)).json();
    expect(settings.vouchers_enabled).toBe(true);
    expect(settings.data.vouchers.enabled).toBe(true);
  });

  it('validates the type and the body', async () => {
    const { op, venueId } = await setupVenue(t);
    const bad: [string, unknown, RegExp][] = [
      ['tickets', { enabled: true }, /type/],
      ['bookings', {}, /enabled/],
      ['bookings', { enabled: 'on' }, /enabled/],
      ['bookings', { enabled: true, width: 'huge' }, /width/],
      ['bookings', { enabled: true, custom_css: 'x'.repeat(20001) }, /custom_css/],
    ];
    for (const [type, payload, message] of bad) {
      const res = await http.put(`${base(venueId)}/widget-settings/${type}`, op, payload);
      expect(res.statusCode, `${type} ${JSON.stringify(payload).slice(0, 60)}`).toBe(400);
      expect(res.json().error).toMatch(message);
    }
    const settings = (await http.get(`${base(venueId)}/widget-settings`, op)).json();
    expect(settings.data.bookings.enabled).toBe(false);
    expect(settings.theme).toEqual(DEFAULT_THEME);
  });
});

describe('widget theme', () => {
  it('saves the theme and leaves colours, logo and font untouched', async () => {
    const { op, venueId } = await setupVenue(t);
    await http.put(`${base(venueId)}/branding`, op, { accent_color: '#123456', font_key: 'serif', bg_color: '#eeeeee' });
    const logo = (await http.post(`${base(venueId)}/branding-logo`, op, { data: TINY_IMAGES.png })).json().url;
    const brandingBefore = (await http.get(`${base(venueId)}/branding`, op)).json();

    const css = 'a{}'.repeat(5000) + 'b'.repeat(5000);
    expect(css).toHaveLength(20000);
    const res = await http.put(`${base(venueId)}/widget-theme`, op, {
      width: 'narrow',
      theme_mode: 'minimal',
      custom_css: css,
      show_map: false,
      show_about: 0,
      show_tandc: true,
      show_info_card: false,
      show_contact: 1,
      accent_color: '#ff0000',
      font_key: 'mono',
      logo_url: 'http://evil/x.png',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect((await http.get(`${base(venueId)}/widget-settings`, op)).json().theme).toEqual({
      width: 'narrow',
      theme_mode: 'minimal',
      custom_css: css,
      accent_color: '#123456',
      show_map: false,
      show_about: false,
      show_tandc: true,
      show_info_card: false,
      show_contact: true,
    });
    expect((await http.get(`${base(venueId)}/branding`, op)).json()).toEqual(brandingBefore);
    expect(brandingBefore.logo_url).toBe(logo);

    // Omitted fields keep their value.
    await http.put(`${base(venueId)}/widget-theme`, op, { show_map: true });
    expect((await http.get(`${base(venueId)}/widget-settings`, op)).json().theme).toMatchObject({
      width: 'narrow',
      theme_mode: 'minimal',
      show_map: true,
      show_about: false,
    });
  });

  it('validates the theme', async () => {
    const { op, venueId } = await setupVenue(t);
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ custom_css: 'x'.repeat(20001) }, /custom_css/],
      [{ width: 'full' }, /width/],
      [{ theme_mode: 'fancy' }, /theme_mode/],
      [{ show_map: 'no' }, /show_map/],
      [{ show_contact: 2 }, /show_contact/],
    ];
    for (const [payload, message] of bad) {
      const res = await http.put(`${base(venueId)}/widget-theme`, op, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(res.json().error).toMatch(message);
    }
    expect((await http.get(`${base(venueId)}/widget-settings`, op)).json().theme).toEqual(DEFAULT_THEME);
  });
});

describe('widget logo', () => {
  it('stores a logo per widget type, bookings by default', async () => {
    const { op, venueId } = await setupVenue(t);
    const bookings = await http.post(`${base(venueId)}/widget-logo`, op, { data: TINY_IMAGES.png });
    expect(bookings.statusCode).toBe(200);
    expect(bookings.json()).toEqual({ success: true, url: expect.stringMatching(/\.png$/) });
    const events = await http.post(`${base(venueId)}/widget-logo`, op, { data: TINY_IMAGES.gif, type: 'events' });
    expect(events.json().url).toMatch(/\.gif$/);
    const settings = (await http.get(`${base(venueId)}/widget-settings`, op)).json();
    expect(settings.data.bookings.logo_url).toBe(bookings.json().url);
    expect(settings.data.events.logo_url).toBe(events.json().url);
    expect(settings.data.vouchers.logo_url).toBeNull();
    const bad = await http.post(`${base(venueId)}/widget-logo`, op, { data: TINY_IMAGES.gif, type: 'tickets' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/type/);
  });
});

describe('widget routes: access', () => {
  it('need venues.branding and a reachable venue', async () => {
    const { op, venueId } = await setupVenue(t);
    const other = await createOperator(t);
    const theirs = await insertVenue(t, other.operatorId);
    const second = await insertVenue(t, op.operatorId);
    const reader = await createStaff(t, op, { 'venues.branding': 'read' });
    const outsider = await createStaff(t, op, { stats: 'read' });
    const scoped = await createStaff(t, op, { venues: 'write' }, [venueId]);
    expect((await http.get(`${base(venueId)}/widget-settings`, null)).statusCode).toBe(401);
    expect((await http.get(`${base(venueId)}/widget-settings`, outsider)).statusCode).toBe(403);
    expect((await http.get(`${base(venueId)}/widget-settings`, reader)).statusCode).toBe(200);
    expect((await http.get(`${base(theirs)}/widget-settings`, op)).statusCode).toBe(404);
    expect((await http.get(`${base(second)}/widget-settings`, scoped)).statusCode).toBe(404);
    const writes: [string, unknown][] = [
      ['widget-settings/bookings', { enabled: true }],
      ['widget-theme', { width: 'wide' }],
      ['widget-logo', { data: TINY_IMAGES.png }],
    ];
    for (const [path, payload] of writes) {
      const method = path === 'widget-logo' ? http.post : http.put;
      expect((await method(`${base(venueId)}/${path}`, null, payload)).statusCode).toBe(401);
      expect((await method(`${base(venueId)}/${path}`, reader, payload)).statusCode).toBe(403);
      expect((await method(`${base(theirs)}/${path}`, op, payload)).statusCode).toBe(404);
      expect((await method(`${base(second)}/${path}`, scoped, payload)).statusCode).toBe(404);
      expect((await method(`${base(venueId)}/${path}`, scoped, payload)).statusCode).toBe(200);
    }
    const theirSettings = (await http.get(`${base(theirs)}/widget-settings`, other)).json();
    expect(theirSettings.data.bookings).toMatchObject({ enabled: false, logo_url: null });
    expect(theirSettings.theme).toEqual(DEFAULT_THEME);
  });
});
