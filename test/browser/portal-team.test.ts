/**
 * The Team screens, as the demo Owner: a role limited to one venue (reservations and the door, nothing
 * else) built in the permission grid, a portal user given that role, and that user signed in on a fresh
 * page seeing only what the role allows (no Setup or Team link, no other venue in the switcher, nothing
 * of the team page but their own two-factor). A user manager limited to one venue sees the Owner
 * read-only with the reason. Last, two-factor set-up with its QR code, confirmed by a code. The API
 * confirms each step; axe on every page; screenshots at 1280 and 820.
 */
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_VENUE } from '../../src/demo/demo.js';
import { bearer, login } from '../helpers/app.js';
import { chromiumPresent, expectAccessible, openSignedIn, screenshot, startPortal, type PortalHarness } from './portal-harness.js';

const HOST = { name: 'Hari Host', email: 'hari.host@nightowl.test', password: 'hosting all night 42' };
const MANAGER = { name: 'Mina Manager', email: 'mina.manager@nightowl.test', password: 'managing people 42' };

let h: PortalHarness;
let page: Page;
let problems: string[];
let otherVenueId: string;

type Role = {
  id: string;
  name: string;
  permissions: { permission_key: string; can_read: boolean; can_write: boolean }[];
  venue_ids: string[];
};
type User = { id: string; name: string; email: string; phone: string | null; role_id: string | null };

const get = async <T>(url: string, headers = h.staff) => {
  const res = await h.t.app.inject({ url, headers });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json() as T;
};
const roles = async () => (await get<{ data: Role[] }>('/api/my-roles')).data;
const users = async () => (await get<{ data: User[] }>('/api/my-users')).data;
const roleNamed = async (name: string) => (await roles()).find((r) => r.name === name);

/** Builds a role in the portal's grid: `grants` as [label, 'read' | 'write'], scoped to the named venues. */
async function createRole(name: string, description: string, grants: [string, 'read' | 'write'][], venues: string[]) {
  await page.getByRole('button', { name: 'New role' }).click();
  const form = page.getByRole('form', { name: 'New role' });
  await form.getByLabel('Role name').fill(name);
  await form.getByLabel('Description (optional)').fill(description);
  for (const [label, action] of grants) await form.getByRole('checkbox', { name: `${label}: ${action}` }).check();
  await form.getByRole('radio', { name: 'Only these venues' }).check();
  for (const venue of venues) await form.getByRole('checkbox', { name: venue, exact: true }).check();
  return form;
}

async function addUser(person: typeof HOST, role: string) {
  await page.getByRole('button', { name: 'Add user' }).click();
  const form = page.getByRole('form', { name: 'New portal user' });
  await form.getByLabel('Name').fill(person.name);
  await form.getByLabel('Email').fill(person.email);
  await form.getByLabel('Phone (optional)').fill('+44 20 7946 0000');
  await form.getByLabel('Role').selectOption({ label: role });
  await form.getByLabel('First password').fill(person.password);
  await form.getByRole('button', { name: 'Add user' }).click();
  await form.waitFor({ state: 'detached' });
  await page.locator('#users .setup-item').filter({ hasText: person.email }).waitFor();
}

describe.skipIf(!chromiumPresent)('the team screens', () => {
  beforeAll(async () => {
    h = await startPortal();
    // A second venue of the account, which the limited role must not reach.
    const res = await h.t.app.inject({
      method: 'POST',
      url: '/api/my-venues',
      headers: h.staff,
      payload: { name: 'The Lark', address: '3 Lark Lane, London E1 1AA' },
    });
    expect(res.statusCode, res.body).toBe(200);
    otherVenueId = res.json().id;
    ({ page, problems } = await openSignedIn(h, '/team', 'Team'));
  }, 150_000);
  afterAll(async () => h?.close());

  it('shows the Owner the team: users, roles with the Owner role read-only, members and two-factor', async () => {
    await page.getByRole('link', { name: 'Team' }).click();
    await page.waitForURL(/\/app\/team\?venue=/);
    expect(await page.getByRole('link', { name: 'Team' }).getAttribute('aria-current')).toBe('page');
    for (const heading of ['Portal users', 'Roles', 'Members', 'Your two-factor sign-in'])
      await page.getByRole('heading', { name: heading, level: 2 }).waitFor();
    const owner = page.locator('#roles .setup-item').filter({ hasText: 'Owner' });
    await owner.getByText('The Owner role cannot be deleted.').waitFor();
    expect(await owner.getByRole('button', { name: 'Delete Owner' }).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'team');
  });

  it('creates a role limited to one venue with reservations and the door, and no settings', async () => {
    const form = await createRole('Night host', 'Front of house, evenings', [['Reservations and the door', 'write']], [DEMO_VENUE]);
    // Write includes read.
    expect(await form.getByRole('checkbox', { name: 'Reservations and the door: read' }).isChecked()).toBe(true);
    expect(await form.getByRole('checkbox', { name: 'Venue details, status and listing: write' }).isChecked()).toBe(false);
    await expectAccessible(page);
    await screenshot(page, 'team-role-form');
    await form.getByRole('button', { name: 'Create role' }).click();
    await form.waitFor({ state: 'detached' });
    await page.locator('#roles .setup-item').filter({ hasText: 'Night host' }).waitFor();

    const role = await roleNamed('Night host');
    expect(role).toMatchObject({
      description: 'Front of house, evenings',
      permissions: [{ permission_key: 'bookings', can_read: true, can_write: true }],
      venue_ids: [h.venueId],
    });
  });

  it('creates a portal user with that role', async () => {
    await addUser(HOST, 'Night host');
    const role = (await roleNamed('Night host'))!;
    expect((await users()).find((u) => u.email === HOST.email)).toMatchObject({
      name: HOST.name,
      phone: '+44 20 7946 0000',
      role_id: role.id,
    });
    await expectAccessible(page);
  });

  it('signed in as that user, the portal hides what the role may not do', async () => {
    for (const width of [1280, 820]) {
      const host = await openSignedIn(h, '/floor', new RegExp(DEMO_VENUE), { width, user: HOST });
      const nav = host.page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Floor' }).waitFor();
      expect(await nav.getByRole('link', { name: 'Door' }).isVisible()).toBe(true);
      expect(await nav.getByRole('link', { name: 'Setup' }).count()).toBe(0);
      expect(await nav.getByRole('link', { name: 'Team' }).count()).toBe(0);
      // The switcher offers the one venue the role reaches.
      await host.page
        .getByRole('button', { name: new RegExp(DEMO_VENUE) })
        .first()
        .click();
      const options = host.page.getByRole('option');
      await options.first().waitFor();
      expect(await options.allTextContents()).toEqual([DEMO_VENUE]);
      await host.page.keyboard.press('Escape');
      await expectAccessible(host.page);
      await screenshot(host.page, 'team-host-floor');

      // The team page by its address: only their own two-factor.
      await host.page.goto(`${h.origin}/app/team`);
      await host.page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
      await host.page.getByRole('heading', { name: 'Your two-factor sign-in' }).waitFor();
      expect(await host.page.getByRole('heading', { name: 'Portal users' }).count()).toBe(0);
      expect(await host.page.getByRole('heading', { name: 'Roles' }).count()).toBe(0);
      await expectAccessible(host.page);
      await screenshot(host.page, 'team-host');
      expect(host.problems).toEqual([]);
      await host.page.context().close();
    }

    // The API agrees: bookings yes, settings no, the other venue out of reach.
    const headers = bearer(await login(h.t, HOST.email, HOST.password));
    const me = await get<{ permissions: Record<string, { read: boolean; write: boolean }>; venue_ids: string[] }>(
      '/api/me/permissions',
      headers,
    );
    expect(me.permissions.bookings).toEqual({ read: true, write: true });
    expect(me.permissions['venues.settings']).toEqual({ read: false, write: false });
    expect(me.venue_ids).toEqual([h.venueId]);
    expect((await get<{ data: { id: string }[] }>('/api/my-floor-venues', headers)).data.map((v) => v.id)).toEqual([h.venueId]);
    const other = await h.t.app.inject({ url: `/api/my-venues/${otherVenueId}/bookings?date=${h.today}`, headers });
    expect(other.statusCode).toBe(404);
  }, 150_000);

  it('a user manager limited to one venue sees the Owner and stronger roles read-only, with the reason', async () => {
    const form = await createRole(
      'Venue manager',
      '',
      [
        ['Portal users', 'write'],
        ['Roles and permissions', 'read'],
        ['Reservations and the door', 'write'],
      ],
      [DEMO_VENUE],
    );
    await form.getByRole('button', { name: 'Create role' }).click();
    await form.waitFor({ state: 'detached' });
    const manager = (await roleNamed('Venue manager'))!;
    expect(manager.permissions).toHaveLength(3);
    expect(manager.venue_ids).toEqual([h.venueId]);
    await addUser(MANAGER, 'Venue manager');
    expect((await users()).find((u) => u.email === MANAGER.email)?.role_id).toBe(manager.id);

    const mina = await openSignedIn(h, '/team', 'Team', { user: MANAGER });
    const ownerRow = mina.page.locator('#users .setup-item').filter({ has: mina.page.getByText('Primary contact') });
    await ownerRow.getByText(/Only an Owner can change .*: their role is the Owner role\./).waitFor();
    expect(await ownerRow.getByRole('button').count()).toBe(0);
    // Hari (a weaker role) can be managed; the roles are shown but not editable.
    expect(await mina.page.getByRole('button', { name: `Edit ${HOST.name}` }).isVisible()).toBe(true);
    await mina.page.getByText('Your role may see roles but not change them.').waitFor();
    expect(await mina.page.getByRole('button', { name: 'New role' }).count()).toBe(0);
    // Giving a user a role: only roles within her own are offered.
    await mina.page.getByRole('button', { name: `Edit ${HOST.name}` }).click();
    const options = await mina.page.getByLabel('Role').locator('option').allTextContents();
    expect(options).toEqual(['Choose a role…', 'Night host', 'Venue manager']);
    await mina.page.getByText(/not offered: only an Owner/).waitFor();
    await expectAccessible(mina.page);
    await screenshot(mina.page, 'team-manager');
    expect(mina.problems).toEqual([]);
    await mina.page.context().close();
  }, 90_000);

  it('lays out the team and the role grid at 820 px', async () => {
    const narrow = await openSignedIn(h, '/team', 'Team', { width: 820 });
    await narrow.page.getByRole('heading', { name: 'Roles', level: 2 }).waitFor();
    await expectAccessible(narrow.page);
    await screenshot(narrow.page, 'team');
    await narrow.page.getByRole('button', { name: 'Edit Night host' }).click();
    const form = narrow.page.getByRole('form', { name: 'Edit Night host' });
    expect(await form.getByRole('checkbox', { name: 'Reservations and the door: write' }).isChecked()).toBe(true);
    expect(await form.getByRole('checkbox', { name: DEMO_VENUE, exact: true }).isChecked()).toBe(true);
    expect(await form.getByRole('checkbox', { name: 'The Lark', exact: true }).isChecked()).toBe(false);
    await form.scrollIntoViewIfNeeded();
    await expectAccessible(narrow.page);
    await screenshot(narrow.page, 'team-role-form');
    expect(narrow.problems).toEqual([]);
    await narrow.page.context().close();
  }, 90_000);

  it('sets up two-factor with the QR code and turns it on with a code', async () => {
    await page.getByRole('button', { name: 'Set up two-factor' }).click();
    const form = page.getByRole('form', { name: 'Confirm two-factor' });
    const qr = form.getByRole('img', { name: /QR code/ });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\//);
    expect(await qr.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(50);
    const link = await form.getByRole('link', { name: /authenticator app on this device/ }).getAttribute('href');
    expect(link).toMatch(/^otpauth:\/\/totp\//);
    const secret = (await form.getByLabel('Set-up key').textContent())!.replace(/\s/g, '');
    expect(link).toContain(`secret=${secret}`);
    await expectAccessible(page);
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, 'team-2fa');

    const code = await generate({ secret, epoch: Math.floor(h.t.clock.now().getTime() / 1000) });
    await form.getByLabel('Code from the app').fill(code);
    await form.getByRole('button', { name: 'Turn on two-factor' }).click();
    await page.getByText('Two-factor is on. Your other devices were signed out.').waitFor();
    await page.getByRole('form', { name: 'Turn off two-factor' }).waitFor();
    await expectAccessible(page);

    // The API, through the page's own session (turning it on ended the Owner's other sessions).
    const token = await page.evaluate(() => (JSON.parse(sessionStorage.getItem('maitred.session')!) as { token: string }).token);
    expect(await get('/api/2fa', bearer(token))).toEqual({ enabled: true });
    expect(problems).toEqual([]);
  }, 90_000);
});
