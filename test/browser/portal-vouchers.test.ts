/**
 * Vouchers on the demo venue: a paid voucher issued with the simulated test card, looked up by its
 * grouped code typed in lower case, part of it redeemed (the balance shown), the rest refunded to the
 * card; the settings changed; the list over the venue and its sister venues. The API confirms each step;
 * axe and screenshots at 1280 and 820 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumPresent, expectAccessible, openSignedIn, screenshot, startPortal, type PortalHarness } from './portal-harness.js';

let h: PortalHarness;
let page: Page;
let problems: string[];

interface Voucher {
  id: string;
  code: string;
  display_code: string;
  amount_pence: number;
  remaining_pence: number;
  status: string;
  mode: string;
  refunded_pence: number;
  recipient_name: string | null;
}

async function get<T>(path: string): Promise<T> {
  const res = await h.t.app.inject({ url: `/api/my-venues/${h.venueId}/${path}`, headers: h.staff });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}
const vouchers = async () => (await get<{ data: Voucher[] }>('vouchers?limit=200')).data;

describe.skipIf(!chromiumPresent)('vouchers', () => {
  let issued: Voucher;

  beforeAll(async () => {
    h = await startPortal();
    ({ page, problems } = await openSignedIn(h, `/vouchers?venue=${h.venueId}`, 'Vouchers'));
  }, 60_000);
  afterAll(async () => h?.close());

  it('lists the demo vouchers and is reached from the main navigation', async () => {
    await expect.poll(() => page.getByRole('link', { name: 'Vouchers' }).getAttribute('aria-current')).toBe('page');
    await expect.poll(() => page.getByRole('button', { name: /^Open voucher / }).count()).toBe((await vouchers()).length);
    await expectAccessible(page);
    await screenshot(page, 'vouchers');
  });

  it('issues a paid voucher with the test card', async () => {
    const before = (await vouchers()).length;
    const issue = page.getByRole('region', { name: 'Issue a voucher' });
    await issue.getByLabel('Paid by card').check();
    await issue.getByLabel('Amount (£)').fill('60');
    await issue.getByLabel('Recipient’s name (optional)').fill('Grace Hopper');
    await issue.getByRole('button', { name: 'Continue to payment' }).click();
    await issue.getByLabel('Test Visa card ending 4242 (succeeds)').check();
    await expectAccessible(page);
    await issue.getByRole('button', { name: 'Take £60.00 and issue' }).click();
    await issue.getByRole('status').filter({ hasText: 'Issued' }).waitFor();

    const all = await vouchers();
    expect(all).toHaveLength(before + 1);
    issued = all.find((v) => v.recipient_name === 'Grace Hopper')!;
    expect(issued).toMatchObject({ mode: 'paid', amount_pence: 6000, remaining_pence: 6000, status: 'active', refunded_pence: 0 });
    expect(await issue.getByRole('status').textContent()).toContain(issued.display_code);
    // The new voucher opens in the look-up.
    await page.getByRole('heading', { name: `Voucher ${issued.display_code}` }).waitFor();
  });

  it('looks it up by its grouped code in lower case and redeems part of it, showing the balance', async () => {
    await page.getByLabel('Code', { exact: true }).fill(issued.display_code.toLowerCase());
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.getByRole('heading', { name: `Voucher ${issued.display_code}` }).waitFor();
    await expect.poll(() => page.locator('.balance').textContent()).toBe('£60.00');

    await page.getByLabel('Amount to take (£)').fill('22.50');
    await page.getByLabel('Note (optional)').fill('Lunch for two');
    await page.getByRole('button', { name: 'Redeem', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Took £22.50 from ${issued.display_code}: £37.50 left.` })
      .waitFor();
    await expect.poll(() => page.locator('.balance').textContent()).toBe('£37.50');
    await page.getByText('£22.50 on').waitFor();

    const lookup = await get<{ voucher: Voucher & { redemptions: { amount_pence: number; note: string }[] }; redeemable: boolean }>(
      `vouchers/lookup?code=${issued.code}`,
    );
    expect(lookup.redeemable).toBe(true);
    expect(lookup.voucher).toMatchObject({ status: 'active', remaining_pence: 3750, amount_pence: 6000 });
    expect(lookup.voucher.redemptions).toEqual([expect.objectContaining({ amount_pence: 2250, note: 'Lunch for two' })]);
    await expectAccessible(page);
    await screenshot(page, 'vouchers-redeemed');
  });

  it('refuses to take more than the balance, in words', async () => {
    await page.getByLabel('Amount to take (£)').fill('40');
    await page.getByRole('button', { name: 'Redeem', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Only £37.50 is left on this voucher.' }).waitFor();
    expect((await vouchers()).find((v) => v.id === issued.id)!.remaining_pence).toBe(3750);
  });

  it('refunds the rest to the card after asking', async () => {
    await page.getByRole('button', { name: 'Refund £37.50…' }).click();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Keep the voucher' }).click();
    expect((await vouchers()).find((v) => v.id === issued.id)!.status).toBe('active');

    await page.getByRole('button', { name: 'Refund £37.50…' }).click();
    await page.getByRole('button', { name: 'Confirm refund of £37.50' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Refunded £37.50 of ${issued.display_code}` })
      .waitFor();
    await expect.poll(() => page.locator('.balance').textContent()).toBe('£0.00');
    await page.getByText('No: this voucher was refunded').waitFor();
    expect(await page.getByRole('button', { name: 'Redeem', exact: true }).count()).toBe(0);

    const after = (await vouchers()).find((v) => v.id === issued.id)!;
    expect(after).toMatchObject({ status: 'refunded', remaining_pence: 0, refunded_pence: 3750, amount_pence: 6000 });
    await expectAccessible(page);
    await screenshot(page, 'vouchers-refunded');
  });

  it('issues a complimentary voucher', async () => {
    const issue = page.getByRole('region', { name: 'Issue a voucher' });
    await issue.getByLabel('Complimentary (no payment)').check();
    await issue.getByLabel('Amount (£)').fill('15');
    await issue.getByLabel('Recipient’s name (optional)').fill('Alan Turing');
    await issue.getByRole('button', { name: 'Issue voucher' }).click();
    await issue.getByRole('status').filter({ hasText: 'Issued' }).waitFor();
    const comp = (await vouchers()).find((v) => v.recipient_name === 'Alan Turing')!;
    expect(comp).toMatchObject({ mode: 'comp', amount_pence: 1500, remaining_pence: 1500, status: 'active' });
  });

  it('saves the settings, and shows the refusal of impossible limits', async () => {
    const settings = page.getByRole('form', { name: 'Voucher settings' });
    await settings.getByLabel('Months valid').fill('6');
    await settings.getByLabel('Preset amounts (£, comma-separated)').fill('20, 40');
    await settings.getByRole('button', { name: 'Save voucher settings' }).click();
    await settings.getByRole('status').filter({ hasText: 'Voucher settings saved.' }).waitFor();
    expect((await get<{ data: { expiration_months: number; fixed_amounts: number[] } }>('voucher-settings')).data).toMatchObject({
      expiration_months: 6,
      fixed_amounts: [2000, 4000],
    });

    await settings.getByLabel('Smallest amount (£)').fill('500');
    await settings.getByLabel('Largest amount (£)').fill('100');
    await settings.getByRole('button', { name: 'Save voucher settings' }).click();
    await settings.getByRole('alert').waitFor();
    expect((await get<{ data: { min_amount_pence: number } }>('voucher-settings')).data.min_amount_pence).toBe(1000);
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });

  it('fits a narrow screen', async () => {
    const narrow = await openSignedIn(h, `/vouchers?venue=${h.venueId}`, 'Vouchers', { width: 820 });
    await narrow.page
      .getByRole('button', { name: /^Open voucher / })
      .first()
      .waitFor();
    await narrow.page.getByRole('button', { name: `Open voucher ${issued.display_code}` }).click();
    await narrow.page.getByRole('heading', { name: `Voucher ${issued.display_code}` }).waitFor();
    await expectAccessible(narrow.page);
    await screenshot(narrow.page, 'vouchers');
    expect(narrow.problems).toEqual([]);
  }, 60_000);
});
