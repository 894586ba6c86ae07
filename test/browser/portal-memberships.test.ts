/**
 * Memberships on the demo account: the page reached from the main navigation, a tier created (price,
 * period, perks, ticket discount), a guest buying it through the simulated checkout (the member counted),
 * the tier edited, then deleted, which archives it because it has a member. The API confirms each step;
 * axe and screenshots at 1280 and 820 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createGuest } from '../helpers/app.js';
import { chromiumPresent, expectAccessible, openSignedIn, screenshot, startPortal, type PortalHarness } from './portal-harness.js';

let h: PortalHarness;
let page: Page;
let problems: string[];

interface Tier {
  id: string;
  name: string;
  price_pence: number;
  period: string;
  perks: string[];
  ticket_discount_pct: number;
  active: boolean;
  archived: boolean;
  member_count: number;
}

async function tiers(): Promise<Tier[]> {
  const res = await h.t.app.inject({ url: '/api/my-operator/membership-tiers', headers: h.staff });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Tier[];
}

describe.skipIf(!chromiumPresent)('memberships', () => {
  beforeAll(async () => {
    h = await startPortal();
    ({ page, problems } = await openSignedIn(h, `/memberships?venue=${h.venueId}`, 'Memberships'));
  }, 60_000);
  afterAll(async () => h?.close());

  it('is reached from the main navigation and starts empty', async () => {
    await expect.poll(() => page.getByRole('link', { name: 'Memberships' }).getAttribute('aria-current')).toBe('page');
    await page.getByText('No tiers yet.').waitFor();
    await expectAccessible(page);
  });

  it('creates a tier', async () => {
    const form = page.getByRole('form', { name: 'New tier' });
    await form.getByLabel('Name').fill('Gold');
    await form.getByLabel('Price (£)').fill('25');
    await form.getByLabel('Every').selectOption('monthly');
    await form.getByLabel('Description').fill('Priority entry and a fifth off tickets');
    await form.getByLabel('Perks (tags, comma-separated)').fill('member, gold');
    await form.getByLabel('Ticket discount (%)').fill('20');
    await form.getByRole('button', { name: 'Create tier' }).click();
    await page.getByRole('status').filter({ hasText: 'Gold created.' }).waitFor();
    expect(await tiers()).toEqual([
      expect.objectContaining({
        name: 'Gold',
        price_pence: 2500,
        period: 'monthly',
        perks: ['member', 'gold'],
        ticket_discount_pct: 20,
        active: true,
      }),
    ]);
    const row = page.getByRole('row', { name: /Gold/ });
    await expect.poll(() => row.textContent()).toContain('£25.00 / month');
    await expectAccessible(page);
    await screenshot(page, 'memberships');
  });

  it('counts a member who bought it through the checkout', async () => {
    const [gold] = await tiers();
    const guest = await createGuest(h.t, 'Maya Member');
    const bought = await h.t.app.inject({
      method: 'POST',
      url: '/api/me/memberships',
      headers: guest.headers,
      payload: { tier_id: gold.id, venue_id: h.venueId },
    });
    expect(bought.statusCode, bought.body).toBe(200);
    const paid = await h.t.app.inject({
      method: 'POST',
      url: new URL(bought.json().checkout_url).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'payment_method=pm_card_visa',
    });
    expect(paid.statusCode).toBe(303);
    await page.reload();
    const row = page.getByRole('row', { name: /Gold/ });
    await row.getByRole('button', { name: 'Delete Gold' }).waitFor();
    await expect.poll(async () => (await row.locator('td').nth(5).textContent())?.trim()).toBe('1');
    await expect.poll(() => row.getByRole('button', { name: 'Delete Gold' }).textContent()).toBe('Archive');
  });

  it('edits the tier', async () => {
    await page.getByRole('button', { name: 'Edit Gold' }).click();
    const form = page.getByRole('form', { name: 'Edit Gold' });
    await form.getByLabel('Price (£)').fill('30');
    await form.getByLabel('Every').selectOption('days');
    await form.getByLabel('Days').fill('90');
    await expectAccessible(page);
    await form.getByRole('button', { name: 'Save tier' }).click();
    await page.getByRole('status').filter({ hasText: 'Gold saved.' }).waitFor();
    expect((await tiers())[0]).toMatchObject({ price_pence: 3000, period: 'days', period_days: 90 });
    await expect.poll(() => page.getByRole('row', { name: /Gold/ }).textContent()).toContain('£30.00 / 90 days');
  });

  it('archives the tier instead of deleting it, as it has a member', async () => {
    await page.getByRole('button', { name: 'Delete Gold' }).click();
    await page.getByRole('status').filter({ hasText: 'it was archived' }).waitFor();
    expect((await tiers())[0]).toMatchObject({ archived: true, active: false, member_count: 1 });
    await expect.poll(() => page.getByRole('row', { name: /Gold/ }).textContent()).toContain('Archived');
    expect(await page.getByRole('button', { name: 'Edit Gold' }).count()).toBe(0);
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });

  it('fits a narrow screen', async () => {
    const narrow = await openSignedIn(h, `/memberships?venue=${h.venueId}`, 'Memberships', { width: 820 });
    await narrow.page.getByRole('row', { name: /Gold/ }).waitFor();
    await expectAccessible(narrow.page);
    await screenshot(narrow.page, 'memberships');
    expect(narrow.problems).toEqual([]);
  });
});
