/**
 * Setting up a venue in the portal, as a brand-new operator: the first venue created from the checklist
 * (in draft), go-live refused with what is missing named and linked, the venue's settings filled in section
 * by section (a logo cropped in the browser), sister venues, the checklist following, go-live accepted, and
 * payout onboarding started. The API confirms each step; screenshots at 1280 and 820.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createOperatorAccount } from '../../src/modules/team/index.js';
import { bearer, login } from '../helpers/app.js';
import {
  chromiumPresent,
  expectAccessible,
  openPortal,
  openSignedIn,
  screenshot,
  signIn,
  startPortal,
  type PortalHarness,
} from './portal-harness.js';

const EMAIL = 'new-owner@harbour.test';
const PASSWORD = 'a long enough password 42';

let h: PortalHarness;
let page: Page;
let problems: string[];
let owner: Record<string, string>;
let venueId: string;

const venue = async () =>
  (await h.t.app.inject({ url: `/api/my-venues/${venueId}`, headers: owner })).json() as Record<string, unknown> & {
    status: string;
  };

/** A picture wider than the logo's square, so the crop matters: a red left half and a blue right half. */
async function picture(): Promise<Buffer> {
  const half = (colour: string) =>
    sharp({ create: { width: 400, height: 500, channels: 3, background: colour } })
      .png()
      .toBuffer();
  return sharp({ create: { width: 800, height: 500, channels: 3, background: '#ffffff' } })
    .composite([
      { input: await half('#cc2222'), left: 0, top: 0 },
      { input: await half('#2244cc'), left: 400, top: 0 },
    ])
    .png()
    .toBuffer();
}

async function saveSection(title: string, button: string) {
  const section = page.getByRole('form', { name: title });
  await section.getByRole('button', { name: button }).click();
  await section
    .getByRole('status')
    .filter({ hasText: `${title}: saved.` })
    .waitFor();
}

describe.skipIf(!chromiumPresent)('setting up a venue', () => {
  beforeAll(async () => {
    h = await startPortal();
    await createOperatorAccount(
      h.t.db,
      { operatorName: 'Harbour Group', userName: 'Hana Harbour', email: EMAIL, password: PASSWORD },
      h.t.clock.now(),
    );
    owner = bearer(await login(h.t, EMAIL, PASSWORD));
    ({ page, problems } = await openPortal(h, 1280));
  }, 60_000);
  afterAll(async () => h?.close());

  it('creates the first venue from the checklist, in draft', async () => {
    await page.goto(`${h.origin}/app/floor`);
    await signIn(page, EMAIL, PASSWORD);
    await page.getByRole('heading', { name: 'No venues yet' }).waitFor();
    await page.getByRole('link', { name: 'Set up your first venue' }).click();
    await page.getByRole('heading', { name: 'Set up your first venue', level: 1 }).waitFor();
    await expectAccessible(page);

    await page.getByLabel('Venue name').fill('Harbour Kitchen');
    await page.getByLabel('Address').fill('1 Quay Street, Bristol');
    await page.getByRole('button', { name: 'Create venue' }).click();
    await page.getByRole('heading', { name: 'Set up Harbour Kitchen', level: 1 }).waitFor();

    const list = (await h.t.app.inject({ url: '/api/my-venues', headers: owner })).json() as { data: { id: string; name: string }[] };
    expect(list.data.map((v) => v.name)).toEqual(['Harbour Kitchen']);
    venueId = list.data[0].id;
    expect(new URL(page.url()).searchParams.get('venue')).toBe(venueId);
    expect((await venue()).status).toBe('draft');
    // The main navigation offers set-up to whoever may change venue settings.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Setup' }).waitFor();
  });

  it('shows the checklist and refuses go-live naming what is missing', async () => {
    const steps = page.getByRole('region', { name: /Steps/ });
    await steps.getByText('0 of 8 done').waitFor();
    await expect.poll(() => steps.getByText('Not done').count()).toBe(8);

    const going = page.getByRole('region', { name: 'Going live' });
    const needs = going.getByRole('list', { name: 'Going live still needs:' });
    await needs.getByRole('link', { name: 'Logo' }).waitFor();
    expect(await needs.getByRole('listitem').allTextContents()).toEqual([
      'Venue type',
      'Phone number',
      'Email address',
      'Door capacity',
      'Last entry time',
      'Logo',
    ]);

    await going.getByRole('button', { name: 'Go live' }).click();
    const refusal = going.getByRole('alert');
    await refusal.getByText('Going live was refused').waitFor();
    expect(await refusal.getByRole('link').allTextContents()).toEqual([
      'Venue type',
      'Phone number',
      'Email address',
      'Door capacity',
      'Last entry time',
      'Logo',
    ]);
    expect((await venue()).status).toBe('draft');
    await expectAccessible(page);
    await screenshot(page, 'setup-checklist-refused');
  });

  it('fills the venue’s details and settings, section by section', async () => {
    // A missing item links to where it is set.
    await page.getByRole('region', { name: 'Going live' }).getByRole('alert').getByRole('link', { name: 'Phone number' }).click();
    await page.getByRole('heading', { name: 'Harbour Kitchen: venue settings', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/setup/venue');
    expect(new URL(page.url()).hash).toBe('#contact');
    const contactTop = () => page.getByRole('form', { name: 'Contact' }).evaluate((el) => el.getBoundingClientRect().top);
    // Scrolled to the contact section, clear of the sticky top bar.
    await expect.poll(contactTop).toBeLessThan(120);
    expect(await contactTop()).toBeGreaterThan(40);

    const details = page.getByRole('form', { name: 'Details' });
    await details.getByLabel('Venue type').selectOption('restaurant');
    await details.getByLabel('Food served').fill('Seafood, small plates');
    await details.getByLabel('Description').fill('Fish straight off the boats.');
    await saveSection('Details', 'Save details');
    expect(await venue()).toMatchObject({
      venue_type: 'restaurant',
      food_types: ['Seafood', 'small plates'],
      description: 'Fish straight off the boats.',
    });

    const address = page.getByRole('form', { name: 'Address and time zone' });
    await address.getByLabel('Time zone').selectOption('Europe/Dublin');
    await saveSection('Address and time zone', 'Save address and time zone');
    expect((await venue()).timezone).toBe('Europe/Dublin');

    const contact = page.getByRole('form', { name: 'Contact' });
    await contact.getByLabel('Phone number').fill('+44 117 496 0000');
    await contact.getByLabel('Email address').fill('not an email');
    await contact.getByRole('button', { name: 'Save contact' }).click();
    // The browser's own check, or the server's: either way nothing is saved and what was typed stays.
    await expect.poll(async () => (await venue()).phone).toBeNull();
    await contact.getByLabel('Email address').fill('hello@harbour.test');
    await saveSection('Contact', 'Save contact');
    expect(await venue()).toMatchObject({ phone: '+44 117 496 0000', email: 'hello@harbour.test' });

    const door = page.getByRole('form', { name: 'Door' });
    await door.getByLabel('Door capacity').fill('120');
    await door.getByLabel('Last entry time').fill('23:30');
    await saveSection('Door', 'Save door');
    expect(await venue()).toMatchObject({ backdoor_capacity: 120, last_entry_time: '23:30' });

    const bookings = page.getByRole('form', { name: 'Bookings' });
    await bookings.getByLabel('How far ahead').fill('60');
    await bookings
      .getByRole('group', { name: /Bookings open/ })
      .getByLabel('Unit')
      .selectOption('days');
    await bookings.getByLabel('Cut-off').fill('2');
    await bookings
      .getByRole('group', { name: /Bookings close/ })
      .getByLabel('Unit')
      .selectOption('hours');
    await bookings.getByLabel('Largest party').fill('8');
    await saveSection('Bookings', 'Save bookings');
    expect(await venue()).toMatchObject({
      booking_start_value: 60,
      booking_start_unit: 'days',
      booking_cutoff_value: 2,
      booking_cutoff_unit: 'hours',
      default_party_max: 8,
    });

    // A refusal from the server is shown in words and the form keeps what was typed.
    await bookings.getByLabel('Smallest party').fill('12');
    await bookings.getByRole('button', { name: 'Save bookings' }).click();
    await bookings.getByRole('alert').getByText('default_party_min cannot exceed default_party_max').waitFor();
    expect(await bookings.getByLabel('Smallest party').inputValue()).toBe('12');
    await bookings.getByLabel('Smallest party').fill('2');
    await saveSection('Bookings', 'Save bookings');
    expect((await venue()).default_party_min).toBe(2);

    const guestList = page.getByRole('form', { name: 'Guest list' });
    await guestList.getByText('Free guest list').click();
    await guestList.getByLabel('Queue skip price').fill('5.50');
    await saveSection('Guest list', 'Save guest list');
    expect(await venue()).toMatchObject({ guest_list_enabled: true, queue_skip_price: 550 });

    const smart = page.getByRole('form', { name: 'Smart durations' });
    await smart.getByText('Longer stays for larger parties').click();
    await saveSection('Smart durations', 'Save smart durations');
    const tables = await h.t.app.inject({ url: `/api/my-venues/${venueId}/smart-tables`, headers: owner });
    expect(tables.json()).toMatchObject({ duration_enabled: true });
  });

  it('crops a logo in the browser and uploads it', async () => {
    const images = page.getByRole('region', { name: 'Images' });
    await images.getByText('No logo yet').waitFor();
    await images.getByLabel('Choose a logo picture').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: await picture() });
    await images.getByRole('img', { name: 'Preview of the cropped logo' }).waitFor();
    await images.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await expectAccessible(page);
    await screenshot(page, 'setup-venue-crop');
    // Zoom in and slide the square crop into the right-hand (blue) half of the wide picture.
    await images.getByLabel('Zoom').fill('1.25');
    await images.getByLabel('Left to right').fill('1');
    await images.getByRole('button', { name: 'Upload logo' }).click();
    await images.getByRole('status').getByText('Logo saved.').waitFor();

    const logoUrl = (await venue()).logo_url as string;
    const stored = await h.t.app.inject({ url: new URL(logoUrl, h.origin).pathname });
    const { data, info } = await sharp(stored.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([400, 400]);
    // Cropped, not squashed: the whole square is the blue half.
    for (const [x, y] of [
      [10, 10],
      [200, 200],
      [390, 390],
    ]) {
      const at = (y * info.width + x) * info.channels;
      const distance = Math.max(Math.abs(data[at] - 0x22), Math.abs(data[at + 1] - 0x44), Math.abs(data[at + 2] - 0xcc));
      expect(distance).toBeLessThanOrEqual(3);
    }
    await images.getByRole('img', { name: 'Current logo' }).waitFor();

    // The cover image is cropped to 16:9 and sent as a JPEG.
    await images
      .getByLabel('Choose a cover image picture')
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: await picture() });
    await images.getByRole('button', { name: 'Upload cover image' }).click();
    await images.getByRole('status').getByText('Cover image saved.').waitFor();
    const cover = await h.t.app.inject({ url: new URL((await venue()).cover_image_url as string, h.origin).pathname });
    const coverInfo = await sharp(cover.rawPayload).metadata();
    expect([coverInfo.format, coverInfo.width, coverInfo.height]).toEqual(['jpeg', 1600, 900]);
    await images.getByRole('img', { name: 'Current cover image' }).waitFor();
    await images.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'setup-venue-images');
  });

  it('links a sister venue', async () => {
    const second = await h.t.app.inject({
      method: 'POST',
      url: '/api/my-venues',
      headers: owner,
      payload: { name: 'Harbour Bar', address: '2 Quay Street, Bristol' },
    });
    const secondId = (second.json() as { id: string }).id;
    await page.reload();
    const sisters = page.getByRole('region', { name: 'Sister venues' });
    await sisters.getByText('No sister venues yet.').waitFor();
    await sisters.getByLabel('Link another venue').selectOption(secondId);
    await sisters.getByRole('button', { name: 'Link', exact: true }).click();
    await sisters.getByRole('status').getByText('Linked Harbour Bar.').waitFor();
    const linked = await h.t.app.inject({ url: `/api/my-venues/${venueId}/sisters`, headers: owner });
    expect((linked.json() as { data: { id: string }[] }).data.map((s) => s.id)).toEqual([secondId]);
    await sisters.getByRole('button', { name: 'Unlink Harbour Bar' }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectAccessible(page);
    await screenshot(page, 'setup-venue');
  });

  it('sees the checklist follow, and goes live', async () => {
    await page.getByRole('navigation', { name: 'Set-up' }).getByRole('link', { name: 'Checklist' }).click();
    const steps = page.getByRole('region', { name: /Steps/ });
    await steps.getByText('1 of 8 done').waitFor();
    const details = steps.getByRole('listitem').filter({ hasText: 'Details' });
    await details.getByText(/Done$/).waitFor();

    const going = page.getByRole('region', { name: 'Going live' });
    await going.getByText(/Everything going live needs is set\. 7 set-up steps are not done yet/).waitFor();
    await going.getByRole('button', { name: 'Go live' }).click();
    await going.getByRole('status').getByText('The venue is live: guests can book it.').waitFor();
    expect((await venue()).status).toBe('live');
    await going.getByRole('button', { name: 'Back to draft' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'setup-checklist-live');
  });

  it('starts payout onboarding and shows the balances', async () => {
    await page.getByRole('navigation', { name: 'Set-up' }).getByRole('link', { name: 'Payouts' }).click();
    await page.getByRole('heading', { name: 'Payouts', level: 1 }).waitFor();
    const onboarding = page.getByRole('region', { name: 'Onboarding' });
    await onboarding.getByText('Not started', { exact: true }).waitFor();
    // A deposit taken before onboarding is held for the operator, less the platform fee (5 %).
    const intent = await h.t.ctx.payments.createIntent({
      operatorId: (await h.t.db.kysely.selectFrom('venues').select('operator_id').where('id', '=', venueId).executeTakeFirstOrThrow())
        .operator_id,
      venueId,
      amountPence: 4_000,
      metadata: { kind: 'test' },
    });
    await h.t.ctx.payments.confirmSimulated(intent.id, 'pm_card_visa');
    await onboarding.getByRole('button', { name: 'Refresh status' }).click();
    const balances = page.getByRole('region', { name: 'Balances' });
    const owed = balances.getByText('Owed to you').locator('xpath=following-sibling::dd[1]');
    await expect.poll(() => owed.textContent()).toBe('£38.00');

    await onboarding.getByRole('button', { name: 'Start payout onboarding' }).click();
    const link = onboarding.getByRole('link', { name: 'Open the provider’s onboarding (new tab)' });
    await link.waitFor();
    const url = new URL((await link.getAttribute('href'))!);
    expect(url.pathname).toMatch(/^\/simulated\/onboarding\/[A-Za-z0-9_-]+$/);
    await onboarding.getByText('Started, not finished').waitFor();

    // The operator finishes on the provider's page (here its form, posted directly), then refreshes.
    const done = await h.t.app.inject({
      method: 'POST',
      url: url.pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'outcome=verified',
    });
    expect(done.statusCode).toBe(303);
    await onboarding.getByRole('button', { name: 'Refresh status' }).click();
    await onboarding.getByText('Payouts on').waitFor();
    const status = await h.t.app.inject({ url: '/api/my-operator/payout/status', headers: owner });
    expect(status.json()).toMatchObject({ status: 'enabled', payouts_enabled: true });
    // What was owed is transferred once payouts are on.
    await expect.poll(() => owed.textContent()).toBe('£0.00');
    await balances.getByText('£38.00').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'setup-payouts');
    expect(problems).toEqual([]);
  });

  it('lays the set-up pages out at 820 px', async () => {
    const narrow = await openSignedIn(h, `/setup?venue=${venueId}`, 'Set up Harbour Kitchen', {
      width: 820,
      user: { email: EMAIL, password: PASSWORD },
    });
    await narrow.page.getByText('2 of 8 done').waitFor();
    await expectAccessible(narrow.page);
    await screenshot(narrow.page, 'setup-checklist-live');
    for (const [path, heading] of [
      ['/setup/venue', 'Harbour Kitchen: venue settings'],
      ['/setup/payouts', 'Payouts'],
    ]) {
      await narrow.page
        .getByRole('navigation', { name: 'Set-up' })
        .getByRole('link', { name: path === '/setup/venue' ? 'Venue' : 'Payouts' })
        .click();
      await narrow.page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await narrow.page
        .getByRole('button', { name: /^Save|Refresh status/ })
        .first()
        .waitFor();
      await expectAccessible(narrow.page);
      await screenshot(narrow.page, path === '/setup/venue' ? 'setup-venue' : 'setup-payouts');
    }
    // The venue switcher keeps the set-up page and changes the venue.
    await narrow.page.getByRole('button', { name: /Harbour Kitchen/ }).click();
    await narrow.page.getByRole('option', { name: 'Harbour Bar' }).click();
    await expect.poll(() => new URL(narrow.page.url()).searchParams.get('venue')).not.toBe(venueId);
    expect(new URL(narrow.page.url()).pathname).toBe('/app/setup/payouts');
    await narrow.page.getByRole('navigation', { name: 'Set-up' }).getByRole('link', { name: 'Checklist' }).click();
    await narrow.page.getByRole('heading', { name: 'Set up Harbour Bar', level: 1 }).waitFor();
    expect(new URL(narrow.page.url()).searchParams.get('venue')).not.toBe(venueId);
    expect(narrow.problems).toEqual([]);
    await narrow.page.context().close();
  });
});
