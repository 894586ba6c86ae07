/**
 * The setup screens on the demo venue: a deposit payment policy made in the catalogue (its terms shown in
 * the guest's words), two shifts (after the API refused one without days, keeping what was typed), an
 * access rule with that policy, the live preview of what a guest would see, and a day closed on the
 * calendar. The API confirms each step; both pages are axe-checked and photographed at 1280 and 820 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumPresent, expectAccessible, openSignedIn, screenshot, startPortal, type PortalHarness } from './portal-harness.js';

let h: PortalHarness;
let page: Page;
let problems: string[];

async function list<T>(what: string): Promise<T[]> {
  const res = await h.t.app.inject({ url: `/api/my-venues/${h.venueId}/${what}`, headers: h.staff });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: T[] }).data;
}

interface Policy {
  id: string;
  name: string;
  deposit_type: string;
  refund_type: string;
  refund_percent: number;
  cancel_type: string;
  cancel_cutoff_value: number;
  cancel_cutoff_unit: string;
}
interface Shift {
  id: string;
  name: string;
  days_of_week: string[];
  time_type: string;
  time_from: string | null;
  time_to: string | null;
}
interface Rule {
  id: string;
  bundles_enabled?: boolean;
  bundle_ids?: string[];
  name: string;
  days_of_week: string[];
  time_from: string | null;
  time_to: string | null;
  payment_policy_id: string | null;
}

const form = (name: string) => page.getByRole('form', { name });

describe.skipIf(!chromiumPresent)('setup: availability and catalogue', () => {
  beforeAll(async () => {
    h = await startPortal();
    ({ page, problems } = await openSignedIn(h, `/setup/catalogue?venue=${h.venueId}`, 'Catalogue'));
  }, 60_000);
  afterAll(async () => h?.close());

  it('creates a deposit payment policy and shows its terms as a guest reads them', async () => {
    // The demo's own policies, worded as the booking terms word them.
    await expect
      .poll(() => page.getByRole('list', { name: 'What a guest reads for Card hold for large groups' }).textContent())
      .toContain('You can cancel at any time before your booking, and the hold is not refunded.');
    await page.getByRole('button', { name: 'New payment policy' }).click();
    const f = form('New payment policy');
    await f.getByLabel('Name').fill('Breakfast deposit');
    await f.getByLabel('When booking').selectOption('deposit');
    await f.getByLabel('Cancelling refunds').selectOption('partial');
    await f.getByLabel('Refund percent').fill('50');
    await f.getByLabel('Guests may cancel').selectOption('cutoff');
    await f.getByLabel('Cut-off', { exact: true }).fill('48');
    await f.getByLabel('Cut-off unit').selectOption('hours');
    await f.getByRole('button', { name: 'Add payment policy' }).click();
    const terms = page.getByRole('list', { name: 'What a guest reads for Breakfast deposit' });
    await expect
      .poll(() => terms.textContent())
      .toContain('You can cancel up to 48 hours before your booking, and you get 50% back; after that it cannot be cancelled.');
    expect(await terms.textContent()).toContain('A deposit is paid when you book');

    const policy = (await list<Policy>('payment-policies')).find((p) => p.name === 'Breakfast deposit');
    expect(policy).toMatchObject({
      deposit_type: 'deposit',
      refund_type: 'partial',
      refund_percent: 50,
      cancel_type: 'cutoff',
      cancel_cutoff_value: 48,
      cancel_cutoff_unit: 'hours',
    });
    await expectAccessible(page);
    await screenshot(page, 'setup-catalogue');
  });

  it('shows the API’s refusal of a shift without days, keeps what was typed, then adds two shifts', async () => {
    await page.goto(`${h.origin}/app/setup/availability?venue=${h.venueId}`);
    await page.getByRole('heading', { name: 'Availability', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'New shift' }).click();
    let f = form('New shift');
    await f.getByLabel('Name').fill('Breakfast');
    await f.getByLabel('From', { exact: true }).fill('07:00');
    await f.getByLabel('To', { exact: true }).fill('10:30');
    await f.getByRole('button', { name: 'Add shift' }).click();
    await expect.poll(() => f.getByRole('alert').textContent()).toMatch(/days_of_week/);
    expect(await f.getByLabel('Name').inputValue()).toBe('Breakfast');
    expect((await list<Shift>('shifts')).some((s) => s.name === 'Breakfast')).toBe(false);

    for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri']) await f.getByRole('checkbox', { name: day }).check();
    await f.getByRole('button', { name: 'Add shift' }).click();
    await f.waitFor({ state: 'detached' });
    expect((await list<Shift>('shifts')).find((s) => s.name === 'Breakfast')).toMatchObject({
      days_of_week: ['mon', 'tue', 'wed', 'thu', 'fri'],
      time_type: 'custom',
      time_from: '07:00',
      time_to: '10:30',
    });

    await page.getByRole('button', { name: 'New shift' }).click();
    f = form('New shift');
    await f.getByLabel('Name').fill('Weekend brunch');
    for (const day of ['Sat', 'Sun']) await f.getByRole('checkbox', { name: day }).check();
    await f.getByLabel('From', { exact: true }).fill('09:00');
    await f.getByLabel('To', { exact: true }).fill('12:00');
    await f.getByRole('button', { name: 'Add shift' }).click();
    await f.waitFor({ state: 'detached' });
    expect((await list<Shift>('shifts')).find((s) => s.name === 'Weekend brunch')).toMatchObject({
      days_of_week: ['sat', 'sun'],
      time_from: '09:00',
      time_to: '12:00',
    });

    const week = page.getByRole('table').first();
    await expect.poll(() => week.getByRole('row', { name: /Monday/ }).textContent()).toContain('Breakfast 07:00–10:30');
    await expect.poll(() => week.getByRole('row', { name: /Saturday/ }).textContent()).toContain('Weekend brunch 09:00–12:00');
  });

  it('adds an access rule with the deposit policy; the week view shows what it opens', async () => {
    await page.getByRole('button', { name: 'New access rule' }).click();
    const f = form('New access rule');
    await f.getByLabel('Name').fill('Morning tables');
    for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']) await f.getByRole('checkbox', { name: day }).check();
    await f.getByLabel('From (optional)').fill('07:30');
    await f.getByLabel('To (optional)').fill('11:00');
    await f.getByRole('checkbox', { name: 'Offer bundles' }).check();
    await f.getByRole('checkbox', { name: 'Celebration' }).check();
    await f.getByLabel('Payment policy').selectOption({ label: 'Breakfast deposit' });
    await expect.poll(() => f.textContent()).toContain('you get 50% back');
    await expectAccessible(page);
    await screenshot(page, 'setup-rule-form');
    await f.getByRole('button', { name: 'Add access rule' }).click();
    await f.waitFor({ state: 'detached' });

    const policy = (await list<Policy>('payment-policies')).find((p) => p.name === 'Breakfast deposit')!;
    expect((await list<Rule>('access-rules')).find((r) => r.name === 'Morning tables')).toMatchObject({
      days_of_week: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      time_from: '07:30',
      time_to: '11:00',
      payment_policy_id: policy.id,
      bundles_enabled: true,
      bundle_ids: [expect.stringMatching(/./)],
    });
    const week = page.getByRole('table').first();
    await expect.poll(() => week.getByRole('row', { name: /Tuesday/ }).textContent()).toContain('Morning tables 07:30–10:30');
    await expect.poll(() => week.getByRole('row', { name: /Sunday/ }).textContent()).toContain('Morning tables 09:00–11:00');
  });

  it('edits an access rule and keeps what the form does not show (seating, bundles, profile)', async () => {
    const before = (await list<Rule & Record<string, unknown>>('access-rules')).find((r) => r.name === 'Dinner tables')!;
    await page.getByRole('button', { name: 'Edit Dinner tables' }).click();
    const f = form('Edit Dinner tables');
    expect(await f.getByLabel('From (optional)').inputValue()).toBe('17:30');
    await f.getByLabel('To (optional)').fill('22:30');
    await f.getByRole('button', { name: 'Save access rule' }).click();
    await f.waitFor({ state: 'detached' });
    const after = (await list<Rule & Record<string, unknown>>('access-rules')).find((r) => r.name === 'Dinner tables')!;
    expect(after).toEqual({ ...before, time_to: '22:30' });
  });

  it('previews the times a guest would see, from the public availability', async () => {
    const tuesday = '2026-06-16';
    await page.getByLabel('Date', { exact: true }).fill(tuesday);
    await page.getByLabel('Party size', { exact: true }).fill('2');
    const slots = page.getByRole('list', { name: 'Times for Morning tables' });
    await expect.poll(() => slots.getByRole('listitem').first().textContent()).toBe('07:30');
    const shown = await slots.getByRole('listitem').allTextContents();
    const answer = (await h.t.app.inject({ url: `/api/public/venues/${h.venueId}/availability?date=${tuesday}&party_size=2` })).json() as {
      slots: { time: string; access_rule_id: string; available: boolean }[];
    };
    const rule = (await list<Rule>('access-rules')).find((r) => r.name === 'Morning tables')!;
    const fromApi = answer.slots.filter((s) => s.access_rule_id === rule.id);
    expect(fromApi.length).toBeGreaterThan(0);
    expect(shown.map((t) => t.replace(' (full)', ''))).toEqual(fromApi.map((s) => s.time));
    await expectAccessible(page);
    await screenshot(page, 'setup-availability');
  });

  it('closes a day from the calendar; the API has the blackout and the preview shows no times', async () => {
    await page.getByRole('button', { name: '20 June 2026: open' }).click();
    const f = form('New blackout');
    expect(await f.getByLabel('First day').inputValue()).toBe('2026-06-20');
    await f.getByLabel('Reason (optional)').fill('Private party');
    await f.getByRole('button', { name: 'Close these days' }).click();
    await f.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: '20 June 2026: closed (Private party)' }).waitFor();
    expect(
      (await list<{ date_from: string; date_to: string; description: string | null }>('blackouts')).find(
        (b) => b.description === 'Private party',
      ),
    ).toMatchObject({
      date_from: '2026-06-20',
      date_to: '2026-06-20',
      affects_reservations: true,
    });

    await page.getByRole('table', { name: 'Closures in June 2026' }).scrollIntoViewIfNeeded();
    await expectAccessible(page);
    await screenshot(page, 'setup-closures');

    await page.getByLabel('Date', { exact: true }).fill('2026-06-20');
    await expect.poll(() => page.locator('.preview-count').textContent()).toBe('0 times bookable');
    await page.getByLabel('Date', { exact: true }).fill('2026-06-21');
    await expect
      .poll(() => page.getByRole('list', { name: 'Times for Morning tables' }).getByRole('listitem').first().textContent())
      .toBe('09:00');
  });

  it('deletes the blackout after asking again; the day opens', async () => {
    await page.getByRole('button', { name: 'Delete 20 June 2026' }).click();
    await page.getByRole('button', { name: 'Really delete 20 June 2026' }).click();
    await page.getByRole('button', { name: '20 June 2026: open' }).waitFor();
    const blackouts = await list<{ description: string | null }>('blackouts');
    expect(blackouts.some((b) => b.description === 'Private party')).toBe(false);
    await page.getByLabel('Date', { exact: true }).fill('2026-06-20');
    await expect
      .poll(() => page.getByRole('list', { name: 'Times for Morning tables' }).getByRole('listitem').first().textContent())
      .toMatch(/^09:00/);
  });

  it('both pages at 820 px', async () => {
    const narrow = await openSignedIn(h, `/setup/availability?venue=${h.venueId}`, 'Availability', { width: 820 });
    await narrow.page.getByRole('list', { name: 'Times for Dinner' }).waitFor();
    await expectAccessible(narrow.page);
    await screenshot(narrow.page, 'setup-availability');
    await narrow.page.goto(`${h.origin}/app/setup/catalogue?venue=${h.venueId}`);
    await narrow.page.getByRole('heading', { name: 'Catalogue', level: 1 }).waitFor();
    await narrow.page.getByRole('list', { name: 'What a guest reads for Breakfast deposit' }).waitFor();
    await expectAccessible(narrow.page);
    await screenshot(narrow.page, 'setup-catalogue');
    expect(narrow.problems).toEqual([]);
    await narrow.page.context().close();
  });

  it('had no console errors or failed requests', () => {
    expect(problems).toEqual([]);
  });
});
