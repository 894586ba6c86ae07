/**
 * The waitlist page on the demo venue: reached from the main navigation, a walk-in quoted and added,
 * told their table is ready, seated from the list (a walk-in booking), another taken off; an online
 * guest who joined through the public API shown with their window and offer status. The API confirms
 * each step; axe and a screenshot at 1280 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chromiumPresent, expectAccessible, openSignedIn, screenshot, startPortal, type PortalHarness } from './portal-harness.js';

let h: PortalHarness;
let page: Page;
let problems: string[];

interface Entry {
  id: string;
  kind: string;
  status: string;
  guest_name: string;
  booking_id: string | null;
}

const entries = async () => {
  const res = await h.t.app.inject({ url: `/api/my-venues/${h.venueId}/waitlist?all=true`, headers: h.staff });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Entry[] }).data;
};
const entry = async (name: string) => (await entries()).find((e) => e.guest_name === name);

describe.skipIf(!chromiumPresent)('waitlist', () => {
  beforeAll(async () => {
    h = await startPortal();
    ({ page, problems } = await openSignedIn(h, `/waitlist?venue=${h.venueId}`, 'Waitlist'));
  }, 60_000);
  afterAll(async () => h?.close());

  it('is reached from the main navigation and starts empty', async () => {
    await expect.poll(() => page.getByRole('link', { name: 'Waitlist' }).getAttribute('aria-current')).toBe('page');
    await page.getByText('Nobody is waiting.').waitFor();
    await expectAccessible(page);
  });

  it('quotes and adds walk-ins, notifies, seats and removes', async () => {
    const add = page.getByRole('region', { name: 'Add a walk-in' });
    await add.getByLabel('Name').fill('Ada Walkin');
    await add.getByLabel('Party').fill('2');
    await add.getByRole('button', { name: 'Quote' }).click();
    await add.getByRole('status').filter({ hasText: 'Quoted wait for 2:' }).waitFor();
    await add.getByLabel('Phone (for a text when the table is ready)').fill('+44 7700 900789');
    await add.getByRole('button', { name: 'Add to the list' }).click();
    await page.getByRole('status').filter({ hasText: 'Ada Walkin added, quoted' }).waitFor();
    await add.getByLabel('Name').fill('Brian Bystander');
    await add.getByRole('button', { name: 'Add to the list' }).click();
    await page.getByRole('status').filter({ hasText: 'Brian Bystander added' }).waitFor();
    expect(await entry('Ada Walkin')).toMatchObject({ kind: 'walk_in', status: 'waiting' });

    const walkIns = page.getByRole('region', { name: 'Walk-ins' });
    await expect.poll(() => walkIns.getByRole('row').count()).toBe(3);
    await expectAccessible(page);
    await screenshot(page, 'waitlist');

    await page.getByRole('button', { name: 'Notify Ada Walkin' }).click();
    await page.getByRole('status').filter({ hasText: 'Ada Walkin was told their table is ready.' }).waitFor();
    expect((await entry('Ada Walkin'))?.status).toBe('notified');

    await page.getByRole('button', { name: 'Seat Ada Walkin' }).click();
    await page.getByRole('status').filter({ hasText: 'Ada Walkin is seated.' }).waitFor();
    const seated = await entry('Ada Walkin');
    expect(seated).toMatchObject({ status: 'seated', booking_id: expect.any(String) });
    const booking = await h.t.app.inject({ url: `/api/bookings/${seated!.booking_id}`, headers: h.staff });
    expect(booking.json()).toMatchObject({ status: 'checked_in', guest_name: 'Ada Walkin' });

    await page.getByRole('button', { name: 'Remove Brian Bystander' }).click();
    await page.getByRole('status').filter({ hasText: 'Brian Bystander is off the list.' }).waitFor();
    expect((await entry('Brian Bystander'))?.status).toBe('removed');
    await page.getByText('Nobody is waiting.').waitFor();
  });

  it('shows the online waitlist with each guest’s window and offer status', async () => {
    const joined = await h.t.app.inject({
      method: 'POST',
      url: `/api/public/venues/${h.venueId}/waitlist`,
      payload: {
        date: h.today,
        party_size: 2,
        time_from: '19:00',
        time_to: '21:00',
        guest_name: 'Olive Online',
        guest_email: 'olive@example.com',
      },
    });
    expect(joined.statusCode, joined.body).toBe(200);
    await h.t.ctx.waitlist.online.runOffers();
    const status = (await entry('Olive Online'))!.status;
    await page.reload();
    await page.getByRole('heading', { name: 'Waitlist', level: 1 }).waitFor();
    const online = page.getByRole('region', { name: 'Online waitlist' });
    const row = online.getByRole('row').filter({ hasText: 'Olive Online' });
    await row.waitFor();
    expect(await row.textContent()).toContain('19:00–21:00');
    expect(await row.textContent()).toContain(status === 'offered' ? 'Offered a table' : 'Waiting');
    await expectAccessible(page);
    await screenshot(page, 'waitlist-online');
    expect(problems).toEqual([]);
  });
});
