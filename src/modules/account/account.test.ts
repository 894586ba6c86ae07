/**
 * The guest's own account (`/api/me/…`): bookings (upcoming and past, cancel through the manage token),
 * tickets, vouchers, the keys ledger and a top-up paid on the simulated provider's hosted page (its
 * webhook runs `keys_topup`), preferences, export and erasure (money records kept), and that one guest
 * never sees another's records.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bearer, mailsTo, venueApi } from '../../../test/helpers/app.js';
import { book, bookFree, bookingRow, guest, MANAGE, op, policyVenue, t, useManageApp } from '../bookings/manage/manage.test-support.js';
import { addTicketType, buy, createEvent, eventsApi } from '../events/events.test-support.js';
import { enableVouchers, issueComp } from '../vouchers/vouchers.test-support.js';

useManageApp();

let ipCounter = 0;
const nextIp = () => `10.8.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

/** Signs in with a code mailed to the address (read from the outbox); answers the session headers. */
async function signInByCode(email: string) {
  const ip = nextIp();
  expect((await t.app.inject({ method: 'POST', url: '/api/account/sign-in-code', payload: { email }, remoteAddress: ip })).statusCode).toBe(
    202,
  );
  const row = await t.db.kysely
    .selectFrom('account_sign_in_codes')
    .selectAll()
    .where('email', '=', email)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const code = (await mailsTo(t, email))
    .flatMap((m) => m.subject.match(/sign-in code: (\d{6})$/)?.[1] ?? [])
    .find((c) => createHash('sha256').update(`${row.code_salt}:${c}`).digest('hex') === row.code_hash)!;
  const res = await t.app.inject({ method: 'POST', url: '/api/account/sign-in-code/verify', payload: { email, code }, remoteAddress: ip });
  expect(res.statusCode, res.body).toBe(200);
  return { headers: bearer(res.json().token), userId: res.json().user.id as string, email };
}

const get = (url: string, headers: Record<string, string>) => t.app.inject({ url, headers });

describe('my bookings', () => {
  it('lists the guest’s own bookings across venues, upcoming and past, never another guest’s', async () => {
    const v = await policyVenue();
    const other = await policyVenue();
    const mine = await bookFree(v);
    const mineElsewhere = await book(other, { guest_name: 'Same Me', guest_email: mine.email.toUpperCase() }, { date: '2026-06-26' });
    expect(mineElsewhere.json()).toMatchObject({ ok: true });
    const theirs = await bookFree(v, { date: '2026-07-03' });

    const me = await signInByCode(mine.email);
    const res = await get('/api/me/bookings', me.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const body = res.json();
    expect(body.past).toEqual([]);
    expect(body.upcoming.map((b: { id: string }) => b.id)).toEqual([mine.bookingId, mineElsewhere.json().booking_id]);
    expect(body.upcoming[0]).toMatchObject({
      status: 'confirmed',
      date: '2026-06-19',
      time: '19:00',
      party_size: 2,
      upcoming: true,
      venue: { id: v.venueId, timezone: 'Europe/London' },
      qr_url: `/api/public/venues/${v.venueId}/booking/${mine.bookingId}/qr`,
      manage_token: expect.any(String),
    });
    expect(JSON.stringify(body)).not.toContain(theirs.bookingId);
    // The QR link answers.
    expect((await t.app.inject({ url: body.upcoming[0].qr_url })).statusCode).toBe(200);

    const them = await signInByCode(theirs.email);
    const theirList = (await get('/api/me/bookings', them.headers)).json();
    expect(theirList.upcoming.map((b: { id: string }) => b.id)).toEqual([theirs.bookingId]);

    // After the date it is past.
    t.clock.set('2026-06-20T12:00:00.000Z');
    const later = (await get('/api/me/bookings', (await signInByCode(mine.email)).headers)).json();
    expect(later.past.map((b: { id: string }) => b.id)).toEqual([mine.bookingId]);
    expect(later.upcoming.map((b: { id: string }) => b.id)).toEqual([mineElsewhere.json().booking_id]);
  });

  it('cancels under the booking’s policy through its manage token, showing the refund first', async () => {
    const v = await policyVenue({ deposit_type: 'deposit', refund_type: 'full' }, 1500);
    const who = guest();
    const answer = (await book(v, who)).json();
    await t.app.inject({
      method: 'POST',
      url: `/api/public/simulated-payments/${answer.payment_intent_id}/confirm`,
      payload: { payment_method: 'pm_card_visa' },
    });
    await t.app.inject({
      method: 'POST',
      url: `/api/public/venues/${v.venueId}/book/finalize`,
      payload: { booking_id: answer.booking_id },
    });
    const me = await signInByCode(who.guest_email);
    const [booking] = (await get('/api/me/bookings', me.headers)).json().upcoming;
    const view = await t.app.inject({ url: `${MANAGE}?token=${encodeURIComponent(booking.manage_token)}` });
    expect(view.json().cancellation).toMatchObject({ can_cancel: true, refund_pence: 3000 });
    const cancelled = await t.app.inject({ method: 'POST', url: `${MANAGE}/cancel`, payload: { token: booking.manage_token } });
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', refunded_pence: 3000 });
    const after = (await get('/api/me/bookings', me.headers)).json().upcoming[0];
    expect(after).toMatchObject({ id: booking.id, status: 'cancelled', qr_url: null });
  });

  it('answers 401 without a session and 403 for a portal user', async () => {
    for (const url of [
      '/api/me/bookings',
      '/api/me/tickets',
      '/api/me/vouchers',
      '/api/me/keys/ledger',
      '/api/me/preferences',
      '/api/me/export',
    ]) {
      expect((await get(url, {})).statusCode).toBe(401);
      expect((await get(url, op.headers)).statusCode).toBe(403);
    }
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/api/me', headers: op.headers, payload: { confirm_email: op.email } })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/me/keys/top-up', payload: { keys: 5 } })).statusCode).toBe(401);
  });
});

describe('my tickets and vouchers', () => {
  it('shows the guest’s tickets with their QR, and vouchers naming their address, never another guest’s', async () => {
    const v = await policyVenue();
    const events = eventsApi(t, op.headers);
    const eventId = await createEvent(events, v.venueId, { status: 'approved', name: 'Jazz Night', event_date: '2026-07-10' });
    const typeId = await addTicketType(events, eventId, { name: 'Standing' });
    const mine = guest();
    const theirs = guest();
    const bought = await buy(t, eventId, typeId, { email: mine.guest_email, quantity: 2, ip: nextIp() });
    expect(bought.statusCode, bought.body).toBe(200);
    await buy(t, eventId, typeId, { email: theirs.guest_email, ip: nextIp() });

    const api = venueApi(t, op.headers, v.venueId);
    await enableVouchers(api);
    const voucher = await issueComp(api, { amount_pence: 2500, recipient_name: 'Me', recipient_email: mine.guest_email });
    await issueComp(api, { recipient_name: 'Them', recipient_email: theirs.guest_email });

    const me = await signInByCode(mine.guest_email);
    const tickets = await get('/api/me/tickets', me.headers);
    expect(tickets.statusCode, tickets.body).toBe(200);
    expect(tickets.json().data).toEqual([
      expect.objectContaining({
        booking_id: bought.json().booking_id,
        event: { id: eventId, name: 'Jazz Night', date: '2026-07-10', start_time: '21:00' },
        tickets: [{ ticket_type: 'Standing', quantity: 2, unit_price_pence: 0 }],
        upcoming: true,
        qr_code: expect.stringMatching(/^data:image\/png;base64,/),
      }),
    ]);
    // Tickets are not listed among the bookings.
    expect((await get('/api/me/bookings', me.headers)).json().upcoming).toEqual([]);

    const vouchers = (await get('/api/me/vouchers', me.headers)).json().data;
    expect(vouchers).toEqual([
      expect.objectContaining({
        id: voucher.id,
        code: voucher.code,
        amount_pence: 2500,
        remaining_pence: 2500,
        status: 'active',
        roles: ['recipient'],
        venue: { id: v.venueId, name: expect.any(String) },
        qr_code: expect.stringMatching(/^data:image\/png;base64,/),
      }),
    ]);
  });
});

describe('keys', () => {
  it('tops up through a checkout session paid on the simulated page: the webhook adds the keys to the ledger', async () => {
    const me = await signInByCode(guest().guest_email);
    expect((await get('/api/me/keys/ledger', me.headers)).json()).toEqual({ balance: 0, pence_per_key: 100, data: [] });

    for (const keys of [0, 501, 2.5, '5']) {
      const bad = await t.app.inject({ method: 'POST', url: '/api/me/keys/top-up', headers: me.headers, payload: { keys } });
      expect(bad.statusCode, String(keys)).toBe(400);
    }
    const res = await t.app.inject({ method: 'POST', url: '/api/me/keys/top-up', headers: me.headers, payload: { keys: 12 } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ keys: 12, amount_pence: 1200, session_id: expect.stringMatching(/^cs_test_/) });
    const page = new URL(res.json().checkout_url).pathname;
    expect((await t.app.inject({ url: page })).body).toContain('12 keys');
    expect((await get('/api/me/keys', me.headers)).json()).toEqual({ balance: 0 });

    const paid = await t.app.inject({
      method: 'POST',
      url: page,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'payment_method=pm_card_visa',
    });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe('http://maitred.test/account?topup=done#keys');
    const ledger = (await get('/api/me/keys/ledger', me.headers)).json();
    expect(ledger.balance).toBe(12);
    expect(ledger.data).toEqual([expect.objectContaining({ type: 'topup', delta: 12, booking_id: null })]);
    expect((await get('/api/me/keys', me.headers)).json()).toEqual({ balance: 12 });

    // Another guest's ledger is their own.
    const other = await signInByCode(guest().guest_email);
    expect((await get('/api/me/keys/ledger', other.headers)).json()).toMatchObject({ balance: 0, data: [] });
  });
});

describe('preferences', () => {
  it('reads the defaults, changes some flags, refuses an empty or invalid change, per guest', async () => {
    const me = await signInByCode(guest().guest_email);
    const other = await signInByCode(guest().guest_email);
    const defaults = { marketing_email: false, marketing_sms: false, reminders_email: true, reminders_sms: false, updated_at: null };
    expect((await get('/api/me/preferences', me.headers)).json()).toEqual(defaults);
    const put = (payload: unknown, headers = me.headers) =>
      t.app.inject({ method: 'PUT', url: '/api/me/preferences', headers, payload: payload as object });
    const changed = await put({ marketing_email: true, reminders_email: false });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({ ...defaults, marketing_email: true, reminders_email: false, updated_at: expect.any(String) });
    expect((await put({ reminders_sms: true })).json()).toMatchObject({
      marketing_email: true,
      reminders_email: false,
      reminders_sms: true,
    });
    expect((await put({})).statusCode).toBe(400);
    expect((await put({ marketing_sms: 'yes' })).statusCode).toBe(400);
    expect((await get('/api/me/preferences', me.headers)).json()).toMatchObject({ marketing_sms: false, reminders_sms: true });
    expect((await get('/api/me/preferences', other.headers)).json()).toEqual(defaults);
  });
});

describe('export and erasure', () => {
  it('exports the guest’s own data only', async () => {
    const v = await policyVenue();
    const mine = await bookFree(v);
    const theirs = await bookFree(v, { date: '2026-07-03' });
    const me = await signInByCode(mine.email);
    const res = await get('/api/me/export', me.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="my-data.json"');
    const data = res.json();
    expect(data.account).toMatchObject({ id: me.userId, email: mine.email });
    expect(data.bookings.map((b: { id: string }) => b.id)).toEqual([mine.bookingId]);
    expect(data.bookings[0].manage_token).toBeUndefined();
    expect(data.keys).toEqual({ balance: 0, ledger: [] });
    expect(JSON.stringify(data)).not.toContain(theirs.bookingId);
    expect(JSON.stringify(data)).not.toContain(theirs.email);
  });

  it('erases the account at every operator, keeping bookings, vouchers and the keys ledger anonymised', async () => {
    const v = await policyVenue();
    const mine = await bookFree(v);
    const theirs = await bookFree(v, { date: '2026-07-03' });
    const me = await signInByCode(mine.email);
    const { grantKeys } = await import('../payments/index.js');
    await grantKeys(t.db, me.userId, 3, t.clock.now());
    const api = venueApi(t, op.headers, v.venueId);
    await enableVouchers(api);
    const voucher = await issueComp(api, { recipient_name: 'Me', recipient_email: mine.email });

    const wrong = await t.app.inject({
      method: 'DELETE',
      url: '/api/me',
      headers: me.headers,
      payload: { confirm_email: 'someone@else.test' },
    });
    expect(wrong.statusCode).toBe(400);
    expect((await bookingRow(mine.bookingId)).guest_email).toBe(mine.email);

    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/me',
      headers: me.headers,
      payload: { confirm_email: mine.email.toUpperCase() },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, operators_erased: 1 });
    // Signed out everywhere; the personal fields are gone; the money records stay.
    expect((await get('/api/me/bookings', me.headers)).statusCode).toBe(401);
    const booking = await bookingRow(mine.bookingId);
    expect(booking).toMatchObject({ guest_email: null, guest_name: 'Erased guest', user_id: null, status: 'confirmed' });
    const user = await t.db.kysely.selectFrom('users').selectAll().where('id', '=', me.userId).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ name: 'Erased guest', password_hash: null });
    expect(user.email).not.toBe(mine.email);
    const ledger = await t.db.kysely.selectFrom('billing_ledger').select('delta').where('user_id', '=', me.userId).execute();
    expect(ledger).toEqual([{ delta: 3 }]);
    const voucherRow = await t.db.kysely.selectFrom('vouchers').selectAll().where('id', '=', voucher.id).executeTakeFirstOrThrow();
    expect(voucherRow).toMatchObject({ recipient_email: null, amount_pence: 5000, code: voucher.code });
    // The other guest is untouched.
    expect((await bookingRow(theirs.bookingId)).guest_email).toBe(theirs.email);

    // The address can sign in again: a fresh account that sees none of the erased records.
    const again = await signInByCode(mine.email);
    expect(again.userId).not.toBe(me.userId);
    expect((await get('/api/me/bookings', again.headers)).json()).toEqual({ upcoming: [], past: [] });
    expect((await get('/api/me/vouchers', again.headers)).json()).toEqual({ data: [] });
  });
});
