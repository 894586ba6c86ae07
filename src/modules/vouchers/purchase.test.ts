/**
 * Guests buying vouchers over HTTP on both engines: create-intent within the venue's settings (amounts,
 * quantities, delivery, recipient; `Idempotency-Key`), finalize issuing once and answering the same
 * codes every time, finalize racing the provider's `voucher_purchase` event, the mail as the local SMTP
 * server receives it, and the intent rate limit.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, setupVenue, type TestApp, type VenueApi } from '../../../test/helpers/app.js';
import { createTestSmtp, parseMail, type TestSmtp } from '../../platform/mail/smtp.test-helpers.js';
import { confirm, deliver, sessionEvent } from '../payments/payments.test-helpers.js';
import { enableVouchers, issueComp } from './vouchers.test-support.js';

let t: TestApp;
let smtp: TestSmtp;
let venueId: string;
let api: VenueApi;

beforeAll(async () => {
  smtp = await createTestSmtp();
  t = await createTestApp({ RATE_LIMITS: 'public_booking=1000/60', SMTP_URL: smtp.url, MAIL_FROM: 'Maitred <vouchers@maitred.test>' });
  ({ venueId, api } = await setupVenue(t, { status: 'live', name: 'The Night Owl', email: 'hello@owl.test' }));
  await enableVouchers(api, {
    fixed_amounts: [2500, 5000],
    allow_custom: true,
    min_amount_pence: 1000,
    max_amount_pence: 20000,
    max_qty: 5,
    terms: 'No cash value.',
  });
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});
beforeEach(() => {
  smtp.received.length = 0;
});

let n = 0;
const purchase = (fields: Record<string, unknown> = {}) => ({
  venue_id: venueId,
  amount_pence: 2500,
  quantity: 1,
  delivery: 'email',
  recipient_name: 'Rosa',
  recipient_email: `rosa${++n}@example.test`,
  purchaser_name: 'Sam',
  purchaser_email: `sam${n}@example.test`,
  ...fields,
});
const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/public/voucher-purchase/${url}`, payload, headers });
const createIntent = async (fields: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
  const res = await post('create-intent', purchase(fields), headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { intent_id: string; client_secret: string; amount_pence: number };
};
const finalize = (intentId: string) => post('finalize', { intent_id: intentId });
const receivedBy = (to: string) => smtp.received.filter((m) => m.envelopeTo.includes(to)).map((m) => parseMail(m.raw));

describe('create-intent', () => {
  it('creates one intent for amount × quantity', async () => {
    const answer = await createIntent({ amount_pence: 5000, quantity: 3 });
    expect(answer).toEqual({
      intent_id: expect.stringMatching(/^pi_/),
      client_secret: expect.stringMatching(/^pi_.+_secret_/),
      amount_pence: 15000,
      publishable_key: 'pk_test_simulated',
    });
    const record = await t.db.kysely
      .selectFrom('payment_records')
      .selectAll()
      .where('intent_id', '=', answer.intent_id)
      .executeTakeFirstOrThrow();
    expect(record).toMatchObject({ venue_id: venueId, amount_pence: 15000, kind: 'voucher_purchase' });
    // A custom amount within the bounds, and the purchaser as the delivery address.
    expect((await createIntent({ amount_pence: 1234, delivery: 'purchaser', recipient_email: null })).amount_pence).toBe(1234);
  });

  it.each<[string, Record<string, unknown>, number, RegExp]>([
    [
      'a custom amount below the minimum',
      { amount_pence: 999 },
      400,
      /amount_pence must be one of £25.00, £50.00, or between £10.00 and £200.00/,
    ],
    ['a custom amount above the maximum', { amount_pence: 20001 }, 400, /amount_pence must be/],
    ['a quantity above max_qty', { quantity: 6 }, 400, /quantity must be between 1 and 5/],
    ['no quantity', { quantity: undefined }, 400, /quantity/],
    ['email delivery without a recipient address', { recipient_email: null }, 400, /recipient_email is required/],
    ['an unknown delivery', { delivery: 'pigeon' }, 400, /delivery/],
    ['no purchaser email', { purchaser_email: undefined }, 400, /purchaser_email/],
    ['a malformed recipient email', { recipient_email: 'rosa' }, 400, /recipient_email/],
    ['an unknown venue', { venue_id: 'ven_unknown' }, 404, /Venue not found/],
  ])('refuses %s', async (_label, fields, status, message) => {
    const res = await post('create-intent', purchase(fields));
    expect(res.statusCode).toBe(status);
    expect(res.json().error).toMatch(message);
  });

  it('refuses while vouchers are off, a fixed amount only when custom amounts are off, and a draft venue (404)', async () => {
    const off = await setupVenue(t, { status: 'live' });
    expect((await post('create-intent', purchase({ venue_id: off.venueId }))).json().error).toMatch(/not on sale/);
    await enableVouchers(off.api, { allow_custom: false, fixed_amounts: [3000], min_qty: 2 });
    expect((await post('create-intent', purchase({ venue_id: off.venueId, amount_pence: 3500, quantity: 2 }))).json().error).toBe(
      'amount_pence must be one of £30.00',
    );
    expect((await post('create-intent', purchase({ venue_id: off.venueId, amount_pence: 3000 }))).json().error).toMatch(/between 2 and 10/);
    expect((await post('create-intent', purchase({ venue_id: off.venueId, amount_pence: 3000, quantity: 2 }))).statusCode).toBe(200);
    const draft = await setupVenue(t, { status: 'draft' });
    await enableVouchers(draft.api);
    expect((await post('create-intent', purchase({ venue_id: draft.venueId }))).statusCode).toBe(404);
  });

  it('honours Idempotency-Key: the same request answers the same intent, another request with it is a 409', async () => {
    const body = purchase({ quantity: 2 });
    const first = await post('create-intent', body, { 'idempotency-key': 'buy-1' });
    const again = await post('create-intent', body, { 'idempotency-key': 'buy-1' });
    expect(first.statusCode, first.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    const raced = await Promise.all([1, 2, 3].map(() => post('create-intent', body, { 'idempotency-key': 'buy-2' })));
    expect(new Set(raced.map((r) => r.json().intent_id)).size).toBe(1);
    const other = await post('create-intent', { ...body, quantity: 3 }, { 'idempotency-key': 'buy-1' });
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toMatch(/different request/);
    const fresh = await post('create-intent', body);
    expect(fresh.json().intent_id).not.toBe(first.json().intent_id);
    expect((await post('create-intent', body, { 'idempotency-key': ' ' })).statusCode).toBe(400);
  });
});

describe('finalize', () => {
  it('issues the vouchers once the payment succeeded and answers the same vouchers every time', async () => {
    const intent = await createIntent({ amount_pence: 5000, quantity: 2 });
    const unpaid = await finalize(intent.intent_id);
    expect(unpaid.json()).toEqual({ success: false, delivery: 'email', vouchers: [], payment_status: 'requires_payment_method' });

    expect((await confirm(t, intent.intent_id, 'pm_card_visa')).statusCode).toBe(200);
    const first = await finalize(intent.intent_id);
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ success: true, delivery: 'email', payment_status: 'succeeded' });
    expect(body.vouchers).toEqual([
      { code: expect.any(String), display_code: expect.any(String), amount_pence: 5000, expires_at: '2027-06-15' },
      { code: expect.any(String), display_code: expect.any(String), amount_pence: 5000, expires_at: '2027-06-15' },
    ]);
    expect(body.vouchers[0].code).not.toBe(body.vouchers[1].code);
    expect((await finalize(intent.intent_id)).json()).toEqual(body);
    const list = (await api.get('/vouchers')).json().data as { code: string; mode: string; recipient_name: string; emailed: boolean }[];
    const mine = list.filter((v) => body.vouchers.some((b: { code: string }) => b.code === v.code));
    expect(mine).toHaveLength(2);
    expect(mine.every((v) => v.mode === 'paid' && v.recipient_name === 'Rosa' && v.emailed)).toBe(true);
    expect((await api.get(`/vouchers/lookup?code=${body.vouchers[1].display_code}`)).json()).toMatchObject({ reason: 'ok' });
  });

  it('answers 404 for an intent that is not a voucher purchase, and 400 without one', async () => {
    expect((await finalize('pi_unknown')).statusCode).toBe(404);
    const staffIntent = (await api.post('/voucher-intent', { amount_pence: 1000 })).json().intent_id;
    expect((await finalize(staffIntent)).statusCode).toBe(404);
    expect((await post('finalize', {})).statusCode).toBe(400);
  });

  it('issues once when finalize races the provider’s voucher_purchase event', async () => {
    for (const order of ['together', 'webhook first'] as const) {
      const intent = await createIntent({ quantity: 3 });
      expect((await confirm(t, intent.intent_id, 'pm_card_visa')).statusCode).toBe(200);
      const event = sessionEvent('checkout.session.completed', {
        payment_intent: intent.intent_id,
        amount_total: 7500,
        metadata: { kind: 'voucher_purchase', intent_id: intent.intent_id },
      });
      let answers;
      if (order === 'together') {
        const [hook, ...finals] = await Promise.all([deliver(t, event), finalize(intent.intent_id), finalize(intent.intent_id)]);
        expect(hook.statusCode).toBe(200);
        answers = finals.map((f) => f.json());
      } else {
        expect((await deliver(t, event)).statusCode).toBe(200);
        expect((await deliver(t, event)).statusCode).toBe(200);
        answers = [(await finalize(intent.intent_id)).json()];
      }
      const rows = await t.db.kysely
        .selectFrom('vouchers')
        .innerJoin('voucher_purchases', 'voucher_purchases.id', 'vouchers.purchase_id')
        .select('vouchers.code')
        .where('voucher_purchases.intent_id', '=', intent.intent_id)
        .orderBy('vouchers.purchase_seq')
        .execute();
      expect(rows, order).toHaveLength(3);
      for (const answer of answers) expect(answer.vouchers.map((v: { code: string }) => v.code)).toEqual(rows.map((r) => r.code));
    }
  });

  it('ignores a voucher_purchase event that matches no purchase, or not its amount', async () => {
    const intent = await createIntent();
    for (const metadata of [{ intent_id: 'pi_nobody' }, { intent_id: intent.intent_id }]) {
      const event = sessionEvent('checkout.session.completed', { amount_total: 1, metadata: { kind: 'voucher_purchase', ...metadata } });
      expect((await deliver(t, event)).statusCode).toBe(200);
      const row = await t.db.kysely.selectFrom('webhook_events').select('outcome').where('id', '=', event.id).executeTakeFirstOrThrow();
      expect(row.outcome).toBe('ignored');
    }
    expect((await finalize(intent.intent_id)).json()).toMatchObject({ success: false, vouchers: [] });
  });
});

describe('voucher mail', () => {
  it('arrives at the recipient from the venue, with each code, its value and its expiry', async () => {
    const intent = await createIntent({ amount_pence: 5000, quantity: 2, message: 'Happy birthday!' });
    await confirm(t, intent.intent_id, 'pm_card_visa');
    const { vouchers } = (await finalize(intent.intent_id)).json();
    await t.ctx.mail.flush();
    const to = `rosa${n}@example.test`;
    await smtp.waitFor(2);
    const [mail] = receivedBy(to);
    expect(mail.headers.get('subject')).toBe('2 gift vouchers for The Night Owl');
    expect(mail.headers.get('from')).toMatch(/^"?The Night Owl"? <vouchers@maitred\.test>$/);
    expect(mail.headers.get('reply-to')).toBe('hello@owl.test');
    for (const voucher of vouchers) {
      expect(mail.text).toContain(voucher.display_code);
      expect(mail.html).toContain(voucher.display_code);
    }
    expect(mail.text).toContain('Sam has sent you 2 gift vouchers for The Night Owl.');
    expect(mail.text).toContain('Happy birthday!');
    expect(mail.text).toContain('£50.00');
    // The last day, written for people (issue 26), not as ISO.
    expect(mail.text).toContain('Valid until 1: Tuesday, 15 June 2027');
    expect(mail.text).not.toContain('2027-06-15');
    expect(mail.text).toContain('Terms: No cash value.');
    // The buyer gets a receipt (no codes: they are the recipient's), as HTML with a plain-text part.
    const [receipt] = receivedBy(`sam${n}@example.test`);
    expect(receipt.headers.get('subject')).toBe('Your receipt: gift vouchers for The Night Owl');
    expect(receipt.text).toContain('Hello Sam,');
    expect(receipt.text).toContain('Gift vouchers: 2 × £50.00');
    expect(receipt.text).toContain('Total paid: £100.00');
    expect(receipt.text).toContain(`Sent to: Rosa (${to})`);
    expect(receipt.text).toContain('Valid until: Tuesday, 15 June 2027');
    expect(receipt.html).toContain('Total paid');
    for (const voucher of vouchers) expect(receipt.text).not.toContain(voucher.display_code);
    // Finalizing again sends nothing more.
    await finalize(intent.intent_id);
    await t.ctx.mail.flush();
    expect(receivedBy(to)).toHaveLength(1);
    expect(receivedBy(`sam${n}@example.test`)).toHaveLength(1);
  });

  it('goes to the purchaser with delivery purchaser, and to a comp voucher’s recipient (emailed)', async () => {
    const intent = await createIntent({ delivery: 'purchaser', recipient_email: null });
    await confirm(t, intent.intent_id, 'pm_card_visa');
    const [voucher] = (await finalize(intent.intent_id)).json().vouchers;
    const comp = await issueComp(api, { recipient_name: 'Lee', recipient_email: 'lee@example.test', amount_pence: 1500 });
    expect(comp.emailed).toBe(true);
    await t.ctx.mail.flush();
    await smtp.waitFor(2);
    const [toPurchaser] = receivedBy(`sam${n}@example.test`);
    expect(toPurchaser.text).toContain(voucher.display_code);
    expect(toPurchaser.text).toContain('Hello Sam,');
    const [toLee] = receivedBy('lee@example.test');
    expect(toLee.headers.get('subject')).toBe('Your gift voucher for The Night Owl');
    expect(toLee.text).toContain(comp.display_code);
    expect(toLee.text).toContain('£15.00');
  });
});

describe('the create-intent rate limit', () => {
  it('counts every attempt per client address, malformed ones included: 429 with Retry-After', async () => {
    const limited = await createTestApp({ RATE_LIMITS: 'public_booking=3/60' });
    try {
      const send = (payload: object) => limited.app.inject({ method: 'POST', url: '/api/public/voucher-purchase/create-intent', payload });
      expect((await send({})).statusCode).toBe(400);
      expect((await send({ venue_id: 'ven_x' })).statusCode).toBe(400);
      expect((await send(purchase({ venue_id: 'ven_x' }))).statusCode).toBe(404);
      const refused = await send(purchase({ venue_id: 'ven_x' }));
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.close();
    }
  });
});
