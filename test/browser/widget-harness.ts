/**
 * What the widget browser tests share: the application with the demo venue on 127.0.0.1, a host page on
 * another origin (localhost) that embeds a widget through the loader, Debian's chromium, and checks that
 * fail a test on any console error, security-policy violation or failed request.
 */
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type FrameLocator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { DEMO_EMAIL, DEMO_PASSWORD, runDemo } from '../../src/demo/demo.js';
import { createOperatorAccount } from '../../src/modules/team/index.js';
import { bearer, createTestApp, login, type TestApp } from '../helpers/app.js';

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumPresent = fs.existsSync(CHROMIUM);

/** Debian's chromium as the tests run it: headless, no sandbox (root in CI), no background traffic. */
export const launchChromium = () =>
  chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-background-networking', '--headless'] });
if (!chromiumPresent && process.env.CI) throw new Error(`${CHROMIUM} is missing: install it with apt-get install -y chromium`);

export interface Harness {
  t: TestApp;
  browser: Browser;
  /** The application's origin (the widget's). */
  origin: string;
  /** The host page's origin (another site). */
  hostOrigin: string;
  venueId: string;
  publicIds: Record<'bookings' | 'events' | 'vouchers' | 'combo', string>;
  staff: Record<string, string>;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  // The public base URL is the server's real address, so the logo and links the venue config names load.
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ PUBLIC_BASE_URL: origin });
  await t.app.listen({ host: '127.0.0.1', port });
  const demo = await runDemo(t.app, (input) => createOperatorAccount(t.db, input, t.clock.now()), t.ctx);
  const staff = bearer(await login(t, DEMO_EMAIL, DEMO_PASSWORD));
  const settings = (await t.app.inject({ url: `/api/my-venues/${demo.venue_id}/widget-settings`, headers: staff })).json() as {
    data: Record<string, { public_id: string }>;
  };
  const publicIds = Object.fromEntries(Object.entries(settings.data).map(([type, w]) => [type, w.public_id])) as Harness['publicIds'];

  // The venue's own site: another origin, embedding the widget named in the query through the loader.
  const host = await venueSite({ title: "The venue's site", heading: 'Our venue' }, (request) => {
    const id = new URL(request.url ?? '/', 'http://localhost').searchParams.get('widget') ?? '';
    return `<div data-maitred-widget="${id}" data-maitred-title="Book"><noscript><a href="${origin}/widget/${id}">Book</a></noscript></div>
<script async src="${origin}/widget/loader.js"></script>`;
  });
  const hostOrigin = host.origin;
  const browser = await launchChromium();
  return {
    t,
    browser,
    origin,
    hostOrigin,
    venueId: demo.venue_id,
    publicIds,
    staff,
    async close() {
      await browser.close();
      await host.close();
      await t.close();
    },
  };
}

/** A free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A phone-sized page (390 px unless told) on the host site embedding `publicId`, collecting every problem the page reports. */
export async function openEmbedded(h: Harness, publicId: string, width = 390) {
  // A context of its own (axe needs one): no storage shared between tests.
  const context = await h.browser.newContext({ viewport: { width, height: 844 } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const problems = watch(page);
  await page.goto(`${h.hostOrigin}/?widget=${publicId}`);
  const frame = page.frameLocator('iframe');
  // The handshake answered: the loader sized the frame to the widget's content.
  await expect.poll(() => page.$eval('iframe', (f) => (f as HTMLIFrameElement).style.height), { timeout: 10_000 }).not.toBe('640px');
  return { page, frame, problems };
}

/** Console errors, CSP violations (in every frame) and failed requests, as lines: a test expects none. */
export function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`CSP blocked ${event.blockedURI} (${event.violatedDirective})`),
    );
  });
  return problems;
}

/**
 * At 390 px: the widget has no horizontal overflow, and the frame is as tall as its content (the loader
 * resized it), so the frame's document does not scroll inside.
 */
export async function expectFitsPhone(page: Page) {
  const frame = page.frames().find((f) => f.url().includes('/widget/'))!;
  const measure = () =>
    frame.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
      content: Math.ceil(document.documentElement.getBoundingClientRect().height),
      scrollHeight: document.documentElement.scrollHeight,
      viewport: window.innerHeight,
    }));
  const size = await measure();
  expect(size.scrollWidth).toBeLessThanOrEqual(size.clientWidth);
  // The loader resizes on the widget's next message: allow for a busy machine.
  await expect
    .poll(
      async () => {
        const now = await measure();
        return now.scrollHeight <= now.viewport + 1 && now.viewport >= now.content - 1;
      },
      { timeout: 5_000 },
    )
    .toBe(true);
  expect(await page.$eval('iframe', (f) => f.getAttribute('scrolling'))).toBe('no');
}

/** An axe scan of the widget's own page (WCAG 2.1 A and AA) in its current state. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).include('iframe').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const violations = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`);
  expect(violations).toEqual([]);
}

export async function screenshot(page: Page, name: string) {
  fs.mkdirSync('test-results', { recursive: true });
  // Chromium paints a cross-origin frame only where it is on screen: the viewport is made as tall as
  // the page for the capture (the width, what the widget lays out by, stays), then put back.
  const viewport = page.viewportSize()!;
  await page.waitForTimeout(250);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height) });
  await page.waitForTimeout(250);
  await page.screenshot({ path: `test-results/widget-${name}.png` });
  await page.setViewportSize(viewport);
}

/** What the host page heard through `maitred:booked` so far (its own listener collects them). */
export async function bookedOn(page: Page): Promise<{ widget: string; kind: string; booking_id: string }[]> {
  return (
    (await page.evaluate(() => (window as unknown as { booked?: { widget: string; kind: string; booking_id: string }[] }).booked)) ?? []
  );
}

/** A booking as the venue's staff see it (`GET /api/bookings/:id`). */
export async function staffBooking(h: Harness, id: string): Promise<Record<string, unknown>> {
  return (await h.t.app.inject({ url: `/api/bookings/${id}`, headers: h.staff })).json() as Record<string, unknown>;
}

export const button = (frame: FrameLocator, name: string | RegExp) => frame.getByRole('button', { name });

/** Picks the date `days` after the one shown, through the calendar dialog by keyboard, as a keyboard user would. */
export async function pickDateByKeyboard(page: Page, frame: FrameLocator, days: number, whileOpen?: () => Promise<void>) {
  await frame.getByRole('button', { name: /^Date/ }).click();
  const dialog = frame.getByRole('dialog');
  await dialog.waitFor();
  // The dialog moves focus to the shown date's cell when it opens.
  await expect
    .poll(() => dialog.locator('td[tabindex="0"]').evaluate((cell) => cell === document.activeElement), { timeout: 5_000 })
    .toBe(true);
  await whileOpen?.();
  for (let i = 0; i < days; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect.poll(() => dialog.count(), { timeout: 5_000 }).toBe(0);
}

/**
 * A venue's own website on another origin (`localhost`, its own port): a page with what `body` answers
 * for the request pasted in (an embed snippet), which records the widget's `maitred:booked` events in
 * `window.booked`.
 */
export async function venueSite(
  page: { title: string; heading: string },
  body: (request: http.IncomingMessage) => string,
): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${page.title}</title></head>
<body style="margin:0;font-family:sans-serif"><header style="padding:8px 16px"><h1>${page.heading}</h1></header>
${body(request)}
<script>window.booked = []; document.addEventListener('maitred:booked', (e) => window.booked.push(e.detail));</script>
</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The venue's site (`siteOrigin`, with an embed snippet pasted in) at phone width, its booking widget open
 * on the day after the fixed test date (Tuesday 16 June 2026) with its times shown. Problems the page
 * reports are collected in `problems`.
 */
export async function openSiteWidgetTomorrow(browser: Browser, siteOrigin: string) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const problems = watch(page);
  await page.goto(siteOrigin);
  const frame = page.frameLocator('iframe');
  await frame
    .getByRole('status')
    .filter({ hasText: /times available/ })
    .waitFor();
  await pickDateByKeyboard(page, frame, 1);
  await frame.getByRole('status').filter({ hasText: 'times available on Tuesday 16 June 2026' }).waitFor();
  return { context, page, frame, problems };
}
