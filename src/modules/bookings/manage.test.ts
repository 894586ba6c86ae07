/**
 * Guest self-service through the manage link, over HTTP on both engines: what the guest sees, bad and
 * expired tokens, cancelling under each refund type (exact amounts of a deposit paid through the
 * simulated provider), a released card hold, policies that refuse (never, a passed cutoff, a started
 * booking) or a status that does, repeated and concurrent cancels refunding once, the table free again,
 * the rate limit, and the confirmation and cancellation mail as the SMTP server receives them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signManageToken } from '../../domain/booking-tokens/index.js';
import { createTestSmtp, parseMail, type TestSmtp } from '../../platform/mail/smtp.test-helpers.js';
import {
  createOperator,
  createTestApp,
  insertVenue,
  insertVenueRow,
  TEST_NOW,
  type TestApp,
  type TestOperator,
} from '../../../test/helpers/app.js';
import { insertAccessRule, insertShift } from '../../../test/helpers/rows.js';
import { insertBooking, insertTable, slotsHeld } from './bookings.test-support.js';
import { MANAGE_SECRET_SETTING } from './door-keys.js';
import { BAD_MANAGE_LINK_MESSAGE } from './manage.service.js';

let t: TestApp;
let smtp: TestSmtp;
let op: TestOperator;
const FRIDAY = '2026-06-19';
/** 19:00 in London (BST) on FRIDAY. */
const FRIDAY_19_UTC = '2026-06-19T18:00:00.000Z';
const MANAGE = '/api/public/bookings/manage';

beforeAll(async () => {
  smtp = await createTestSmtp();
  t = await createTestApp({
    RATE_LIMITS: 'public_booking=1000/60',
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Maitred Bookings <bookings@maitred.test>',
  });
  op = await createOperator(t);
});

afterAll(async () => {
  await t.close();
  await smtp.stop();
});

beforeEach(() => {
  t.clock.set(TEST_NOW);
});

let counter = 0;
const guest = () => {
  const n = ++counter;
  return { guest_name: `Guest ${n}`, guest_email: `manage${n}@example.test` };
};

interface PolicyVenue {
  venueId: string;
  ruleId: string;
  tableId: string;
}

/**
 * A live venue with one table, a Friday evening shift and one access rule; with `policy`, the rule has
 * that payment policy and a price list of `pricePence` per cover.
 */
async function policyVenue(policy?: Record<string, unknown>, pricePence = 1000): Promise<PolicyVenue> {
  const venueId = await insertVenue(t, op.operatorId, { status: 'live', email: 'hello@venue.test' });
  await insertShift(t, venueId, { days_of_week: '["fri"]', time_type: 'custom', time_from: '18:00', time_to: '23:00' });
  const tableId = await insertTable(t, venueId, { table_number: '1' });
  const refs: Record<string, string> = {};
  if (policy) {
    refs.payment_policy_id = await insertVenueRow(t, 'payment_policies', venueId, { name: 'Policy', ...policy }, 'pp');
    refs.pricelist_id = await insertVenueRow(t, 'pricelists', venueId, { name: 'Prices', default_price_pence: pricePence }, 'pl');
  }
  const ruleId = await insertAccessRule(t, venueId, { name: 'Dinner', rule_type: 'table', days_of_week: '["fri"]', ...refs });
  return { venueId, ruleId, tableId };
}

const book = (v: PolicyVenue, who: { guest_name: string; guest_email: string }, options: { date?: string; party?: number } = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/api/public/venues/${v.venueId}/book`,
    payload: {
      access_rule_id: v.ruleId,
      rule_type: 'table',
      date: options.date ?? FRIDAY,
      time: '19:00',
      party_size: options.party ?? 2,
      ...who,
    },
  });

const pay = (intentId: string) =>
  t.app.inject({ method: 'POST', url: `/api/public/simulated-payments/${intentId}/confirm`, payload: { payment_method: 'pm_card_visa' } });

/** Books through the public deposit flow, pays with the test card and finalizes: a confirmed booking. */
async function bookPaid(v: PolicyVenue, options: { date?: string; party?: number } = {}) {
  const who = guest();
  const answer = (await book(v, who, options)).json();
  expect(answer.requires_payment, JSON.stringify(answer)).toBe(true);
  expect((await pay(answer.payment_intent_id)).statusCode).toBe(200);
  const done = await t.app.inject({
    method: 'POST',
    url: `/api/public/venues/${v.venueId}/book/finalize`,
    payload: { booking_id: answer.booking_id },
  });
  expect(done.json()).toMatchObject({ ok: true, status: 'confirmed' });
  return { bookingId: answer.booking_id as string, intentId: answer.payment_intent_id as string, email: who.guest_email };
}

/** A booking without a deposit, confirmed at once. */
async function bookFree(v: PolicyVenue, options: { date?: string } = {}) {
  const who = guest();
  const res = await book(v, who, options);
  expect(res.json(), res.body).toMatchObject({ ok: true, status: 'confirmed' });
  return { bookingId: res.json().booking_id as string, email: who.guest_email };
}

const outbox = (to: string) =>
  t.db.kysely.selectFrom('mail_outbox').selectAll().where('recipient', '=', to).orderBy('created_at').orderBy('id').execute();

/** The token of the manage link in the guest's confirmation mail. */
async function tokenFromMail(email: string): Promise<string> {
  const confirmation = (await outbox(email)).find((m) => /confirmed/.test(m.subject));
  const match = /\/widget\/manage\?token=([A-Za-z0-9._~%-]+)/.exec(confirmation?.text_body ?? '');
  if (!match) throw new Error(`no manage link mailed to ${email}`);
  return decodeURIComponent(match[1]);
}

/** A token signed with the server's secret (created on first use: a first request makes sure of it). */
async function signedToken(bookingId: string, expiresAt = new Date('2026-12-31T00:00:00.000Z')): Promise<string> {
  await t.app.inject({ url: `${MANAGE}?token=warm-up` });
  const secret = await t.db.kysely
    .selectFrom('platform_settings')
    .select('value')
    .where('key', '=', MANAGE_SECRET_SETTING)
    .executeTakeFirstOrThrow();
  return signManageToken({ bookingId, expiresAt }, secret.value);
}

const view = (token: string, headers: Record<string, string> = {}) =>
  t.app.inject({ url: `${MANAGE}?token=${encodeURIComponent(token)}`, headers });
const cancel = (token: string) => t.app.inject({ method: 'POST', url: `${MANAGE}/cancel`, payload: { token } });

const bookingRow = (id: string) => t.db.kysely.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const refundsOf = (intentId: string) =>
  t.db.kysely.selectFrom('sim_refunds').select('amount').where('payment_intent_id', '=', intentId).execute();
const historyOf = async (bookingId: string) =>
  (await t.app.inject({ url: `/api/bookings/${bookingId}`, headers: op.headers })).json().history as {
    action: string;
    actor: { kind: string };
    from_status: string | null;
    to_status: string | null;
    detail: Record<string, unknown>;
  }[];

describe('mail received over SMTP', () => {
  const receivedBy = (to: string) => smtp.received.filter((m) => m.envelopeTo.includes(to)).map((m) => parseMail(m.raw));

  it('the confirmation of a public booking arrives with its calendar file and a manage link that works', async () => {
    const v = await policyVenue();
    const { bookingId, email } = await bookFree(v);
    await t.ctx.mail.flush();
    const [mail] = receivedBy(email);
    expect(mail.headers.get('subject')).toBe(`Your booking at Test Venue on ${FRIDAY} is confirmed`);
    expect(mail.headers.get('reply-to')).toBe('hello@venue.test');
    expect(mail.text).toContain(bookingId);
    expect(mail.attachments).toHaveLength(1);
    const [ics] = mail.attachments;
    expect(ics.filename).toBe('booking.ics');
    expect(ics.contentType).toMatch(/^text\/calendar.*method=PUBLISH/);
    expect(ics.content).toContain('METHOD:PUBLISH');
    expect(ics.content).toContain('DTSTART:20260619T180000Z');
    expect(ics.content).toContain(`UID:${bookingId}@maitred`);
    // The link opens the guest's manage page, whose app reads the booking with the link's token.
    const link = /http:\/\/maitred\.test\/widget\/manage\?token=(\S+)/.exec(mail.text ?? '');
    expect(link).not.toBeNull();
    const page = await t.app.inject({ url: `/widget/manage?token=${link![1]}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const res = await t.app.inject({ url: `/api/public/bookings/manage?token=${link![1]}` });
    expect(res.json()).toMatchObject({ booking_id: bookingId, status: 'confirmed' });
  });

  it('the cancellation arrives with a cancelling calendar file for the same event', async () => {
    const v = await policyVenue({ deposit_type: 'deposit', refund_type: 'full' });
    const { bookingId, email } = await bookPaid(v);
    expect((await cancel(await tokenFromMail(email))).statusCode).toBe(200);
    await t.ctx.mail.flush();
    const mails = receivedBy(email);
    expect(mails.map((m) => m.headers.get('subject')).sort()).toEqual([
      'Your booking at Test Venue has been cancelled',
      `Your booking at Test Venue on ${FRIDAY} is confirmed`,
    ]);
    const cancelled = mails.find((m) => m.headers.get('subject')!.endsWith('has been cancelled'))!;
    expect(cancelled.text).toContain('£20.00 is being refunded to the card you paid with.');
    const [ics] = cancelled.attachments;
    expect(ics.filename).toBe('booking.ics');
    expect(ics.contentType).toMatch(/^text\/calendar.*method=CANCEL/);
    expect(ics.content).toContain('METHOD:CANCEL');
    expect(ics.content).toContain('STATUS:CANCELLED');
    expect(ics.content).toContain(`UID:${bookingId}@maitred`);
    expect(ics.content).toContain('SEQUENCE:1');
  });
});

describe('GET /api/public/bookings/manage', () => {
  it('shows a paid booking as its guest may see it: venue, time, party, money, and what cancelling now would refund', async () => {
    const v = await policyVenue({ deposit_type: 'deposit', refund_type: 'partial', refund_percent: 75 }, 333);
    const { bookingId, email } = await bookPaid(v, { party: 3 });
    const res = await view(await tokenFromMail(email));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      booking_id: bookingId,
      status: 'confirmed',
      venue: { id: v.venueId, name: 'Test Venue', address: '1 High Street, London', timezone: 'Europe/London' },
      date: FRIDAY,
      time: '19:00',
      party_size: 3,
      duration_minutes: 120,
      starts_at: FRIDAY_19_UTC,
      ends_at: '2026-06-19T20:00:00.000Z',
      guest_name: expect.stringMatching(/^Guest \d+$/),
      cancelled_at: null,
      payment: { deposit_type: 'deposit', deposit_pence: 999, payment_status: 'paid', paid_pence: 999, refunded_pence: 0 },
      cancellation: {
        can_cancel: true,
        refusal: null,
        message: null,
        // `anytime`: until the booking starts.
        cancellable_until: FRIDAY_19_UTC,
        // 75% of 999 is 749.25, rounded down.
        refund_pence: 749,
        hold_release_pence: 0,
        policy: {
          refund_type: 'partial',
          refund_percent: 75,
          cancel_type: 'anytime',
          cancel_cutoff_value: 24,
          cancel_cutoff_unit: 'hours',
        },
      },
    });
    // A forwarded link shows no contact details.
    expect(res.body).not.toContain(email);
  });

  it('a booking without a payment policy follows the defaults: cancellable, nothing to refund', async () => {
    const v = await policyVenue();
    const { email } = await bookFree(v);
    const { cancellation, payment } = (await view(await tokenFromMail(email))).json();
    expect(payment).toEqual({ deposit_type: 'none', deposit_pence: 0, payment_status: 'none', paid_pence: 0, refunded_pence: 0 });
    expect(cancellation).toMatchObject({ can_cancel: true, refund_pence: 0, policy: { refund_type: 'none', cancel_type: 'anytime' } });
  });

  it('refuses forged, foreign and expired tokens alike (400), whatever booking they name; a real token of no booking is 404', async () => {
    const v = await policyVenue();
    const { bookingId, email } = await bookFree(v);
    const token = await tokenFromMail(email);
    const [prefix, payload, tag] = token.split('.');
    const flipped = `${prefix}.${payload}.${tag.slice(0, 10)}${tag[10] === 'A' ? 'B' : 'A'}${tag.slice(11)}`;
    const foreignSecret = 'not-the-server-secret-but-long-enough-to-use';
    const forgedForReal = signManageToken({ bookingId, expiresAt: new Date('2026-12-31T00:00:00Z') }, foreignSecret);
    const forgedForNone = signManageToken({ bookingId: 'bkg_doesnotexist', expiresAt: new Date('2026-12-31T00:00:00Z') }, foreignSecret);
    const refusals = await Promise.all([flipped, forgedForReal, forgedForNone, 'mm1.garbage', 'x'].map((bad) => view(bad)));
    for (const res of refusals) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: BAD_MANAGE_LINK_MESSAGE });
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect((await cancel(forgedForReal)).json()).toEqual({ error: BAD_MANAGE_LINK_MESSAGE });
    expect((await bookingRow(bookingId)).status).toBe('confirmed');

    // The mailed link lasts until a day after the booking starts.
    t.clock.set('2026-06-20T17:59:59.999Z');
    expect((await view(token)).statusCode).toBe(200);
    t.clock.set('2026-06-20T18:00:00.000Z');
    expect((await view(token)).json()).toEqual({ error: BAD_MANAGE_LINK_MESSAGE });
    expect((await cancel(token)).statusCode).toBe(400);

    t.clock.set(TEST_NOW);
    const gone = await view(await signedToken('bkg_doesnotexist'));
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ error: 'Booking not found' });
    expect((await t.app.inject({ url: MANAGE })).statusCode).toBe(400);
  });
});

describe('POST /api/public/bookings/manage/cancel', () => {
  it.each([
    { refund: 'full', policy: { refund_type: 'full' }, price: 1000, party: 2, paid: 2000, refunded: 2000, payment_status: 'refunded' },
    {
      refund: 'partial',
      policy: { refund_type: 'partial', refund_percent: 75 },
      price: 333,
      party: 3,
      paid: 999,
      refunded: 749,
      payment_status: 'partially_refunded',
    },
    { refund: 'none', policy: { refund_type: 'none' }, price: 1000, party: 2, paid: 2000, refunded: 0, payment_status: 'paid' },
  ])('refund_type $refund: refunds $refunded of a paid $paid, frees the table, writes history and queues the notice', async (c) => {
    const v = await policyVenue({ deposit_type: 'deposit', ...c.policy }, c.price);
    const { bookingId, intentId, email } = await bookPaid(v, { party: c.party });
    expect((await bookingRow(bookingId)).deposit_pence).toBe(c.paid);
    expect(await slotsHeld(t, bookingId)).not.toEqual({});
    const token = await tokenFromMail(email);
    expect((await view(token)).json().cancellation.refund_pence).toBe(c.refunded);

    const res = await cancel(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ success: true, booking_id: bookingId, status: 'cancelled', refunded_pence: c.refunded });

    expect((await refundsOf(intentId)).map((r) => r.amount)).toEqual(c.refunded > 0 ? [c.refunded] : []);
    expect(await bookingRow(bookingId)).toMatchObject({
      status: 'cancelled',
      cancelled_at: TEST_NOW,
      payment_status: c.payment_status,
      refunded_pence: c.refunded,
    });
    expect(await slotsHeld(t, bookingId)).toEqual({});
    // One fixed clock: entries of the same instant are in id order, so find the cancellation by its action.
    expect((await historyOf(bookingId)).find((h) => h.action === 'guest_cancel')).toMatchObject({
      actor: { kind: 'guest' },
      from_status: 'confirmed',
      to_status: 'cancelled',
      detail: { via: 'manage_link', refund_type: c.refund, refunded_pence: c.refunded },
    });

    const notices = (await outbox(email)).filter((m) => m.subject === 'Your booking at Test Venue has been cancelled');
    expect(notices).toHaveLength(1);
    expect(notices[0].text_body).toContain('your booking has been cancelled as you asked');
    if (c.refunded > 0) expect(notices[0].text_body).toContain(`£${(c.refunded / 100).toFixed(2)} is being refunded`);
    else expect(notices[0].text_body).not.toContain('refunded');
    const [ics] = JSON.parse(notices[0].attachments) as { filename: string; content: string }[];
    expect(ics.filename).toBe('booking.ics');
    expect(ics.content).toContain('METHOD:CANCEL');
    expect(ics.content).toContain(`UID:${bookingId}@maitred`);

    const after = (await view(token)).json();
    expect(after).toMatchObject({ status: 'cancelled', cancelled_at: TEST_NOW });
    expect(after.cancellation).toMatchObject({ can_cancel: false, refusal: 'status', refund_pence: 0 });
  });

  it('releases a card hold: nothing is charged or refunded', async () => {
    const v = await policyVenue({ deposit_type: 'hold', refund_type: 'full' }, 1500);
    const { bookingId, intentId, email } = await bookPaid(v);
    expect((await bookingRow(bookingId)).payment_status).toBe('held');
    const token = await tokenFromMail(email);
    expect((await view(token)).json().cancellation).toMatchObject({ can_cancel: true, refund_pence: 0, hold_release_pence: 3000 });

    const res = await cancel(token);
    expect(res.json()).toEqual({ success: true, booking_id: bookingId, status: 'cancelled', refunded_pence: 0 });
    const intent = await t.ctx.payments.retrieveIntent(intentId);
    expect(intent).toMatchObject({ status: 'canceled', amount_received: 0 });
    expect(await refundsOf(intentId)).toEqual([]);
    expect(await bookingRow(bookingId)).toMatchObject({ status: 'cancelled', payment_status: 'released', refunded_pence: 0 });
    const [notice] = (await outbox(email)).filter((m) => /cancelled/.test(m.subject));
    expect(notice.text_body).toContain('The hold on your card has been released.');
  });

  it('cancel_type never: 409 with a clear message, and nothing changes', async () => {
    const v = await policyVenue({ deposit_type: 'deposit', refund_type: 'full', cancel_type: 'never' });
    const { bookingId, intentId, email } = await bookPaid(v);
    const token = await tokenFromMail(email);
    expect((await view(token)).json().cancellation).toMatchObject({
      can_cancel: false,
      refusal: 'never',
      cancellable_until: null,
      refund_pence: 0,
    });
    const res = await cancel(token);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: "Test Venue's policy does not allow this booking to be cancelled online: please contact the venue",
    });
    expect(await bookingRow(bookingId)).toMatchObject({ status: 'confirmed', payment_status: 'paid', refunded_pence: 0 });
    expect(await refundsOf(intentId)).toEqual([]);
    expect(await slotsHeld(t, bookingId)).not.toEqual({});
  });

  it('cutoff: allowed up to the deadline instant (24 hours before, venue time), 409 naming the deadline one millisecond later', async () => {
    const v = await policyVenue({ deposit_type: 'deposit', refund_type: 'full', cancel_type: 'cutoff', cancel_cutoff_value: 24 });
    const late = await bookPaid(v);
    const onTime = await bookPaid(v, { date: '2026-06-26' });
    const lateToken = await tokenFromMail(late.email);
    expect((await view(lateToken)).json().cancellation).toMatchObject({
      can_cancel: true,
      cancellable_until: '2026-06-18T18:00:00.000Z',
      refund_pence: 2000,
    });

    t.clock.set('2026-06-18T18:00:00.001Z');
    expect((await view(lateToken)).json().cancellation).toMatchObject({ can_cancel: false, refusal: 'past_cutoff', refund_pence: 0 });
    const refused = await cancel(lateToken);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: 'This booking could be cancelled until 2026-06-18 19:00 (Europe/London): that time has passed',
      deadline: '2026-06-18T18:00:00.000Z',
    });
    expect(await bookingRow(late.bookingId)).toMatchObject({ status: 'confirmed', refunded_pence: 0 });
    expect(await refundsOf(late.intentId)).toEqual([]);

    t.clock.set('2026-06-25T18:00:00.000Z');
    const res = await cancel(await tokenFromMail(onTime.email));
    expect(res.json()).toEqual({ success: true, booking_id: onTime.bookingId, status: 'cancelled', refunded_pence: 2000 });
  });

  it('a booking that has started can no longer be cancelled, even under `anytime`', async () => {
    const v = await policyVenue({ deposit_type: 'deposit', refund_type: 'full' });
    const { bookingId, email } = await bookPaid(v);
    const token = await tokenFromMail(email);
    t.clock.set('2026-06-19T18:00:00.001Z');
    expect((await view(token)).json().cancellation).toMatchObject({ can_cancel: false, refusal: 'started' });
    const res = await cancel(token);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'This booking has already started: it can no longer be cancelled' });
    expect((await bookingRow(bookingId)).status).toBe('confirmed');
  });

  it('a second cancel is a no-op answering the same; it refunds and mails nothing more', async () => {
    const v = await policyVenue({ deposit_type: 'deposit', refund_type: 'full' });
    const { bookingId, intentId, email } = await bookPaid(v);
    const token = await tokenFromMail(email);
    const first = await cancel(token);
    t.clock.advance(60_000);
    const second = await cancel(token);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(second.json().refunded_pence).toBe(2000);
    expect(await refundsOf(intentId)).toEqual([{ amount: 2000 }]);
    expect(await bookingRow(bookingId)).toMatchObject({ refunded_pence: 2000, cancelled_at: TEST_NOW });
    expect((await outbox(email)).filter((m) => /cancelled/.test(m.subject))).toHaveLength(1);
    expect((await historyOf(bookingId)).filter((h) => h.action === 'guest_cancel')).toHaveLength(1);
  });

  it('concurrent cancels of one booking refund it once and cancel it once', async () => {
    const v = await policyVenue({ deposit_type: 'deposit', refund_type: 'partial', refund_percent: 50 });
    const { bookingId, intentId, email } = await bookPaid(v);
    const token = await tokenFromMail(email);
    const answers = await Promise.all(Array.from({ length: 5 }, () => cancel(token)));
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, booking_id: bookingId, status: 'cancelled', refunded_pence: 1000 });
    }
    expect(await refundsOf(intentId)).toEqual([{ amount: 1000 }]);
    expect(await bookingRow(bookingId)).toMatchObject({ status: 'cancelled', refunded_pence: 1000, payment_status: 'partially_refunded' });
    expect((await outbox(email)).filter((m) => /cancelled/.test(m.subject))).toHaveLength(1);
    expect((await historyOf(bookingId)).filter((h) => h.action === 'guest_cancel')).toHaveLength(1);
  });

  it('the cancelled booking’s table can be booked again at that time', async () => {
    const v = await policyVenue();
    const { email } = await bookFree(v);
    const taken = await book(v, guest());
    expect(taken.statusCode).toBe(409);
    expect((await cancel(await tokenFromMail(email))).statusCode).toBe(200);
    const again = await book(v, guest());
    expect(again.statusCode, again.body).toBe(200);
    const rows = await t.db.kysely
      .selectFrom('booking_tables')
      .select('table_id')
      .where('booking_id', '=', again.json().booking_id)
      .execute();
    expect(rows).toEqual([{ table_id: v.tableId }]);
  });

  it('a booking still awaiting payment is cancelled and its payment abandoned', async () => {
    const v = await policyVenue({ deposit_type: 'deposit', refund_type: 'full' });
    const answer = (await book(v, guest())).json();
    expect(answer.requires_payment).toBe(true);
    const res = await cancel(await signedToken(answer.booking_id));
    expect(res.json()).toEqual({ success: true, booking_id: answer.booking_id, status: 'cancelled', refunded_pence: 0 });
    expect((await t.ctx.payments.retrieveIntent(answer.payment_intent_id)).status).toBe('canceled');
    expect(await bookingRow(answer.booking_id)).toMatchObject({
      status: 'cancelled',
      payment_status: 'released',
      payment_expires_at: null,
    });
    expect(await slotsHeld(t, answer.booking_id)).toEqual({});
  });

  it.each(['checked_in', 'rejected', 'expired', 'door_rejected', 'no_show'])(
    'a %s booking cannot be cancelled (409 naming it)',
    async (status) => {
      const v = await policyVenue();
      const id = await insertBooking(t, op.operatorId, v.venueId, { status, starts_at: '2026-06-19T18:00:00.000Z' });
      const token = await signedToken(id);
      const res = await cancel(token);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: `This booking is ${status.replace('_', ' ')}: it cannot be cancelled`, status });
      expect((await bookingRow(id)).status).toBe(status);
      expect((await view(token)).json().cancellation).toMatchObject({ can_cancel: false, refusal: 'status' });
    },
  );

  it('a booking awaiting approval can be cancelled; the token may come in the query; without one it is 400', async () => {
    const v = await policyVenue();
    const id = await insertBooking(t, op.operatorId, v.venueId, { status: 'pending', starts_at: '2026-06-19T18:00:00.000Z' });
    const token = await signedToken(id);
    const res = await t.app.inject({ method: 'POST', url: `${MANAGE}/cancel?token=${encodeURIComponent(token)}` });
    expect(res.json()).toEqual({ success: true, booking_id: id, status: 'cancelled', refunded_pence: 0 });
    const none = await t.app.inject({ method: 'POST', url: `${MANAGE}/cancel`, payload: {} });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ error: 'token is required' });
  });
});

describe('rate limit', () => {
  it('counts both routes per client address before any work: 429 with Retry-After once used up', async () => {
    const address = '203.0.113.77';
    for (let i = 0; i < 1000; i++) await t.ctx.rateLimits.hit('public_booking', address);
    const get = await t.app.inject({ url: `${MANAGE}?token=x`, remoteAddress: address });
    expect(get.statusCode).toBe(429);
    expect(Number(get.headers['retry-after'])).toBeGreaterThan(0);
    const post = await t.app.inject({ method: 'POST', url: `${MANAGE}/cancel`, payload: { token: 'x' }, remoteAddress: address });
    expect(post.statusCode).toBe(429);
    expect((await t.app.inject({ url: `${MANAGE}?token=x`, remoteAddress: '203.0.113.78' })).statusCode).toBe(400);
  });
});
