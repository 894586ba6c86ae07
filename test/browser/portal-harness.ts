/**
 * What the portal browser tests share: the application with the demo venue on 127.0.0.1 (its fixed test
 * clock is the venue's "now"), Debian's chromium, a page signed in as the demo manager at a given width,
 * and checks: no console errors or failed requests, axe (WCAG 2.1 A/AA), screenshots under test-results/.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { DEMO_EMAIL, DEMO_PASSWORD, runDemo } from '../../src/demo/demo.js';
import { createOperatorAccount } from '../../src/modules/team/index.js';
import { bearer, createTestApp, login, type TestApp } from '../helpers/app.js';
import { freePort, launchChromium } from './widget-harness.js';

export { chromiumPresent, venueSite } from './widget-harness.js';
export { DEMO_EMAIL, DEMO_PASSWORD };

export interface PortalHarness {
  t: TestApp;
  browser: Browser;
  origin: string;
  venueId: string;
  operatorId: string;
  /** The demo manager's API headers (to check what the portal did). */
  staff: Record<string, string>;
  today: string;
  close(): Promise<void>;
}

/**
 * The application on 127.0.0.1. With `realOrigin`, its public address (PUBLIC_BASE_URL) is the one it
 * listens on, so the embed snippets it hands out work from another site.
 */
export async function listenApp(
  options: { realOrigin?: boolean; env?: Record<string, string> } = {},
): Promise<{ t: TestApp; origin: string }> {
  const port = options.realOrigin ? await freePort() : 0;
  const t = await createTestApp({ ...(options.realOrigin ? { PUBLIC_BASE_URL: `http://127.0.0.1:${port}` } : {}), ...options.env });
  await t.app.listen({ host: '127.0.0.1', port });
  return { t, origin: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}` };
}

/** The portal over the demo venue; `env` adds settings to the application's (e.g. WEBHOOKS_ALLOW_PRIVATE). */
export async function startPortal(options: { realOrigin?: boolean; env?: Record<string, string> } = {}): Promise<PortalHarness> {
  const { t, origin } = await listenApp(options);
  const demo = await runDemo(t.app, (input) => createOperatorAccount(t.db, input, t.clock.now()), t.ctx);
  const staff = bearer(await login(t, DEMO_EMAIL, DEMO_PASSWORD));
  const browser = await launchChromium();
  return {
    t,
    browser,
    origin,
    venueId: demo.venue_id,
    operatorId: demo.operator_id,
    staff,
    today: '2026-06-15',
    async close() {
      await browser.close();
      await t.close();
    },
  };
}

/** A new page (its own context: no session) at `width`, polling every `pollMs` while the change stream is not open. */
export async function openPortal(h: PortalHarness, width = 1280, pollMs?: number) {
  const context = await h.browser.newContext({ viewport: { width, height: 860 }, timezoneId: 'America/Los_Angeles' });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const problems = watch(page);
  if (pollMs) await page.addInitScript((ms) => sessionStorage.setItem('maitred.poll-ms', String(ms)), pollMs);
  return { page, problems };
}

/**
 * Console errors, page errors and failed requests, as lines: a test expects none. The venue's change
 * stream is cut off when the page leaves or the server closes (and may be refused at its caps): the floor
 * then polls, which is not a problem.
 */
function watch(page: Page): string[] {
  const problems: string[] = [];
  const stream = (url: string) => /\/api\/my-venues\/[^/]+\/changes$/.test(url);
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400 && !stream(response.url()) && !response.url().includes('/api/'))
      problems.push(`${response.status()}: ${response.url()}`);
  });
  page.on('requestfailed', (request) => {
    if (!stream(request.url())) problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`);
  });
  return problems;
}

/**
 * A new page at `width` (1280 unless told), signed in at `path` (under /app) as the demo manager or as
 * `user`, once its level-1 `heading` shows.
 */
export async function openSignedIn(
  h: PortalHarness,
  path: string,
  heading: string | RegExp,
  options: { width?: number; user?: { email: string; password: string } } = {},
) {
  const opened = await openPortal(h, options.width);
  await opened.page.goto(`${h.origin}/app${path}`);
  await signIn(opened.page, options.user?.email, options.user?.password);
  await opened.page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  return opened;
}

export async function signIn(page: Page, email = DEMO_EMAIL, password = DEMO_PASSWORD) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const violations = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`);
  expect(violations).toEqual([]);
}

export async function screenshot(page: Page, name: string) {
  fs.mkdirSync('test-results/portal', { recursive: true });
  await page.screenshot({ path: `test-results/portal/${name}-${page.viewportSize()!.width}.png` });
}

export async function booking(h: PortalHarness, id: string) {
  return (await h.t.app.inject({ url: `/api/bookings/${id}`, headers: h.staff })).json() as {
    id: string;
    status: string;
    table_ids: string[];
    duration_minutes: number | null;
    start_time: string | null;
    booking_date: string;
    lifecycle: Record<string, string>;
    guest_name: string | null;
    guest_count: number;
    payment_status: string;
    captured_pence: number;
    refunded_pence: number;
  };
}

export async function dayBookings(h: PortalHarness, date = h.today) {
  const res = await h.t.app.inject({ url: `/api/my-venues/${h.venueId}/bookings?date=${date}&limit=200`, headers: h.staff });
  return (res.json() as { data: Awaited<ReturnType<typeof booking>>[] }).data;
}

export async function venueTables(h: PortalHarness) {
  const res = await h.t.app.inject({ url: `/api/my-venues/${h.venueId}/tables`, headers: h.staff });
  return (res.json() as { data: { id: string; table_number: string; capacity: number }[] }).data;
}

/** A booking made by staff through the API (another device), on a table at a venue-local time of today. */
export async function staffBooking(h: PortalHarness, body: Record<string, unknown>): Promise<string> {
  const res = await h.t.app.inject({
    method: 'POST',
    url: `/api/my-venues/${h.venueId}/staff-bookings`,
    headers: h.staff,
    payload: { date: h.today, party_size: 2, status: 'confirmed', send_confirmation: false, ...body },
  });
  if (res.statusCode !== 200) throw new Error(`staff booking: ${res.statusCode} ${res.body}`);
  return (res.json() as { id: string }).id;
}

export async function tableId(h: PortalHarness, number: string): Promise<string> {
  return (await venueTables(h)).find((t) => t.table_number === number)!.id;
}

/** The grid row of a table and the x of a venue-local time on screen, after scrolling the time into view. */
export async function cellPoint(page: Page, table: string, time: string): Promise<{ x: number; y: number }> {
  const minutes = (Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)) - 360 + 1440) % 1440;
  const row = rowOf(page, table);
  const top = await row.evaluate((el) => (el as HTMLElement).offsetTop);
  await page.evaluate(
    ([m, y]) => {
      const grid = document.querySelector('.grid')!;
      grid.scrollLeft = Math.max(0, m * 2 - 300);
      grid.scrollTop = Math.max(0, y - 120);
    },
    [minutes, top],
  );
  const body = (await page.locator('.grid__body').boundingBox())!;
  const box = (await row.boundingBox())!;
  return { x: body.x + 112 + minutes * 2 + 6, y: box.y + box.height / 2 };
}

export const rowOf = (page: Page, table: string) =>
  page.locator('.row:not(.row--group)').filter({ has: page.locator('.row__label strong', { hasText: new RegExp(`^${table}$`) }) });

export const pill = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^${name},`) }).first();
