/**
 * Invitations, as the demo Owner: inviting a person by email with a role in the Team page's dialog, the
 * pending invitation listed; the mailed link (read from the outbox) opened in a fresh page without a
 * session, where the invitee chooses a password (typed twice) and lands signed in on the floor; the
 * invitation then no longer pending. At 820 px a second invitation is revoked and its link then says so.
 * The API confirms each step; axe on every page; screenshots at 1280 and 820.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_VENUE } from '../../src/demo/demo.js';
import { mailsTo } from '../helpers/app.js';
import {
  chromiumPresent,
  expectAccessible,
  openPortal,
  openSignedIn,
  screenshot,
  startPortal,
  type PortalHarness,
} from './portal-harness.js';

/** The demo account's name (src/demo/demo.ts). */
const DEMO_OPERATOR = 'Night Owl Hospitality Ltd';
const IVY = { name: 'Ivy Invitee', email: 'ivy.invitee@nightowl.test', password: 'joining the team 42' };
const OLLIE = { name: 'Ollie Other', email: 'ollie.other@nightowl.test' };

let h: PortalHarness;
let roleId: string;

type Invitation = { id: string; email: string; name: string; role_id: string };
const pending = async () => {
  const res = await h.t.app.inject({ url: '/api/my-users/invitations', headers: h.staff });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: Invitation[] }).data;
};

/** The link in the newest invitation mail to `email`, as mailed. */
async function mailedLink(email: string) {
  const mails = await mailsTo(h.t, email);
  const link = /(http\S+\/app\/invitation\?token=[A-Za-z0-9_-]+)/.exec(mails.at(-1)?.text_body ?? '')?.[1];
  if (!link) throw new Error(`no invitation mailed to ${email}`);
  return link;
}

async function inviteInDialog(page: Page, person: { name: string; email: string }, width: number) {
  await page.getByRole('button', { name: 'Invite by email' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite by email' });
  await dialog.getByLabel('Name').fill(person.name);
  await dialog.getByLabel('Email').fill(person.email);
  await dialog.getByLabel('Role').selectOption({ label: 'Host' });
  await expectAccessible(page);
  await screenshot(page, `team-invite-dialog-${width === 1280 ? 'wide' : 'narrow'}`);
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.locator('.team-invitations .setup-item').filter({ hasText: person.email }).waitFor();
}

describe.skipIf(!chromiumPresent)('invitations on the team page', () => {
  beforeAll(async () => {
    // The app's public address is the one it listens on, so the mailed link opens as it is.
    h = await startPortal({ realOrigin: true });
    const created = await h.t.app.inject({ method: 'POST', url: '/api/my-roles', headers: h.staff, payload: { name: 'Host' } });
    roleId = created.json().id;
    const grid = await h.t.app.inject({
      method: 'PUT',
      url: `/api/my-roles/${roleId}`,
      headers: h.staff,
      payload: { name: 'Host', permissions: [{ permission_key: 'bookings', can_read: true, can_write: true }] },
    });
    expect(grid.statusCode, grid.body).toBe(200);
  }, 150_000);
  afterAll(async () => h?.close());

  it('the Owner invites by email; the invitee opens the mailed link, chooses a password and lands signed in', async () => {
    const { page, problems } = await openSignedIn(h, '/team', 'Team');
    await page.getByRole('heading', { name: 'Portal users', level: 2 }).waitFor();
    await inviteInDialog(page, IVY, 1280);
    const [invitation] = await pending();
    expect(invitation).toMatchObject({ email: IVY.email, name: IVY.name, role_id: roleId });
    const listed = page.locator('.team-invitations .setup-item').filter({ hasText: IVY.email });
    await listed.getByText(/Host · sent/).waitFor();
    await page.getByRole('heading', { name: 'Pending invitations' }).scrollIntoViewIfNeeded();
    await expectAccessible(page);
    await screenshot(page, 'team-invitations-pending');

    const link = await mailedLink(IVY.email);
    expect(link.startsWith(`${h.origin}/app/invitation?token=`)).toBe(true);
    const fresh = await openPortal(h, 1280);
    await fresh.page.goto(link);
    await fresh.page.getByRole('heading', { name: `Join ${DEMO_OPERATOR}`, level: 1 }).waitFor();
    await fresh.page.getByText('Demo Owner invited you, Ivy Invitee').waitFor();
    await fresh.page.getByText(IVY.email).waitFor();
    await expectAccessible(fresh.page);
    await screenshot(fresh.page, 'invitation-page');

    await fresh.page.getByLabel(/^Password/).fill(IVY.password);
    await fresh.page.getByLabel('Repeat the password').fill('not the same 42');
    await fresh.page.getByRole('button', { name: 'Accept and sign in' }).click();
    await fresh.page.getByRole('alert').getByText('The two passwords differ').waitFor();
    expect(await pending()).toHaveLength(1);

    await fresh.page.getByLabel('Repeat the password').fill(IVY.password);
    await fresh.page.getByRole('button', { name: 'Accept and sign in' }).click();
    await fresh.page.getByRole('heading', { name: new RegExp(DEMO_VENUE), level: 1 }).waitFor();
    await fresh.page.waitForURL(/\/app\/floor/);
    await fresh.page.locator('.topbar__user').getByText(IVY.name).waitFor();
    expect(await fresh.page.getByRole('link', { name: 'Team' }).count()).toBe(0);
    await expectAccessible(fresh.page);
    await screenshot(fresh.page, 'invitation-signed-in');

    expect(await pending()).toEqual([]);
    const users = await h.t.app.inject({ url: '/api/my-users', headers: h.staff });
    expect(users.json().data).toContainEqual(expect.objectContaining({ email: IVY.email, name: IVY.name, role_id: roleId }));

    // The Owner's list drops it once refreshed.
    await page.reload();
    await page.getByRole('heading', { name: 'Portal users', level: 2 }).waitFor();
    await page.locator('#users .setup-item').filter({ hasText: IVY.email }).waitFor();
    expect(await page.getByRole('heading', { name: 'Pending invitations' }).count()).toBe(0);
    expect(problems).toEqual([]);
    expect(fresh.problems).toEqual([]);
  });

  it('at 820 px: a revoked invitation leaves the list and its link says it is no longer valid', async () => {
    const { page, problems } = await openSignedIn(h, '/team', 'Team', { width: 820 });
    await inviteInDialog(page, OLLIE, 820);
    const link = await mailedLink(OLLIE.email);
    const invitee = await openPortal(h, 820);
    await invitee.page.goto(link);
    await invitee.page.getByRole('heading', { name: `Join ${DEMO_OPERATOR}`, level: 1 }).waitFor();
    await screenshot(invitee.page, 'invitation-page');

    const item = page.locator('.team-invitations .setup-item').filter({ hasText: OLLIE.email });
    await item.scrollIntoViewIfNeeded();
    await screenshot(page, 'team-invitations-pending');
    await item.getByRole('button', { name: `Revoke the invitation of ${OLLIE.name}` }).click();
    await item.getByRole('button', { name: 'Really revoke' }).click();
    await item.waitFor({ state: 'detached' });
    expect(await pending()).toEqual([]);

    await invitee.page.reload();
    await invitee.page.getByRole('heading', { name: 'Invitation not valid', level: 1 }).waitFor();
    await expectAccessible(invitee.page);
    await screenshot(invitee.page, 'invitation-not-valid');
    expect(problems).toEqual([]);
    expect(invitee.problems).toEqual([]);
  });
});
