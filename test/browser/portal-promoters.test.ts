/**
 * Promoters, end to end in the portal: the demo Owner invites a promoter on the Promoters page; the mailed
 * link (read from the outbox) opened without a session, where the promoter chooses a password and lands on
 * their own events; the promoter submits an event; a second promoter (through the API) submits another;
 * the venue approves the first and rejects the second with a reason (mailed); a guest buys a ticket (the
 * API, with the simulated card); the promoter sees the sale, their share and the door list, and nothing of
 * the other promoter's event, and staff pages send them back to their events. Self sign-up: from the sign-in
 * page's "Promoter? Sign up", name, email and password, then the code mailed (read from the outbox), into the
 * promoter's events, where they ask the venue; accepted, their event's sale and its refund show as rows.
 * Axe on every page; screenshots.
 */
import { createHash } from 'node:crypto';
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
const SAM = { name: 'Sam Signup', email: 'sam.signup@example.test', password: 'signing up nights 42' };
const SAMS_NIGHT = { name: 'Basement Session', date: '2026-08-28' };

let h: PortalHarness;

async function mailedLink(email: string) {
  const mails = await mailsTo(h.t, email);
  const link = /(http\S+\/app\/promoter-invitation\?token=[A-Za-z0-9_-]+)/.exec(mails.at(-1)?.text_body ?? '')?.[1];
  if (!link) throw new Error(`no promoter invitation mailed to ${email}`);
  return link;
}

/** The code of the address's newest pending promoter sign-up, from the mails it was sent. */
async function mailedCode(email: string): Promise<string> {
  const row = await h.t.db.kysely
    .selectFrom('promoter_sign_ups')
    .selectAll()
    .where('email', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const code = (await mailsTo(h.t, email))
    .flatMap((m) => m.subject.match(/verification code: (\d{6})$/)?.[1] ?? [])
    .find((c) => createHash('sha256').update(`${row.code_salt}:${c}`).digest('hex') === row.code_hash);
  if (!code) throw new Error(`no sign-up code mailed to ${email}`);
  return code;
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
    // Found by what they say: the outbox has no order to read "the last" mail by.
    expect((await mailsTo(h.t, RIVAL.email)).filter((m) => m.text_body?.includes('That weekend is a private hire.'))).toHaveLength(1);
    expect((await mailsTo(h.t, PAT.email)).filter((m) => m.subject === `${DEMO_VENUE} approved ${NIGHT.name}`)).toHaveLength(1);

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

  it('signs up from the sign-in page with the mailed code, asks the venue, and sees a sale and its refund', async () => {
    const sam = await openPortal(h, 1280);
    await sam.page.goto(`${h.origin}/app/`);
    await sam.page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    await sam.page.getByRole('link', { name: 'Promoter? Sign up' }).click();
    await sam.page.getByRole('heading', { name: 'Sign up as a promoter', level: 1 }).waitFor();
    await sam.page.waitForURL(/\/app\/promoter-sign-up$/);
    await expectAccessible(sam.page);
    await sam.page.getByLabel(/^Your name/).fill(SAM.name);
    await sam.page.getByLabel('Email').fill(SAM.email);
    await sam.page.getByLabel(/^Password/).fill(SAM.password);
    await sam.page.getByLabel('Repeat the password').fill(`${SAM.password}!`);
    await sam.page.getByRole('button', { name: 'Send me a code' }).click();
    await sam.page.getByRole('alert').getByText('The two passwords differ').waitFor();
    await sam.page.getByLabel('Repeat the password').fill(SAM.password);
    await screenshot(sam.page, 'promoter-sign-up');
    await sam.page.getByRole('button', { name: 'Send me a code' }).click();
    await sam.page.getByRole('heading', { name: 'Check your email', level: 1 }).waitFor();
    await sam.page.getByText(SAM.email).waitFor();
    // Nothing exists before the code.
    expect(await h.t.db.kysely.selectFrom('users').select('id').where('email', '=', SAM.email).execute()).toEqual([]);
    await expectAccessible(sam.page);
    await screenshot(sam.page, 'promoter-sign-up-code');

    const code = await mailedCode(SAM.email);
    await sam.page.getByLabel('Code from the email').fill(code === '000000' ? '000001' : '000000');
    await sam.page.getByRole('button', { name: 'Create my account' }).click();
    await sam.page.getByRole('alert').getByText('Invalid or expired verification code').waitFor();
    await sam.page.getByLabel('Code from the email').fill(code);
    await sam.page.getByRole('button', { name: 'Create my account' }).click();
    await sam.page.getByRole('heading', { name: 'My events', level: 1 }).waitFor();
    await sam.page.waitForURL(/\/app\/promoter/);
    await sam.page.getByText('No venue has accepted you yet').waitFor();
    await sam.page.getByText(SAM.name).first().waitFor();

    // Sam asks the venue by its id.
    await sam.page.getByLabel('Venue id (from the venue)').fill(h.venueId);
    await sam.page.getByRole('button', { name: 'Ask to run events there' }).click();
    await sam.page.getByRole('status').getByText('Request sent: the venue will accept or decline it.').waitFor();
    await expectAccessible(sam.page);

    // The venue accepts at 25%; Sam's event is approved, a guest buys a ticket, and the venue cancels it with a refund.
    const samId = (await h.t.db.kysely.selectFrom('users').select('id').where('email', '=', SAM.email).executeTakeFirstOrThrow()).id;
    const accepted = await inject('POST', `/api/my-venues/${h.venueId}/promoters/${samId}/accept`, h.staff, { share_percent: 25 });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const samHeaders = bearer(await login(h.t, SAM.email, SAM.password));
    const night = await inject('POST', '/api/promoter/events', samHeaders, {
      venue_id: h.venueId,
      name: SAMS_NIGHT.name,
      event_date: SAMS_NIGHT.date,
    });
    expect(night.statusCode, night.body).toBe(201);
    const eventId = night.json().id as string;
    expect((await inject('POST', `/api/my-events/${eventId}/approve`, h.staff)).statusCode).toBe(200);
    const type = await inject('POST', `/api/my-events/${eventId}/ticket-types`, h.staff, { name: 'Door', price_pence: 1000 });
    const paid = await buyPaid(h.t, eventId, type.json().id, 1, 'refunded.buyer@example.test');
    expect((await finalize(h.t, eventId, paid.payment_intent_id)).json()).toMatchObject({ status: 'confirmed' });
    const cancelled = await inject('POST', `/api/bookings/${paid.booking_id}/staff-cancel`, h.staff, { refund: true });
    expect(cancelled.statusCode, cancelled.body).toBe(200);

    await sam.page.reload();
    await sam.page.getByRole('link', { name: SAMS_NIGHT.name }).click();
    await sam.page.getByRole('heading', { name: SAMS_NIGHT.name, level: 1 }).waitFor();
    const sales = sam.page.getByRole('region', { name: 'Sales with your share' });
    const sale = sales.getByRole('row').filter({ has: sam.page.getByRole('cell', { name: 'Sale', exact: true }) });
    const refund = sales.getByRole('row').filter({ has: sam.page.getByRole('cell', { name: 'Refund', exact: true }) });
    await sale.getByRole('cell', { name: '£10.00' }).waitFor();
    await sale.getByRole('cell', { name: '£2.50' }).waitFor();
    await refund.getByRole('cell', { name: '-£10.00' }).waitFor();
    await refund.getByRole('cell', { name: '-£2.50' }).waitFor();
    const figures = sam.page.locator('section').filter({ has: sam.page.getByRole('heading', { name: 'Sales', level: 2 }) });
    await figures.getByText('Refunded').waitFor();
    await expectAccessible(sam.page);
    await screenshot(sam.page, 'promoter-refund');

    expect(sam.problems).toEqual([]);
  });
});
