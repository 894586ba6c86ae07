/**
 * Branding and widgets in the portal (/app/setup/branding): the manager sets the colours (past a contrast
 * warning), the custom CSS (past the server's refusal) and a logo, and sees each in the live preview of the
 * real widget page; switches the bookings widget off and on; copies the script embed; and the copied
 * snippet, pasted into a page of another origin, books a table. The vouchers widget cannot be switched on
 * while gift vouchers are off, and the screen says why. Each step is checked through the API, with axe and
 * screenshots at 1280 and 820 px.
 */
import sharp from 'sharp';
import type { BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  booking,
  chromiumPresent,
  expectAccessible,
  openSignedIn,
  screenshot,
  startPortal,
  venueSite,
  type PortalHarness,
} from './portal-harness.js';
import { bookedOn, button, openSiteWidgetTomorrow } from './widget-harness.js';

let h: PortalHarness;
/** The venue's own site on another origin: serves whatever HTML it is given (the pasted snippet). */
let host: Awaited<ReturnType<typeof venueSite>> | undefined;
let hostOrigin: string;
let hostBody = '';

/** The portal harness, with the server's public address its real one, so the embed snippets work from another site. */
const start = () => startPortal({ realOrigin: true });

async function api<T>(url: string): Promise<T> {
  const res = await h.t.app.inject({ url: `/api/my-venues/${h.venueId}${url}`, headers: h.staff });
  expect(res.statusCode).toBe(200);
  return res.json() as T;
}
const brandingNow = () =>
  api<{ accent_color: string; bg_color: string; text_color: string; font_key: string; logo_url: string | null }>('/branding');
const widgetsNow = () =>
  api<{
    data: Record<string, { enabled: boolean; public_id: string; embed: { loader: string; iframe: string } }>;
    theme: { custom_css: string };
  }>('/widget-settings');

async function openBranding(width: number) {
  const opened = await openSignedIn(h, `/setup/branding?venue=${h.venueId}`, /^Branding and widgets/, { width });
  await opened.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.origin });
  return opened;
}

const previewOf = (page: Page): FrameLocator => page.frameLocator('iframe[title="Preview of the bookings widget"]');

/** The screen from its top, as the viewport shows it and whole. */
async function shoot(page: Page) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, 'setup-branding');
  await page.screenshot({ path: `test-results/portal/setup-branding-full-${page.viewportSize()!.width}.png`, fullPage: true });
}

/** A style the widget page computes, read inside the preview frame (same origin as the portal). */
async function frameStyle(page: Page, selector: string, property: string): Promise<string> {
  const frame = page.frames().find((f) => f.url().includes('/widget/'));
  if (!frame) return '';
  return frame
    .evaluate(
      ([sel, prop]) => {
        const el = document.querySelector(sel);
        return el ? getComputedStyle(el).getPropertyValue(prop) : '';
      },
      [selector, property] as const,
    )
    .catch(() => '');
}

describe.skipIf(!chromiumPresent)('portal branding and widgets in chromium', () => {
  beforeAll(async () => {
    h = await start();
    host = await venueSite({ title: "The venue's site", heading: 'Our venue' }, () => hostBody);
    hostOrigin = host.origin;
  });
  afterAll(async () => {
    await host?.close();
    await h?.close();
  });

  it('brands the widget with a live preview, switches it on, and its copied snippet books a table on another site', async () => {
    const { page, problems } = await openBranding(1280);
    const preview = previewOf(page);
    await preview
      .getByRole('status')
      .filter({ hasText: /times available/ })
      .waitFor();
    // The demo venue's dark look to begin with.
    expect(await brandingNow()).toMatchObject({ bg_color: '#14131a', text_color: '#f4f1ea', accent_color: '#d4a017' });
    expect(await frameStyle(page, 'body', 'background-color')).toBe('rgb(20, 19, 26)');

    // Colours: a light background under the light text is warned about; the preview follows the draft before it is saved.
    await page.getByLabel(/^Background/).fill('#fff4e0');
    await page.getByText('Low contrast:').waitFor();
    await expect.poll(() => page.getByText(/Text on the background: 1\.\d:1, needs at least 4\.5:1/).count()).toBe(1);
    await expect.poll(() => frameStyle(page, 'body', 'background-color')).toBe('rgb(255, 244, 224)');
    await screenshot(page, 'setup-branding-contrast');
    await page.getByLabel(/^Text/).fill('#2b1d0e');
    await page.getByLabel(/^Accent/).fill('#0b6e4f');
    await page.getByText('The colours have enough contrast').waitFor();
    await page.getByRole('radiogroup', { name: 'Font' }).getByText('Serif', { exact: true }).click();
    await expect.poll(() => frameStyle(page, 'body', 'color')).toBe('rgb(43, 29, 14)');
    await expect.poll(() => frameStyle(page, 'body', 'font-family')).toMatch(/Palatino/);
    expect((await brandingNow()).bg_color).toBe('#14131a');

    // Custom CSS: what the server refuses is said in its words, and the text stays.
    const css = page.getByLabel('Custom CSS');
    await css.fill(`/* ${'x'.repeat(20000)} */`);
    await page.getByRole('button', { name: 'Save look' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /custom_css/ })
      .waitFor();
    await page.getByText('Colours and font saved; the custom CSS was not.').waitFor();
    expect((await css.inputValue()).length).toBe(20006);
    expect(await brandingNow()).toMatchObject({ accent_color: '#0b6e4f', bg_color: '#fff4e0', text_color: '#2b1d0e', font_key: 'serif' });
    expect((await widgetsNow()).theme.custom_css).toBe('');

    await css.fill('.mw-logo { border-radius: 50%; }');
    await page.getByRole('button', { name: 'Save look' }).click();
    await page.getByText('Saved: the widgets show the new look now.').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect((await widgetsNow()).theme.custom_css).toBe('.mw-logo { border-radius: 50%; }');
    // The preview loaded the page again: the saved theme.css now gives the same look.
    await preview
      .getByRole('status')
      .filter({ hasText: /times available/ })
      .waitFor();
    await expect.poll(() => frameStyle(page, 'body', 'background-color')).toBe('rgb(255, 244, 224)');
    await expect.poll(() => frameStyle(page, '.mw-logo', 'border-radius')).toBe('50%');
    expect(await frameStyle(page, `#maitred-portal-draft`, 'display')).toBe('');

    // The logo: chosen (shown before it is uploaded), uploaded, and in the preview.
    const png = await sharp({ create: { width: 96, height: 96, channels: 3, background: '#0b6e4f' } })
      .png()
      .toBuffer();
    await page.getByLabel('Choose a logo').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('img', { name: 'Chosen logo, not uploaded yet' }).waitFor();
    await page.getByRole('button', { name: 'Upload logo' }).click();
    await page.getByText('Logo uploaded: the widgets show it now.').waitFor();
    const logo = (await brandingNow()).logo_url;
    expect(logo?.startsWith(`${h.origin}/uploads/`)).toBe(true);
    await page
      .getByRole('img', { name: 'Current logo' })
      .and(page.locator(`[src="${new URL(logo!).pathname}"]`))
      .waitFor();
    // The widget names uploads by path (the API's answers give the full address).
    await preview.locator(`img.mw-logo[src="${new URL(logo!).pathname}"]`).waitFor();
    await expectAccessible(page);
    await shoot(page);

    // The bookings widget off (the preview says so), then on again.
    const bookings = page.getByRole('switch', { name: 'Bookings widget' });
    expect(await bookings.isChecked()).toBe(true);
    await bookings.focus();
    await page.keyboard.press('Space');
    await page.getByText('Bookings widget switched off.').waitFor();
    expect((await widgetsNow()).data.bookings.enabled).toBe(false);
    await page.getByText('The bookings widget is off, so guests see a closed page.').waitFor();
    await page.getByText('This widget is off: switch it on before guests can use it on your site.').waitFor();
    await page.getByText('Bookings widget', { exact: true }).click();
    await page.getByText('Bookings widget switched on.').waitFor();
    expect((await widgetsNow()).data.bookings.enabled).toBe(true);
    await preview
      .getByRole('status')
      .filter({ hasText: /times available/ })
      .waitFor();

    // The script embed, copied to the clipboard.
    await page.getByRole('button', { name: 'Copy script embed' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const settings = await widgetsNow();
    expect(copied).toBe(settings.data.bookings.embed.loader);
    expect(copied).toContain(`${h.origin}/widget/loader.js`);
    await page.getByRole('button', { name: 'Copy iframe embed' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(settings.data.bookings.embed.iframe);
    expect(problems).toEqual([]);

    // Pasted into the venue's own site (another origin), the widget books a table.
    hostBody = copied;
    const site = await bookOnSite();
    const saved = await booking(h, site.bookingId);
    expect(saved).toMatchObject({
      status: 'confirmed',
      source: 'widget',
      guest_name: 'Grace Guest',
      guest_email: 'grace@example.com',
      guest_count: 2,
      booking_date: '2026-06-16',
      start_time: '12:30',
    });
    expect(site.problems).toEqual([]);
    await site.context.close();
    await page.context().close();
  });

  it('lays the screen out at 820 px', async () => {
    const { page, problems } = await openBranding(820);
    await previewOf(page)
      .getByRole('status')
      .filter({ hasText: /times available/ })
      .waitFor();
    await page.getByRole('radiogroup', { name: 'Widget' }).getByText('Events', { exact: true }).click();
    await page.getByRole('heading', { name: 'Embed the events widget' }).waitFor();
    await page.frameLocator('iframe[title="Preview of the events widget"]').locator('#app > *:not(.mw-loading)').first().waitFor();
    await page.getByRole('radiogroup', { name: 'Widget' }).getByText('Bookings', { exact: true }).click();
    await previewOf(page)
      .getByRole('status')
      .filter({ hasText: /times available/ })
      .waitFor();
    await expectAccessible(page);
    await shoot(page);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('says in words why the vouchers widget cannot be switched on while gift vouchers are off', async () => {
    for (const [url, body] of [
      ['/widget-settings/vouchers', { enabled: false }],
      ['/voucher-settings', { enabled: false }],
    ] as const) {
      const res = await h.t.app.inject({ method: 'PUT', url: `/api/my-venues/${h.venueId}${url}`, headers: h.staff, payload: body });
      expect(res.statusCode, res.body).toBe(200);
    }
    const { page, problems } = await openBranding(820);
    await page.getByText('Gift vouchers are off in the voucher settings: turn them on first.').waitFor();
    await page.getByRole('radiogroup', { name: 'Widget' }).getByText('Gift vouchers', { exact: true }).click();
    await page.getByText('The gift vouchers widget is off, so guests see a closed page.').waitFor();
    const vouchers = page.getByRole('switch', { name: 'Gift vouchers widget' });
    await vouchers.focus();
    await page.keyboard.press('Space');
    await page.getByRole('alert').filter({ hasText: 'Gift vouchers are turned off for this venue' }).waitFor();
    expect(await vouchers.isChecked()).toBe(false);
    expect((await widgetsNow()).data.vouchers.enabled).toBe(false);
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

/** The host page with the pasted snippet at phone width: a lunch table for two tomorrow, by a guest. */
async function bookOnSite(): Promise<{ context: BrowserContext; bookingId: string; problems: string[] }> {
  const { context, page, frame, problems } = await openSiteWidgetTomorrow(h.browser, hostOrigin);
  await button(frame, '12:30, Lunch tables, table for 2').click();
  await frame.getByLabel('Name').fill('Grace Guest');
  await frame.getByLabel('Email').fill('grace@example.com');
  await button(frame, 'Book').click();
  await frame.getByRole('heading', { name: 'Booking confirmed', level: 1 }).waitFor();
  // The widget wears the venue's brand on the other site too.
  const widget = page.frames().find((f) => f.url().includes('/widget/'))!;
  expect(await widget.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 244, 224)');
  const booked = await bookedOn(page);
  expect(booked).toHaveLength(1);
  expect(booked[0]).toMatchObject({ kind: 'table' });
  return { context, bookingId: booked[0].booking_id, problems };
}
