/**
 * The guest's journey, polished (issue 26), in chromium on phones: the floor plan offers only the
 * tables booking gives and says so in words when one was just taken; the calendar fits 320 and 390 px;
 * the widgets look designed (system font, scale, drawn radios and selects, focus rings, readable plan
 * labels). Screenshots of every step go to test-results/.
 */
import type { FrameLocator, Page } from 'playwright-core';
import { confirm } from '../../src/modules/payments/payments.test-helpers.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  button,
  chromiumPresent,
  expectAccessible,
  expectFitsPhone,
  openEmbedded,
  pickDateByKeyboard,
  screenshot,
  startHarness,
  watch,
  type Harness,
} from './widget-harness.js';
import { AxeBuilder } from '@axe-core/playwright';

let h: Harness;
const WIDTHS = [320, 390] as const;
/** Two days after the demo's today, where the Dinner rule lets guests pick Terrace tables. */
const DATE = '2026-06-17';

/** Opens the bookings widget at `width`, four guests, two days ahead, and picks 20:30 (Dinner). */
async function toDinnerDetails(width: number) {
  const opened = await openEmbedded(h, h.publicIds.bookings, width);
  const { page, frame } = opened;
  await frame.getByLabel('Guests').selectOption('4');
  await pickDateByKeyboard(page, frame, 2);
  await frame.getByRole('status').filter({ hasText: 'times available on Wednesday 17 June 2026' }).waitFor();
  await button(frame, /^20:30, .*table for 4$/)
    .first()
    .click();
  await frame.getByRole('group', { name: 'Choose your table' }).waitFor();
  await frame
    .getByRole('radio', { name: /^Table / })
    .first()
    .waitFor();
  return opened;
}

/** The smallest rendered font size (CSS px) of the plan's table labels. */
const smallestPlanLabel = (page: Page) =>
  page
    .frames()
    .find((f) => f.url().includes('/widget/'))!
    .evaluate(() =>
      Math.min(
        ...[...document.querySelectorAll<SVGTextElement>('.mw-plan-label')].map((text) => {
          const scale = text.ownerSVGElement!.getScreenCTM()!.a;
          return parseFloat(getComputedStyle(text).fontSize) * scale;
        }),
      ),
    );

describe.skipIf(!chromiumPresent)('the guest journey, polished', () => {
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('the floor plan offers only Terrace tables (the Dinner rule’s); a table taken meanwhile is refused in words and the plan refreshes', async () => {
    const { page, frame, problems } = await toDinnerDetails(390);
    const offered = await frame
      .getByRole('radio', { name: /^Table / })
      .evaluateAll((radios) => radios.map((radio) => radio.closest('label')!.textContent!.trim()));
    const numbers = offered.map((text) => Number(/Table (\d+)/.exec(text)![1]));
    expect(numbers.length).toBeGreaterThan(0);
    expect(numbers.every((n) => n >= 20 && n <= 27)).toBe(true);
    await screenshot(page, 'journey-floorplan');

    // Someone else books the first offered table while the guest types.
    const day = (
      await h.t.app.inject({ url: `/api/public/venues/${h.venueId}/availability?date=${DATE}&party_size=4&type=tables` })
    ).json();
    const dinner = day.rules.find((r: { name: string }) => r.name === 'Dinner tables');
    const plan = (
      await h.t.app.inject({ url: `/api/public/venues/${h.venueId}/floorplan?date=${DATE}&time=20:30&party_size=4&rule_id=${dinner.id}` })
    ).json() as { tables: { id: string; table_number: string }[] };
    const first = plan.tables.find((t) => t.table_number === String(numbers[0]))!;
    const other = await h.t.app.inject({
      method: 'POST',
      url: `/api/public/venues/${h.venueId}/book`,
      remoteAddress: '203.0.113.9',
      payload: {
        access_rule_id: dinner.id,
        rule_type: 'table',
        date: DATE,
        time: '20:30',
        party_size: 4,
        table_id: first.id,
        guest_name: 'Quick Guest',
        guest_email: 'quick@example.com',
      },
    });
    expect(other.statusCode).toBe(200);

    await frame.getByRole('radio', { name: new RegExp(`^Table ${numbers[0]} `) }).check();
    await frame.getByLabel('Name').fill('Ada Guest');
    await frame.getByLabel('Email').fill('ada@example.com');
    await button(frame, 'Book').click();
    await frame
      .getByRole('alert')
      .filter({ hasText: `Table ${numbers[0]} is not free at that time: please choose another table.` })
      .waitFor();
    // Still on the details, entries kept; the refreshed plan no longer offers the taken table.
    await expect.poll(() => frame.getByRole('radio', { name: new RegExp(`^Table ${numbers[0]} `) }).count()).toBe(0);
    expect(await frame.getByLabel('Name').inputValue()).toBe('Ada Guest');
    await expectFitsPhone(page);
    await expectAccessible(page);
    await screenshot(page, 'journey-table-taken');
    // Chromium logs the refused booking's 409 as a console line; nothing else may go wrong.
    expect(problems.filter((line) => !/status of 409/.test(line))).toEqual([]);
    await page.context().close();
  });

  it('the logo, stored as a path, loads in the widget under the server’s own address', async () => {
    const stored = await h.t.db.kysely.selectFrom('venues').select('logo_url').where('id', '=', h.venueId).executeTakeFirstOrThrow();
    expect(stored.logo_url).toMatch(/^\/uploads\//);
    const { page, frame, problems } = await openEmbedded(h, h.publicIds.bookings, 390);
    const logo = frame.locator('img.mw-logo');
    await logo.waitFor();
    await expect
      .poll(() => logo.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0))
      .toBe(true);
    expect(new URL(await logo.evaluate((img) => (img as HTMLImageElement).src)).origin).toBe(h.origin);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the host page logs no postMessage origin warnings while the widget loads and answers', async () => {
    const context = await h.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const logged: string[] = [];
    page.on('console', (message) => logged.push(`${message.type()}: ${message.text()}`));
    // A slow widget page (a busy server, a phone network): the frame is in view well before it loads.
    await page.route(`${h.origin}/widget/${h.publicIds.bookings}`, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    await page.goto(`${h.hostOrigin}/?widget=${h.publicIds.bookings}`);
    const frame = page.frameLocator('iframe');
    await frame
      .getByRole('status')
      .filter({ hasText: /times available/ })
      .waitFor();
    await page.waitForTimeout(1_000);
    expect(logged.filter((line) => /postMessage|target origin/i.test(line))).toEqual([]);
    await context.close();
  });

  it('a refused booking shows the API’s own reason, and fresh times without the refused one', async () => {
    const { page, frame, problems } = await openEmbedded(h, h.publicIds.bookings, 390);
    await pickDateByKeyboard(page, frame, 1);
    await frame.getByRole('status').filter({ hasText: 'times available on Tuesday 16 June 2026' }).waitFor();
    // What the API answers for a time off the grid (the same engine refuses 12:30 here, say, as just closed).
    const day = (
      await h.t.app.inject({ url: `/api/public/venues/${h.venueId}/availability?date=2026-06-16&party_size=2&type=tables` })
    ).json();
    const lunch = day.rules.find((r: { name: string }) => r.name === 'Lunch tables');
    const real = await h.t.app.inject({
      method: 'POST',
      url: `/api/public/venues/${h.venueId}/book`,
      payload: {
        access_rule_id: lunch.id,
        rule_type: 'table',
        date: '2026-06-16',
        time: '12:37',
        party_size: 2,
        guest_name: 'A',
        guest_email: 'a@example.com',
      },
    });
    expect(real.json()).toMatchObject({ reason: 'not_a_slot', nearest_times: ['12:30', '12:45'] });
    await page.route(/\/book$/, (route) => route.fulfill({ status: 409, contentType: 'application/json', body: real.body }));
    await button(frame, '12:30, Lunch tables, table for 2').click();
    await frame.getByLabel('Name').fill('Ada Guest');
    await frame.getByLabel('Email').fill('ada@example.com');
    await button(frame, 'Book').click();
    await frame
      .getByRole('alert')
      .filter({ hasText: '12:37 is not a time we take bookings for: the nearest are 12:30 and 12:45.' })
      .waitFor();
    await frame.getByRole('heading', { name: 'Book a table', level: 1 }).waitFor();
    await button(frame, '12:45, Lunch tables, table for 2').waitFor();
    expect(await button(frame, '12:30, Lunch tables, table for 2').count()).toBe(0);
    await expectFitsPhone(page);
    await expectAccessible(page);
    await screenshot(page, 'journey-refused-reason');
    expect(problems.filter((line) => !/status of 409/.test(line))).toEqual([]);
    await page.context().close();
  });

  for (const width of WIDTHS) {
    it(`the calendar fits a ${width} px phone without moving the page`, async () => {
      const { page, frame, problems } = await openEmbedded(h, h.publicIds.bookings, width);
      await frame
        .getByRole('status')
        .filter({ hasText: /times available/ })
        .waitFor();
      await frame.getByRole('button', { name: /^Date/ }).click();
      const dialog = frame.getByRole('dialog');
      await dialog.waitFor();
      await expectFitsPhone(page);
      const box = (await dialog.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      // The host page did not shift sideways either.
      expect(await page.evaluate(() => [window.scrollX, document.documentElement.scrollWidth <= window.innerWidth])).toEqual([0, true]);
      await expectAccessible(page);
      await screenshot(page, `journey-calendar-${width}`);
      await page.keyboard.press('Escape');
      expect(problems).toEqual([]);
      await page.context().close();
    });

    it(`looks designed at ${width} px: system font, drawn radios and selects, focus rings, readable plan labels`, async () => {
      const { page, frame, problems } = await toDinnerDetails(width);
      const looks = await lookOf(frame);
      expect(looks.font).toMatch(/^system-ui/);
      expect(looks.titleSize).toBeGreaterThan(looks.bodySize * 1.3);
      expect(looks.radioAppearance).toBe('none');
      expect(looks.selectAppearance).toBe('none');
      expect(await smallestPlanLabel(page)).toBeGreaterThanOrEqual(12);
      await frame.getByLabel('Name').focus();
      await page.keyboard.press('Shift+Tab');
      const ring = await frame.locator(':focus').evaluate((el) => getComputedStyle(el).outlineStyle);
      expect(ring).toBe('solid');
      await expectFitsPhone(page);
      await expectAccessible(page);
      await screenshot(page, `journey-details-${width}`);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }
});

async function lookOf(frame: FrameLocator) {
  return frame.locator('body').evaluate(() => {
    const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
    return {
      font: style('body').fontFamily,
      bodySize: parseFloat(style('body').fontSize),
      titleSize: parseFloat(style('.mw-title').fontSize),
      radioAppearance: style('.mw-choice input[type="radio"]').appearance,
      selectAppearance: document.querySelector('select') ? style('select').appearance : 'none',
    };
  });
}

describe.skipIf(!chromiumPresent)('the guest journey, polished: vouchers and events', () => {
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('vouchers: the correction message goes once the fields are fixed, and the buyer gets a receipt mail', async () => {
    const { page, frame, problems } = await openEmbedded(h, h.publicIds.vouchers, 390);
    await frame.getByRole('heading', { name: 'Gift vouchers', level: 1 }).waitFor();
    await frame.getByLabel("Recipient's name").fill('Sam Friend');
    await button(frame, 'Continue to payment').click();
    const status = frame.locator('p.mw-status[role="status"]').first();
    await expect.poll(() => status.innerText()).toBe('Please correct the highlighted fields.');
    await screenshot(page, 'journey-vouchers-invalid');
    await frame.getByLabel("Recipient's email").fill('sam@example.com');
    await frame.getByLabel('Your name').fill('Alex Buyer');
    // One field still wrong: the message stays, the fixed field's error went.
    await expect.poll(() => status.innerText()).toBe('Please correct the highlighted fields.');
    expect(await frame.getByLabel('Your name').getAttribute('aria-invalid')).toBeNull();
    await frame.getByLabel('Your email').fill('alex@example.com');
    await expect.poll(() => status.innerText()).toBe('');
    await screenshot(page, 'journey-vouchers-fixed');
    await button(frame, 'Continue to payment').click();
    await frame.getByLabel(/succeeds/).check();
    expect(await status.innerText()).toBe('');
    await screenshot(page, 'journey-vouchers-pay');
    await button(frame, /^Pay/).click();
    await frame.getByRole('heading', { name: 'Thank you', level: 1 }).waitFor();
    await screenshot(page, 'journey-vouchers-done');

    const mails = await h.t.db.kysely.selectFrom('mail_outbox').selectAll().where('recipient', '=', 'alex@example.com').execute();
    expect(mails.map((m) => m.subject)).toEqual(['Your receipt: gift voucher for The Night Owl']);
    expect(mails[0].text_body).toMatch(/Total paid: £\d+\.00/);
    expect(mails[0].html_body).toContain('Sent to');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('events: the list’s “upcoming events” count does not follow the guest to the tickets', async () => {
    const { page, frame, problems } = await openEmbedded(h, h.publicIds.events, 390);
    const status = frame.locator('p.mw-status[role="status"]').first();
    await expect.poll(() => status.innerText()).toMatch(/upcoming events\.$/);
    await button(frame, /^Tickets for Northern Soul All-Nighter/).click();
    await frame.getByRole('heading', { name: 'Northern Soul All-Nighter', level: 1 }).waitFor();
    expect(await status.innerText()).toBe('');
    await screenshot(page, 'journey-events-tickets');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe.skipIf(!chromiumPresent)('the guest journey, polished: money terms and the reference', () => {
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('deposit terms before typing, a line-item breakdown at the pay step and in the mail, a short reference the door accepts', async () => {
    const { page, frame, problems } = await openEmbedded(h, h.publicIds.bookings, 390);
    // The demo's words match what is charged: £10 a guest (a party of 2 pays £20).
    const day = (
      await h.t.app.inject({ url: `/api/public/venues/${h.venueId}/availability?date=${DATE}&party_size=2&type=tables` })
    ).json();
    const dinner = day.rules.find((r: { name: string }) => r.name === 'Dinner tables');
    expect(dinner.display_description).toContain('a £10 deposit per guest holds your table');
    const two = await h.t.app.inject({
      url: `/api/public/venues/${h.venueId}/booking-terms?rule_id=${dinner.id}&date=${DATE}&time=20:00&party_size=2`,
    });
    expect(two.json()).toMatchObject({ deposit_type: 'deposit', amount_pence: 2000, price_per_guest_pence: 1000 });
    await frame.getByLabel('Guests').selectOption('6');
    await pickDateByKeyboard(page, frame, 2);
    await frame.getByRole('status').filter({ hasText: 'times available on Wednesday 17 June 2026' }).waitFor();
    await button(frame, /^20:00, .*table for 6$/)
      .first()
      .click();
    const terms = frame.getByRole('region', { name: 'Deposit and cancellation' });
    await terms.getByText('A deposit of £60 (£10 a guest × 6) is paid when you book').waitFor();
    await terms.getByText('You can cancel until Tuesday, 16 June 2026 at 20:00 (24 hours before), and you get a full refund').waitFor();
    // It comes before the guest's details.
    const termsTop = (await terms.boundingBox())!.y;
    expect(termsTop).toBeLessThan((await frame.getByLabel('Name').boundingBox())!.y);
    await frame.getByLabel('Celebration, £90 each').selectOption('1');
    await terms.getByText('Total to pay now').waitFor();
    expect(await terms.locator('.mw-lines-total dd').innerText()).toBe('£150');
    await expectAccessible(page);
    await screenshot(page, 'journey-terms');

    await frame.getByLabel('Name').fill('Grace Party');
    await frame.getByLabel('Email').fill('grace@example.com');
    await button(frame, 'Book').click();
    await frame.getByRole('heading', { name: 'Pay the deposit', level: 1 }).waitFor();
    const lines = await frame.locator('.mw-lines > div').allInnerTexts();
    expect(lines.map((line) => line.replace(/\s+/g, ' '))).toEqual([
      'Deposit for the table (6 guests) £60',
      'Celebration £90',
      'Total to pay now £150',
    ]);
    await expectFitsPhone(page);
    await expectAccessible(page);
    await screenshot(page, 'journey-pay-breakdown');
    await frame.getByLabel(/succeeds/).check();
    await button(frame, 'Pay £150').click();
    await frame.getByRole('heading', { name: 'Booking confirmed', level: 1 }).waitFor();
    // The confirmation offers what the manage page does, and a short reference.
    await frame.getByRole('link', { name: /View or cancel this booking/ }).waitFor();
    const reference = await frame.locator('.mw-reference strong').innerText();
    expect(reference).toMatch(/^[A-Z0-9]{6}$/);
    await screenshot(page, 'journey-confirmed-reference');

    const mail = await h.t.db.kysely
      .selectFrom('mail_outbox')
      .selectAll()
      .where('recipient', '=', 'grace@example.com')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Your booking at The Night Owl on Wednesday, 17 June 2026 is confirmed');
    expect(mail.text_body).toContain('Date: Wednesday, 17 June 2026');
    expect(mail.text_body).toContain('Deposit for the table (6 guests): £60.00\nCelebration: £90.00\nTotal paid: £150.00');
    expect(mail.text_body).toContain(`Booking reference: ${reference}`);
    expect(mail.html_body).toContain('Total paid');

    // At the door, the reference checks the guest in (on the booking's day, with force outside the window).
    const checkIn = await h.t.app.inject({
      method: 'POST',
      url: `/api/my-venues/${h.venueId}/check-in/by-reference`,
      headers: h.staff,
      payload: { reference: reference.toLowerCase(), force: true },
    });
    expect(checkIn.statusCode).toBe(404); // not today's: 17 June is two days ahead
    h.t.clock.set(new Date('2026-06-17T18:45:00Z'));
    const atDoor = await h.t.app.inject({
      method: 'POST',
      url: `/api/my-venues/${h.venueId}/check-in/by-reference`,
      headers: h.staff,
      payload: { reference: ` ${reference.slice(0, 3)} ${reference.slice(3).toLowerCase()} ` },
    });
    expect(atDoor.json()).toMatchObject({ success: true, status: 'checked_in', guest_name: 'Grace Party', guest_count: 6 });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('a same-day booking under a 24-hour cut-off says before payment that it cannot be cancelled', async () => {
    h.t.clock.set(new Date('2026-06-15T09:00:00Z'));
    const { page, frame, problems } = await openEmbedded(h, h.publicIds.bookings, 320);
    await frame.getByLabel('Guests').selectOption('2');
    await frame
      .getByRole('status')
      .filter({ hasText: /times available/ })
      .waitFor();
    await button(frame, /^21:00, .*table for 2$/)
      .first()
      .click();
    const terms = frame.getByRole('region', { name: 'Deposit and cancellation' });
    await terms.getByText('This booking cannot be cancelled once made.').waitFor();
    await terms
      .getByText(
        'Bookings can be cancelled up to 24 hours before: this one could not be cancelled once made, and nothing would be refunded.',
      )
      .waitFor();
    await expectFitsPhone(page);
    await expectAccessible(page);
    await screenshot(page, 'journey-terms-same-day-320');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe.skipIf(!chromiumPresent)('the guest journey, polished: the manage page', () => {
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  for (const width of WIDTHS) {
    it(`at ${width} px it is branded like the venue's widgets, shows the reference, and offers the venue's phone and email when it cannot cancel`, async () => {
      // A paid same-day dinner under the 24-hour cut-off: it can no longer be cancelled online.
      const day = (
        await h.t.app.inject({ url: `/api/public/venues/${h.venueId}/availability?date=2026-06-15&party_size=2&type=tables` })
      ).json();
      const dinner = day.rules.find((r: { name: string }) => r.name === 'Dinner tables');
      const booked = await h.t.app.inject({
        method: 'POST',
        url: `/api/public/venues/${h.venueId}/book`,
        remoteAddress: `203.0.113.${width % 200}`,
        payload: {
          access_rule_id: dinner.id,
          rule_type: 'table',
          date: '2026-06-15',
          time: '21:00',
          party_size: 2,
          guest_name: 'Late Guest',
          guest_email: `late${width}@example.com`,
        },
      });
      expect(booked.statusCode, booked.body).toBe(200);
      const { booking_id, payment_intent_id, manage_url, reference } = booked.json();
      await confirm(h.t, payment_intent_id, 'pm_card_visa');
      await h.t.app.inject({ method: 'POST', url: `/api/public/venues/${h.venueId}/book/finalize`, payload: { booking_id } });

      const context = await h.browser.newContext({ viewport: { width, height: 844 } });
      const manage = await context.newPage();
      manage.setDefaultTimeout(10_000);
      const problems = watch(manage);
      await manage.goto(manage_url.replace('http://maitred.test', h.origin));
      await manage.getByRole('heading', { name: 'Your booking', level: 1 }).waitFor();
      await manage.getByText(`Booking reference ${reference}`).waitFor();
      // The venue's theme: its dark background and logo, as in its widgets.
      await expect.poll(() => manage.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(20, 19, 26)');
      expect(await manage.locator('img.mw-logo').count()).toBe(1);
      // Not a dead end: no cancel button, but how to reach the venue.
      expect(await manage.getByRole('button', { name: 'Cancel booking' }).count()).toBe(0);
      await manage.getByRole('link', { name: '+44 20 7946 0321' }).waitFor();
      await manage.getByRole('link', { name: 'hello@nightowl.example' }).waitFor();
      expect(await manage.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      const results = await new AxeBuilder({ page: manage }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      expect(results.violations.map((v) => v.id)).toEqual([]);
      await screenshot(manage, `journey-manage-${width}`);
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});
