/**
 * Refunds in the promoter ledger, over HTTP on both engines: a refunded ticket booking of a promoter's
 * event gets a refund row (negative amount and share at the sale's percent) in the refunding transaction
 * (the event's cancellation, a staff cancel, the guest's manage link with a partial refund), the sales and
 * earnings net of refunds, and nothing is added twice: not by a repeated cancel, a replayed finalize, a
 * provider's refund notification delivered twice, nor by recording the same refund again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, insertVenueRow, login, mailsTo, setupVenue, uniqueEmail, type TestApp } from '../../../test/helpers/app.js';
import { signManageToken } from '../../domain/booking-tokens/index.js';
import { MANAGE_SECRET_SETTING } from '../bookings/core/door-keys.js';
import { eventBooking } from '../bookings/index.js';
import { addTicketType, buy, buyPaid, EVENT_DATE, eventsApi, finalize } from '../events/events.test-support.js';
import { deliver, eventId as newEventId, nowSeconds, sign } from '../payments/payments.test-helpers.js';
import { recordPromoterRefund } from './promoter-ledger.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const PASSWORD = 'promoter-password-1';
const call = (method: 'GET' | 'POST' | 'PATCH', url: string, headers: Record<string, string> = {}, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

/** A venue, its promoter at `share`% (invited, signed in) and an approved event of theirs with a paid ticket type. */
async function promoterEvent(share: number, price: number) {
  const setup = await setupVenue(t);
  const email = uniqueEmail('promoter');
  await call('POST', `/api/my-venues/${setup.venueId}/promoters/invitations`, setup.op.headers, {
    email,
    name: 'Pat',
    share_percent: share,
  });
  const token = (await mailsTo(t, email))
    .map((m) => /promoter-invitation\?token=([A-Za-z0-9_-]+)/.exec(m.text_body ?? '')?.[1])
    .find(Boolean)!;
  expect((await call('POST', '/api/promoter-invitations/accept', {}, { token, password: PASSWORD })).statusCode).toBe(201);
  const headers = bearer(await login(t, email, PASSWORD));
  const submitted = await call('POST', '/api/promoter/events', headers, { venue_id: setup.venueId, name: 'Night', event_date: EVENT_DATE });
  const eventId = submitted.json().id as string;
  const events = eventsApi(t, setup.op.headers);
  expect((await events.post(`/${eventId}/approve`)).statusCode).toBe(200);
  const ticketTypeId = await addTicketType(events, eventId, { name: 'Standard', price_pence: price });
  return { ...setup, headers, eventId, events, ticketTypeId };
}

async function paidSale(p: Awaited<ReturnType<typeof promoterEvent>>, quantity: number) {
  const paid = await buyPaid(t, p.eventId, p.ticketTypeId, quantity, uniqueEmail('guest'));
  expect((await finalize(t, p.eventId, paid.payment_intent_id)).json()).toMatchObject({ status: 'confirmed' });
  return paid;
}

const ledger = (bookingId: string) =>
  t.db.kysely
    .selectFrom('promoter_ledger')
    .select(['kind', 'amount_pence', 'share_percent', 'share_pence', 'refunded_total_pence'])
    .where('booking_id', '=', bookingId)
    .orderBy('refunded_total_pence')
    .execute();

describe('refunds in the promoter ledger', () => {
  it('an event cancelled: each refunded sale gets its refund row; the totals net to 0; nothing is added twice', async () => {
    const p = await promoterEvent(20, 1250);
    const paid = await paidSale(p, 2);
    const free = await addTicketType(p.events, p.eventId, { name: 'Guest list', price_pence: 0 });
    expect((await buy(t, p.eventId, free, { email: uniqueEmail('free') })).statusCode).toBe(200);

    expect((await p.events.patch(`/${p.eventId}/status`, { status: 'cancelled' })).json()).toMatchObject({ cancelled_bookings: 2 });
    expect((await eventBooking(t.db, paid.booking_id))?.refunded_pence).toBe(2500);
    expect(await ledger(paid.booking_id)).toEqual([
      { kind: 'sale', amount_pence: 2500, share_percent: 20, share_pence: 500, refunded_total_pence: 0 },
      { kind: 'refund', amount_pence: -2500, share_percent: 20, share_pence: -500, refunded_total_pence: 2500 },
    ]);
    const sales = (await call('GET', `/api/promoter/events/${p.eventId}/sales`, p.headers)).json();
    expect(sales.data.map((row: { kind: string }) => row.kind).sort()).toEqual(['refund', 'sale', 'sale']);
    expect(sales).toMatchObject({ total_amount_pence: 0, total_refunded_pence: 2500, total_share_pence: 0 });
    expect((await call('GET', '/api/promoter/earnings', p.headers)).json()).toEqual({
      total_amount_pence: 0,
      total_refunded_pence: 2500,
      total_share_pence: 0,
      events: [{ event_id: p.eventId, venue_id: p.venueId, sales: 2, amount_pence: 0, refunded_pence: 2500, share_pence: 0 }],
    });

    // Nothing adds to it again: the finalize replayed, the same refund recorded again (as a repeated
    // status event would), and the provider's refund notification delivered twice.
    expect((await finalize(t, p.eventId, paid.payment_intent_id)).statusCode).toBe(200);
    const at = t.clock.now().toISOString();
    await recordPromoterRefund(t.db, paid.booking_id, at, async () => 2500);
    await recordPromoterRefund(t.db, paid.booking_id, at, async () => 2500);
    const notification = {
      id: newEventId(),
      type: 'charge.refunded',
      data: { object: { id: 'ch_test', object: 'charge', payment_intent: paid.payment_intent_id, amount_refunded: 2500 } },
    };
    const body = JSON.stringify(notification);
    for (let i = 0; i < 2; i++) expect((await deliver(t, body, sign(body, { timestamp: nowSeconds(t) }))).statusCode).toBe(200);
    expect(await ledger(paid.booking_id)).toHaveLength(2);
    expect((await call('GET', '/api/promoter/earnings', p.headers)).json()).toMatchObject({
      total_share_pence: 0,
      total_refunded_pence: 2500,
    });
  });

  it('a partial refund (the guest cancels under a partial policy) takes off its share, rounded so the net share stays ⌊net × percent⌋', async () => {
    const p = await promoterEvent(33, 333);
    const paid = await paidSale(p, 3);
    // A payment policy refunding 75% on the booking, as a venue's policy would put it there.
    const policyId = await insertVenueRow(
      t,
      'payment_policies',
      p.venueId,
      { name: 'Partial', refund_type: 'partial', refund_percent: 75, cancel_type: 'anytime' },
      'pp',
    );
    await t.db.kysely.updateTable('bookings').set({ payment_policy_id: policyId }).where('id', '=', paid.booking_id).execute();
    await t.app.inject({ url: '/api/public/bookings/manage?token=warm-up' });
    const secret = await t.db.kysely
      .selectFrom('platform_settings')
      .select('value')
      .where('key', '=', MANAGE_SECRET_SETTING)
      .executeTakeFirstOrThrow();
    const token = signManageToken({ bookingId: paid.booking_id, expiresAt: new Date('2026-12-31T00:00:00.000Z') }, secret.value);
    const cancel = () => t.app.inject({ method: 'POST', url: '/api/public/bookings/manage/cancel', payload: { token } });

    const first = await cancel();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ status: 'cancelled', refunded_pence: 749 });
    // 999 at 33%: 329; 250 left at 33%: 82, so the refund takes 247.
    expect(await ledger(paid.booking_id)).toEqual([
      { kind: 'sale', amount_pence: 999, share_percent: 33, share_pence: 329, refunded_total_pence: 0 },
      { kind: 'refund', amount_pence: -749, share_percent: 33, share_pence: -247, refunded_total_pence: 749 },
    ]);
    expect((await cancel()).json()).toMatchObject({ status: 'cancelled', refunded_pence: 749 });
    expect(await ledger(paid.booking_id)).toHaveLength(2);
    expect((await call('GET', `/api/promoter/events/${p.eventId}/sales`, p.headers)).json()).toMatchObject({
      total_amount_pence: 250,
      total_refunded_pence: 749,
      total_share_pence: 82,
    });
  });

  it('a staff cancel with a refund records it; one without a refund records nothing; the venue’s own events have no ledger', async () => {
    const p = await promoterEvent(10, 1000);
    const refunded = await paidSale(p, 1);
    const kept = await paidSale(p, 1);
    const staffCancel = (id: string, refund: boolean) => call('POST', `/api/bookings/${id}/staff-cancel`, p.op.headers, { refund });
    expect((await staffCancel(refunded.booking_id, true)).statusCode).toBe(200);
    expect((await staffCancel(refunded.booking_id, true)).statusCode).toBe(409);
    expect((await staffCancel(kept.booking_id, false)).statusCode).toBe(200);
    expect((await ledger(refunded.booking_id)).map((row) => [row.kind, row.amount_pence, row.share_pence])).toEqual([
      ['sale', 1000, 100],
      ['refund', -1000, -100],
    ]);
    expect((await ledger(kept.booking_id)).map((row) => row.kind)).toEqual(['sale']);
    expect((await call('GET', '/api/promoter/earnings', p.headers)).json()).toMatchObject({
      total_amount_pence: 1000,
      total_refunded_pence: 1000,
      total_share_pence: 100,
    });

    // A venue's own event: its refunds write no promoter row.
    const own = await p.events.post('', { venue_id: p.venueId, name: 'House', event_date: '2026-07-11', status: 'approved' });
    const type = await addTicketType(p.events, own.json().id, { price_pence: 500 });
    const sale = await buyPaid(t, own.json().id, type, 1, uniqueEmail('own'));
    await finalize(t, own.json().id, sale.payment_intent_id);
    expect((await staffCancel(sale.booking_id, true)).statusCode).toBe(200);
    expect(await ledger(sale.booking_id)).toEqual([]);
  });
});
