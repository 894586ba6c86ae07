/**
 * The public booking flow through HTTP on both engines: availability, booking, idempotent retries, a
 * race for one table, deposits (pay, decline, expire, finalize twice), the QR code and check-in, and
 * the confirmation mail with its calendar file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asSent,
  createGuest,
  createStaff,
  createTestApp,
  insertVenue,
  insertVenueRow,
  createOperator,
  type TestApp,
  type TestOperator,
} from '../../../../test/helpers/app.js';
import { insertAccessRule, insertShift } from '../../../../test/helpers/rows.js';

let t: TestApp;
let op: TestOperator;
let venueId: string;
let ruleId: string;
let depositRuleId: string;
let tableId: string;
const FRIDAY = '2026-06-19';

const book = (body: Record<string, unknown>, headers: Record<string, string> = {}, venue = venueId) =>
  t.app.inject({ method: 'POST', url: `/api/public/venues/${venue}/book`, headers, payload: body });

const guest = (n: number | string) => ({ guest_name: `Guest ${n}`, guest_email: `guest${n}@example.test` });

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'public_booking=1000/60' });
  op = await createOperator(t);
  venueId = await insertVenue(t, op.operatorId, { status: 'live', email: 'hello@venue.test' });
  await insertShift(t, venueId, { days_of_week: '["fri"]', time_type: 'custom', time_from: '18:00', time_to: '23:00' });
  ruleId = await insertAccessRule(t, venueId, { name: 'Dinner', rule_type: 'table', days_of_week: '["fri"]' });
  const policy = await insertVenueRow(
    t,
    'payment_policies',
    venueId,
    { name: 'Deposit', deposit_type: 'deposit', refund_type: 'full' },
    'pp',
  );
  const pricelist = await insertVenueRow(t, 'pricelists', venueId, { name: 'Prices', default_price_pence: 1000 }, 'pl');
  depositRuleId = await insertAccessRule(t, venueId, {
    name: 'Deposit dinner',
    rule_type: 'table',
    days_of_week: '["fri"]',
    payment_policy_id: policy,
    pricelist_id: pricelist,
  });
  tableId = await insertVenueRow(
    t,
    'venue_tables',
    venueId,
    { table_number: '1', capacity: 4, min_covers: 1, status: 'active', table_type: 'standard' },
    'tbl',
  );
});

afterAll(async () => {
  await t.close();
});

describe('GET /api/public/venues/:venueId/availability', () => {
  it('lists the slots of both rules on the shift, every 15 minutes', async () => {
    const res = await t.app.inject({ url: `/api/public/venues/${venueId}/availability?date=${FRIDAY}&party_size=2` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const dinner = body.slots.filter((s: { access_rule_id: string }) => s.access_rule_id === ruleId);
    expect(dinner[0]).toEqual({ time: '18:00', access_rule_id: ruleId, available: true });
    expect(dinner.at(-1).time).toBe('22:45');
    expect(body.party_too_large).toBe(false);
    expect(res.headers['cache-control']).toBe('public, max-age=0, s-maxage=1');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    // Served again from the cache: the same body, sent as serialised the first time.
    const again = await t.app.inject({ url: `/api/public/venues/${venueId}/availability?date=${FRIDAY}&party_size=2` });
    expect(again.body).toBe(res.body);
  });

  it('refuses an impossible date (400) and an unknown venue (404)', async () => {
    expect((await t.app.inject({ url: `/api/public/venues/${venueId}/availability?date=2026-02-30&party_size=2` })).statusCode).toBe(400);
    expect((await t.app.inject({ url: `/api/public/venues/ven_nope/availability?date=${FRIDAY}&party_size=2` })).statusCode).toBe(404);
  });

  it('says when a party is too large for every table', async () => {
    const res = await t.app.inject({ url: `/api/public/venues/${venueId}/availability?date=${FRIDAY}&party_size=9` });
    expect(res.json().party_too_large).toBe(true);
  });
});

describe('POST /api/public/venues/:venueId/book', () => {
  it('books a free slot, takes the table and queues a confirmation with a calendar file', async () => {
    const res = await book({ access_rule_id: ruleId, rule_type: 'table', date: FRIDAY, time: '18:00', party_size: 2, ...guest('a') });
    expect(res.statusCode).toBe(200);
    const { booking_id, status, ok, manage_url } = res.json();
    expect({ ok, status }).toEqual({ ok: true, status: 'confirmed' });
    // The manage page the mail links to, for the widget's confirmation.
    expect(manage_url).toMatch(/^http:\/\/maitred\.test\/widget\/manage\?token=\S+$/);
    expect(booking_id).toMatch(/^bkg_[0-9a-z]{9}[a-z2-7]{26}$/);
    const tables = await t.db.kysely.selectFrom('booking_tables').select('table_id').where('booking_id', '=', booking_id).execute();
    expect(tables).toEqual([{ table_id: tableId }]);
    const mail = await asSent(
      t,
      await t.db.kysely.selectFrom('mail_outbox').selectAll().where('recipient', '=', 'guesta@example.test').execute(),
    );
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toMatch(/confirmed/);
    expect(mail[0].text_body).toContain(manage_url);
    const [ics] = JSON.parse(mail[0].attachments) as { filename: string; content: string }[];
    expect(ics.filename).toBe('booking.ics');
    expect(ics.content).toContain('DTSTART:20260619T170000Z');
  });

  it('refuses the taken slot (409) and overlapping ones, but not the next free one', async () => {
    const taken = await book({ access_rule_id: ruleId, rule_type: 'table', date: FRIDAY, time: '19:00', party_size: 2, ...guest('b') });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe('That time is no longer available');
    const later = await book({ access_rule_id: ruleId, rule_type: 'table', date: FRIDAY, time: '20:00', party_size: 2, ...guest('b') });
    expect(later.statusCode).toBe(200);
  });

  it('validates the body: rule type, party size, email', async () => {
    const base = { access_rule_id: ruleId, rule_type: 'table', date: FRIDAY, time: '22:00', party_size: 2, ...guest('c') };
    expect((await book({ ...base, rule_type: 'guestlist' })).statusCode).toBe(400);
    expect((await book({ ...base, party_size: 0 })).statusCode).toBe(400);
    expect((await book({ ...base, guest_email: 'not-an-email' })).statusCode).toBe(400);
    expect((await book({ ...base, access_rule_id: 'ar_unknown' })).statusCode).toBe(404);
  });

  it('an Idempotency-Key retry returns the first answer and books nothing new; another body under it is a 409', async () => {
    const body = { access_rule_id: ruleId, rule_type: 'table', date: '2026-06-26', time: '18:00', party_size: 2, ...guest('d') };
    const first = await book(body, { 'idempotency-key': 'retry-1' });
    const second = await book(body, { 'idempotency-key': 'retry-1' });
    expect(first.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    const count = await t.db.kysely.selectFrom('bookings').select('id').where('guest_email', '=', 'guestd@example.test').execute();
    expect(count).toHaveLength(1);
    const other = await book({ ...body, party_size: 3 }, { 'idempotency-key': 'retry-1' });
    expect(other.statusCode).toBe(409);
  });

  it('50 concurrent bookings for the one table give exactly one booking', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        book({ access_rule_id: ruleId, rule_type: 'table', date: '2026-07-03', time: '19:00', party_size: 2, ...guest(`race${i}`) }),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    const rows = await t.db.kysely.selectFrom('bookings').select('id').where('booking_date', '=', '2026-07-03').execute();
    expect(rows).toHaveLength(1);
  });

  it('matches the guest by email: a first booking creates a guest record, the next finds it; a staff email links none', async () => {
    const body = { access_rule_id: ruleId, rule_type: 'table', date: '2026-08-07', party_size: 2 };
    const first = await book({ ...body, time: '18:00', guest_name: 'Mia', guest_email: 'Mia@Example.test' });
    const second = await book({ ...body, time: '20:00', guest_name: 'Mia R', guest_email: 'mia@example.test' });
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    const users = await t.db.kysely
      .selectFrom('users')
      .select(['id', 'role', 'password_hash'])
      .where('email', '=', 'mia@example.test')
      .execute();
    expect(users).toEqual([{ id: expect.stringMatching(/^usr_/), role: 'guest', password_hash: null }]);
    const linked = await t.db.kysely
      .selectFrom('bookings')
      .select('user_id')
      .where('id', 'in', [first.json().booking_id, second.json().booking_id])
      .execute();
    expect(linked.map((b) => b.user_id)).toEqual([users[0].id, users[0].id]);
    // A signed-in guest books as themselves, whatever email they type.
    const signedIn = await createGuest(t, 'Signed In');
    const own = await book({ ...body, time: '22:00', guest_name: 'Signed In', guest_email: 'typo@example.test' }, signedIn.headers);
    expect(own.statusCode, own.body).toBe(200);
    const ownRow = await t.db.kysely
      .selectFrom('bookings')
      .select('user_id')
      .where('id', '=', own.json().booking_id)
      .executeTakeFirstOrThrow();
    expect(ownRow.user_id).toBe(signedIn.userId);
    // The operator's own email: the booking is not linked to the staff account.
    const staffEmail = await t.db.kysely.selectFrom('users').select('email').where('id', '=', op.userId).executeTakeFirstOrThrow();
    const asStaff = await book({ ...body, date: '2026-08-14', time: '18:00', guest_name: 'Staff', guest_email: staffEmail.email });
    const staffRow = await t.db.kysely
      .selectFrom('bookings')
      .select('user_id')
      .where('id', '=', asStaff.json().booking_id)
      .executeTakeFirstOrThrow();
    expect(staffRow.user_id).toBeNull();
  });
});

describe('deposits', () => {
  const depositBody = (date: string, n: string) => ({
    access_rule_id: depositRuleId,
    rule_type: 'table',
    date,
    time: '18:00',
    party_size: 2,
    ...guest(n),
  });
  const pay = (intentId: string, method: string) =>
    t.app.inject({ method: 'POST', url: `/api/public/simulated-payments/${intentId}/confirm`, payload: { payment_method: method } });
  const finalize = (bookingId: string) =>
    t.app.inject({ method: 'POST', url: `/api/public/venues/${venueId}/book/finalize`, payload: { booking_id: bookingId } });

  it('waits pending_payment on an intent for the price list amount; paying and finalizing (twice) confirms', async () => {
    const res = await book(depositBody('2026-07-10', 'p1'));
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(answer.requires_payment).toBe(true);
    expect(answer.payment_client_secret).toMatch(/^pi_.+_secret_/);
    const row = await t.db.kysely.selectFrom('bookings').selectAll().where('id', '=', answer.booking_id).executeTakeFirstOrThrow();
    expect(row.status).toBe('pending_payment');
    expect(row.deposit_pence).toBe(2000);
    expect(answer.amount_pence).toBe(2000);
    expect(answer.manage_url).toMatch(/\/widget\/manage\?token=/);
    expect((await pay(answer.payment_intent_id, 'pm_card_visa')).statusCode).toBe(200);
    const first = await finalize(answer.booking_id);
    expect(first.json()).toEqual({ ok: true, booking_id: answer.booking_id, status: 'confirmed' });
    expect((await finalize(answer.booking_id)).json()).toEqual(first.json());
  });

  it('a declined card: finalize releases the booking and its table', async () => {
    const answer = (await book(depositBody('2026-07-17', 'p2'))).json();
    await pay(answer.payment_intent_id, 'pm_card_chargeDeclined');
    expect((await finalize(answer.booking_id)).json()).toMatchObject({ ok: false, status: 'expired' });
    const again = await book(depositBody('2026-07-17', 'p3'));
    expect(again.json().requires_payment).toBe(true);
  });

  it('an unpaid booking is released by the expiry job after 10 minutes, not before', async () => {
    const answer = (await book(depositBody('2026-07-24', 'p4'))).json();
    t.clock.advance(9 * 60_000);
    expect(await t.ctx.bookings.expireUnpaid()).toBe(0);
    t.clock.advance(2 * 60_000);
    expect(await t.ctx.bookings.expireUnpaid()).toBeGreaterThanOrEqual(1);
    const row = await t.db.kysely.selectFrom('bookings').select('status').where('id', '=', answer.booking_id).executeTakeFirstOrThrow();
    expect(row.status).toBe('expired');
    expect(await t.db.kysely.selectFrom('booking_slots').select('slot').where('booking_id', '=', answer.booking_id).execute()).toEqual([]);
  });
});

describe('QR code and check-in', () => {
  let bookingId: string;

  beforeAll(async () => {
    bookingId = (
      await book({ access_rule_id: ruleId, rule_type: 'table', date: '2026-07-31', time: '18:00', party_size: 2, ...guest('q') })
    ).json().booking_id;
  });

  const qr = async () => (await t.app.inject({ url: `/api/public/venues/${venueId}/booking/${bookingId}/qr` })).json();
  const checkIn = (token: string, headers: Record<string, string> = op.headers, force?: boolean) =>
    t.app.inject({ method: 'POST', url: '/api/check-in', headers, payload: { qr_token: token, ...(force ? { force } : {}) } });

  it('issues a short-lived signed token as a PNG; the door key is the venue’s', async () => {
    const code = await qr();
    expect(code.qr_code).toMatch(/^data:image\/png;base64,/);
    expect(code.expires_in_ms).toBe(300_000);
    const key = await t.app.inject({ url: `/api/my-venues/${venueId}/door-key`, headers: op.headers });
    expect(key.json()).toMatchObject({ algorithm: 'Ed25519' });
    expect(key.json().public_key).toHaveLength(43);
  });

  it('refuses a forged token and an expired one, then checks in with a fresh one, once', async () => {
    const { qr_token } = await qr();
    const [prefix, payload, signature] = qr_token.split('.');
    const flipped = signature[10] === 'A' ? 'B' : 'A';
    const forged = `${prefix}.${payload}.${signature.slice(0, 10)}${flipped}${signature.slice(11)}`;
    expect((await checkIn(forged)).statusCode).toBe(400);
    t.clock.advance(6 * 60_000);
    const expired = await checkIn(qr_token);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error).toMatch(/expired/);
    const fresh = await qr();
    // The booking is weeks away: staff override the check-in window (door-timing.test.ts tests the window).
    const ok = await checkIn(fresh.qr_token, op.headers, true);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ success: true, booking_id: bookingId, status: 'checked_in' });
    expect((await checkIn(fresh.qr_token, op.headers, true)).statusCode).toBe(409);
    const detail = await t.app.inject({ url: `/api/bookings/${bookingId}`, headers: op.headers });
    expect(detail.json().history.map((h: { action: string }) => h.action)).toEqual(['create', 'check_in']);
  });

  it('another account cannot check in this venue’s guests (404), nor a caller without the permission (403)', async () => {
    const { qr_token } = await qr();
    const other = await createOperator(t, 'Other');
    expect((await checkIn(qr_token, other.headers)).statusCode).toBe(404);
    const reader = await createStaff(t, op, { bookings: 'read' });
    expect((await checkIn(qr_token, reader.headers)).statusCode).toBe(403);
    expect((await checkIn(qr_token, {})).statusCode).toBe(401);
  });
});

describe('rate limit', () => {
  it('counts each booking attempt per client address before any work: the attempt over the limit is a 429 and books nothing', async () => {
    const limited = await createTestApp({ RATE_LIMITS: 'public_booking=3/60' });
    try {
      const owner = await createOperator(limited);
      const venue = await insertVenue(limited, owner.operatorId, { status: 'live' });
      await insertShift(limited, venue, { days_of_week: '["fri"]', time_type: 'custom', time_from: '18:00', time_to: '23:00' });
      const rule = await insertAccessRule(limited, venue, { name: 'Dinner', rule_type: 'table', days_of_week: '["fri"]' });
      await insertVenueRow(
        limited,
        'venue_tables',
        venue,
        { table_number: '1', capacity: 4, min_covers: 1, status: 'active', table_type: 'standard' },
        'tbl',
      );
      const attempt = (time: string, body: Record<string, unknown> = {}) =>
        limited.app.inject({
          method: 'POST',
          url: `/api/public/venues/${venue}/book`,
          payload: {
            access_rule_id: rule,
            rule_type: 'table',
            date: FRIDAY,
            time,
            party_size: 2,
            ...guest(`rl${time.replace(':', '')}`),
            ...body,
          },
        });
      // Refused attempts count too: a bad one, a taken one, then one that books.
      expect((await attempt('18:00', { party_size: 0 })).statusCode).toBe(400);
      const booked = await attempt('18:00');
      expect(booked.statusCode, booked.body).toBe(200);
      expect((await attempt('18:30')).statusCode).toBe(409);
      const over = await attempt('21:00');
      expect(over.statusCode).toBe(429);
      expect(over.json()).toEqual({ request_id: expect.any(String), error: 'Too many requests. Please try again later.' });
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      const rows = await limited.db.kysely.selectFrom('bookings').select('start_time').where('venue_id', '=', venue).execute();
      expect(rows).toEqual([{ start_time: '18:00' }]);
      // Another address has its own allowance.
      const elsewhere = await limited.app.inject({
        method: 'POST',
        url: `/api/public/venues/${venue}/book`,
        remoteAddress: '203.0.113.9',
        payload: { access_rule_id: rule, rule_type: 'table', date: FRIDAY, time: '21:00', party_size: 2, ...guest('rl-other') },
      });
      expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe.each([
  ['as deployed: answers and stays cached', {}],
  ['answers not cached (AVAILABILITY_CACHE_MS=0): the stays cache alone', { AVAILABILITY_CACHE_MS: '0' }],
])('cached availability, %s', (_name, env: Record<string, string>) => {
  let t: TestApp;
  let op: TestOperator;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMITS: 'public_booking=1000/60', ...env });
    op = await createOperator(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('reflects each change of the venue at once: a booking, a cancellation, a block, a configuration change', async () => {
    const book = (body: Record<string, unknown>, headers: Record<string, string>, venue: string) =>
      t.app.inject({ method: 'POST', url: `/api/public/venues/${venue}/book`, headers, payload: body });
    const venue = await insertVenue(t, op.operatorId, { status: 'live' });
    await insertShift(t, venue, { days_of_week: '["fri"]', time_type: 'custom', time_from: '18:00', time_to: '22:00' });
    const rule = await insertAccessRule(t, venue, { name: 'Dinner', rule_type: 'table', days_of_week: '["fri"]' });
    const table = await insertVenueRow(
      t,
      'venue_tables',
      venue,
      { table_number: '1', capacity: 4, min_covers: 1, status: 'active', table_type: 'standard' },
      'tbl',
    );
    const at1900 = async () => {
      const res = await t.app.inject({ url: `/api/public/venues/${venue}/availability?date=${FRIDAY}&party_size=2` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().slots.find((s: { time: string }) => s.time === '19:00')?.available as boolean | undefined;
    };
    expect(await at1900()).toBe(true);
    expect(await at1900()).toBe(true);
    const booked = await book(
      { access_rule_id: rule, rule_type: 'table', date: FRIDAY, time: '19:00', party_size: 2, ...guest('cache1') },
      {},
      venue,
    );
    expect(booked.statusCode, booked.body).toBe(200);
    expect(await at1900()).toBe(false);
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/bookings/${booked.json().booking_id}/staff-cancel`,
      headers: op.headers,
      payload: {},
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await at1900()).toBe(true);
    const blocked = await t.app.inject({
      method: 'POST',
      url: `/api/my-venues/${venue}/tables/block`,
      headers: op.headers,
      payload: { table_ids: [table], from: `${FRIDAY}T18:30`, to: `${FRIDAY}T20:00` },
    });
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect(await at1900()).toBe(false);
    await t.app.inject({
      method: 'POST',
      url: `/api/my-venues/${venue}/tables/unblock`,
      headers: op.headers,
      payload: { table_ids: [table] },
    });
    expect(await at1900()).toBe(true);
    const rules = await t.app.inject({ method: 'DELETE', url: `/api/my-venues/${venue}/access-rules/${rule}`, headers: op.headers });
    expect(rules.statusCode, rules.body).toBe(200);
    expect(await at1900()).toBeUndefined();
  });
});
