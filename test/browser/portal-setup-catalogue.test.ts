/**
 * The rest of the catalogue on the demo venue: a table's own price on a price list, an item added to a
 * bundle, a promo code refused as a duplicate (the API's words shown, the form kept) then saved, a
 * reservation tag, an admission rule, a table profile with a payment policy, and a second venue's
 * payment policies copied from the demo venue. The API confirms each step; axe and screenshots at 1280 and 820 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { insertVenue } from '../helpers/app.js';
import {
  chromiumPresent,
  expectAccessible,
  openPortal,
  openSignedIn,
  screenshot,
  signIn,
  startPortal,
  tableId,
  type PortalHarness,
} from './portal-harness.js';

let h: PortalHarness;
let page: Page;
let problems: string[];

async function get<T>(path: string, venueId = h.venueId): Promise<T> {
  const res = await h.t.app.inject({ url: `/api/my-venues/${venueId}/${path}`, headers: h.staff });
  expect(res.statusCode).toBe(200);
  return res.json() as T;
}

const form = (name: string) => page.getByRole('form', { name });

describe.skipIf(!chromiumPresent)('setup: the catalogue', () => {
  beforeAll(async () => {
    h = await startPortal();
    ({ page, problems } = await openSignedIn(h, `/setup/catalogue?venue=${h.venueId}`, 'Catalogue'));
  }, 60_000);
  afterAll(async () => h?.close());

  it('sets a table’s own price on a price list, and clears another', async () => {
    await page.getByRole('button', { name: 'Table prices of Standard deposits' }).click();
    await page.getByLabel('Table 1 (£)').fill('15');
    await page.getByRole('button', { name: 'Save table 1 price' }).click();
    await page.getByLabel('Table 11 (£)').fill('');
    await page.getByRole('button', { name: 'Save table 11 price' }).click();
    const [one, eleven] = [await tableId(h, '1'), await tableId(h, '11')];
    await expect
      .poll(async () => {
        const lists = (await get<{ data: { name: string; table_prices: { table_id: string; price_pence: number }[] }[] }>('pricelists'))
          .data;
        return lists.find((l) => l.name === 'Standard deposits')!.table_prices;
      })
      .toEqual(expect.arrayContaining([{ table_id: one, table_number: '1', price_pence: 1500 }]));
    const lists = (await get<{ data: { name: string; table_prices: { table_id: string }[] }[] }>('pricelists')).data;
    expect(lists.find((l) => l.name === 'Standard deposits')!.table_prices.some((t) => t.table_id === eleven)).toBe(false);
    await expect.poll(() => page.getByText('table 1 £15').count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'setup-prices');
    await page.getByRole('button', { name: 'Done' }).click();
  });

  it('adds an item to a bundle', async () => {
    await page.getByRole('button', { name: 'Add an item to Celebration' }).click();
    const f = form('New item of Celebration');
    await f.getByLabel('Item').fill('Flowers');
    await f.getByLabel('Price (£)').fill('12.50');
    await f.getByLabel('Most per booking').fill('2');
    await f.getByRole('button', { name: 'Add item' }).click();
    await f.waitFor({ state: 'detached' });
    const bundles = (await get<{ data: { name: string; items: { name: string; price: number; max_qty: number | null }[] }[] }>('bundles'))
      .data;
    expect(bundles.find((b) => b.name === 'Celebration')!.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Flowers', price: 1250, max_qty: 2 })]),
    );
  });

  it('shows a duplicate promo code’s refusal, keeps the form, then saves another code', async () => {
    await page.getByRole('button', { name: 'New promo code' }).click();
    const f = form('New promo code');
    await f.getByLabel('Name').fill('Summer');
    await f.getByLabel('Code').fill('welcome10');
    await f.getByLabel('Discount (%)').fill('5');
    await f.getByRole('button', { name: 'Add promo code' }).click();
    await expect.poll(() => f.getByRole('alert').textContent()).toMatch(/code/i);
    expect(await f.getByLabel('Name').inputValue()).toBe('Summer');
    await f.getByLabel('Code').fill('summer5');
    await f.getByRole('button', { name: 'Add promo code' }).click();
    await f.waitFor({ state: 'detached' });
    const codes = (await get<{ data: { code: string; name: string; discount_pct: number }[] }>('promo-codes')).data;
    expect(codes.find((c) => c.code === 'SUMMER5')).toMatchObject({ name: 'Summer', discount_pct: 5 });
  });

  it('adds a reservation tag', async () => {
    await page.getByRole('button', { name: 'New reservation tag' }).click();
    const f = form('New reservation tag');
    const category = await f.getByLabel('Category').inputValue();
    await f.getByLabel('Tag').fill('Window seat');
    await f.getByRole('button', { name: 'Add tag' }).click();
    await f.waitFor({ state: 'detached' });
    const catalogue = (await get<{ data: { name: string; tags: { label: string }[] }[] }>('tag-catalogue?kind=reservation')).data;
    expect(catalogue.find((c) => c.name === category)!.tags.map((t) => t.label)).toContain('Window seat');
    await page.getByRole('button', { name: 'Remove tag Window seat' }).waitFor();
  });

  it('adds an admission rule and a table profile with a payment policy', async () => {
    await page.getByRole('button', { name: 'Add a rule to Regulars' }).click();
    let f = form('New rule of Regulars');
    await f.getByLabel('Rule name').fill('Ten visits: 10% off');
    await f.getByRole('checkbox', { name: 'Past bookings' }).check();
    await f.getByLabel('Bookings at least').fill('10');
    await f.getByRole('checkbox', { name: 'Discount' }).check();
    await f.getByLabel('Discount (%)').fill('10');
    await f.getByRole('button', { name: 'Add rule' }).click();
    await f.waitFor({ state: 'detached' });
    const groups = (await get<{ data: { name: string; rules: Record<string, unknown>[] }[] }>('admission-groups')).data;
    expect(groups.find((g) => g.name === 'Regulars')!.rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'Ten visits: 10% off', cond_bookings_enabled: true, cond_bookings_min: 10, act_discount_pct: 10 }),
      ]),
    );

    await page.getByRole('button', { name: 'New table profile' }).click();
    f = form('New table profile');
    await f.getByLabel('Name').fill('Breakfast tables');
    await f.getByLabel('Payment policy').selectOption({ label: 'Card hold for large groups' });
    await f.getByRole('button', { name: 'Add profile' }).click();
    await f.waitFor({ state: 'detached' });
    const policies = (await get<{ data: { id: string; name: string }[] }>('payment-policies')).data;
    const profiles = (await get<{ data: { name: string; payment_policy_id: string | null }[] }>('table-profiles')).data;
    expect(profiles.find((p) => p.name === 'Breakfast tables')?.payment_policy_id).toBe(
      policies.find((p) => p.name === 'Card hold for large groups')!.id,
    );
    await expectAccessible(page);
    await screenshot(page, 'setup-catalogue-edited');
  });

  it('copies the payment policies into another venue, asking first', async () => {
    const annexe = await insertVenue(h.t, h.operatorId, { name: 'The Annexe', timezone: 'Europe/London' });
    await page.goto(`${h.origin}/app/setup/catalogue?venue=${annexe}`);
    await page.getByRole('heading', { name: 'Copy from another venue' }).waitFor();
    const f = form('Copy from another venue');
    await f.getByLabel('From venue').selectOption({ label: 'The Night Owl' });
    await f.getByLabel('What').selectOption('payment-policies');
    await f.getByRole('button', { name: 'Copy' }).click();
    await f.getByRole('button', { name: 'Yes, replace this venue’s Payment policies' }).click();
    await page.getByText('Copied 2 items of Payment policies from The Night Owl.').waitFor();
    const copied = (await get<{ data: { name: string }[] }>('payment-policies', annexe)).data.map((p) => p.name).sort();
    expect(copied).toEqual(['Card hold for large groups', 'Deposit, refundable to 24 h']);
    await page.getByRole('list', { name: 'What a guest reads for Card hold for large groups' }).waitFor();
  });

  it('at 820 px', async () => {
    const narrow = await openPortal(h, 820);
    await narrow.page.goto(`${h.origin}/app/setup/catalogue?venue=${h.venueId}#extras`);
    await signIn(narrow.page);
    await narrow.page.getByRole('heading', { name: 'Bundles' }).waitFor();
    await narrow.page.getByRole('heading', { name: 'Bundles' }).scrollIntoViewIfNeeded();
    await expectAccessible(narrow.page);
    await screenshot(narrow.page, 'setup-catalogue-extras');
    expect(narrow.problems).toEqual([]);
    await narrow.page.context().close();
  });

  it('had no console errors or failed requests', () => {
    expect(problems).toEqual([]);
  });
});
