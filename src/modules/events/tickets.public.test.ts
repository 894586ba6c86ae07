/**
 * Guests and events over HTTP on both engines: the what's-on listing, booking options, free tickets end
 * to end (booking, mail with a QR code that checks the guest in), purchases needing the venue's
 * approval, the validation errors, the bot check, the rate limit and Idempotency-Key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, insertVenue, type TestApp } from '../../../test/helpers/app.js';
import { insertVenueRow } from '../../../test/helpers/app.js';
import { addTicketType, bookingRow, buy, createEvent, EVENT_DATE, onSale, outboxTo, setupEvents } from './events.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const get = (url: string) => t.app.inject({ url });

describe('GET events-widget and booking-options', () => {
  it('lists the upcoming approved events of a live venue with prices, and an event’s options', async () => {
    const { venueId, events, api } = await setupEvents(t);
    const live = await createEvent(events, venueId, { name: 'Live', status: 'approved', event_type: 'club_night' });
    await addTicketType(events, live, { name: 'Early bird', price_pence: 800, capacity: 0 });
    await addTicketType(events, live, { name: 'Standard', price_pence: 1200, capacity: 50, sort_order: 1 });
    await createEvent(events, venueId, { name: 'Draft', event_date: '2026-07-11' });
    await createEvent(events, venueId, { name: 'Past', status: 'approved', event_date: '2026-06-01' });
    const soldOut = await createEvent(events, venueId, {
      name: 'Full',
      status: 'approved',
      event_date: '2026-07-12',
      guest_list_capacity: 0,
    });
    await addTicketType(events, soldOut);
    await api.put('/booking-policies', { events: 'No refunds within 24 hours.' });

    const widget = await get(`/api/public/venues/${venueId}/events-widget`);
    expect(widget.statusCode, widget.body).toBe(200);
    expect(widget.headers['cache-control']).toMatch(/public/);
    expect(widget.json().events).toEqual([
      expect.objectContaining({ id: live, name: 'Live', event_type: 'club_night', from_price_pence: 800, sold_out: false }),
      expect.objectContaining({ id: soldOut, from_price_pence: 0, sold_out: true }),
    ]);

    const options = await get(`/api/public/events/${live}/booking-options`);
    expect(options.statusCode, options.body).toBe(200);
    expect(options.json()).toMatchObject({
      event: { id: live, venue_id: venueId, venue_name: 'Test Venue', event_date: EVENT_DATE },
      ticket_types: [
        { name: 'Early bird', price_pence: 800, remaining: 0, sold_out: true, requires_confirmation: false },
        { name: 'Standard', price_pence: 1200, remaining: 50, sold_out: false, requires_confirmation: false },
      ],
      bundles: [],
      policy: expect.any(String),
      publishable_key: 'pk_test_simulated',
    });
  });

  it('answers 404 for a draft venue, a draft or past event and an unknown one', async () => {
    const { venueId, events } = await setupEvents(t);
    const draftEvent = await createEvent(events, venueId);
    const past = await createEvent(events, venueId, { status: 'approved', event_date: '2026-06-14' });
    expect((await get(`/api/public/events/${draftEvent}/booking-options`)).statusCode).toBe(404);
    expect((await get(`/api/public/events/${past}/booking-options`)).statusCode).toBe(404);
    expect((await get('/api/public/events/evt_missing/booking-options')).statusCode).toBe(404);
    const draftVenue = await insertVenue(
      t,
      (await t.db.kysely.selectFrom('venues').select('operator_id').where('id', '=', venueId).executeTakeFirstOrThrow()).operator_id,
      { status: 'draft' },
    );
    const widget = await get(`/api/public/venues/${draftVenue}/events-widget`);
    expect(widget.statusCode).toBe(404);
    expect(widget.headers['cache-control']).toBe('no-store');
    expect((await get(`/api/public/venues/${venueId}/events-widget-config`)).statusCode).toBe(200);
  });
});

describe('free tickets', () => {
  it('confirms the booking, mails the tickets with a QR code, and the QR code checks the guest in', async () => {
    const { op, eventId, ticketTypeId, events } = await onSale(t, { name: 'Guest list' });
    const res = await buy(t, eventId, ticketTypeId, { quantity: 2, email: 'free-guest@example.test' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ free: true, booking_id: expect.stringMatching(/^bkg_/), status: 'confirmed', amount_pence: 0 });
    const booking = await bookingRow(t, res.json().booking_id);
    expect(booking).toMatchObject({
      kind: 'event',
      event_id: eventId,
      status: 'confirmed',
      guest_count: 2,
      total_pence: 0,
      user_id: expect.any(String),
    });

    const [mail] = await outboxTo(t, 'free-guest@example.test');
    expect(mail.subject).toBe('Your tickets for Club Night at Test Venue');
    expect(mail.text_body).toMatch(/2 × Guest list/);
    const [attachment] = JSON.parse(mail.attachments);
    expect(attachment).toMatchObject({ filename: `ticket-${booking.id}.svg`, content_type: 'image/svg+xml' });
    expect(attachment.content).toMatch(/^<svg/);

    const ticket = await t.db.kysely.selectFrom('event_tickets').selectAll().where('booking_id', '=', booking.id).executeTakeFirstOrThrow();
    expect(ticket).toMatchObject({ ticket_type_id: ticketTypeId, quantity: 2, unit_price_pence: 0 });
    // The event is on 10 July; the clock reads 15 June (finding 11: a ticket checked in weeks early).
    const early = await t.app.inject({ method: 'POST', url: '/api/check-in', headers: op.headers, payload: { qr_token: ticket.qr_token } });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({
      reason: 'too_early',
      error: 'This booking is for 2026-07-10 at 21:00: check-in opens at 19:00 on 2026-07-10',
    });
    const checkIn = await t.app.inject({
      method: 'POST',
      url: '/api/check-in',
      headers: op.headers,
      // The event is weeks away: staff override the check-in window (the window has its own tests).
      payload: { qr_token: ticket.qr_token, force: true },
    });
    expect(checkIn.statusCode, checkIn.body).toBe(200);
    expect(checkIn.json()).toMatchObject({ booking_id: booking.id, status: 'checked_in' });

    const door = (await events.get(`/${eventId}/bookings`)).json().data;
    expect(door).toEqual([expect.objectContaining({ id: booking.id, status: 'checked_in', ticket_name: 'Guest list', quantity: 2 })]);
    // The guest joined the operator's roster.
    const roster = await t.db.kysely.selectFrom('guest_roster').selectAll().where('user_id', '=', booking.user_id!).execute();
    expect(roster).toEqual([expect.objectContaining({ operator_id: op.operatorId })]);
  });

  it('refuses invalid purchases (400) and ticket types not on offer (404)', async () => {
    const { venueId, eventId, ticketTypeId, events } = await onSale(t);
    const bad: Record<string, unknown>[] = [
      { selection: { kind: 'ticket', ticket_type_id: ticketTypeId, quantity: 0 }, guest_name: 'A', guest_email: 'a@example.test' },
      { selection: { kind: 'table', ticket_type_id: ticketTypeId, quantity: 1 }, guest_name: 'A', guest_email: 'a@example.test' },
      { selection: { kind: 'ticket', ticket_type_id: ticketTypeId, quantity: 1 }, guest_name: 'A', guest_email: 'not-an-email' },
      { selection: { kind: 'ticket', ticket_type_id: ticketTypeId, quantity: 1 }, guest_email: 'a@example.test' },
      {
        selection: { kind: 'ticket', ticket_type_id: ticketTypeId, quantity: 2, party_size: 3 },
        guest_name: 'A',
        guest_email: 'a@example.test',
      },
    ];
    for (const payload of bad) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/public/events/${eventId}/create-intent`,
        payload,
        remoteAddress: '10.9.9.1',
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await buy(t, eventId, 'tkt_missing')).statusCode).toBe(404);
    const otherEvent = await createEvent(events, venueId, { status: 'approved', event_date: '2026-07-30' });
    expect((await buy(t, otherEvent, ticketTypeId)).statusCode).toBe(404);
    const hidden = await insertVenueRow(
      t,
      'profiles',
      venueId,
      { family: 'ticket', name: 'Hidden', settings: '{"visibility":"hidden"}' },
      'prf',
    );
    const secret = await addTicketType(events, eventId, { name: 'Secret', ticket_profile_id: hidden });
    expect((await buy(t, eventId, secret)).statusCode).toBe(404);
    expect((await get(`/api/public/events/${eventId}/booking-options`)).json().ticket_types.map((x: { name: string }) => x.name)).toEqual([
      'General admission',
    ]);
    expect(await t.db.kysely.selectFrom('bookings').selectAll().where('event_id', '=', eventId).execute()).toEqual([]);
  });
});

describe('purchases the venue approves', () => {
  it('holds a request (pending, nothing charged) for a ticket profile with visibility approval', async () => {
    const { venueId, eventId, events } = await onSale(t);
    const profile = await insertVenueRow(
      t,
      'profiles',
      venueId,
      { family: 'ticket', name: 'Vetted', settings: '{"visibility":"approval"}' },
      'prf',
    );
    const vetted = await addTicketType(events, eventId, { name: 'Table', price_pence: 5000, ticket_profile_id: profile });
    const res = await buy(t, eventId, vetted, { quantity: 2 });
    expect(res.json()).toEqual({ requires_confirmation: true, booking_id: expect.any(String), status: 'pending', amount_pence: 10000 });
    expect(await bookingRow(t, res.json().booking_id)).toMatchObject({
      status: 'pending',
      payment_status: 'none',
      payment_intent_id: null,
    });
    const [mail] = (await outboxTo(t, 'ada@example.test')).filter((m) => m.text_body.includes(res.json().booking_id));
    expect(mail.subject).toBe('Your ticket request for Club Night at Test Venue');
    expect(mail.text_body).toMatch(/Nothing has been charged/);
    const offered = (await get(`/api/public/events/${eventId}/booking-options`)).json().ticket_types;
    expect(offered.find((x: { id: string }) => x.id === vetted)).toMatchObject({ requires_confirmation: true, remaining: null });
  });

  it('asks approval for an admission group unless a rule the guest meets auto-approves, with its discount', async () => {
    const { venueId, eventId, events } = await onSale(t);
    const group = await insertVenueRow(t, 'admission_groups', venueId, { name: 'Door policy' }, 'agr');
    const vip = await addTicketType(events, eventId, { name: 'VIP', price_pence: 2000, admission_rule_group_id: group });
    // No rules: every purchase is a request.
    expect((await buy(t, eventId, vip, { email: 'first@example.test' })).json()).toMatchObject({ requires_confirmation: true });
    // A rule everyone meets auto-approves, with 25% off.
    await insertVenueRow(
      t,
      'admission_rules',
      venueId,
      { group_id: group, name: 'All', act_autoapprove_enabled: 1, act_discount_enabled: 1, act_discount_pct: 25 },
      'arl',
    );
    const res = await buy(t, eventId, vip, { email: 'second@example.test' });
    expect(res.json()).toMatchObject({ requires_payment: true, amount_pence: 1500 });
  });
});

describe('ticket profiles', () => {
  it('opens sales booking_start before the event and closes them booking_cutoff before it (409), and can hide what is left', async () => {
    const { venueId, eventId, events } = await onSale(t, {}, { event_date: '2026-06-17', start_time: '21:00' });
    const profile = (settings: object) =>
      insertVenueRow(t, 'profiles', venueId, { family: 'ticket', name: `P${Math.random()}`, settings: JSON.stringify(settings) }, 'prf');
    const notYet = await addTicketType(events, eventId, {
      name: 'Later',
      ticket_profile_id: await profile({ booking_window_enabled: true, booking_start_value: 1, booking_start_unit: 'days' }),
    });
    const closed = await addTicketType(events, eventId, {
      name: 'Closed',
      ticket_profile_id: await profile({ booking_window_enabled: true, booking_cutoff_value: 3, booking_cutoff_unit: 'days' }),
    });
    const open = await addTicketType(events, eventId, {
      name: 'Open',
      capacity: 20,
      ticket_profile_id: await profile({
        booking_window_enabled: true,
        booking_start_value: 7,
        booking_start_unit: 'days',
        show_capacity: false,
      }),
    });
    const later = await buy(t, eventId, notYet);
    expect(later.statusCode).toBe(409);
    expect(later.json().error).toMatch(/not on sale yet/);
    expect((await buy(t, eventId, closed)).json().error).toMatch(/closed/);
    expect((await buy(t, eventId, open)).statusCode).toBe(200);
    const offered = (await get(`/api/public/events/${eventId}/booking-options`)).json().ticket_types;
    const byName = (name: string) => offered.find((x: { name: string }) => x.name === name);
    expect(byName('Later')).toMatchObject({ sold_out: true });
    expect(byName('Closed')).toMatchObject({ sold_out: true });
    expect(byName('Open')).toMatchObject({ sold_out: false, remaining: null });
  });
});

describe('abuse controls', () => {
  it('honours an Idempotency-Key: the same answer, one booking; another body with the key is a 409', async () => {
    const { eventId, ticketTypeId } = await onSale(t);
    const first = await buy(t, eventId, ticketTypeId, { key: 'retry-1' });
    const again = await buy(t, eventId, ticketTypeId, { key: 'retry-1' });
    expect(again.json()).toEqual(first.json());
    expect(await t.db.kysely.selectFrom('bookings').select('id').where('event_id', '=', eventId).execute()).toHaveLength(1);
    expect((await buy(t, eventId, ticketTypeId, { key: 'retry-1', quantity: 2 })).statusCode).toBe(409);
    expect((await buy(t, eventId, ticketTypeId, { key: ' ' })).statusCode).toBe(400);
  });

  it('rate limits purchases per client address (429 with Retry-After), counted before the body is read', async () => {
    const { eventId } = await onSale(t);
    const answers = [];
    for (let i = 0; i < 31; i++) {
      answers.push(
        await t.app.inject({ method: 'POST', url: `/api/public/events/${eventId}/create-intent`, payload: {}, remoteAddress: '10.77.0.1' }),
      );
    }
    expect(answers.slice(0, 30).every((r) => r.statusCode === 400)).toBe(true);
    expect(answers[30].statusCode).toBe(429);
    expect(answers[30].headers['retry-after']).toBeDefined();
  });
});

describe('the bot check', () => {
  it('refuses a missing token (400) and a rejected one (403), booking nothing', async () => {
    const guarded = await createTestApp({ TURNSTILE_SECRET_KEY: '2x0000000000000000000000000000000AA' });
    try {
      const { eventId, ticketTypeId } = await onSale(guarded);
      expect((await buy(guarded, eventId, ticketTypeId)).statusCode).toBe(400);
      expect((await buy(guarded, eventId, ticketTypeId, { extra: { turnstile_token: 'XXXX.DUMMY.TOKEN' } })).statusCode).toBe(403);
      expect(await guarded.db.kysely.selectFrom('bookings').select('id').where('event_id', '=', eventId).execute()).toEqual([]);
    } finally {
      await guarded.close();
    }
  });
});
