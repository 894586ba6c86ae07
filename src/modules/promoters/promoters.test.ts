/**
 * Promoters over HTTP on both engines: invitations (mail in the transaction, token hashed, one account
 * from two racing accepts), self sign-up (its code: promoter-sign-up.test.ts) and the venue's accept/decline/share/end, submissions arriving as
 * `pending_venue_approval` and the venue's approve/reject (reason mailed), and every permission boundary:
 * a promoter reaches only their own events (404 otherwise) and no operator route (403), and a venue
 * without an agreement never sees a promoter's submissions. A sale records the promoter's share.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createStaff, createTestApp, login, mailsTo, setupVenue, uniqueEmail, type TestApp } from '../../../test/helpers/app.js';
import { addTicketType, buy, buyPaid, EVENT_DATE, eventsApi, finalize } from '../events/events.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const PASSWORD = 'promoter-password-1';
const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string> = {}, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

async function tokenFor(email: string) {
  const mails = await mailsTo(t, email);
  const match = /\/app\/promoter-invitation\?token=([A-Za-z0-9_-]+)/.exec(mails.at(-1)?.text_body ?? '');
  if (!match) throw new Error(`no invitation mailed to ${email}`);
  return match[1]!;
}

/** A venue (its Owner signed in) and a promoter invited by it, signed in. */
async function invitedPromoter(share = 20) {
  const setup = await setupVenue(t);
  const email = uniqueEmail('promoter');
  const invite = await call('POST', `/api/my-venues/${setup.venueId}/promoters/invitations`, setup.op.headers, {
    email,
    name: 'Pat Promoter',
    share_percent: share,
  });
  expect(invite.statusCode, invite.body).toBe(201);
  const accepted = await call('POST', '/api/promoter-invitations/accept', {}, { token: await tokenFor(email), password: PASSWORD });
  expect(accepted.statusCode, accepted.body).toBe(201);
  const headers = bearer(await login(t, email, PASSWORD));
  return { ...setup, email, promoterId: accepted.json().id as string, headers };
}

async function submit(headers: Record<string, string>, venueId: string, fields: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/promoter/events', headers, {
    venue_id: venueId,
    name: 'Promoter Night',
    event_date: EVENT_DATE,
    start_time: '22:00',
    ...fields,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

describe('invitations', () => {
  it('mails a hashed token in the transaction; accepting creates a promoter with an active agreement at the share', async () => {
    const setup = await setupVenue(t);
    const email = uniqueEmail('invitee');
    const res = await call('POST', `/api/my-venues/${setup.venueId}/promoters/invitations`, setup.op.headers, {
      email,
      name: 'Ivy Invitee',
      share_percent: 15,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ email, name: 'Ivy Invitee', share_percent: 15, venue_id: setup.venueId });
    const token = await tokenFor(email);
    const stored = await t.db.kysely.selectFrom('promoter_invitations').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect((await call('GET', `/api/my-venues/${setup.venueId}/promoters/invitations`, setup.op.headers)).json().data).toHaveLength(1);
    // Again for the same address: 409.
    const again = await call('POST', `/api/my-venues/${setup.venueId}/promoters/invitations`, setup.op.headers, {
      email,
      name: 'Ivy',
      share_percent: 1,
    });
    expect(again.statusCode).toBe(409);

    const preview = await call('GET', `/api/promoter-invitations/${token}`);
    expect(preview.json()).toMatchObject({ email, name: 'Ivy Invitee', share_percent: 15, venue_name: 'Test Venue' });
    const accepted = await call('POST', '/api/promoter-invitations/accept', {}, { token, password: PASSWORD });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect((await call('GET', `/api/promoter-invitations/${token}`)).statusCode).toBe(404);
    const login = await call('POST', '/api/auth/login', {}, { email, password: PASSWORD });
    expect(login.json().user).toMatchObject({ role: 'promoter', operator_id: null });
    const headers = bearer(login.json().token);
    const agreements = (await call('GET', '/api/promoter/agreements', headers)).json().data;
    expect(agreements).toEqual([
      expect.objectContaining({
        venue_id: setup.venueId,
        status: 'active',
        share_percent: 15,
        requested_by: 'venue',
        venue_name: 'Test Venue',
      }),
    ]);
    const list = (await call('GET', `/api/my-venues/${setup.venueId}/promoters`, setup.op.headers)).json().data;
    expect(list).toEqual([expect.objectContaining({ promoter_email: email, promoter_name: 'Ivy Invitee', status: 'active' })]);
  });

  it('two racing accepts of one link create one account', async () => {
    const setup = await setupVenue(t);
    const email = uniqueEmail('racer');
    await call('POST', `/api/my-venues/${setup.venueId}/promoters/invitations`, setup.op.headers, {
      email,
      name: 'Racer',
      share_percent: 10,
    });
    const token = await tokenFor(email);
    const answers = await Promise.all([
      call('POST', '/api/promoter-invitations/accept', {}, { token, password: 'first-password-1' }),
      call('POST', '/api/promoter-invitations/accept', {}, { token, password: 'second-password-2' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 404].sort());
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    const users = await t.db.kysely.selectFrom('users').select('id').where('email', '=', email).execute();
    expect(users).toHaveLength(1);
    const agreements = await t.db.kysely.selectFrom('promoter_agreements').select('id').where('promoter_id', '=', users[0]!.id).execute();
    expect(agreements).toHaveLength(1);
  });

  it('validates, needs events:write, and answers 404 for another account’s venue', async () => {
    const setup = await setupVenue(t);
    const other = await setupVenue(t);
    const url = `/api/my-venues/${setup.venueId}/promoters/invitations`;
    const body = { email: uniqueEmail('x'), name: 'X', share_percent: 10 };
    expect((await call('POST', url, setup.op.headers, { ...body, share_percent: 101 })).statusCode).toBe(400);
    expect((await call('POST', url, setup.op.headers, { ...body, email: 'nope' })).statusCode).toBe(400);
    expect((await call('POST', url, {}, body)).statusCode).toBe(401);
    const reader = await createStaff(t, setup.op, { events: 'read' });
    expect((await call('POST', url, reader.headers, body)).statusCode).toBe(403);
    expect((await call('GET', `/api/my-venues/${setup.venueId}/promoters`, reader.headers)).statusCode).toBe(200);
    const none = await createStaff(t, setup.op, { tables: 'read' });
    expect((await call('GET', `/api/my-venues/${setup.venueId}/promoters`, none.headers)).statusCode).toBe(403);
    expect((await call('POST', url, other.op.headers, body)).statusCode).toBe(404);
    // An email with an account already: 409.
    expect((await call('POST', url, setup.op.headers, { ...body, email: other.op.email })).statusCode).toBe(409);
    expect(await t.db.kysely.selectFrom('promoter_invitations').select('id').where('venue_id', '=', setup.venueId).execute()).toHaveLength(
      0,
    );
  });
});

describe('self sign-up and requests', () => {
  it('a promoter signs up, asks a venue; the venue accepts with a share, declines, ends', async () => {
    const setup = await setupVenue(t);
    const email = uniqueEmail('self');
    const reg = await call('POST', '/api/promoter/register', {}, { name: 'Sam Self', email, password: PASSWORD });
    expect(reg.statusCode, reg.body).toBe(202);
    // The outbox has no order to read "the last" by (random ids, one test clock instant): the code's mail by its subject.
    const code = (await mailsTo(t, email)).map((m) => /verification code: (\d{6})$/.exec(m.subject)?.[1]).find(Boolean);
    const verified = await call('POST', '/api/promoter/verify-email', {}, { email, code });
    expect(verified.statusCode, verified.body).toBe(201);
    const headers = bearer(await login(t, email, PASSWORD));
    const promoterId = verified.json().user.id;
    // No agreement yet: submitting is 404.
    expect(
      (await call('POST', '/api/promoter/events', headers, { venue_id: setup.venueId, name: 'N', event_date: EVENT_DATE })).statusCode,
    ).toBe(404);
    expect((await call('POST', '/api/promoter/agreements', headers, { venue_id: 'ven_missing' })).statusCode).toBe(404);
    expect((await call('POST', '/api/promoter/agreements', headers, { venue_id: setup.venueId })).statusCode).toBe(200);
    expect((await call('POST', '/api/promoter/agreements', headers, { venue_id: setup.venueId })).statusCode).toBe(409);
    const base = `/api/my-venues/${setup.venueId}/promoters/${promoterId}`;
    expect((await call('POST', `${base}/decline`, setup.op.headers)).statusCode).toBe(200);
    expect((await call('POST', `${base}/accept`, setup.op.headers, { share_percent: 30 })).statusCode).toBe(409);
    expect((await call('POST', '/api/promoter/agreements', headers, { venue_id: setup.venueId })).statusCode).toBe(200);
    expect((await call('POST', `${base}/accept`, setup.op.headers, { share_percent: 101 })).statusCode).toBe(400);
    expect((await call('POST', `${base}/accept`, setup.op.headers, { share_percent: 30 })).statusCode).toBe(200);
    expect((await call('GET', '/api/promoter/agreements', headers)).json().data[0]).toMatchObject({
      status: 'active',
      share_percent: 30,
      requested_by: 'promoter',
    });
    expect((await call('PATCH', base, setup.op.headers, { share_percent: 40 })).statusCode).toBe(200);
    const eventId = await submit(headers, setup.venueId);
    expect((await call('POST', `${base}/end`, setup.op.headers)).statusCode).toBe(200);
    expect((await call('POST', `${base}/end`, setup.op.headers)).statusCode).toBe(409);
    // Ended: no more submissions; the one made stays for the venue.
    expect(
      (await call('POST', '/api/promoter/events', headers, { venue_id: setup.venueId, name: 'N', event_date: '2026-07-11' })).statusCode,
    ).toBe(404);
    expect((await call('GET', `/api/promoter/events/${eventId}`, headers)).statusCode).toBe(200);
    // Another venue's owner cannot act on this venue's promoters.
    const other = await setupVenue(t);
    expect((await call('POST', `${base}/accept`, other.op.headers)).statusCode).toBe(404);
    expect((await call('POST', `/api/my-venues/${other.venueId}/promoters/${promoterId}/accept`, other.op.headers)).statusCode).toBe(404);
  });
});

describe('submissions', () => {
  it('arrive pending; the promoter edits while pending; the venue rejects with a reason mailed, then approves', async () => {
    const { op, venueId, email, headers } = await invitedPromoter();
    const eventId = await submit(headers, venueId);
    const mine = (await call('GET', `/api/promoter/events/${eventId}`, headers)).json().data;
    expect(mine).toMatchObject({ status: 'pending_venue_approval', venue_name: 'Test Venue', name: 'Promoter Night' });
    const submissions = (await call('GET', `/api/my-venues/${venueId}/promoters/submissions`, op.headers)).json().data;
    expect(submissions).toEqual([expect.objectContaining({ id: eventId, promoter_name: 'Pat Promoter' })]);
    expect((await call('PUT', `/api/promoter/events/${eventId}`, headers, { name: 'Renamed Night' })).statusCode).toBe(200);
    expect((await call('PUT', `/api/promoter/events/${eventId}`, headers, { event_date: '2026-02-30' })).statusCode).toBe(400);
    // The date is held: the venue's own event on it is refused.
    const events = eventsApi(t, op.headers);
    expect((await events.post('', { venue_id: venueId, name: 'Clash', event_date: EVENT_DATE, status: 'approved' })).statusCode).toBe(409);

    const rejected = await events.post(`/${eventId}/reject`, { reason: 'We are closed for a private hire.' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    // The outbox has no creation order to read back (random ids, one test clock instant): found by subject.
    const mails = await mailsTo(t, email);
    const rejection = mails.filter((m) => m.subject === 'Test Venue did not approve Renamed Night');
    expect(rejection).toHaveLength(1);
    expect(rejection[0].text_body).toContain('We are closed for a private hire.');
    expect((await call('PUT', `/api/promoter/events/${eventId}`, headers, { name: 'Too late' })).statusCode).toBe(409);
    expect((await events.post(`/${eventId}/approve`)).statusCode).toBe(200);
    expect((await mailsTo(t, email)).filter((m) => m.subject === 'Test Venue approved Renamed Night')).toHaveLength(1);
    expect((await call('GET', `/api/promoter/events/${eventId}`, headers)).json().data.status).toBe('approved');
    expect((await call('DELETE', `/api/promoter/events/${eventId}`, headers)).statusCode).toBe(409);
    // Reject without a body still works (the spec's call).
    const second = await submit(headers, venueId, { event_date: '2026-07-20' });
    expect((await events.post(`/${second}/reject`)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/promoter/events/${second}`, headers)).statusCode).toBe(200);
  });

  it('a venue without an agreement never sees the promoter’s submissions', async () => {
    const a = await invitedPromoter();
    const other = await setupVenue(t);
    await submit(a.headers, a.venueId);
    expect(
      (await call('POST', '/api/promoter/events', a.headers, { venue_id: other.venueId, name: 'N', event_date: EVENT_DATE })).statusCode,
    ).toBe(404);
    expect((await call('GET', `/api/my-venues/${other.venueId}/promoters/submissions`, other.op.headers)).json().data).toEqual([]);
    expect((await call('GET', `/api/my-venues/${other.venueId}/events`, other.op.headers)).json().data).toEqual([]);
    expect((await call('GET', `/api/my-venues/${other.venueId}/promoters`, other.op.headers)).json().data).toEqual([]);
    expect((await call('GET', `/api/my-venues/${a.venueId}/promoters/submissions`, other.op.headers)).statusCode).toBe(404);
  });
});

describe('permission boundaries', () => {
  it('promoter A reaches none of promoter B’s events, stats, door list or sales (404)', async () => {
    const a = await invitedPromoter();
    const email = uniqueEmail('b');
    await call('POST', `/api/my-venues/${a.venueId}/promoters/invitations`, a.op.headers, { email, name: 'B', share_percent: 5 });
    await call('POST', '/api/promoter-invitations/accept', {}, { token: await tokenFor(email), password: PASSWORD });
    const b = bearer(await login(t, email, PASSWORD));
    const aEvent = await submit(a.headers, a.venueId);
    const bEvent = await submit(b, a.venueId, { event_date: '2026-07-11' });
    const venueOwn = await eventsApi(t, a.op.headers).post('', { venue_id: a.venueId, name: 'House', event_date: '2026-07-12' });
    for (const id of [bEvent, venueOwn.json().id]) {
      expect((await call('GET', `/api/promoter/events/${id}`, a.headers)).statusCode).toBe(404);
      expect((await call('PUT', `/api/promoter/events/${id}`, a.headers, { name: 'Mine now' })).statusCode).toBe(404);
      expect((await call('DELETE', `/api/promoter/events/${id}`, a.headers)).statusCode).toBe(404);
      expect((await call('GET', `/api/promoter/events/${id}/sales`, a.headers)).statusCode).toBe(404);
      expect((await call('GET', `/api/my-events/${id}/stats`, a.headers)).statusCode).toBe(404);
      expect((await call('GET', `/api/my-events/${id}/bookings`, a.headers)).statusCode).toBe(404);
    }
    expect((await call('GET', '/api/promoter/events', a.headers)).json().data.map((e: { id: string }) => e.id)).toEqual([aEvent]);
    expect((await call('GET', `/api/my-events/${aEvent}/stats`, a.headers)).statusCode).toBe(200);
    expect((await call('GET', `/api/my-events/${aEvent}/bookings`, a.headers)).statusCode).toBe(200);
    // The conflict check: only at a venue of theirs, and only their own events by name.
    const check = await call('GET', `/api/events/conflict-check?venue_id=${a.venueId}&date=2026-07-11`, a.headers);
    expect(check.statusCode).toBe(200);
    expect(check.json()).toMatchObject({ has_event_conflict: true, events: [] });
    const other = await setupVenue(t);
    expect((await call('GET', `/api/events/conflict-check?venue_id=${other.venueId}&date=2026-07-11`, a.headers)).statusCode).toBe(404);
  });

  it('a promoter reaches no operator route (403) and a guest or staff no promoter route (403)', async () => {
    const a = await invitedPromoter();
    const aEvent = await submit(a.headers, a.venueId);
    for (const url of [
      '/api/my-guests',
      `/api/my-venues/${a.venueId}/bookings`,
      `/api/my-venues/${a.venueId}/events`,
      `/api/my-venues/${a.venueId}/promoters`,
      '/api/my-events',
      `/api/my-events/${aEvent}`,
      `/api/my-events/${aEvent}/cancellation-preview`,
      '/api/me/permissions',
      '/api/client/dashboard',
    ]) {
      expect((await call('GET', url, a.headers)).statusCode, url).toBe(403);
    }
    expect((await call('POST', `/api/my-events/${aEvent}/approve`, a.headers)).statusCode).toBe(403);
    expect((await call('PATCH', `/api/my-events/${aEvent}/status`, a.headers, { status: 'approved' })).statusCode).toBe(403);
    expect((await call('POST', `/api/my-events/${aEvent}/ticket-types`, a.headers, { name: 'Free' })).statusCode).toBe(403);
    expect((await call('GET', '/api/promoter/events', a.op.headers)).statusCode).toBe(403);
    expect((await call('GET', '/api/promoter/events')).statusCode).toBe(401);
    expect((await call('GET', '/api/promoter/earnings', a.op.headers)).statusCode).toBe(403);
  });
});

describe('revenue share', () => {
  it('records the share of each confirmed sale at the agreement’s percent of the time', async () => {
    const a = await invitedPromoter(20);
    const eventId = await submit(a.headers, a.venueId);
    const events = eventsApi(t, a.op.headers);
    expect((await events.post(`/${eventId}/approve`)).statusCode).toBe(200);
    const paidType = await addTicketType(events, eventId, { name: 'Standard', price_pence: 1250 });
    const freeType = await addTicketType(events, eventId, { name: 'Guest list', price_pence: 0 });
    const paid = await buyPaid(t, eventId, paidType, 2, 'payer@example.test');
    expect((await finalize(t, eventId, paid.payment_intent_id)).json()).toMatchObject({ status: 'confirmed' });
    expect((await finalize(t, eventId, paid.payment_intent_id)).statusCode).toBe(200);
    // The venue changes the share: the next sale takes the new percent, the first keeps its own.
    expect(
      (await call('PATCH', `/api/my-venues/${a.venueId}/promoters/${a.promoterId}`, a.op.headers, { share_percent: 50 })).statusCode,
    ).toBe(200);
    const second = await buyPaid(t, eventId, paidType, 1, 'second@example.test');
    await finalize(t, eventId, second.payment_intent_id);
    expect((await buy(t, eventId, freeType, { email: 'free@example.test' })).statusCode).toBe(200);

    const sales = (await call('GET', `/api/promoter/events/${eventId}/sales`, a.headers)).json();
    expect(
      sales.data.map((row: { amount_pence: number; share_percent: number; share_pence: number }) => [
        row.amount_pence,
        row.share_percent,
        row.share_pence,
      ]),
    ).toEqual(
      expect.arrayContaining([
        [2500, 20, 500],
        [1250, 50, 625],
        [0, 50, 0],
      ]),
    );
    expect(sales.data).toHaveLength(3);
    expect(sales).toMatchObject({ total_amount_pence: 3750, total_share_pence: 1125 });
    expect((await call('GET', '/api/promoter/earnings', a.headers)).json()).toMatchObject({
      total_amount_pence: 3750,
      total_share_pence: 1125,
      events: [{ event_id: eventId, sales: 3, amount_pence: 3750, share_pence: 1125 }],
    });
    // The promoter sees the sale in the stats and the door list of their event.
    expect((await call('GET', `/api/my-events/${eventId}/stats`, a.headers)).json()).toMatchObject({ revenue: 3750 });
    const door = (await call('GET', `/api/my-events/${eventId}/bookings`, a.headers)).json().data;
    expect(door).toHaveLength(3);
  });
});
