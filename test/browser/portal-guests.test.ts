/**
 * The guest CRM in the portal, as the demo manager: the roster filtered by tag, a guest found by the last
 * digits of their phone, tagged in place, exported (the downloaded file read back) and erased after the
 * confirmation; a regular's page with the score and the network. The API confirms each step; axe on every
 * page and dialog; screenshots at 1280 and 820. A read-only role sees no tag editing nor erasure, and a role
 * without `guests` has no Guests link.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, TEST_PASSWORD, type TestOperator } from '../helpers/app.js';
import { chromiumPresent, expectAccessible, openSignedIn, screenshot, startPortal, type PortalHarness } from './portal-harness.js';

let h: PortalHarness;
let page: Page;
let problems: string[];

interface ApiGuest {
  id: string;
  name: string;
  phone: string;
}

const get = async (url: string) => h.t.app.inject({ url, headers: h.staff });
const search = async (q: string) => ((await get(`/api/my-guests/search?q=${encodeURIComponent(q)}`)).json() as { data: ApiGuest[] }).data;
/** The whole page (the harness's screenshot is the viewport), to look at every panel. */
async function fullShot(p: Page, name: string) {
  fs.mkdirSync('test-results/portal', { recursive: true });
  await p.screenshot({ path: `test-results/portal/${name}-full-${p.viewportSize()!.width}.png`, fullPage: true });
}
const rowNames = async () => page.locator('.guests__table tbody th').allTextContents();

describe.skipIf(!chromiumPresent)('the guest CRM', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    h = await startPortal();
    ({ page, problems } = await openSignedIn(h, '/guests', 'Guests'));
  }, 60_000);
  afterAll(async () => h?.close());

  it('lists the roster and filters it by tag and last seen', async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Guests' }).getAttribute('aria-current')).toBe('page');
    await page.locator('.guests__table').waitFor();
    // More than a page of guests (50): the demo's and walk-in records made at the counter.
    for (let i = 1; i <= 20; i++) {
      const res = await h.t.app.inject({
        method: 'POST',
        url: `/api/my-venues/${h.venueId}/guests/walk-in`,
        headers: h.staff,
        payload: { name: `Counter guest ${i}` },
      });
      expect(res.statusCode).toBe(200);
    }
    const roster = (await get('/api/my-guests?limit=200')).json() as { data: ApiGuest[]; total: number };
    expect(roster.total).toBeGreaterThan(50);
    await page.reload();
    await expect.poll(rowNames).toEqual(roster.data.slice(0, 50).map((g) => g.name));
    await page.getByRole('heading', { name: '50+ guests' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'guests-roster');
    await page.getByRole('button', { name: 'Load more guests' }).click();
    await expect.poll(rowNames).toEqual(roster.data.map((g) => g.name));
    await page.getByRole('heading', { name: `${roster.total} guests` }).waitFor();
    expect(await page.getByRole('button', { name: 'Load more guests' }).count()).toBe(0);

    await page.getByLabel('Tag').fill('vip');
    const vips = ((await get('/api/my-guests?tag=vip')).json() as { data: ApiGuest[] }).data.map((g) => g.name);
    expect(vips).toContain('Amelia Hughes');
    await expect.poll(rowNames).toEqual(vips);
    expect(new URL(page.url()).searchParams.get('tag')).toBe('vip');
    await page.getByLabel('Tag').fill('');
    // The whole list comes back as it was (both pages).
    await expect.poll(async () => (await rowNames()).length).toBe(roster.total);

    await page.getByRole('button', { name: /Last seen/ }).click();
    await page.getByRole('option', { name: 'Not for over a year' }).click();
    await page.getByText('No guest matches these filters.').waitFor();
    expect(
      ((await get(`/api/my-guests?seen_before=${encodeURIComponent('2025-06-15T00:00:00.000Z')}`)).json() as { data: unknown[] }).data,
    ).toEqual([]);
    await page.getByRole('button', { name: /Last seen/ }).click();
    await page.getByRole('option', { name: 'In the last year' }).click();
    await expect.poll(async () => (await rowNames()).length).toBe(50);
    expect(new URL(page.url()).searchParams.get('seen')).toBe('within-365');
    await expectAccessible(page);
  });

  it('finds a guest by the last digits of their phone and tags them in place', async () => {
    // The demo walk-in gave +44 7700 900999: staff read the last digits off a caller id.
    const [walter] = await search('0999');
    expect(walter).toMatchObject({ name: 'Walter Finch', phone: '+44 7700 900999' });
    await page.getByRole('searchbox', { name: 'Search' }).fill('0999');
    await expect.poll(rowNames).toEqual(['Walter Finch']);
    await page.getByRole('heading', { name: /1 guest matches “0999”/ }).waitFor();
    await screenshot(page, 'guests-search');
    await page.getByRole('link', { name: 'Walter Finch' }).click();
    await page.getByRole('heading', { name: 'Walter Finch', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/app/guests/${walter.id}`);
    await page.getByText('None: a walk-in record').waitFor();
    await page.getByRole('heading', { name: 'Visits and bookings' }).waitFor();
    await expectAccessible(page);

    const tags = page.getByRole('region', { name: 'Tags' });
    await tags.getByLabel('Add a tag at All venues').fill('Prefers the bar');
    await tags.getByRole('group', { name: 'All venues' }).getByRole('button', { name: 'Add tag' }).click();
    await tags.getByText('Prefers the bar added.').waitFor();
    const detail = async () =>
      (await get(`/api/my-guests/${walter.id}`)).json() as { tags: { global: string[]; per_venue: { tags: string[] }[] } };
    expect((await detail()).tags.global).toEqual(['Prefers the bar']);
    await tags.getByRole('listitem').filter({ hasText: 'Prefers the bar' }).waitFor();

    // The demo's venue tag, removed in place.
    await tags.getByRole('button', { name: 'Remove Bar regular (The Night Owl)' }).click();
    await tags.getByText('Bar regular removed.').waitFor();
    expect((await detail()).tags.per_venue.flatMap((set) => set.tags)).toEqual([]);
    await expectAccessible(page);
    await screenshot(page, 'guest-walk-in');
    await fullShot(page, 'guest-walk-in');
  });

  it('exports the guest’s data as a file', async () => {
    const [walter] = await search('0999');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export guest data' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`guest-${walter.id}.json`);
    const file = JSON.parse(fs.readFileSync((await download.path())!, 'utf8'));
    const served = (await get(`/api/my-guests/${walter.id}/export`)).json();
    expect(file.guest).toEqual(served.guest);
    expect(file.guest).toMatchObject({ id: walter.id, name: 'Walter Finch', phone: '+44 7700 900999', walk_in: true });
    expect(file.tags.global).toEqual(['Prefers the bar']);
    expect(file.bookings).toEqual(served.bookings);
    expect(file.operator_id).toBe(h.operatorId);
    await page.getByText(`(guest-${walter.id}.json)`).waitFor();
  });

  it('erases the guest after a confirmation naming what is kept', async () => {
    const [walter] = await search('0999');
    await page.getByRole('button', { name: 'Erase guest…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Erase Walter Finch?' });
    await dialog.waitFor();
    await dialog.getByText('Payments and refunds, and the keys ledger (money records)').waitFor();
    await dialog.getByText('This walk-in record itself').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'guest-erase');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await get(`/api/my-guests/${walter.id}`)).statusCode).toBe(200);

    await page.getByRole('button', { name: 'Erase guest…' }).click();
    await dialog.getByRole('button', { name: 'Erase Walter Finch' }).click();
    await page.getByRole('heading', { name: 'Guests', level: 1 }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Walter Finch was erased' }).waitFor();
    await page.getByText('the walk-in record deleted').waitFor();
    expect((await get(`/api/my-guests/${walter.id}`)).statusCode).toBe(404);
    expect(await search('0999')).toEqual([]);
    expect(await search('walter')).toEqual([]);
    await expectAccessible(page);

    // The old address now says so.
    await page.goto(`${h.origin}/app/guests/${walter.id}`);
    await page.getByRole('heading', { name: 'Guest not found', level: 1 }).waitFor();
    await expectAccessible(page);
  });

  it('shows a regular’s score, figures, ledger and network at 820 px', async () => {
    const [amelia] = await search('amelia.hughes@example.test');
    const detail = (await get(`/api/my-guests/${amelia.id}`)).json();
    const network = (await get(`/api/my-guests/${amelia.id}/network`)).json() as { nodes: { id: string; name: string }[] };
    await page.goto(`${h.origin}/app/guests/${amelia.id}`);
    await page.getByRole('list', { name: 'Connections of Amelia Hughes' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'guest-regular');
    await fullShot(page, 'guest-regular');
    const narrow = await openSignedIn(h, `/guests/${amelia.id}`, 'Amelia Hughes', { width: 820 });
    const p = narrow.page;
    const score = p.getByRole('region', { name: 'Score' });
    await score.getByText(String(detail.score.total), { exact: true }).waitFor();
    expect(
      await score
        .getByRole('row', { name: /Visits/ })
        .getByRole('cell')
        .first()
        .textContent(),
    ).toBe(String(detail.score.breakdown.visits));
    const list = p.getByRole('list', { name: 'Connections of Amelia Hughes' });
    const others = network.nodes.filter((n) => n.id !== amelia.id).map((n) => n.name);
    expect(others.length).toBeGreaterThan(0);
    await expect.poll(async () => (await list.getByRole('link').allTextContents()).sort()).toEqual(others.sort());
    expect(await p.locator('.network__graph circle').count()).toBe(network.nodes.length);
    await p.getByRole('img', { name: /Network graph: Amelia Hughes and/ }).waitFor();
    await expectAccessible(p);
    await screenshot(p, 'guest-regular');
    await fullShot(p, 'guest-regular');
    await p.getByRole('link', { name: '← All guests' }).click();
    await p.locator('.guests__table').waitFor();
    await screenshot(p, 'guests-roster');
    await expectAccessible(p);
    expect(narrow.problems).toEqual([]);
    await p.context().close();
  });

  it('offers a read-only role no tag editing nor erasure, and a role without guests no Guests link', async () => {
    const operator = { operatorId: h.operatorId } as TestOperator;
    const reader = await createStaff(h.t, operator, { bookings: 'read', guests: 'read' });
    const [amelia] = await search('amelia');
    const ro = await openSignedIn(h, `/guests/${amelia.id}`, 'Amelia Hughes', { user: { email: reader.email, password: TEST_PASSWORD } });
    await ro.page.getByText('Your role can see tags but not change them.').waitFor();
    expect(await ro.page.getByRole('button', { name: /Add tag|Remove|Erase/ }).count()).toBe(0);
    await ro.page.getByText('Erasing a guest needs permission to change guests').waitFor();
    await expectAccessible(ro.page);
    await ro.page.context().close();

    const floorOnly = await createStaff(h.t, operator, { bookings: 'read' });
    const fo = await openSignedIn(h, '/floor', /./, { user: { email: floorOnly.email, password: TEST_PASSWORD } });
    await fo.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Floor' }).waitFor();
    expect(await fo.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Guests' }).count()).toBe(0);
    await fo.page.goto(`${h.origin}/app/guests`);
    await fo.page.getByText('Your role cannot see guests.').waitFor();
    await fo.page.context().close();
    expect(problems).toEqual([]);
  });
});
