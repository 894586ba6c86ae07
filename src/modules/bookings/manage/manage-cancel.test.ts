/**
 * Cancelling through the manage link, over HTTP on both engines: each refund type (exact amounts of a
 * deposit paid through the simulated provider), a released card hold, policies that refuse (never, a
 * passed cutoff, a started booking) or a status that does, repeated and concurrent cancels refunding
 * once, the table free again, and bookings awaiting payment or approval.
 */
import { describe, expect, it } from 'vitest';
import { insertBooking, slotsHeld } from '../core/bookings.test-support.js';
import { TEST_NOW } from '../../../../test/helpers/app.js';
import {
  useManageApp,
  t,
  op,
  MANAGE,
  guest,
  policyVenue,
  book,
  bookPaid,
  bookFree,
  outbox,
  tokenFromMail,
  signedToken,
  view,
  cancel,
  bookingRow,
  refundsOf,
  historyOf,
} from './manage.test-support.js';

useManageApp();

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
      request_id: expect.any(String),
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
      request_id: expect.any(String),
      error: 'This booking could be cancelled until Thursday, 18 June 2026 at 19:00 (Europe/London): that time has passed',
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
    expect(res.json()).toEqual({
      request_id: expect.any(String),
      error: 'This booking has already started: it can no longer be cancelled',
    });
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
      expect(res.json()).toEqual({
        request_id: expect.any(String),
        error: `This booking is ${status.replace('_', ' ')}: it cannot be cancelled`,
        status,
      });
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
    expect(none.json()).toEqual({ request_id: expect.any(String), error: 'token is required' });
  });
});
