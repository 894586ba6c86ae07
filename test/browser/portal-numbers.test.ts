/**
 * Numbers on the demo venue: a week's covers read on the page match the venue's bookings, and the CSV
 * downloaded from the chart holds the same figures; covers by shift add up to them; another range is
 * chosen with the date picker (kept in the URL). Axe and screenshots at 1280 and 820 px.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumPresent, expectAccessible, openSignedIn, screenshot, startPortal, type PortalHarness } from './portal-harness.js';

let h: PortalHarness;
let page: Page;
let problems: string[];

const ACTIVE = ['pending', 'pending_payment', 'approved', 'confirmed', 'checked_in'];
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Covers of each date from the venue's bookings list: guests of reservations (not event tickets) going ahead. */
async function coversFromBookings(from: string, days: number): Promise<[string, number][]> {
  const out: [string, number][] = [];
  for (let i = 0; i < days; i++) {
    const date = addDays(from, i);
    const res = await h.t.app.inject({ url: `/api/my-venues/${h.venueId}/bookings?date=${date}&limit=200`, headers: h.staff });
    expect(res.statusCode, res.body).toBe(200);
    const rows = (res.json() as { data: { status: string; kind: string; guest_count: number }[] }).data;
    out.push([date, rows.filter((b) => b.kind !== 'event' && ACTIVE.includes(b.status)).reduce((sum, b) => sum + b.guest_count, 0)]);
  }
  return out;
}

/** The rows of a chart's table as text cells. */
async function tableRows(id: string): Promise<string[][]> {
  return page
    .locator(`#${id} tbody tr`)
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent!.trim())));
}

describe.skipIf(!chromiumPresent)('numbers', () => {
  const from = '2026-06-12';
  const to = '2026-06-18';

  beforeAll(async () => {
    h = await startPortal();
    ({ page, problems } = await openSignedIn(h, `/numbers?venue=${h.venueId}&from=${from}&to=${to}`, 'Numbers'));
  }, 60_000);
  afterAll(async () => h?.close());

  it('shows a week’s covers by day matching the bookings, and downloads them as CSV', async () => {
    const expected = await coversFromBookings(from, 7);
    expect(expected.some(([, covers]) => covers > 0)).toBe(true);
    await page.locator('#covers tbody tr').nth(6).waitFor();
    const shown = await tableRows('covers');
    expect(shown.map((row) => row[1])).toEqual(expected.map(([, covers]) => String(covers)));
    expect(shown[3][0]).toBe('Mon 15 Jun');
    expect(await page.locator('#covers tfoot td').textContent()).toBe(String(expected.reduce((sum, [, c]) => sum + c, 0)));

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download covers by day as CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`covers-${from}_to_${to}.csv`);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    expect(csv).toBe(['Date,Covers', ...expected.map(([date, covers]) => `${date},${covers}`)].join('\r\n') + '\r\n');

    // The API's own figures agree.
    const daily = (await h.t.app.inject({ url: `/api/my-venues/${h.venueId}/stats/daily?from=${from}&to=${to}`, headers: h.staff })).json();
    expect(daily.days.map((d: { date: string; covers: number }) => [d.date, d.covers])).toEqual(expected);
    await expectAccessible(page);
    await screenshot(page, 'numbers');
  });

  it('splits the covers into the venue’s shifts, adding up to the day’s covers', async () => {
    const byDay = await tableRows('covers');
    const byShift = await tableRows('shifts');
    const heads = await page.locator('#shifts thead th').allTextContents();
    expect(heads).toEqual(expect.arrayContaining(['Date', 'Lunch service', 'Dinner service', 'Total']));
    expect(byShift.map((row) => row.at(-1))).toEqual(byDay.map((row) => row[1]));

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download covers by shift as CSV' }).click(),
    ]);
    const lines = fs
      .readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(heads.join(','));
    expect(lines).toHaveLength(8);
  });

  it('shows no-shows, deposits, ticket sales and voucher liability with their numbers', async () => {
    for (const title of ['No-shows', 'Deposits', 'Ticket sales', 'Voucher liability'])
      await page.getByRole('heading', { name: title, level: 2 }).waitFor();
    const vouchers = (await h.t.app.inject({ url: `/api/my-venues/${h.venueId}/vouchers?limit=200`, headers: h.staff })).json() as {
      data: { status: string; remaining_pence: number }[];
    };
    const owed = vouchers.data.filter((v) => v.status === 'active').reduce((sum, v) => sum + v.remaining_pence, 0);
    expect(owed).toBeGreaterThan(0);
    const liability = await tableRows('liability');
    expect(liability).toEqual([['The Night Owl', `£${(owed / 100).toFixed(2)}`]]);
  });

  it('picks another range with the date inputs, kept in the address', async () => {
    await page.getByLabel('From', { exact: true }).fill('2026-06-14');
    await page.getByLabel('To', { exact: true }).fill('2026-06-16');
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('from')).toBe('2026-06-14');
    await expect.poll(async () => (await tableRows('covers')).length).toBe(3);
    const expected = await coversFromBookings('2026-06-14', 3);
    expect((await tableRows('covers')).map((row) => row[1])).toEqual(expected.map(([, c]) => String(c)));

    await page.getByLabel('To', { exact: true }).fill('2026-06-10');
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'The last date must not be before the first.' }).waitFor();
    await expectAccessible(page);
    expect(problems).toEqual([]);
  });

  it('fits a narrow screen', async () => {
    const narrow = await openSignedIn(h, `/numbers?venue=${h.venueId}&from=${from}&to=${to}`, 'Numbers', { width: 820 });
    await narrow.page.locator('#covers tbody tr').nth(6).waitFor();
    await expectAccessible(narrow.page);
    await screenshot(narrow.page, 'numbers');
    expect(narrow.problems).toEqual([]);
  }, 60_000);
});
