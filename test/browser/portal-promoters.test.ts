/**
 * Promoters, end to end in the portal: the demo Owner invites a promoter on the Promoters page; the mailed
 * link (read from the outbox) opened without a session, where the promoter chooses a password and lands on
 * their own events; the promoter submits an event; a second promoter (through the API) submits another;
 * the venue approves the first and rejects the second with a reason (mailed); a guest buys a ticket (the
 * API, with the simulated card); the promoter sees the sale, their share and the door list, and nothing of
 * the other promoter's event, and staff pages send them back to their events. Axe on every page; screenshots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_VENUE } from '../../src/demo/demo.js';
import { buyPaid, finalize } from '../../src/modules/events/events.test-support.js';
import { bearer, login, mailsTo } from '../helpers/app.js';
import {
  chromiumPresent,
  expectAccessible,
  openPortal,
  openSignedIn,
  screenshot,
  startPortal,
  type PortalHarness,
} from './portal-harness.js';

const PAT = { name: 'Pat Promoter', email: 'pat.promoter@example.test', password: 'promoting nights 42' };
const RIVAL = { name: 'Rita Rival', email: 'rita.rival@example.test', password: 'rival nights 42' };
const NIGHT = { name: 'Warehouse Night', date: '2026-08-21' };
const OTHER = { name: 'Rival Night', date: '2026-08-22' };

let h: PortalHarness;

async function mailedLink(email: string) {
  const mails = await mailsTo(h.t, email);
  const link = /(http\S+\/app\/promoter-invitation\?token=[A-Za-z0-9_-]+)/.exec(mails.at(-1)?.text_body ?? '')?.[1];
  if (!link) throw new Error(`no promoter invitation mailed to ${email}`);
  return link;
}

const inject = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) =>
  h.t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

describe.skipIf(!chromiumPresent)('promoters in the portal', () => {
  beforeAll(async () => {
    h = await startPortal({ realOrigin: true });
  }, 150_000);
  afterAll(async () => h?.close());

  it('invite, submit, approve, a sale: the promoter sees the sale and the door list and nothing of another promoter', async () => {
    // The venue invites Pat on the Promoters page.
    const venue = await openSignedIn(h, `/promoters?venue=${h.venueId}`, 'Promoters');
    await venue.page.getByRole('heading', { name: 'Invite a promoter', level: 2 }).waitFor();
    await venue.page.getByLabel('Name').fill(PAT.name);
    await venue.page.getByLabel('Email').fill(PAT.email);
    await venue.page.getByLabel('Share (%)').fill('20');
    await venue.page.getByRole('button', { name: 'Send invitation' }).click();
    await venue.page.getByRole('status').getByText(`Invitation mailed to ${PAT.email}.`).waitFor();
    await venue.page.getByText('Pending invitations').waitFor();
    await expectAccessible(venue.page);
    await screenshot(venue.page, 'promoters-invited');

    // Pat opens the mailed link, chooses a password and lands on their events.
    const link = await mailedLink(PAT.email);
    expect(link.startsWith(`${h.origin}/app/promoter-invitation?token=`)).toBe(true);
    const pat = await openPortal(h, 1280);
    await pat.page.goto(link);
    await pat.page.getByRole('heading', { name: `Run events at ${DEMO_VENUE}`, level: 1 }).waitFor();
    await expectAccessible(pat.page);
    await pat.page.getByLabel(/^Password/).fill(PAT.password);
    await pat.page.getByLabel('Repeat the password').fill(PAT.password);
    await pat.page.getByRole('button', { name: 'Accept and sign in' }).click();
    await pat.page.getByRole('heading', { name: 'My events', level: 1 }).waitFor();
    await pat.page.waitForURL(/\/app\/promoter/);
    await pat.page.getByText('No events yet').waitFor();

    // Pat submits an event.
    await pat.page.getByLabel('Event name').fill(NIGHT.name);
    await pat.page.getByLabel('Date').fill(NIGHT.date);
    await pat.page.getByLabel('Starts').fill('22:00');
    await pat.page.getByRole('button', { name: 'Submit for approval' }).click();
    await pat.page.getByRole('status').getByText(`${NIGHT.name} was sent to the venue for approval.`).waitFor();
    const listed = pat.page.locator('.promoters__item').filter({ hasText: NIGHT.name });
    await listed.getByText('Awaiting the venue').waitFor();
    await expectAccessible(pat.page);
    await screenshot(pat.page, 'promoter-submitted');

    // A second promoter of the venue, through the API, submits another event.
    await inject('POST', `/api/my-venues/${h.venueId}/promoters/invitations`, h.staff, {
      email: RIVAL.email,
      name: RIVAL.name,
      share_percent: 10,
    });
    const token = /token=([A-Za-z0-9_-]+)/.exec(await mailedLink(RIVAL.email))![1]!;
    expect((await inject('POST', '/api/promoter-invitations/accept', {}, { token, password: RIVAL.password })).statusCode).toBe(201);
    const rival = bearer(await login(h.t, RIVAL.email, RIVAL.password));
    const submitted = await inject('POST', '/api/promoter/events', rival, {
      venue_id: h.venueId,
      name: OTHER.name,
      event_date: OTHER.date,
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const rivalEventId = submitted.json().id as string;

    // The venue approves Pat's event and rejects the other with a reason.
    await venue.page.reload();
    await venue.page.getByRole('heading', { name: 'Submissions awaiting approval', level: 2 }).waitFor();
    await venue.page.getByText(`by ${PAT.name}`).waitFor();
    await venue.page.getByText(`by ${RIVAL.name}`).waitFor();
    await expectAccessible(venue.page);
    await screenshot(venue.page, 'promoters-submissions');
    await venue.page.getByRole('button', { name: `Approve ${NIGHT.name}` }).click();
    await venue.page.getByRole('status').getByText(`Approved ${NIGHT.name}.`).waitFor();
    await venue.page.getByRole('button', { name: `Reject ${OTHER.name}` }).click();
    await venue.page.getByLabel('Reason (mailed to the promoter)').fill('That weekend is a private hire.');
    await venue.page.getByRole('button', { name: 'Reject', exact: true }).click();
    await venue.page.getByRole('status').getByText(`Rejected ${OTHER.name}: the promoter is told why.`).waitFor();
    await venue.page.getByText('No submissions are waiting.').waitFor();
    expect((await mailsTo(h.t, RIVAL.email)).at(-1)?.text_body).toContain('That weekend is a private hire.');
    expect((await mailsTo(h.t, PAT.email)).at(-1)?.subject).toBe(`${DEMO_VENUE} approved ${NIGHT.name}`);

    // A guest buys two tickets with the simulated card.
    const mine = (await inject('GET', '/api/promoter/events', bearer(await login(h.t, PAT.email, PAT.password)))).json().data;
    const eventId = mine.find((event: { name: string }) => event.name === NIGHT.name).id as string;
    const type = await inject('POST', `/api/my-events/${eventId}/ticket-types`, h.staff, { name: 'Early bird', price_pence: 1500 });
    expect(type.statusCode, type.body).toBe(200);
    const paid = await buyPaid(h.t, eventId, type.json().id, 2, 'guest.buyer@example.test');
    expect((await finalize(h.t, eventId, paid.payment_intent_id)).json()).toMatchObject({ status: 'confirmed' });

    // Pat sees the sale, the share and the door list of their event.
    await pat.page.reload();
    await pat.page.getByRole('link', { name: NIGHT.name }).click();
    await pat.page.getByRole('heading', { name: NIGHT.name, level: 1 }).waitFor();
    await pat.page.getByText('Approved').first().waitFor();
    const sales = pat.page.locator('section').filter({ has: pat.page.getByRole('heading', { name: 'Sales', level: 2 }) });
    await sales.getByText('£30.00').first().waitFor();
    await sales.getByText('£6.00').first().waitFor();
    const door = pat.page.locator('section').filter({ has: pat.page.getByRole('heading', { name: 'Door list', level: 2 }) });
    await door.getByRole('cell', { name: 'Ada Guest' }).waitFor();
    await door.getByRole('cell', { name: 'Early bird' }).waitFor();
    await expectAccessible(pat.page);
    await screenshot(pat.page, 'promoter-event-sales');

    // Nothing of the other promoter's event: not listed, not opened by its id; staff pages lead back.
    await pat.page.goto(`${h.origin}/app/promoter?event=${rivalEventId}`);
    await pat.page.getByRole('heading', { name: 'My events', level: 1 }).waitFor();
    await pat.page.getByRole('link', { name: NIGHT.name }).waitFor();
    expect(await pat.page.getByText(OTHER.name).count()).toBe(0);
    await pat.page.getByText('£6.00').first().waitFor();
    await pat.page.goto(`${h.origin}/app/guests`);
    await pat.page.getByRole('heading', { name: 'My events', level: 1 }).waitFor();
    await pat.page.waitForURL(/\/app\/promoter/);
    expect(await pat.page.getByRole('link', { name: 'Guests' }).count()).toBe(0);
    expect(await pat.page.getByText(OTHER.name).count()).toBe(0);
    await screenshot(pat.page, 'promoter-home');

    expect(venue.problems).toEqual([]);
    expect(pat.problems).toEqual([]);
  });
});
