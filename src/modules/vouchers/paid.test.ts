/**
 * Vouchers sold by staff and refunds, over HTTP on both engines with the simulated provider: the
 * voucher intent (at least 50 pence), a paid voucher needing a succeeded intent of the right amount of
 * this venue, used once (also when raced), and the refund through the provider of what is left.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, setupVenue, venueApi, type TestApp } from '../../../test/helpers/app.js';
import { confirm } from '../payments/payments.test-helpers.js';
import { issueComp, paidIntent } from './vouchers.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const simRefunds = (intentId: string) =>
  t.db.kysely.selectFrom('sim_refunds').selectAll().where('payment_intent_id', '=', intentId).execute();

describe('POST voucher-intent', () => {
  it('creates a payment intent of the venue for the amount', async () => {
    const { op, venueId, api } = await setupVenue(t);
    const res = await api.post('/voucher-intent', { amount_pence: 50 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      client_secret: expect.stringMatching(/^pi_.+_secret_/),
      intent_id: expect.stringMatching(/^pi_/),
      publishable_key: 'pk_test_simulated',
      amount_pence: 50,
    });
    const record = await t.db.kysely
      .selectFrom('payment_records')
      .selectAll()
      .where('intent_id', '=', res.json().intent_id)
      .executeTakeFirstOrThrow();
    expect(record).toMatchObject({ operator_id: op.operatorId, venue_id: venueId, amount_pence: 50, kind: 'voucher_purchase' });
  });

  it.each([[49], [0], [1_000_001], ['5000']])('refuses amount_pence %j (400)', async (amount) => {
    const { api } = await setupVenue(t);
    const res = await api.post('/voucher-intent', { amount_pence: amount });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/amount_pence/);
    expect((await api.post('/voucher-intent', {})).statusCode).toBe(400);
  });
});

describe('a paid voucher', () => {
  it('is issued from a succeeded intent of the same amount, once', async () => {
    const { api } = await setupVenue(t);
    const intentId = await paidIntent(t, api, 4000);
    const res = await api.post('/vouchers', { amount_pence: 4000, mode: 'paid', payment_intent_id: intentId, recipient_name: 'Ada' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, id: expect.stringMatching(/^vch_/), emailed: false });
    expect((await api.get('/vouchers')).json().data).toEqual([
      expect.objectContaining({ mode: 'paid', amount_pence: 4000, status: 'active' }),
    ]);

    const again = await api.post('/vouchers', { amount_pence: 4000, mode: 'paid', payment_intent_id: intentId });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatch(/already used/);
    expect((await api.get('/vouchers')).json().total).toBe(1);
  });

  it('refuses an unpaid intent (402), a wrong amount (400), an unknown intent and another venue’s (404)', async () => {
    const { op, api } = await setupVenue(t);
    const unpaid = (await api.post('/voucher-intent', { amount_pence: 3000 })).json().intent_id;
    const notPaid = await api.post('/vouchers', { amount_pence: 3000, mode: 'paid', payment_intent_id: unpaid });
    expect(notPaid.statusCode).toBe(402);
    expect(notPaid.json().error).toMatch(/not succeeded/);
    expect((await confirm(t, unpaid, 'pm_card_chargeDeclined')).json()).toMatchObject({ status: 'requires_payment_method' });
    expect((await api.post('/vouchers', { amount_pence: 3000, mode: 'paid', payment_intent_id: unpaid })).statusCode).toBe(402);

    const paid = await paidIntent(t, api, 3000);
    const wrong = await api.post('/vouchers', { amount_pence: 2999, mode: 'paid', payment_intent_id: paid });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatch(/3000 pence/);
    expect((await api.post('/vouchers', { amount_pence: 3000, mode: 'paid', payment_intent_id: 'pi_unknown' })).statusCode).toBe(404);

    // Another venue of the account, and another account, cannot use this venue's payment.
    const sibling = venueApi(t, op.headers, await insertVenue(t, op.operatorId));
    expect((await sibling.post('/vouchers', { amount_pence: 3000, mode: 'paid', payment_intent_id: paid })).statusCode).toBe(404);
    const stranger = await createOperator(t, 'Stranger');
    const theirs = venueApi(t, stranger.headers, await insertVenue(t, stranger.operatorId));
    expect((await theirs.post('/vouchers', { amount_pence: 3000, mode: 'paid', payment_intent_id: paid })).statusCode).toBe(404);
    expect((await api.get('/vouchers')).json().total).toBe(0);
    // The payment is still unused and issues its voucher.
    expect((await api.post('/vouchers', { amount_pence: 3000, mode: 'paid', payment_intent_id: paid })).statusCode).toBe(200);
  });

  it('refuses an intent that is not a voucher intent (a booking’s or any other payment)', async () => {
    const { op, venueId, api } = await setupVenue(t);
    const other = await t.ctx.payments.createIntent({
      amountPence: 2000,
      metadata: { kind: 'booking_deposit' },
      operatorId: op.operatorId,
      venueId,
    });
    expect((await confirm(t, other.id, 'pm_card_visa')).statusCode).toBe(200);
    expect((await api.post('/vouchers', { amount_pence: 2000, mode: 'paid', payment_intent_id: other.id })).statusCode).toBe(404);
  });

  it('is issued once when the same intent is used concurrently', async () => {
    const { api } = await setupVenue(t);
    const intentId = await paidIntent(t, api, 2500);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => api.post('/vouchers', { amount_pence: 2500, mode: 'paid', payment_intent_id: intentId })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect((await api.get('/vouchers')).json().total).toBe(1);
  });
});

describe('refund (extension)', () => {
  it('refunds a paid voucher through the provider; it can no longer be redeemed or refunded', async () => {
    const { api } = await setupVenue(t);
    const intentId = await paidIntent(t, api, 5000);
    const voucher = (await api.post('/vouchers', { amount_pence: 5000, mode: 'paid', payment_intent_id: intentId })).json();
    const res = await api.post(`/vouchers/${voucher.id}/refund`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, refunded_pence: 5000, refund_id: expect.stringMatching(/^re_/) });
    expect(await simRefunds(intentId)).toEqual([expect.objectContaining({ id: res.json().refund_id, amount: 5000 })]);
    expect((await api.get(`/vouchers/lookup?code=${voucher.code}`)).json()).toMatchObject({
      reason: 'refunded',
      voucher: { status: 'refunded', remaining_pence: 0, refunded_pence: 5000 },
    });
    expect((await api.post('/vouchers/redeem', { code: voucher.code })).json()).toMatchObject({ success: false, reason: 'refunded' });
    const twice = await api.post(`/vouchers/${voucher.id}/refund`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toMatch(/already refunded/);
    expect(await simRefunds(intentId)).toHaveLength(1);
  });

  it('refunds only what is left of a partly redeemed voucher, and nothing of a spent one', async () => {
    const { api } = await setupVenue(t);
    const intentId = await paidIntent(t, api, 5000);
    const voucher = (await api.post('/vouchers', { amount_pence: 5000, mode: 'paid', payment_intent_id: intentId })).json();
    await api.post('/vouchers/redeem', { code: voucher.code, amount_pence: 1800 });
    const res = await api.post(`/vouchers/${voucher.id}/refund`);
    expect(res.json()).toMatchObject({ success: true, refunded_pence: 3200 });
    expect((await simRefunds(intentId)).map((r) => r.amount)).toEqual([3200]);

    const spentIntent = await paidIntent(t, api, 1000);
    const spent = (await api.post('/vouchers', { amount_pence: 1000, mode: 'paid', payment_intent_id: spentIntent })).json();
    await api.post('/vouchers/redeem', { code: spent.code });
    const refused = await api.post(`/vouchers/${spent.id}/refund`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/Nothing is left/);
    expect(await simRefunds(spentIntent)).toEqual([]);
  });

  it('refunds once under concurrent requests', async () => {
    const { api } = await setupVenue(t);
    const intentId = await paidIntent(t, api, 2000);
    const voucher = (await api.post('/vouchers', { amount_pence: 2000, mode: 'paid', payment_intent_id: intentId })).json();
    const answers = await Promise.all(Array.from({ length: 5 }, () => api.post(`/vouchers/${voucher.id}/refund`)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode !== 200).every((a) => a.statusCode === 409)).toBe(true);
    expect((await simRefunds(intentId)).map((r) => r.amount)).toEqual([2000]);
  });

  it('gives the balance back when the provider refuses the refund', async () => {
    const { api } = await setupVenue(t);
    const intentId = await paidIntent(t, api, 3000);
    const voucher = (await api.post('/vouchers', { amount_pence: 3000, mode: 'paid', payment_intent_id: intentId })).json();
    // The whole payment was refunded some other way: the provider refuses another refund of it.
    await t.ctx.payments.refund(intentId);
    const res = await api.post(`/vouchers/${voucher.id}/refund`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/already been refunded/);
    expect((await api.get(`/vouchers/lookup?code=${voucher.code}`)).json()).toMatchObject({
      reason: 'ok',
      voucher: { status: 'active', remaining_pence: 3000, refunded_pence: 0 },
    });
  });

  it('takes over a refund whose request died before the provider answered, after five minutes, with the same key', async () => {
    const { api } = await setupVenue(t);
    const intentId = await paidIntent(t, api, 2000);
    const voucher = (await api.post('/vouchers', { amount_pence: 2000, mode: 'paid', payment_intent_id: intentId })).json();
    // A request claimed the refund and died before calling the provider.
    await t.db.kysely
      .updateTable('vouchers')
      .set({ status: 'refunded', refunded_pence: 2000, remaining_pence: 0, refunded_at: t.clock.now().toISOString() })
      .where('id', '=', voucher.id)
      .execute();
    const early = await api.post(`/vouchers/${voucher.id}/refund`);
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toMatch(/in progress/);
    expect(await simRefunds(intentId)).toEqual([]);
    t.clock.advance(5 * 60_000);
    const retried = await api.post(`/vouchers/${voucher.id}/refund`);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json()).toMatchObject({ refunded_pence: 2000 });
    expect((await simRefunds(intentId)).map((r) => r.amount)).toEqual([2000]);
    expect((await api.post(`/vouchers/${voucher.id}/refund`)).json().error).toMatch(/already refunded/);
  });

  it('refuses comp vouchers (409), and another venue’s voucher is not found', async () => {
    const { op, api } = await setupVenue(t);
    const comp = await issueComp(api);
    const res = await api.post(`/vouchers/${comp.id}/refund`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/Only a paid voucher/);
    const sibling = venueApi(t, op.headers, await insertVenue(t, op.operatorId));
    expect((await sibling.post(`/vouchers/${comp.id}/refund`)).statusCode).toBe(404);
    expect((await api.post('/vouchers/vch_missing/refund')).statusCode).toBe(404);
    expect((await api.get(`/vouchers/lookup?code=${comp.code}`)).json().voucher.status).toBe('active');
  });
});
