/**
 * The guest's own account in chromium, on a phone: a guest books a table through the bookings widget,
 * signs in to /account with the code mailed to them (read from the outbox), sees the booking and cancels
 * it (the policy's refund said first), tops up keys on the simulated provider's checkout page (its webhook
 * adds them), then joins a guest list in the widget with those keys, signing in there with a code too.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bookedOn,
  button,
  chromiumPresent,
  expectAccessible,
  openEmbedded,
  pickDateByKeyboard,
  screenshot,
  staffBooking,
  startHarness,
  watch,
  type Harness,
} from './widget-harness.js';

let h: Harness;
const EMAIL = 'ada.account@example.com';

/** The code of the newest sign-in code row of the address, from the mails it was sent. */
async function mailedCode(email: string): Promise<string> {
  const row = await h.t.db.kysely
    .selectFrom('account_sign_in_codes')
    .selectAll()
    .where('email', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const mails = await h.t.db.kysely.selectFrom('mail_outbox').select('subject').where('recipient', '=', email).execute();
  const code = mails
    .flatMap((m) => m.subject.match(/sign-in code: (\d{6})$/)?.[1] ?? [])
    .find((c) => createHash('sha256').update(`${row.code_salt}:${c}`).digest('hex') === row.code_hash);
  if (!code) throw new Error(`no sign-in code mailed to ${email}`);
  return code;
}

async function expectPageAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`)).toEqual([]);
}

async function shot(page: Page, name: string) {
  fs.mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: `test-results/account-${name}.png`, fullPage: true });
}

describe.skipIf(!chromiumPresent)('the guest account in chromium', () => {
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it('books in the widget, signs in with a mailed code, cancels, tops up keys and joins a guest list with them', async () => {
    // 1. A table booking through the bookings widget (tomorrow's lunch: no deposit).
    const widget = await openEmbedded(h, h.publicIds.bookings);
    await widget.frame
      .getByRole('status')
      .filter({ hasText: /times available/ })
      .waitFor();
    await pickDateByKeyboard(widget.page, widget.frame, 1);
    await widget.frame.getByRole('status').filter({ hasText: 'times available on Tuesday 16 June 2026' }).waitFor();
    await button(widget.frame, '12:30, Lunch tables, table for 2').click();
    await widget.frame.getByLabel('Name').fill('Ada Account');
    await widget.frame.getByLabel('Email').fill(EMAIL);
    await button(widget.frame, 'Book').click();
    await widget.frame.getByRole('heading', { name: 'Booking confirmed', level: 1 }).waitFor();
    const [booked] = await bookedOn(widget.page);
    expect(widget.problems).toEqual([]);
    await widget.page.context().close();

    // 2. The account app: sign in with the code mailed to the address.
    const context = await h.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const problems = watch(page);
    await page.goto(`${h.origin}/account`);
    await page.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
    await expectPageAccessible(page);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByRole('button', { name: 'Email me a code', exact: true }).click();
    await page.getByLabel('Sign-in code').waitFor();
    await page.getByLabel('Sign-in code').fill(await mailedCode(EMAIL));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    // 3. My bookings: the widget's booking, with its QR; cancelled under its policy.
    await page.getByRole('heading', { name: 'Your bookings', level: 1 }).waitFor();
    const card = page.getByRole('listitem').filter({ hasText: 'Tuesday 16 June 2026 at 12:30' });
    await card.getByRole('img', { name: /Entry QR code/ }).waitFor();
    await card.getByRole('link', { name: /Add to calendar/ }).waitFor();
    await expectPageAccessible(page);
    await shot(page, 'bookings');
    await card.getByRole('button', { name: /^Cancel booking/ }).click();
    await card.getByText('Cancelling costs nothing.').waitFor();
    await card.getByRole('button', { name: 'Yes, cancel my booking' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /is cancelled/ })
      .waitFor();
    await card.getByText('cancelled', { exact: true }).waitFor();
    expect(await staffBooking(h, booked.booking_id)).toMatchObject({ status: 'cancelled' });

    // 4. Keys: top up 50 on the simulated checkout page; back in the app, the webhook has added them.
    await page.getByRole('link', { name: 'Keys' }).click();
    await page.getByText('You have 0 keys.').waitFor();
    await page.getByLabel('50 keys for £50').check();
    await expectPageAccessible(page);
    await page.getByRole('button', { name: 'Pay £50' }).click();
    await page.getByRole('button', { name: 'Pay with test card (succeeds)' }).click();
    await page.waitForURL(/\/account\?topup=done#keys$/);
    await page.getByText('You have 50 keys.').waitFor();
    await page.getByRole('cell', { name: '+50' }).waitFor();
    await expectPageAccessible(page);
    await shot(page, 'keys');
    expect(problems).toEqual([]);
    await context.close();

    // 5. The guest list in the widget, signed in with a code, paid with the keys.
    const list = await openEmbedded(h, h.publicIds.bookings);
    await list.frame.getByLabel('The guest list').check();
    await list.frame.getByRole('heading', { name: 'Join the guest list', level: 1 }).waitFor();
    await pickDateByKeyboard(list.page, list.frame, 4);
    await list.frame.getByRole('status').filter({ hasText: 'open on Friday 19 June 2026' }).waitFor();
    await list.frame.getByLabel(/^Queue skip/).check();
    await list.frame.getByLabel('People, you included').selectOption('2');
    await button(list.frame, 'Use an emailed code').click();
    await list.frame.getByLabel('Email').fill(EMAIL);
    await list.frame.getByRole('button', { name: 'Email me a code', exact: true }).click();
    await list.frame.getByLabel('Sign-in code').fill(await mailedCode(EMAIL));
    await list.frame.getByRole('button', { name: 'Sign in', exact: true }).click();
    await list.frame.getByText('Your keys: 50').waitFor();
    await expectAccessible(list.page);
    await button(list.frame, 'Join the list').click();
    await list.frame.getByText(/Keys spent: \d+/).waitFor();
    await screenshot(list.page, 'account-guestlist-joined');
    const joined = (await bookedOn(list.page)).find((b) => b.kind === 'guestlist');
    expect(await staffBooking(h, joined!.booking_id)).toMatchObject({ guest_email: EMAIL, booking_date: '2026-06-19', guest_count: 2 });
    expect(list.problems).toEqual([]);
    await list.page.context().close();
  });
  it('buys a membership with the simulated card, then pays the member price for a ticket in the events widget', async () => {
    const MEMBER = 'noor.member@example.com';
    const tier = await h.t.app.inject({
      method: 'POST',
      url: '/api/my-operator/membership-tiers',
      headers: h.staff,
      payload: {
        name: 'Soul Club',
        description: 'For regulars of the all-nighters.',
        price_pence: 2000,
        period: 'yearly',
        perks: ['member'],
        ticket_discount_pct: 25,
      },
    });
    expect(tier.statusCode, tier.body).toBe(200);

    // 1. The events widget offers the membership to a guest who is not signed in.
    const events = await openEmbedded(h, h.publicIds.events);
    await button(events.frame, /^Tickets for Northern Soul All-Nighter/).click();
    await events.frame.getByLabel(/^Standard entry — £12/).waitFor();
    const join = events.frame.getByRole('link', { name: 'Become a member' });
    expect(await join.getAttribute('href')).toBe(`/account?venue=${h.venueId}#memberships`);

    // 2. The account app, at that link: sign in with a mailed code, choose the tier, pay on the checkout page.
    const context = await h.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const problems = watch(page);
    await page.goto(`${h.origin}/account?venue=${h.venueId}#memberships`);
    await page.getByLabel('Email').fill(MEMBER);
    await page.getByRole('button', { name: 'Email me a code', exact: true }).click();
    await page.getByLabel('Sign-in code').fill(await mailedCode(MEMBER));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Your memberships', level: 1 }).waitFor();
    await page.getByText('You are not a member anywhere yet.').waitFor();
    await page.getByLabel(/^Soul Club at .+: £20 a year, 25% off tickets$/).check();
    await page.getByRole('list', { name: 'What Soul Club members get' }).getByText('25% off event tickets').waitFor();
    await expectPageAccessible(page);
    await shot(page, 'memberships-offer');
    await page.getByRole('button', { name: 'Join: pay £20' }).click();
    await page.getByRole('button', { name: 'Pay with test card (succeeds)' }).click();
    await page.waitForURL(new RegExp(`/account\\?venue=${h.venueId}&membership=paid&purchase=mpu_[^#]+#memberships$`));
    await page.getByRole('heading', { name: /^Soul Club · / }).waitFor();
    await page.getByText(/^Member until /).waitFor();
    await page.getByLabel(/^Soul Club at .+ \(renews yours\)$/).waitFor();
    await expectPageAccessible(page);
    await shot(page, 'memberships-member');
    const guest = await h.t.db.kysely.selectFrom('users').select('id').where('email', '=', MEMBER).executeTakeFirstOrThrow();
    expect(await h.t.db.kysely.selectFrom('guest_memberships').select('user_id').where('user_id', '=', guest.id).execute()).toHaveLength(1);

    // 3. Back in the events widget: sign in for the member price, and pay it.
    await button(events.frame, 'Sign in for your member price').click();
    await events.frame.getByRole('heading', { name: 'Member sign-in' }).waitFor();
    await events.frame.getByLabel('Email').fill(MEMBER);
    await button(events.frame, 'Email me a code').click();
    await events.frame.getByLabel('Sign-in code').fill(await mailedCode(MEMBER));
    await button(events.frame, 'Sign in').click();
    await events.frame.getByText(/Your member prices are shown\./).waitFor();
    await events.frame.getByLabel(/^Standard entry — £9 member price, £12 for others/).check();
    await events.frame.getByLabel('Name').fill('Noor Member');
    await expect.poll(() => events.frame.getByLabel('Email').inputValue()).toBe(MEMBER);
    await expectAccessible(events.page);
    await screenshot(events.page, 'events-member-price');
    await button(events.frame, 'Continue: £9').click();
    await events.frame.getByLabel(/succeeds/).check();
    await button(events.frame, 'Pay £9').click();
    await events.frame.getByText(/Booked\. Your tickets are on their way/).waitFor();
    const [ticket] = await bookedOn(events.page);
    expect(await staffBooking(h, ticket.booking_id)).toMatchObject({ status: 'confirmed', guest_email: MEMBER, payment_status: 'paid' });
    expect(events.problems).toEqual([]);
    await events.page.context().close();

    // 4. The ticket in the account, at the member price.
    await page.getByRole('link', { name: 'Tickets' }).click();
    await page.getByRole('heading', { name: 'Northern Soul All-Nighter' }).waitFor();
    await page.getByText(/1 × Standard entry, £9\./).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
  it('says so when the membership offers cannot be reached, instead of showing nothing to join', async () => {
    const GUEST = 'offline.member@example.com';
    const context = await h.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${h.origin}/account?venue=${h.venueId}#memberships`);
    await page.getByLabel('Email').fill(GUEST);
    await page.getByRole('button', { name: 'Email me a code', exact: true }).click();
    await page.getByLabel('Sign-in code').fill(await mailedCode(GUEST));
    // The venue's tiers never answer (the connection drops): the screen must say so.
    await page.route('**/membership-tiers', (route) => route.abort('connectionreset'));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Your memberships', level: 1 }).waitFor();
    await page.getByText('We could not reach the booking service. Check your connection and try again.').waitFor();
    await context.close();
  });
});
