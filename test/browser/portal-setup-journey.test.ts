/**
 * From nothing to live, in the browser (issue 28's "done when"): a brand-new operator, made as
 * `maitred operator create` makes one, signs into the portal on an empty account (where the set-up pages
 * point to the checklist) and, only through the portal, creates a venue, fills what going live needs, draws a floor with tables, makes a deposit payment
 * policy and a price list in the catalogue, two shifts and an access rule using them, sets the branding,
 * switches the booking widget on and goes live. The copied embed snippet, pasted into a page of another
 * origin, then books a table and pays the deposit with the simulated card. The API confirms each step;
 * every page is axe-checked, and every set-up page photographed at 1280 and 820 px, where the venue
 * switcher is checked to keep the page.
 */
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperatorAccount } from '../../src/modules/team/index.js';
import { bearer, login, type TestApp } from '../helpers/app.js';
import {
  chromiumPresent,
  expectAccessible,
  listenApp,
  openPortal,
  screenshot,
  signIn,
  venueSite,
  type PortalHarness,
} from './portal-harness.js';
import { bookedOn, button, launchChromium, openSiteWidgetTomorrow } from './widget-harness.js';
import { expectAccessible as expectWidgetAccessible, screenshot as widgetScreenshot } from './widget-harness.js';

const EMAIL = 'owner@tidewater.test';
const PASSWORD = 'a long enough password 42';
const VENUE = 'Tidewater';

let t: TestApp;
let h: PortalHarness;
let owner: Record<string, string>;
let venueId: string;
let page: Page;
let problems: string[];
/** The venue's own site on another origin: serves whatever HTML it is given (the pasted snippet). */
let host: Awaited<ReturnType<typeof venueSite>> | undefined;
let hostOrigin: string;
let hostBody = '';

async function get<T>(url: string): Promise<T> {
  const res = await t.app.inject({ url, headers: owner });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}
const venueGet = <T>(url: string) => get<T>(`/api/my-venues/${venueId}${url}`);
const list = async <T>(what: string) => (await venueGet<{ data: T[] }>(`/${what}`)).data;

/** A logo picture: a plain square. */
const logo = () =>
  sharp({ create: { width: 300, height: 300, channels: 3, background: '#1d5c63' } })
    .png()
    .toBuffer();

const setupNav = () => page.getByRole('navigation', { name: 'Set-up' });
async function openSetupPage(link: string, heading: string | RegExp) {
  await setupNav().getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  expect(new URL(page.url()).searchParams.get('venue')).toBe(venueId);
}

async function saveSection(title: string, buttonName: string) {
  const section = page.getByRole('form', { name: title });
  await section.getByRole('button', { name: buttonName }).click();
  await section
    .getByRole('status')
    .filter({ hasText: `${title}: saved.` })
    .waitFor();
}

describe.skipIf(!chromiumPresent)('a new operator sets a venue up from nothing to live, in the portal', () => {
  beforeAll(async () => {
    // The server's public address is its real one, so the embed snippet works from another site.
    const app = await listenApp({ realOrigin: true });
    t = app.t;
    const { origin } = app;
    // What `maitred operator create --operator … --name … --email … --password …` runs.
    await createOperatorAccount(
      t.db,
      { operatorName: 'Tidewater Ltd', userName: 'Tess Tide', email: EMAIL, password: PASSWORD },
      t.clock.now(),
    );
    owner = bearer(await login(t, EMAIL, PASSWORD));
    const browser = await launchChromium();
    h = {
      t,
      browser,
      origin,
      venueId: '',
      operatorId: '',
      staff: owner,
      today: '2026-06-15',
      async close() {
        await browser.close();
        await t.close();
      },
    };
    host = await venueSite({ title: 'Tidewater', heading: 'Tidewater' }, () => hostBody);
    hostOrigin = host.origin;
    ({ page, problems } = await openPortal(h, 1280));
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  }, 60_000);
  afterAll(async () => {
    await host?.close();
    await h?.close();
  });

  it('signs in on an empty account and creates the first venue, in draft', async () => {
    expect((await get<{ data: unknown[] }>('/api/my-venues')).data).toEqual([]);
    await page.goto(`${h.origin}/app/`);
    await signIn(page, EMAIL, PASSWORD);
    await page.getByRole('heading', { name: 'No venues yet', level: 1 }).waitFor();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Set up your first venue' }).click();
    await page.getByRole('heading', { name: 'Set up your first venue', level: 1 }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'journey-first-venue');
    // The other set-up pages, before there is a venue, point back here.
    for (const [link, heading] of [
      ['Availability', 'Availability'],
      ['Floorplan', 'Floor plan'],
      ['Catalogue', 'Catalogue'],
      ['Branding', 'Branding and widgets'],
    ]) {
      await setupNav().getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.getByText('There is no venue to set up yet').waitFor();
      await expectAccessible(page);
    }
    await page.getByRole('link', { name: 'create your first venue on the checklist' }).click();
    await page.getByRole('heading', { name: 'Set up your first venue', level: 1 }).waitFor();

    await page.getByLabel('Venue name').fill(VENUE);
    await page.getByLabel('Address').fill('4 Harbour Walk, Falmouth');
    await page.getByRole('button', { name: 'Create venue' }).click();
    await page.getByRole('heading', { name: `Set up ${VENUE}`, level: 1 }).waitFor();
    const venues = (await get<{ data: { id: string; name: string; status: string }[] }>('/api/my-venues')).data;
    expect(venues.map((v) => [v.name, v.status])).toEqual([[VENUE, 'draft']]);
    venueId = venues[0].id;
    expect(new URL(page.url()).searchParams.get('venue')).toBe(venueId);
    await page.getByRole('region', { name: /Steps/ }).getByText('0 of 8 done').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'journey-checklist-new');
  });

  it('fills in what going live needs on the venue page', async () => {
    await openSetupPage('Venue', `${VENUE}: venue settings`);
    await page.getByRole('form', { name: 'Details' }).getByLabel('Venue type').selectOption('restaurant');
    await saveSection('Details', 'Save details');
    const contact = page.getByRole('form', { name: 'Contact' });
    await contact.getByLabel('Phone number').fill('+44 1326 000000');
    await contact.getByLabel('Email address').fill('hello@tidewater.test');
    await saveSection('Contact', 'Save contact');
    const door = page.getByRole('form', { name: 'Door' });
    await door.getByLabel('Door capacity').fill('60');
    await door.getByLabel('Last entry time').fill('22:00');
    await saveSection('Door', 'Save door');
    const images = page.getByRole('region', { name: 'Images' });
    await images.getByLabel('Choose a logo picture').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await logo() });
    await images.getByRole('img', { name: 'Preview of the cropped logo' }).waitFor();
    await images.getByRole('button', { name: 'Upload logo' }).click();
    await images.getByRole('status').getByText('Logo saved.').waitFor();

    const venue = await venueGet<Record<string, unknown>>('');
    expect(venue).toMatchObject({
      venue_type: 'restaurant',
      phone: '+44 1326 000000',
      email: 'hello@tidewater.test',
      backdoor_capacity: 60,
      last_entry_time: '22:00',
      status: 'draft',
    });
    expect(venue.logo_url).toEqual(expect.stringContaining('/uploads/'));
    expect(await venueGet<{ missing: string[] }>('/readiness')).toMatchObject({ missing: [] });
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectAccessible(page);
    await screenshot(page, 'journey-venue');
  });

  it('draws a floor and three tables in the floorplan editor', async () => {
    await openSetupPage('Floorplan', 'Floor plan');
    await page.getByText('This venue has no floors yet').waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'New floor…' }).click();
    await page.getByRole('dialog').getByLabel('Floor name').fill('Dining room');
    await page.getByRole('button', { name: 'Add floor' }).click();
    await expect
      .poll(() =>
        page.getByRole('navigation', { name: 'Floors' }).getByRole('button', { name: 'Dining room' }).getAttribute('aria-current'),
      )
      .toBe('page');
    const add = page.getByRole('button', { name: 'Add table' });
    for (const number of ['1', '2', '3']) {
      await add.click();
      await page.getByRole('button', { name: new RegExp(`^Table ${number},`) }).waitFor();
    }
    await expect
      .poll(
        () =>
          page
            .getByRole('status')
            .filter({ hasText: /saved|Saving/ })
            .textContent(),
        { timeout: 10_000 },
      )
      .toBe('All changes saved');

    const floors = await list<{ id: string; name: string }>('floors');
    expect(floors.map((f) => f.name)).toEqual(['Dining room']);
    const tables = await list<{ table_number: string; floor_id: string; capacity: number }>('tables');
    expect(tables.map((table) => [table.table_number, table.floor_id, table.capacity])).toEqual([
      ['1', floors[0].id, 4],
      ['2', floors[0].id, 4],
      ['3', floors[0].id, 4],
    ]);
    await expectAccessible(page);
    await screenshot(page, 'journey-floorplan');
  });

  it('makes a deposit payment policy and a price list in the catalogue', async () => {
    await openSetupPage('Catalogue', 'Catalogue');
    await page.getByRole('button', { name: 'New payment policy' }).click();
    const policyForm = page.getByRole('form', { name: 'New payment policy' });
    await policyForm.getByLabel('Name').fill('Dinner deposit');
    await policyForm.getByLabel('When booking').selectOption('deposit');
    await policyForm.getByLabel('Cancelling refunds').selectOption('full');
    await policyForm.getByLabel('Guests may cancel').selectOption('cutoff');
    await policyForm.getByLabel('Cut-off', { exact: true }).fill('24');
    await policyForm.getByLabel('Cut-off unit').selectOption('hours');
    await policyForm.getByRole('button', { name: 'Add payment policy' }).click();
    await policyForm.waitFor({ state: 'detached' });
    await expect
      .poll(() => page.getByRole('list', { name: 'What a guest reads for Dinner deposit' }).textContent())
      .toContain('A deposit is paid when you book');
    expect(await list<Record<string, unknown>>('payment-policies')).toEqual([
      expect.objectContaining({
        name: 'Dinner deposit',
        deposit_type: 'deposit',
        refund_type: 'full',
        cancel_type: 'cutoff',
        cancel_cutoff_value: 24,
        cancel_cutoff_unit: 'hours',
      }),
    ]);

    await page.getByRole('button', { name: 'New price list' }).click();
    const priceForm = page.getByRole('form', { name: 'New price list' });
    await priceForm.getByLabel('Name').fill('Dinner prices');
    await priceForm.getByLabel('Price a guest (£)').fill('10');
    await priceForm.getByRole('button', { name: 'Add price list' }).click();
    await priceForm.waitFor({ state: 'detached' });
    expect(await list<Record<string, unknown>>('pricelists')).toEqual([
      expect.objectContaining({ name: 'Dinner prices', default_price_pence: 1000, table_prices: [] }),
    ]);
    await expectAccessible(page);
    await screenshot(page, 'journey-catalogue');
  });

  it('adds two shifts and an access rule with the deposit policy', async () => {
    await openSetupPage('Availability', 'Availability');
    const week = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
    for (const [name, from, to] of [
      ['Lunch', '12:00', '15:00'],
      ['Dinner', '18:00', '22:00'],
    ]) {
      await page.getByRole('button', { name: 'New shift' }).click();
      const f = page.getByRole('form', { name: 'New shift' });
      await f.getByLabel('Name').fill(name);
      for (const day of week) await f.getByRole('checkbox', { name: day }).check();
      await f.getByLabel('From', { exact: true }).fill(from);
      await f.getByLabel('To', { exact: true }).fill(to);
      await f.getByRole('button', { name: 'Add shift' }).click();
      await f.waitFor({ state: 'detached' });
    }
    const days = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
    const shifts = await list<{ name: string; days_of_week: string[]; time_from: string; time_to: string }>('shifts');
    expect(shifts.map((s) => [s.name, s.days_of_week, s.time_from, s.time_to]).sort()).toEqual([
      ['Dinner', days, '18:00', '22:00'],
      ['Lunch', days, '12:00', '15:00'],
    ]);

    await page.getByRole('button', { name: 'New access rule' }).click();
    const f = page.getByRole('form', { name: 'New access rule' });
    await f.getByLabel('Name').fill('Tables');
    for (const day of week) await f.getByRole('checkbox', { name: day }).check();
    await f.getByLabel('Payment policy').selectOption({ label: 'Dinner deposit' });
    await f.getByLabel('Price list').selectOption({ label: 'Dinner prices' });
    await expect.poll(() => f.textContent()).toContain('you get a full refund');
    await expectAccessible(page);
    await f.getByRole('button', { name: 'Add access rule' }).click();
    await f.waitFor({ state: 'detached' });

    const policy = (await list<{ id: string }>('payment-policies'))[0];
    const pricelist = (await list<{ id: string }>('pricelists'))[0];
    expect(await list<Record<string, unknown>>('access-rules')).toEqual([
      expect.objectContaining({ name: 'Tables', days_of_week: days, payment_policy_id: policy.id, pricelist_id: pricelist.id }),
    ]);
    // In draft the guest's view has no times yet, and says why.
    await page.getByText('The venue is in draft, so guests cannot book it yet').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectAccessible(page);
    await screenshot(page, 'journey-availability');
  });

  it('sets the branding and switches the booking widget on', async () => {
    await openSetupPage('Branding', /^Branding and widgets/);
    await page.getByLabel(/^Accent/).fill('#1d5c63');
    await page.getByRole('radiogroup', { name: 'Font' }).getByText('Serif', { exact: true }).click();
    await page.getByRole('button', { name: 'Save look' }).click();
    await page.getByText('Saved: the widgets show the new look now.').waitFor();
    expect(await venueGet<Record<string, unknown>>('/branding')).toMatchObject({ accent_color: '#1d5c63', font_key: 'serif' });

    const bookings = page.getByRole('switch', { name: 'Bookings widget' });
    if (!(await bookings.isChecked())) {
      await page.getByText('Bookings widget', { exact: true }).click();
      await page.getByText('Bookings widget switched on.').waitFor();
    }
    expect(await bookings.isChecked()).toBe(true);
    const settings = await venueGet<{ data: Record<string, { enabled: boolean }> }>('/widget-settings');
    expect(settings.data.bookings.enabled).toBe(true);
    // In draft the widget is closed to guests, and the preview says so rather than show the closed page.
    await page.getByText('The venue is in draft, so its widgets show guests a closed page.').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectAccessible(page);
    await screenshot(page, 'journey-branding');
  });

  it('sees every step but payouts done on the checklist, and goes live', async () => {
    await openSetupPage('Checklist', `Set up ${VENUE}`);
    const steps = page.getByRole('region', { name: /Steps/ });
    await steps.getByText('7 of 8 done').waitFor();
    await steps.getByRole('listitem').filter({ hasText: 'Payouts' }).getByText('Not done').waitFor();
    // Each step links to the screen that does it.
    const links = Object.fromEntries(
      await Promise.all(
        (await steps.getByRole('link').all()).map(async (link) => [
          await link.textContent(),
          new URL((await link.getAttribute('href'))!, h.origin).pathname,
        ]),
      ),
    );
    expect(links).toEqual({
      Details: '/app/setup/venue',
      'Opening times': '/app/setup/availability',
      Tables: '/app/setup/floorplan',
      'Booking rules': '/app/setup/availability',
      'Payment policy': '/app/setup/catalogue',
      Branding: '/app/setup/branding',
      Widget: '/app/setup/branding',
      Payouts: '/app/setup/payouts',
    });
    const going = page.getByRole('region', { name: 'Going live' });
    await going.getByRole('button', { name: 'Go live' }).click();
    await going.getByRole('status').getByText('The venue is live: guests can book it.').waitFor();
    expect((await venueGet<{ status: string }>('')).status).toBe('live');
    await expectAccessible(page);
    await screenshot(page, 'journey-checklist-live');

    // Live, the guest's view on the availability page has the dinner times.
    await openSetupPage('Availability', 'Availability');
    await page.getByLabel('Date', { exact: true }).fill('2026-06-16');
    await expect
      .poll(() => page.getByRole('list', { name: 'Times for Tables' }).getByRole('listitem').allTextContents())
      .toEqual(expect.arrayContaining(['12:00', '19:00']));
    await expectAccessible(page);

    await openSetupPage('Payouts', 'Payouts');
    await page.getByRole('button', { name: 'Start payout onboarding' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'journey-payouts');
  });

  it('copies the embed snippet; on another site a guest books a table and pays the deposit', async () => {
    await openSetupPage('Branding', /^Branding and widgets/);
    // Live, the preview shows the widget in the saved look.
    await page
      .frameLocator('iframe[title="Preview of the bookings widget"]')
      .getByRole('status')
      .filter({ hasText: /times available/ })
      .waitFor();
    await page.getByRole('button', { name: 'Copy script embed' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const settings = await venueGet<{ data: Record<string, { embed: { loader: string } }> }>('/widget-settings');
    expect(copied).toBe(settings.data.bookings.embed.loader);
    expect(copied).toContain(`${h.origin}/widget/loader.js`);
    hostBody = copied;

    const { context, page: site, frame, problems: siteProblems } = await openSiteWidgetTomorrow(h.browser, hostOrigin);
    await button(frame, /^19:00/)
      .first()
      .click();
    const terms = frame.getByRole('region', { name: 'Deposit and cancellation' });
    await terms.getByText('A deposit of £20 (£10 a guest × 2) is paid when you book').waitFor();
    await frame.getByLabel('Name').fill('Gwen Guest');
    await frame.getByLabel('Email').fill('gwen@example.com');
    await expectWidgetAccessible(site);
    await button(frame, 'Book').click();
    await frame.getByRole('heading', { name: 'Pay the deposit', level: 1 }).waitFor();
    await expectWidgetAccessible(site);
    await widgetScreenshot(site, 'setup-journey-pay');
    await frame.getByLabel(/succeeds/).check();
    await button(frame, 'Pay £20').click();
    await frame.getByRole('heading', { name: 'Booking confirmed', level: 1 }).waitFor();
    await widgetScreenshot(site, 'setup-journey-confirmed');

    const booked = await bookedOn(site);
    expect(booked).toHaveLength(1);
    const saved = await get<Record<string, unknown>>(`/api/bookings/${booked[0].booking_id}`);
    expect(saved).toMatchObject({
      venue_id: venueId,
      status: 'confirmed',
      source: 'widget',
      guest_name: 'Gwen Guest',
      guest_count: 2,
      booking_date: '2026-06-16',
      start_time: '19:00',
      deposit_type: 'deposit',
      deposit_pence: 2000,
      payment_status: 'paid',
    });
    expect((saved.table_ids as string[]).length).toBe(1);
    // Payouts are not set up yet: the deposit is held for the operator, less the platform's 5 %.
    expect(await get<{ owed_pence: number }>('/api/my-operator/payout/balance')).toMatchObject({ owed_pence: 1900 });
    expect(siteProblems).toEqual([]);
    await context.close();
    expect(problems).toEqual([]);
  });

  it('lays every set-up page out at 820 px; the venue switcher keeps the page', async () => {
    const narrow = await openPortal(h, 820);
    page = narrow.page;
    await page.goto(`${h.origin}/app/setup?venue=${venueId}`);
    await signIn(page, EMAIL, PASSWORD);
    await page.getByRole('heading', { name: `Set up ${VENUE}`, level: 1 }).waitFor();
    // A second venue, for the switcher.
    await page.getByRole('button', { name: 'New venue' }).click();
    await page.getByLabel('Venue name').fill('Tidewater Bar');
    await page.getByLabel('Address').fill('5 Harbour Walk, Falmouth');
    await page.getByRole('button', { name: 'Create venue' }).click();
    await page.getByRole('heading', { name: 'Set up Tidewater Bar', level: 1 }).waitFor();
    const second = (await get<{ data: { id: string; name: string }[] }>('/api/my-venues')).data.find((v) => v.name === 'Tidewater Bar')!.id;
    const switchTo = async (name: string) => {
      await page
        .getByRole('banner')
        .getByRole('button', { name: /Tidewater/ })
        .click();
      await page.getByRole('listbox', { name: 'Venue' }).getByRole('option', { name, exact: true }).click();
    };
    await switchTo(VENUE);
    await page.getByRole('heading', { name: `Set up ${VENUE}`, level: 1 }).waitFor();

    for (const [link, path, heading, ready, shot] of [
      ['Checklist', '/setup', `Set up ${VENUE}`, '7 of 8 done', 'checklist-live'],
      ['Venue', '/setup/venue', `${VENUE}: venue settings`, 'Save details', 'venue'],
      ['Availability', '/setup/availability', 'Availability', 'New access rule', 'availability'],
      ['Floorplan', '/setup/floorplan', 'Floor plan', 'Add table', 'floorplan'],
      ['Catalogue', '/setup/catalogue', 'Catalogue', 'New price list', 'catalogue'],
      ['Branding', '/setup/branding', /^Branding and widgets/, 'Save look', 'branding'],
      ['Payouts', '/setup/payouts', 'Payouts', 'Start payout onboarding', 'payouts'],
    ] as const) {
      await setupNav().getByRole('link', { name: link, exact: true }).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page
        .getByText(ready)
        .or(page.getByRole('button', { name: ready }))
        .first()
        .waitFor();
      expect(await setupNav().getByRole('link', { name: link, exact: true }).getAttribute('aria-current')).toBe('page');
      await page.evaluate(() => window.scrollTo(0, 0));
      await expectAccessible(page);
      await screenshot(page, `journey-${shot}`);

      await switchTo('Tidewater Bar');
      await expect.poll(() => new URL(page.url()).searchParams.get('venue')).toBe(second);
      expect(new URL(page.url()).pathname).toBe(`/app${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await switchTo(VENUE);
      await expect.poll(() => new URL(page.url()).searchParams.get('venue')).toBe(venueId);
      expect(new URL(page.url()).pathname).toBe(`/app${path}`);
    }
    expect(narrow.problems).toEqual([]);
    await page.context().close();
  });
});
