/**
 * The online waitlist through HTTP on both engines: joining a full date, the offer pass offering a freed
 * slot to the first in line (one offer at a time), moving on to the next when the offer lapses (test
 * clock), accepting (a booking through the public path), racing accepts (one booking), a table gone
 * before the accept, leaving, validation, and nothing of other tenants through the public routes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOperator,
  createTestApp,
  insertVenue,
  insertVenueRow,
  mailsTo,
  venueApi,
  type TestApp,
  type TestOperator,
} from '../../../test/helpers/app.js';
import { insertAccessRule, insertShift } from '../../../test/helpers/rows.js';

let t: TestApp;
let op: TestOperator;
let venueId: string;
let ruleId: string;
let tableId: string;
const FRIDAY = '2026-06-19';
const SATURDAY = '2026-06-20';
const SUNDAY = '2026-06-21';

const join = (body: Record<string, unknown>, venue = venueId) =>
  t.app.inject({ method: 'POST', url: `/api/public/venues/${venue}/waitlist`, payload: body });
const guest = (n: string, window = { time_from: '18:00', time_to: '22:00' }) => ({
  party_size: 2,
  guest_name: `Guest ${n}`,
  guest_email: `${n}@example.test`,
  ...window,
});
const tokenOf = (manageUrl: string) => new URL(manageUrl).searchParams.get('token')!;
const view = (token: string) => t.app.inject({ url: `/api/public/waitlist?token=${encodeURIComponent(token)}` });
const accept = (token: string) => t.app.inject({ method: 'POST', url: '/api/public/waitlist/accept', payload: { token } });
const runOffers = () => t.ctx.waitlist.online.runOffers();

/** The table taken for the whole evening of `date` by a staff booking; answers its id. */
async function fillEvening(date: string) {
  const res = await venueApi(t, op.headers, venueId).post('/staff-bookings', {
    date,
    time: '17:00',
    party_size: 2,
    guest_name: 'Regular',
    table_ids: [tableId],
    duration_minutes: 420,
    send_confirmation: false,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as string;
}

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'public_booking=1000/60' });
  op = await createOperator(t);
  venueId = await insertVenue(t, op.operatorId, { status: 'live', email: 'hello@venue.test' });
  const days = '["fri","sat","sun"]';
  await insertShift(t, venueId, { days_of_week: days, time_type: 'custom', time_from: '18:00', time_to: '23:00' });
  ruleId = await insertAccessRule(t, venueId, { name: 'Dinner', rule_type: 'table', days_of_week: days });
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

describe('online waitlist', () => {
  let blocking: string;
  const tokens: Record<string, string> = {};

  it('joins a full date in line and mails the guest their link', async () => {
    blocking = await fillEvening(FRIDAY);
    const availability = await t.app.inject({ url: `/api/public/venues/${venueId}/availability?date=${FRIDAY}&party_size=2` });
    expect(availability.json().slots.some((s: { available: boolean }) => s.available)).toBe(false);

    const first = await join({ date: FRIDAY, ...guest('ada', { time_from: '19:00', time_to: '21:00' }), guest_phone: '+44 7700 900003' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      success: true,
      id: expect.any(String),
      status: 'waiting',
      position: 1,
      manage_url: expect.stringMatching(/^http:\/\/maitred\.test\/widget\/manage\?token=wl1\./),
    });
    expect(first.headers['cache-control']).toBe('no-store');
    t.clock.advance(60_000);
    const second = await join({ date: FRIDAY, ...guest('grace') });
    expect(second.json().position).toBe(2);
    tokens.ada = tokenOf(first.json().manage_url);
    tokens.grace = tokenOf(second.json().manage_url);

    const mails = await mailsTo(t, 'ada@example.test');
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('You are on the waitlist at Test Venue for Friday, 19 June 2026');
    expect(mails[0].text_body).toContain(first.json().manage_url);

    expect((await view(tokens.ada)).json()).toEqual({
      venue: { id: venueId, name: 'Test Venue' },
      status: 'waiting',
      position: 1,
      party_size: 2,
      guest_name: 'Guest ada',
      date: FRIDAY,
      time_from: '19:00',
      time_to: '21:00',
      offer: null,
      booking_id: null,
    });
    // Nothing is free: nobody is offered anything.
    expect(await runOffers()).toEqual([]);
  });

  it('offers a freed slot to the first in line only, by mail, for the offer window', async () => {
    const cancel = await t.app.inject({ method: 'POST', url: `/api/bookings/${blocking}/staff-cancel`, headers: op.headers, payload: {} });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const [adaId] = await runOffers();
    const ada = (await view(tokens.ada)).json();
    expect(ada).toMatchObject({ status: 'offered', offer: { time: '19:00', expires_at: '2026-06-15T12:16:00.000Z' } });
    expect(adaId).toEqual(expect.any(String));
    const mails = await mailsTo(t, 'ada@example.test');
    expect(mails.map((m) => m.subject)).toContain('A table at Test Venue is free: Friday, 19 June 2026 at 19:00');
    // One open offer per date: Grace waits, and running again changes nothing.
    expect(await runOffers()).toEqual([]);
    expect((await view(tokens.grace)).json().status).toBe('waiting');
    // The operator's online list shows the offer.
    const list = (await venueApi(t, op.headers, venueId).get(`/waitlist?date=${FRIDAY}&kind=online`)).json().data;
    expect(list.map((e: { status: string }) => e.status)).toEqual(['offered', 'waiting']);
    expect(list[0]).toMatchObject({ offer: { time: '19:00', access_rule_id: ruleId }, offers_made: 1, position: 1 });
  });

  it('moves on to the next in line when the offer lapses, and the lapsed offer cannot be accepted', async () => {
    t.clock.advance(15 * 60_000);
    // Lapsed, even before the pass has run.
    const late = await accept(tokens.ada);
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json()).toMatchObject({ error: 'This offer has expired', status: 'expired' });
    const offered = await runOffers();
    expect(offered).toHaveLength(1);
    expect((await view(tokens.ada)).json()).toMatchObject({ status: 'expired', offer: null });
    expect((await view(tokens.grace)).json()).toMatchObject({ status: 'offered', offer: { time: '18:00' } });
    expect((await accept(tokens.ada)).statusCode).toBe(409);
  });

  it('books the slot when the guest accepts, once', async () => {
    const res = await accept(tokens.grace);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, booking_id: expect.any(String), status: 'confirmed' });
    const bookingId = res.json().booking_id;
    const booking = await t.app.inject({ url: `/api/bookings/${bookingId}`, headers: op.headers });
    expect(booking.json()).toMatchObject({ guest_name: 'Guest grace', guest_count: 2, booking_date: FRIDAY, start_time: '18:00' });
    expect((await view(tokens.grace)).json()).toMatchObject({ status: 'booked', booking_id: bookingId, position: null });
    expect((await mailsTo(t, 'grace@example.test')).map((m) => m.subject)).toContain(
      'Your booking at Test Venue on Friday, 19 June 2026 is confirmed',
    );
    const again = await accept(tokens.grace);
    expect(again.statusCode).toBe(409);
    // Booked or expired: leaving is refused, and nothing is offered any more.
    expect((await t.app.inject({ method: 'POST', url: '/api/public/waitlist/leave', payload: { token: tokens.grace } })).statusCode).toBe(
      409,
    );
  });

  it('makes one booking of racing accepts', async () => {
    const joined = await join({ date: SATURDAY, ...guest('linus') });
    const token = tokenOf(joined.json().manage_url);
    expect(await runOffers()).toEqual([joined.json().id]);
    const answers = await Promise.all(Array.from({ length: 6 }, () => accept(token)));
    const ok = answers.filter((res) => res.statusCode === 200);
    expect(ok, answers.map((res) => `${res.statusCode} ${res.body}`).join('\n')).toHaveLength(1);
    for (const res of answers) if (res.statusCode !== 200) expect(res.statusCode, res.body).toBe(409);
    const bookings = await t.db.kysely.selectFrom('bookings').select('id').where('guest_email', '=', 'linus@example.test').execute();
    expect(bookings.map((b) => b.id)).toEqual([ok[0].json().booking_id]);
    expect((await view(token)).json()).toMatchObject({ status: 'booked', booking_id: ok[0].json().booking_id });
  });

  it('puts the guest back in line when the table went before the accept', async () => {
    const joined = await join({ date: SUNDAY, ...guest('hedy', { time_from: '18:00', time_to: '18:00' }) });
    const token = tokenOf(joined.json().manage_url);
    await runOffers();
    expect((await view(token)).json().status).toBe('offered');
    await fillEvening(SUNDAY);
    const res = await accept(token);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ status: 'waiting' });
    expect((await view(token)).json()).toMatchObject({ status: 'waiting', position: 1, offer: null });
  });

  it('lets the guest leave through their link', async () => {
    const joined = await join({ date: SUNDAY, ...guest('alan') });
    const token = tokenOf(joined.json().manage_url);
    const leave = () => t.app.inject({ method: 'POST', url: '/api/public/waitlist/leave', payload: { token } });
    expect((await leave()).json()).toEqual({ success: true });
    expect((await leave()).json()).toEqual({ success: true });
    expect((await view(token)).json()).toMatchObject({ status: 'left', position: null });
    expect((await accept(token)).statusCode).toBe(409);
  });

  it('refuses bad input, twice the same email, and links that are not ours', async () => {
    const count = async () => (await t.db.kysely.selectFrom('waitlist_entries').select('id').execute()).length;
    const before = await count();
    const base = { date: SUNDAY, ...guest('katherine') };
    for (const body of [
      { ...base, date: '2026-06-14' },
      { ...base, date: '2026-02-30' },
      { ...base, date: '2028-06-14' },
      { ...base, time_from: '21:00', time_to: '19:00' },
      { ...base, time_from: '25:00' },
      { ...base, party_size: 0 },
      { ...base, guest_email: 'nope' },
      { ...base, guest_name: '  ' },
      { ...base, extra: true },
    ]) {
      const res = await join(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toEqual(expect.any(String));
    }
    expect((await join(base, 'ven_unknown')).statusCode).toBe(404);
    const draft = await insertVenue(t, op.operatorId, { status: 'draft' });
    expect((await join(base, draft)).statusCode).toBe(404);
    expect(await count()).toBe(before);
    expect((await join(base)).statusCode).toBe(200);
    const twice = await join({ ...base, guest_email: 'KATHERINE@example.test' });
    expect(twice.statusCode, twice.body).toBe(409);
    expect(twice.json()).toMatchObject({ reason: 'already_waiting' });

    for (const token of ['wl1.abc.def', 'mm1.x.y', '', 'x'.repeat(300)]) {
      const res = await view(token);
      expect([400, 404], token).toContain(res.statusCode);
      expect((await accept(token)).statusCode).not.toBe(200);
    }
  });

  it('shows nothing of other tenants through the public routes', async () => {
    const other = await createOperator(t, 'Other');
    const otherVenue = await insertVenue(t, other.operatorId, { status: 'live', name: 'Elsewhere' });
    const joined = await join({ date: SUNDAY, ...guest('margaret') }, otherVenue);
    expect(joined.statusCode, joined.body).toBe(200);
    // Its own line only: first there, whoever waits at the other venue that day.
    expect(joined.json().position).toBe(1);
    const seen = (await view(tokenOf(joined.json().manage_url))).json();
    expect(seen.venue).toEqual({ id: otherVenue, name: 'Elsewhere' });
    expect(JSON.stringify(seen)).not.toContain('@example.test');
    // Neither operator sees the other's entries.
    expect((await venueApi(t, other.headers, otherVenue).get(`/waitlist?date=${SUNDAY}&all=true`)).json().data).toHaveLength(1);
    expect((await venueApi(t, other.headers, venueId).get(`/waitlist?date=${SUNDAY}`)).statusCode).toBe(404);
    const mine = (await venueApi(t, op.headers, venueId).get(`/waitlist?date=${SUNDAY}&all=true`)).json().data;
    expect(mine.map((e: { guest_name: string }) => e.guest_name)).not.toContain('Guest margaret');
  });
});
