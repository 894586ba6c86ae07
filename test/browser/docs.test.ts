/**
 * /docs in a real browser (Debian's chromium through playwright-core) against a real server on
 * 127.0.0.1 — a host other than PUBLIC_BASE_URL's: the page is Maitred's, the summaries render, nothing
 * breaks the security policy, and "Try it out" on GET /healthz shows a 200 from this server.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { launchChromium } from './widget-harness.js';

const CHROMIUM = '/usr/bin/chromium';
const present = fs.existsSync(CHROMIUM);
if (!present) {
  // CI installs chromium (.ci/run); there a missing browser is a failure, not a skip.
  if (process.env.CI) throw new Error(`${CHROMIUM} is missing: install it with apt-get install -y chromium`);
  console.warn(`Skipping the browser tests: ${CHROMIUM} is missing (apt-get install -y chromium)`);
}

let t: TestApp;
let browser: Browser;
let origin: string;

describe.skipIf(!present)('/docs in chromium', () => {
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_BASE_URL: 'https://api.maitred.example' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders Maitred’s docs and runs "Try it out" on GET /healthz against this host', async () => {
    const page = await browser.newPage();
    // Shorter than the test's own timeout, so a failure names the step that did not happen.
    page.setDefaultTimeout(10_000);
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) =>
        console.error(`CSP blocked ${event.blockedURI} (${event.violatedDirective})`),
      );
    });

    await page.goto(`${origin}/docs`);
    await page.locator('.swagger-ui .info .title').filter({ hasText: 'Maitred API' }).waitFor();
    expect(await page.title()).toBe('Maitred API');
    await expect(page.locator('.opblock-summary-description').filter({ hasText: 'Sign out: end this session' }).count()).resolves.toBe(1);
    await expect(page.locator('.swagger-ui .info').innerText()).resolves.toContain('Getting started');

    const health = page.locator('.opblock').filter({ has: page.locator('.opblock-summary-path', { hasText: /^\/healthz$/ }) });
    await health.locator('.opblock-summary').click();
    await health.getByRole('button', { name: 'Try it out' }).click();
    await health.getByRole('button', { name: 'Execute' }).click();
    const live = health.locator('.live-responses-table');
    await live.locator('.response-col_status').filter({ hasText: '200' }).waitFor();
    await expect(live.innerText()).resolves.toContain('"ok": true');
    // The relative server: the request went to the host that served the page, not PUBLIC_BASE_URL.
    await expect(health.locator('.request-url').innerText()).resolves.toContain(`${origin}/healthz`);

    if (process.env.DOCS_SCREENSHOT) await page.screenshot({ path: process.env.DOCS_SCREENSHOT, fullPage: false });
    expect(problems).toEqual([]);
    await page.close();
  });
});
