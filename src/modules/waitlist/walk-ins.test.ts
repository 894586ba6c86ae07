/**
 * The walk-in waitlist through HTTP on both engines: quoted waits from the floor, add, list with the
 * waits now, notify (mail; a text message through the optional SMS dependency), seat from the list as a
 * walk-in booking (racing seats make one), remove and no-show, validation, permissions and tenancy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOperator,
  createStaff,
  createTestApp,
  insertVenue,
  insertVenueRow,
  mailsTo,
  venueApi,
  type TestApp,
  type TestOperator,
  type VenueApi,
} from '../../../test/helpers/app.js';
import { createWalkIns } from './walk-ins.service.js';

let t: TestApp;
let op: TestOperator;
let venueId: string;
let api: VenueApi;
let small: string;
let large: string;

const table = (number: string, capacity: number) =>
  insertVenueRow(
    t,
    'venue_tables',
    venueId,
    { table_number: number, capacity, min_covers: 1, status: 'active', table_type: 'standard' },
    'tbl',
  );

/** A walk-in seated now on `tableId` for `minutes` (the floor's own path). */
async function seatedNow(tableId: string, minutes: number) {
  const res = await api.post('/staff-bookings', {
    walk_in: true,
    party_size: 2,
    guest_name: 'Seated',
    table_ids: [tableId],
    duration_minutes: minutes,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as string;
}

beforeAll(async () => {
  t = await createTestApp();
  op = await createOperator(t);
  // 12:00 UTC is 13:00 in London; stays last the venue's 60 minutes.
  venueId = await insertVenue(t, op.operatorId, { status: 'live', default_booking_duration: 60 });
  api = venueApi(t, op.headers, venueId);
  small = await table('1', 2);
  large = await table('2', 4);
});

afterAll(async () => {
  await t.close();
});

describe('walk-in waitlist', () => {
  it('quotes 0 while a table is free, then the wait until one frees', async () => {
    expect((await api.get('/waitlist/quote?party_size=2')).json()).toEqual({ minutes: 0, fits: true });
    await seatedNow(small, 90);
    await seatedNow(large, 43);
    // The four-top frees in 43 minutes (rounded up to 45), before the two-top (90).
    expect((await api.get('/waitlist/quote?party_size=2')).json()).toEqual({ minutes: 45, fits: true });
    expect((await api.get('/waitlist/quote?party_size=3')).json()).toEqual({ minutes: 45, fits: true });
    expect((await api.get('/waitlist/quote?party_size=9')).json()).toEqual({ minutes: null, fits: false });
  });

  it('adds parties in line, each quoted after the ones ahead, and lists them with their waits now', async () => {
    const first = await api.post('/waitlist', { party_size: 3, guest_name: 'Ada', guest_phone: '+44 7700 900001', notes: 'Window please' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ success: true, id: expect.any(String), quoted_minutes: 45 });
    t.clock.advance(60_000);
    const second = await api.post('/waitlist', { party_size: 2, guest_name: 'Grace', guest_email: 'grace@example.test' });
    // Ada takes the four-top when it frees; Grace waits for the two-top.
    expect(second.json().quoted_minutes).toBe(90);

    t.clock.advance(9 * 60_000);
    const list = await api.get('/waitlist');
    expect(list.statusCode, list.body).toBe(200);
    const data = list.json().data;
    expect(data.map((e: { guest_name: string }) => e.guest_name)).toEqual(['Ada', 'Grace']);
    expect(data[0]).toMatchObject({
      kind: 'walk_in',
      status: 'waiting',
      position: 1,
      party_size: 3,
      guest_phone: '+44 7700 900001',
      notes: 'Window please',
      quoted_minutes: 45,
      estimated_minutes: 35,
      waited_minutes: 10,
      date: '2026-06-15',
      offer: null,
    });
    expect(data[1]).toMatchObject({ position: 2, estimated_minutes: 80, waited_minutes: 9 });
    expect((await api.get('/waitlist?kind=online')).json().data).toEqual([]);
  });

  it('notifies by mail (and says so), then seats from the list as a walk-in booking', async () => {
    const [ada, grace] = (await api.get('/waitlist')).json().data as { id: string }[];
    const told = await api.post(`/waitlist/${grace.id}/notify`);
    expect(told.statusCode, told.body).toBe(200);
    expect(told.json()).toEqual({ success: true, channels: ['mail'] });
    const mails = await mailsTo(t, 'grace@example.test');
    expect(mails.map((m) => m.subject)).toEqual(['Your table at Test Venue is ready']);
    // Ada left only a phone: the app's SMS platform texts her the venue's "table ready" wording (the
    // simulated provider keeps it in the outbox), held for 15 minutes from now (12:10 + 15, venue-local).
    expect((await api.post(`/waitlist/${ada.id}/notify`)).json()).toEqual({ success: true, channels: ['sms'] });
    const texts = await t.db.kysely
      .selectFrom('sms_outbox')
      .select(['recipient', 'body', 'kind'])
      .where('venue_id', '=', venueId)
      .execute();
    expect(texts).toEqual([
      {
        recipient: '+447700900001',
        body: 'Hi Ada, your table for 3 at Test Venue is ready. Please reply or come in by 13:25.',
        kind: 'waitlist_ready',
      },
    ]);

    // The two-top is free once its stay ends.
    t.clock.advance(85 * 60_000);
    const seats = await Promise.all([1, 2, 3].map(() => api.post(`/waitlist/${grace.id}/seat`, { table_ids: [small] })));
    for (const res of seats) expect(res.statusCode, res.body).toBe(200);
    const bookingIds = new Set(seats.map((res) => res.json().booking_id));
    expect(bookingIds.size).toBe(1);
    const [bookingId] = [...bookingIds];
    const booking = await t.app.inject({ url: `/api/bookings/${bookingId}`, headers: op.headers });
    expect(booking.json()).toMatchObject({ status: 'checked_in', guest_name: 'Grace', guest_count: 2 });
    const all = (await api.get('/waitlist?all=true')).json().data;
    expect(all.find((e: { id: string }) => e.id === grace.id)).toMatchObject({ status: 'seated', position: null, booking_id: bookingId });
    expect((await api.get('/waitlist')).json().data.map((e: { id: string }) => e.id)).toEqual([ada.id]);
    // Seated: no more notifying or removing.
    expect((await api.post(`/waitlist/${grace.id}/notify`)).statusCode).toBe(409);
    expect((await api.post(`/waitlist/${grace.id}/remove`, {})).statusCode).toBe(409);
  });

  it('refuses to seat when no table is free; the party keeps its place', async () => {
    const id = (await api.post('/waitlist', { party_size: 2, guest_name: 'Linus' })).json().id;
    // Grace holds the two-top; the four-top is taken too.
    await seatedNow(large, 120);
    const res = await api.post(`/waitlist/${id}/seat`, {});
    expect(res.statusCode, res.body).toBe(409);
    const entry = (await api.get('/waitlist')).json().data.find((e: { id: string }) => e.id === id);
    expect(entry).toMatchObject({ status: 'waiting' });
  });

  it('removes and marks no-shows', async () => {
    const [ada, linus] = (await api.get('/waitlist')).json().data as { id: string }[];
    expect((await api.post(`/waitlist/${ada.id}/remove`, { no_show: true })).json()).toEqual({ success: true });
    expect((await api.post(`/waitlist/${linus.id}/remove`, {})).json()).toEqual({ success: true });
    const all = (await api.get('/waitlist?all=true')).json().data;
    expect(all.find((e: { id: string }) => e.id === ada.id).status).toBe('no_show');
    expect(all.find((e: { id: string }) => e.id === linus.id).status).toBe('removed');
    expect((await api.get('/waitlist')).json().data).toEqual([]);
    expect((await api.post(`/waitlist/${linus.id}/remove`, {})).statusCode).toBe(409);
  });

  it('refuses bad input and changes nothing', async () => {
    const before = (await api.get('/waitlist?all=true')).json().data.length;
    for (const body of [
      { party_size: 0, guest_name: 'X' },
      { party_size: 2 },
      { party_size: 2, guest_name: '' },
      { party_size: 2, guest_name: '   ' },
      { party_size: 2, guest_name: 'X', guest_email: 'not-an-email' },
      { party_size: 2, guest_name: 'X', extra: 1 },
    ]) {
      const res = await api.post('/waitlist', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toEqual(expect.any(String));
    }
    expect((await api.get('/waitlist/quote?party_size=abc')).statusCode).toBe(400);
    expect((await api.get('/waitlist?date=2026-02-30')).statusCode).toBe(400);
    expect((await api.get('/waitlist?all=true')).json().data.length).toBe(before);
  });

  it('needs the bookings permission: read to list, write to change; another tenant is 404', async () => {
    const id = (await api.post('/waitlist', { party_size: 2, guest_name: 'Hedy' })).json().id;
    const reader = venueApi(t, (await createStaff(t, op, { bookings: 'read' }, [venueId])).headers, venueId);
    expect((await reader.get('/waitlist')).statusCode).toBe(200);
    expect((await reader.get('/waitlist/quote?party_size=2')).statusCode).toBe(200);
    expect((await reader.post('/waitlist', { party_size: 2, guest_name: 'X' })).statusCode).toBe(403);
    expect((await reader.post(`/waitlist/${id}/notify`)).statusCode).toBe(403);
    expect((await reader.post(`/waitlist/${id}/seat`, {})).statusCode).toBe(403);
    expect((await reader.post(`/waitlist/${id}/remove`, {})).statusCode).toBe(403);
    const tablesOnly = venueApi(t, (await createStaff(t, op, { tables: 'write' }, [venueId])).headers, venueId);
    expect((await tablesOnly.get('/waitlist')).statusCode).toBe(403);
    expect((await venueApi(t, {}, venueId).get('/waitlist')).statusCode).toBe(401);

    const other = await createOperator(t, 'Other');
    const otherVenue = await insertVenue(t, other.operatorId, { status: 'live' });
    const stranger = venueApi(t, other.headers, venueId);
    expect((await stranger.get('/waitlist')).statusCode).toBe(404);
    expect((await stranger.post('/waitlist', { party_size: 2, guest_name: 'X' })).statusCode).toBe(404);
    // An entry id of another venue is not found under the caller's own venue.
    const own = venueApi(t, other.headers, otherVenue);
    for (const action of ['notify', 'seat', 'remove']) {
      const res = await own.post(`/waitlist/${id}/${action}`, {});
      expect(res.statusCode, action).toBe(404);
    }
    expect((await own.get('/waitlist?all=true')).json().data).toEqual([]);
    const entry = (await api.get('/waitlist')).json().data.find((e: { id: string }) => e.id === id);
    expect(entry.status).toBe('waiting');
  });
});

describe('notify by text message', () => {
  it('queues a text message through the optional SMS dependency when the party has a phone', async () => {
    const sent: { to: string; body: string; venueId: string | null; kind: string }[] = [];
    const { ctx } = t;
    const walkIns = createWalkIns({
      db: ctx.db,
      clock: ctx.clock,
      log: ctx.log,
      mail: ctx.mail,
      botCheck: ctx.botCheck,
      rateLimits: ctx.rateLimits,
      publicBaseUrl: 'http://maitred.test',
      offerMinutes: 15,
      linkSecret: async () => 'x'.repeat(32),
      liveVenue: async () => undefined,
      availability: async () => ({ slots: [] }),
      book: () => Promise.reject(new Error('unused')),
      seatWalkIn: () => Promise.reject(new Error('unused')),
      textMessages: {
        async queue(_trx, message) {
          sent.push(message);
        },
      },
    });
    const id = (await api.post('/waitlist', { party_size: 2, guest_name: 'Alan', guest_phone: '+44 7700 900002' })).json().id;
    const venue = await ctx.db.kysely.selectFrom('venues').selectAll().where('id', '=', venueId).executeTakeFirstOrThrow();
    expect(await walkIns.notify(venue, id)).toEqual({ success: true, channels: ['sms'] });
    expect(sent).toEqual([
      {
        to: '+447700900002',
        body: 'Hi Alan, your table for 2 at Test Venue is ready. Please reply or come in by 14:50.',
        venueId,
        kind: 'waitlist_ready',
      },
    ]);
  });
});
