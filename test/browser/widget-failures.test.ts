/**
 * The bookings widget when things go wrong, as a guest meets it: the slot taken meanwhile (409) keeps
 * the details and shows fresh times; a burst answered 429 says how long to wait; maintenance (503) and a
 * lost connection offer a retry that works; and the loader falls back to a link when the widget never
 * answers. The failures are injected into the widget's requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookedOn, button, chromiumPresent, openEmbedded, screenshot, staffBooking, startHarness, type Harness } from './widget-harness.js';

let h: Harness;
const BOOK = '**/api/public/venues/*/book';
/** Chromium logs every non-2xx answer as a console error: expected here for the injected ones. */
const unexpected = (problems: string[]) => problems.filter((line) => !/status of (409|429|503)|ERR_FAILED|Failed to fetch/.test(line));

async function toDetails(publicId: string) {
  const opened = await openEmbedded(h, publicId);
  const { frame } = opened;
  await frame
    .getByRole('status')
    .filter({ hasText: /times available/ })
    .waitFor();
  await button(frame, /^20:30, /)
    .first()
    .click();
  await frame.getByLabel('Name').fill('Kit Retry');
  await frame.getByLabel('Email').fill('kit@example.com');
  return opened;
}

describe.skipIf(!chromiumPresent)('bookings widget failure handling in chromium', () => {
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('keeps the details and shows fresh times when the slot was taken meanwhile (409)', async () => {
    const { page, frame, problems } = await toDetails(h.publicIds.bookings);
    await page.route(
      BOOK,
      (route) => route.fulfill({ status: 409, contentType: 'application/json', body: '{"error":"That time was just taken"}' }),
      { times: 1 },
    );
    await button(frame, 'Book').click();
    await frame.getByRole('alert').filter({ hasText: 'that time was just taken' }).waitFor();
    await frame
      .getByRole('status')
      .filter({ hasText: /times available/ })
      .waitFor();
    await screenshot(page, 'failure-taken');
    await button(frame, /^21:00, /)
      .first()
      .click();
    // The details the guest typed are still there.
    await expect.poll(() => frame.getByLabel('Name').inputValue()).toBe('Kit Retry');
    await expect.poll(() => frame.getByLabel('Email').inputValue()).toBe('kit@example.com');
    expect(unexpected(problems)).toEqual([]);
    await page.context().close();
  });

  it('says how long to wait on 429 (Retry-After) and keeps the details', async () => {
    const { page, frame, problems } = await toDetails(h.publicIds.bookings);
    await page.route(
      BOOK,
      (route) =>
        route.fulfill({
          status: 429,
          headers: { 'retry-after': '7' },
          contentType: 'application/json',
          body: '{"error":"Too many requests. Please try again later."}',
        }),
      { times: 1 },
    );
    await button(frame, 'Book').click();
    await frame.getByRole('alert').filter({ hasText: 'try again in 7 seconds' }).waitFor();
    await expect.poll(() => frame.getByLabel('Name').inputValue()).toBe('Kit Retry');
    expect(unexpected(problems)).toEqual([]);
    await page.context().close();
  });

  it('shows a maintenance notice (503) and an offline notice with a retry that then books', async () => {
    const { page, frame, problems } = await toDetails(h.publicIds.bookings);
    await page.route(BOOK, (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"maintenance"}' }), {
      times: 1,
    });
    await button(frame, 'Book').click();
    await frame.getByRole('alert').filter({ hasText: 'maintenance' }).waitFor();

    await page.route(BOOK, (route) => route.abort('internetdisconnected'), { times: 1 });
    await button(frame, 'Try again').click();
    await frame.getByRole('alert').filter({ hasText: 'could not reach the booking service' }).waitFor();
    await screenshot(page, 'failure-offline');

    await button(frame, 'Try again').click();
    await frame.getByRole('heading', { name: /Pay the deposit|Booking confirmed/, level: 1 }).waitFor();
    expect(unexpected(problems).filter((line) => !/internetdisconnected|ERR_INTERNET_DISCONNECTED/.test(line))).toEqual([]);
    await page.context().close();
  });

  it('resumes a booking awaiting payment after a reload, and finalises it once paid', async () => {
    const { page, frame } = await openEmbedded(h, h.publicIds.bookings);
    await frame.getByLabel('Guests').selectOption('6');
    await frame
      .getByRole('status')
      .filter({ hasText: /times available/ })
      .waitFor();
    await button(frame, /^21:30, .*table for 6$/)
      .first()
      .click();
    await frame.getByLabel('Name').fill('Reload Guest');
    await frame.getByLabel('Email').fill('reload@example.com');
    await button(frame, 'Book').click();
    await frame.getByRole('heading', { name: 'Pay the deposit', level: 1 }).waitFor();
    // The framed widget is a third-party document: this browser denies it storage of its own, so the
    // visit comes back from the host page through the loader.
    const widgetFrame = page.frames().find((f) => f.url().includes('/widget/'))!;
    await expect(widgetFrame.evaluate(() => sessionStorage.length)).rejects.toThrow(/Access is denied/);
    // The host page holds the visit (the loader saved it there) before the guest reloads.
    await expect.poll(() => page.evaluate(() => Object.values(sessionStorage).join(''))).toContain('"step":"pay"');
    await page.reload();
    const again = page.frameLocator('iframe');
    await again.getByRole('heading', { name: 'Pay the deposit', level: 1 }).waitFor();
    await again.getByLabel(/succeeds/).check();
    await again.getByRole('button', { name: /^Pay/ }).click();
    await again.getByRole('heading', { name: 'Booking confirmed', level: 1 }).waitFor();
    const booked = await bookedOn(page);
    const saved = await staffBooking(h, booked[0].booking_id);
    expect(saved).toMatchObject({ status: 'confirmed', payment_status: 'paid', guest_email: 'reload@example.com' });
    await page.context().close();
  });

  it('falls back to a link when the widget does not answer within 10 s', async () => {
    const context = await h.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.clock.install();
    // A closed widget's page never answers the loader's hello.
    await page.goto(`${h.hostOrigin}/?widget=wgt_closed`);
    await page.waitForSelector('iframe');
    await page.clock.runFor(11_000);
    const link = page.getByRole('link', { name: 'Book (opens in a new tab)' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`${h.origin}/widget/wgt_closed`);
    expect(await page.locator('iframe').count()).toBe(0);
    await context.close();
  });
});
