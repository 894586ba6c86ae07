/**
 * The simulated provider's checkout sessions end to end: the hosted page, declined and paid cards, the
 * redirect and the webhook fulfilment, expiry (asked for, or lapsed), the pay/expire race, and its
 * signed events delivered again with backoff when the platform did not accept them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuest, createTestApp, type TestApp } from '../../../../test/helpers/app.js';
import { keysBalance } from '../keys.js';
import { FORM, statusOf } from '../payments.test-helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const payments = () => t.ctx.payments;

describe('simulated checkout sessions', () => {
  const pagePath = (url: string) => new URL(url).pathname;

  it('run end to end: hosted page, declined card, paid card, redirect, webhook fulfilment', async () => {
    const guest = await createGuest(t);
    const session = await payments().createCheckoutSession({
      amountPence: 999,
      name: '10 keys',
      metadata: { kind: 'keys_topup', user_id: guest.userId, keys: '10' },
      successUrl: 'https://app.example/keys/done?session={CHECKOUT_SESSION_ID}',
      cancelUrl: 'https://app.example/keys',
    });
    expect(session).toMatchObject({ status: 'open', payment_status: 'unpaid', amount_total: 999, payment_intent: null });
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`http://maitred.test/simulated/checkout/${session.id}`);

    const page = await t.app.inject({ url: pagePath(session.url!) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('10 keys');
    expect(page.body).toContain('£9.99');

    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const declined = await t.app.inject({
      method: 'POST',
      url: pagePath(session.url!),
      headers: form,
      payload: 'payment_method=pm_card_chargeDeclined',
    });
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Your card was declined.');
    expect((await payments().retrieveCheckoutSession(session.id)).status).toBe('open');
    expect(await keysBalance(t.db, guest.userId)).toBe(0);

    const paid = await t.app.inject({ method: 'POST', url: pagePath(session.url!), headers: form, payload: 'payment_method=pm_card_visa' });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`https://app.example/keys/done?session=${session.id}`);
    const after = await payments().retrieveCheckoutSession(session.id);
    expect(after).toMatchObject({ status: 'complete', payment_status: 'paid', url: null });
    expect(after.payment_intent).toMatch(/^pi_/);
    expect((await payments().retrieveIntent(after.payment_intent!)).status).toBe('succeeded');
    // The provider's signed checkout.session.completed went through the webhook and fulfilled the top-up.
    expect(await keysBalance(t.db, guest.userId)).toBe(10);
    const again = await t.app.inject({
      method: 'POST',
      url: pagePath(session.url!),
      headers: form,
      payload: 'payment_method=pm_card_visa',
    });
    expect(again.statusCode).toBe(409);
    expect(await keysBalance(t.db, guest.userId)).toBe(10);
  });

  it('expiring a session releases its target through the registry', async () => {
    const released: string[] = [];
    payments().fulfilments.register('test_release', {
      completed: async () => {},
      expired: async (_trx, session) => {
        released.push(session.metadata.order_id);
      },
      target: (session) => `test_release:${session.metadata.order_id}`,
    });
    const session = await payments().createCheckoutSession({
      amountPence: 500,
      name: 'Order',
      metadata: { kind: 'test_release', order_id: 'ord_1' },
      successUrl: 'https://app.example/ok',
      cancelUrl: 'https://app.example/no',
    });
    expect((await payments().expireCheckoutSession(session.id)).status).toBe('expired');
    expect(released).toEqual(['ord_1']);
    expect(await statusOf(payments().expireCheckoutSession(session.id))).toBe(409);
    expect(released).toEqual(['ord_1']);

    // Sessions also lapse at their expiry time, releasing the target when next looked at.
    const timed = await payments().createCheckoutSession({
      amountPence: 500,
      name: 'Order',
      metadata: { kind: 'test_release', order_id: 'ord_2' },
      successUrl: 'https://app.example/ok',
      cancelUrl: 'https://app.example/no',
      expiresAt: new Date(t.clock.now().getTime() + 30 * 60_000),
    });
    t.clock.advance(31 * 60_000);
    const page = await t.app.inject({ url: pagePath(timed.url!) });
    expect(page.body).toContain('expired');
    expect((await payments().retrieveCheckoutSession(timed.id)).status).toBe('expired');
    expect(released).toEqual(['ord_1', 'ord_2']);
  });

  it('paying and expiring one session at once: never both', async () => {
    const released: string[] = [];
    payments().fulfilments.register('test_race', {
      completed: async () => {},
      expired: async (_trx, session) => {
        released.push(session.id);
      },
    });
    for (let i = 0; i < 5; i++) {
      const session = await payments().createCheckoutSession({
        amountPence: 700,
        name: 'Race',
        metadata: { kind: 'test_race' },
        successUrl: 'https://app.example/ok',
        cancelUrl: 'https://app.example/no',
      });
      const [pay, expire] = await Promise.allSettled([
        t.app.inject({ method: 'POST', url: pagePath(session.url!), headers: FORM, payload: 'payment_method=pm_card_visa' }),
        payments().expireCheckoutSession(session.id),
      ]);
      const paid = pay.status === 'fulfilled' && pay.value.statusCode === 303;
      const expired = expire.status === 'fulfilled';
      expect(paid !== expired).toBe(true);
      const final = await payments().retrieveCheckoutSession(session.id);
      expect(final.status).toBe(paid ? 'complete' : 'expired');
      expect(released.includes(session.id)).toBe(expired);
    }
  });

  it('an event the platform did not accept is delivered again later, and fulfils once', async () => {
    let failures = 1;
    let fulfilled = 0;
    payments().fulfilments.register('test_redelivery', {
      async completed() {
        if (failures > 0) {
          failures--;
          throw new Error('the platform is briefly unable to fulfil');
        }
        fulfilled++;
      },
    });
    const session = await payments().createCheckoutSession({
      amountPence: 800,
      name: 'Retry me',
      metadata: { kind: 'test_redelivery' },
      successUrl: 'https://app.example/ok',
      cancelUrl: 'https://app.example/no',
    });
    // The payment itself succeeds; only the event's processing failed.
    const paid = await t.app.inject({ method: 'POST', url: pagePath(session.url!), headers: FORM, payload: 'payment_method=pm_card_visa' });
    expect(paid.statusCode).toBe(303);
    expect(fulfilled).toBe(0);
    const event = await t.db.kysely
      .selectFrom('sim_events')
      .selectAll()
      .where('payload', 'like', `%${session.id}%`)
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({ type: 'checkout.session.completed', status: 'pending', attempts: 1 });

    // Not due yet: nothing is sent again.
    expect(await payments().simulated!.deliverDueEvents()).toBe(0);
    t.clock.advance(61_000);
    expect(await payments().simulated!.deliverDueEvents()).toBe(1);
    expect(fulfilled).toBe(1);
    t.clock.advance(3600_000);
    expect(await payments().simulated!.deliverDueEvents()).toBe(0);
    expect(fulfilled).toBe(1);
    const delivered = await t.db.kysely
      .selectFrom('sim_events')
      .select(['status', 'attempts'])
      .where('id', '=', event.id)
      .executeTakeFirstOrThrow();
    expect(delivered).toEqual({ status: 'delivered', attempts: 2 });
  });

  it('an event never accepted is retried with backoff and given up after three days', async () => {
    payments().fulfilments.register('test_never', {
      async completed() {
        throw new Error('always failing');
      },
    });
    const session = await payments().createCheckoutSession({
      amountPence: 800,
      name: 'Never',
      metadata: { kind: 'test_never' },
      successUrl: 'https://app.example/ok',
      cancelUrl: 'https://app.example/no',
    });
    await t.app.inject({ method: 'POST', url: pagePath(session.url!), headers: FORM, payload: 'payment_method=pm_card_visa' });
    const row = () =>
      t.db.kysely
        .selectFrom('sim_events')
        .select(['status', 'attempts'])
        .where('payload', 'like', `%${session.id}%`)
        .executeTakeFirstOrThrow();
    // Attempts at 0, 1, 3 and 7 minutes (1 minute, doubling): four within the first ten minutes.
    for (let minute = 1; minute <= 10; minute++) {
      t.clock.advance(60_000);
      await payments().simulated!.deliverDueEvents();
    }
    expect(await row()).toEqual({ status: 'pending', attempts: 4 });
    // Then at most hourly, until three days after the event.
    for (let hour = 0; hour < 71; hour++) {
      t.clock.advance(3600_000);
      await payments().simulated!.deliverDueEvents();
    }
    expect((await row()).status).toBe('pending');
    t.clock.advance(3600_000);
    await payments().simulated!.deliverDueEvents();
    const final = await row();
    expect(final.status).toBe('failed');
    expect(final.attempts).toBe(4 + 72);
    t.clock.advance(3600_000);
    expect(await payments().simulated!.deliverDueEvents()).toBe(0);
    expect((await row()).attempts).toBe(final.attempts);
  });

  it('refuses expiry times outside 30 minutes to 24 hours, and unknown sessions', async () => {
    const base = {
      amountPence: 500,
      name: 'x',
      metadata: { kind: 'test' },
      successUrl: 'https://a.example',
      cancelUrl: 'https://a.example',
    };
    expect(await statusOf(payments().createCheckoutSession({ ...base, expiresAt: new Date(t.clock.now().getTime() + 10 * 60_000) }))).toBe(
      400,
    );
    expect(
      await statusOf(payments().createCheckoutSession({ ...base, expiresAt: new Date(t.clock.now().getTime() + 25 * 3600_000) })),
    ).toBe(400);
    expect(await statusOf(payments().retrieveCheckoutSession('cs_test_nope'))).toBe(404);
    expect((await t.app.inject({ url: '/simulated/checkout/cs_test_nope' })).statusCode).toBe(404);
  });
});
