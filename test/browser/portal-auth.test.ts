/**
 * Signing in to the portal: with a two-factor code; "Session expired" bringing the form back over the same
 * page; sign-out; navigation gated by the caller's permissions (what a role may not do is not offered); and
 * host and door roles, which lack the venue settings permission, working from `GET /api/my-floor-venues`.
 */
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, insertVenue, TEST_PASSWORD, type TestOperator } from '../helpers/app.js';
import { chromiumPresent, expectAccessible, openPortal, screenshot, signIn, startPortal, type PortalHarness } from './portal-harness.js';

let h: PortalHarness;

describe.skipIf(!chromiumPresent)('signing in to the portal', () => {
  beforeAll(async () => {
    h = await startPortal();
  }, 60_000);
  afterAll(async () => h?.close());

  it('asks for the authenticator code when two-factor is on', async () => {
    const op = await createOperator(h.t, 'Two Step Bistro');
    const { secret } = (await h.t.app.inject({ method: 'POST', url: '/api/2fa/setup', headers: op.headers })).json() as { secret: string };
    const code = () => generate({ secret, epoch: Math.floor(h.t.clock.now().getTime() / 1000) });
    const enabled = await h.t.app.inject({ method: 'POST', url: '/api/2fa/enable', headers: op.headers, payload: { code: await code() } });
    expect(enabled.statusCode).toBe(200);

    const { page, problems } = await openPortal(h, 820);
    await page.goto(`${h.origin}/app/floor`);
    await signIn(page, op.email, TEST_PASSWORD);
    await page.getByLabel('Authentication code').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'two-factor');
    // The code of the server's clock (the test clock), not of the machine's.
    h.t.clock.advance(31_000);
    await page.getByLabel('Authentication code').fill(await code());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.getByRole('heading', { name: 'No venues yet' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('brings the form back when the session expires, then the same page', async () => {
    const { page, problems } = await openPortal(h, 1280);
    const url = `${h.origin}/app/floor?venue=${h.venueId}&date=2026-06-16&view=list`;
    await page.goto(url);
    await signIn(page);
    await page.getByRole('table').waitFor();
    // The session ends elsewhere (signed out on another device, or expired).
    const token = await page.evaluate(() => (JSON.parse(sessionStorage.getItem('maitred.session')!) as { token: string }).token);
    await h.t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { authorization: `Bearer ${token}` } });
    await page.getByRole('button', { name: 'Next day' }).click();
    await page.getByText('Session expired').waitFor();
    await expectAccessible(page);
    await signIn(page);
    await page.getByRole('table').waitFor();
    expect(page.url()).toContain('view=list');
    expect(page.url()).toContain('date=2026-06-17');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('offers only what the role may do: a read-only host sees the floor without Door, New… or actions', async () => {
    const host = await createStaff(
      h.t,
      { operatorId: h.operatorId } as TestOperator,
      { bookings: 'read', venues: 'read', tables: 'read', availability: 'read' },
      [h.venueId],
    );
    const { page, problems } = await openPortal(h, 1280);
    await page.goto(`${h.origin}/app/floor?venue=${h.venueId}`);
    await signIn(page, host.email, TEST_PASSWORD);
    await page.getByRole('region', { name: 'Reservations by table and time' }).waitFor();
    await page.getByRole('link', { name: 'Floor', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Door' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'New…' }).count()).toBe(0);
    await page.locator('.pill').first().click();
    const drawer = page.getByRole('dialog');
    await drawer.getByRole('tab', { name: 'Details' }).waitFor();
    expect(await drawer.getByRole('button', { name: /No-show|Seat|Cancel/ }).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });
  it('lets host and door roles without the venue settings permission pick their venue and use the floor and the door', async () => {
    // A second venue in the account: the host's role is scoped to the first, the door role's to both.
    const backRoom = await insertVenue(h.t, h.operatorId, { name: 'Back Room', timezone: 'Europe/London' });
    const operator = { operatorId: h.operatorId } as TestOperator;
    const host = await createStaff(h.t, operator, { bookings: 'write', tables: 'read', guests: 'read' }, [h.venueId]);
    const door = await createStaff(h.t, operator, { bookings: 'write' }, [h.venueId, backRoom]);
    for (const who of [host, door]) expect((await h.t.app.inject({ url: '/api/my-venues', headers: who.headers })).statusCode).toBe(403);

    const { page, problems } = await openPortal(h, 820);
    await page.goto(`${h.origin}/app/`);
    await signIn(page, host.email, TEST_PASSWORD);
    await page.getByRole('region', { name: 'Reservations by table and time' }).waitFor();
    // The venue, its name and its day, from /api/my-floor-venues.
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('The Night Owl');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('Mon, 15 Jun 2026');
    await expect.poll(() => page.locator('.pill').count()).toBeGreaterThan(5);
    await page.getByRole('button', { name: 'New…' }).waitFor();
    await page.locator('.venue-switch button').click();
    await expect.poll(() => page.getByRole('option').allTextContents()).toEqual(['The Night Owl']);
    await page.keyboard.press('Escape');
    await expectAccessible(page);
    await screenshot(page, 'host-floor');
    await page.getByRole('button', { name: 'Sign out' }).click();

    // The door role: no tables, so the floor is the day's list; both venues in the switcher; the door.
    await signIn(page, door.email, TEST_PASSWORD);
    // Without a venue in the URL, the first of the role's venues by name.
    await page.getByRole('table').waitFor();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('Back Room');
    await page.getByText('List only: your role cannot see tables').waitFor();
    await screenshot(page, 'door-role-floor');
    // New… offers bookings and walk-ins, not blocks (`tables` write).
    await page.getByRole('button', { name: 'New…' }).click();
    await page.getByRole('radio', { name: 'Walk-in' }).waitFor();
    expect(await page.getByRole('radio', { name: 'Block' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Reservations by table and time' }).count()).toBe(0);
    await page.locator('.venue-switch button').click();
    await expect.poll(() => page.getByRole('option').allTextContents()).toEqual(['Back Room', 'The Night Owl']);
    await page.getByRole('option', { name: 'The Night Owl' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('The Night Owl');
    expect(page.url()).toContain(`venue=${h.venueId}`);
    await expect.poll(() => page.getByRole('row').count()).toBeGreaterThan(5);
    await page.getByRole('link', { name: 'Door' }).click();
    await page.getByRole('heading', { name: 'Door', level: 1 }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'door-role');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
