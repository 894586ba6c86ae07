import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuest, createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { grantKeys, keysBalance } from './keys.js';
import { ensureWebhookSecret, WEBHOOK_SECRET_SETTING } from './webhook-secret.js';
import { deliver, eventId, nowSeconds, sessionEvent, sign } from './payments.test-helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const topup = (userId: string, keys: number, sessionId?: string) =>
  sessionEvent('checkout.session.completed', { id: sessionId, metadata: { kind: 'keys_topup', user_id: userId, keys: String(keys) } });

const eventRow = (id: string) => t.db.kysely.selectFrom('webhook_events').selectAll().where('id', '=', id).executeTakeFirst();
const setting = (key: string) => t.db.kysely.selectFrom('platform_settings').select('value').where('key', '=', key).executeTakeFirst();

describe('webhook signature', () => {
  it('acknowledges a well-signed event and fulfils it', async () => {
    const guest = await createGuest(t);
    const event = topup(guest.userId, 7);
    const res = await deliver(t, event);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true });
    expect(await keysBalance(t.db, guest.userId)).toBe(7);
    expect(await eventRow(event.id)).toMatchObject({ type: 'checkout.session.completed', kind: 'keys_topup', outcome: 'fulfilled' });
  });

  it('refuses a bad, missing, stale or malformed signature with 400 and changes nothing', async () => {
    const guest = await createGuest(t);
    const event = topup(guest.userId, 5);
    const raw = JSON.stringify(event);
    const now = nowSeconds(t);
    const cases = [
      sign(raw, { secret: 'whsec_wrong', timestamp: now }),
      sign(raw, { timestamp: now - 301 }),
      sign(raw, { timestamp: now + 301 }),
      `t=${now}`,
      'garbage',
    ];
    for (const signature of cases) {
      const res = await deliver(t, raw, signature);
      expect(res.statusCode).toBe(400);
      expect(typeof res.json().error).toBe('string');
    }
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/payment',
      headers: { 'content-type': 'application/json' },
      payload: raw,
    });
    expect(unsigned.statusCode).toBe(400);
    expect(await keysBalance(t.db, guest.userId)).toBe(0);
    expect(await eventRow(event.id)).toBeUndefined();
  });

  it('validates a signed body like any other: a NUL or a lone surrogate anywhere is 400 and changes nothing', async () => {
    const guest = await createGuest(t);
    const count = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('webhook_events')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const bodies = [
      { ...topup(guest.userId, 5), id: `evt_nul\u0000${eventId()}` },
      sessionEvent('checkout.session.completed', { metadata: { kind: 'booking_deposit', booking_id: 'bkg_\u0000x' } }),
      sessionEvent('checkout.session.completed', { metadata: { kind: 'event_booking', booking_id: 'bkg_\u0000x' } }),
      sessionEvent('checkout.session.expired', { metadata: { kind: 'voucher_purchase', intent_id: 'pi_\u0000x' } }),
      sessionEvent('checkout.session.completed', { metadata: { kind: 'keys_topup', user_id: guest.userId, keys: '5', note: '\ud800' } }),
    ];
    for (const body of bodies) {
      const res = await deliver(t, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/^body\.\S+ must (not contain control characters|be valid Unicode text)$/);
    }
    expect(await count()).toBe(before);
    expect(await keysBalance(t.db, guest.userId)).toBe(0);
  });

  it('accepts a stale-looking but in-tolerance timestamp (300 s)', async () => {
    const guest = await createGuest(t);
    const raw = JSON.stringify(topup(guest.userId, 2));
    expect((await deliver(t, raw, sign(raw, { timestamp: nowSeconds(t) - 300 }))).statusCode).toBe(200);
    expect(await keysBalance(t.db, guest.userId)).toBe(2);
  });

  it('accepts several v1 signatures when one matches', async () => {
    const guest = await createGuest(t);
    const raw = JSON.stringify(topup(guest.userId, 3));
    const now = nowSeconds(t);
    const rolled = sign(raw, { secret: 'whsec_rolled', timestamp: now }).split(',')[1];
    const current = sign(raw, { timestamp: now }).split(',')[1];
    expect((await deliver(t, raw, `t=${now},${rolled},${rolled}`)).statusCode).toBe(400);
    const res = await deliver(t, raw, `t=${now},${rolled},${current}`);
    expect(res.statusCode).toBe(200);
    expect(await keysBalance(t.db, guest.userId)).toBe(3);
  });

  it('refuses a body altered by one byte after signing', async () => {
    const guest = await createGuest(t);
    const raw = JSON.stringify(topup(guest.userId, 4));
    const signature = sign(raw, { timestamp: nowSeconds(t) });
    const altered = raw.replace('"keys":"4"', '"keys":"9"');
    expect(altered.length).toBe(raw.length);
    expect((await deliver(t, altered, signature)).statusCode).toBe(400);
    expect((await deliver(t, `${raw} `, signature)).statusCode).toBe(400);
    expect(await keysBalance(t.db, guest.userId)).toBe(0);
  });

  it('verifies the raw bytes as sent: odd whitespace and non-ASCII text still verify', async () => {
    const guest = await createGuest(t);
    const raw = `{ "id" : "${eventId()}",\n  "type":"checkout.session.completed", "created": 1,
      "data": {"object": {"id":"cs_ws","payment_status":"paid","amount_total":100,
      "metadata":{"kind":"keys_topup","user_id":"${guest.userId}","keys":"6","note":"café ☕"}}}}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/payment',
      headers: { 'content-type': 'application/json; charset=utf-8', 'payment-signature': sign(raw, { timestamp: nowSeconds(t) }) },
      payload: raw,
    });
    expect(res.statusCode).toBe(200);
    expect(await keysBalance(t.db, guest.userId)).toBe(6);
  });

  it('accepts the same signature under the header name Stripe uses', async () => {
    const guest = await createGuest(t);
    const raw = JSON.stringify(topup(guest.userId, 1));
    const send = (signature: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/webhooks/payment',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        payload: raw,
      });
    expect((await send(sign(raw, { secret: 'whsec_wrong', timestamp: nowSeconds(t) }))).statusCode).toBe(400);
    expect((await send(sign(raw, { timestamp: nowSeconds(t) }))).statusCode).toBe(200);
    expect(await keysBalance(t.db, guest.userId)).toBe(1);
  });

  it('refuses a v1 that only starts with the right signature', async () => {
    const guest = await createGuest(t);
    const raw = JSON.stringify(topup(guest.userId, 4));
    const signature = sign(raw, { timestamp: nowSeconds(t) });
    expect((await deliver(t, raw, `${signature}0`)).statusCode).toBe(400);
    expect((await deliver(t, raw, `${signature}ff`)).statusCode).toBe(400);
    expect(await keysBalance(t.db, guest.userId)).toBe(0);
  });

  it('records events whatever their created time (beyond 2038 on both engines)', async () => {
    const guest = await createGuest(t);
    const event = sessionEvent(
      'checkout.session.completed',
      { metadata: { kind: 'keys_topup', user_id: guest.userId, keys: '2' } },
      eventId(),
      4_102_444_800,
    );
    expect((await deliver(t, event)).statusCode).toBe(200);
    expect(await eventRow(event.id)).toMatchObject({ event_created: 4_102_444_800, outcome: 'fulfilled' });
    const absurd = { ...sessionEvent('checkout.session.completed', { metadata: { kind: 'time_machine' } }), created: 1e300 };
    expect((await deliver(t, absurd)).statusCode).toBe(200);
    expect(await eventRow(absurd.id)).toMatchObject({ event_created: null, outcome: 'unhandled_kind' });
    expect(await keysBalance(t.db, guest.userId)).toBe(2);
  });

  it('answers 400 to a signed body that is not JSON or not an event', async () => {
    expect((await deliver(t, '{"id":')).statusCode).toBe(400);
    expect((await deliver(t, '{"id":"evt_x","type":"checkout.session.completed"}')).statusCode).toBe(400);
    expect((await deliver(t, '[]')).statusCode).toBe(400);
  });
});

describe('idempotent fulfilment', () => {
  it('a redelivered event fulfils once', async () => {
    const guest = await createGuest(t);
    const event = topup(guest.userId, 10);
    for (let i = 0; i < 3; i++) expect((await deliver(t, event)).statusCode).toBe(200);
    expect(await keysBalance(t.db, guest.userId)).toBe(10);
  });

  it('is idempotent by event id even where each delivery would name a new target', async () => {
    let runs = 0;
    t.ctx.payments.fulfilments.register('test_every_time', {
      target: () => `test_every_time:${++runs}`,
      completed: async () => {},
    });
    const event = sessionEvent('checkout.session.completed', { metadata: { kind: 'test_every_time' } });
    const results = await Promise.all(Array.from({ length: 5 }, () => deliver(t, event)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(5).fill(200));
    expect((await deliver(t, event)).statusCode).toBe(200);
    expect(runs).toBe(1);
    expect((await eventRow(event.id))?.outcome).toBe('fulfilled');
  });

  it('10 concurrent deliveries of one event fulfil once', async () => {
    const guest = await createGuest(t);
    await grantKeys(t.db, guest.userId, 1, t.clock.now());
    const event = topup(guest.userId, 25);
    const results = await Promise.all(Array.from({ length: 10 }, () => deliver(t, event)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(await keysBalance(t.db, guest.userId)).toBe(26);
    const entries = await t.db.kysely
      .selectFrom('billing_ledger')
      .selectAll()
      .where('user_id', '=', guest.userId)
      .where('type', '=', 'topup')
      .execute();
    expect(entries).toHaveLength(1);
  });

  it('a second event for the same session (another event id), even concurrently, changes nothing', async () => {
    const guest = await createGuest(t);
    const first = topup(guest.userId, 8, 'cs_same_target');
    const others = Array.from({ length: 5 }, () => ({ ...first, id: eventId() }));
    await Promise.all([first, ...others].map((event) => deliver(t, event)));
    expect(await keysBalance(t.db, guest.userId)).toBe(8);
    const outcomes = await t.db.kysely
      .selectFrom('webhook_events')
      .select('outcome')
      .where('id', 'in', [first.id, ...others.map((e) => e.id)])
      .execute();
    expect(outcomes.filter((o) => o.outcome === 'fulfilled')).toHaveLength(1);
    expect(outcomes.filter((o) => o.outcome === 'duplicate_target')).toHaveLength(5);
  });

  it('a fulfilment that fails rolls back, answers 500, and the retry fulfils exactly once', async () => {
    let failNext = true;
    t.ctx.payments.fulfilments.register('test_flaky', {
      async completed(trx, session) {
        await trx
          .insertInto('platform_settings')
          .values({ key: `flaky:${session.id}`, value: 'done', updated_at: 'x' })
          .execute();
        if (failNext) {
          failNext = false;
          throw new Error('downstream failure');
        }
      },
    });
    const event = sessionEvent('checkout.session.completed', { id: 'cs_flaky', metadata: { kind: 'test_flaky' } });
    expect((await deliver(t, event)).statusCode).toBe(500);
    expect(await setting('flaky:cs_flaky')).toBeUndefined();
    expect(await eventRow(event.id)).toBeUndefined();
    expect((await deliver(t, event)).statusCode).toBe(200);
    expect((await deliver(t, event)).statusCode).toBe(200);
    expect(await setting('flaky:cs_flaky')).toEqual({ value: 'done' });
  });

  it('a completed session that is not paid yet does not fulfil; its async success does', async () => {
    const guest = await createGuest(t);
    const metadata = { kind: 'keys_topup', user_id: guest.userId, keys: '4' };
    const pending = sessionEvent('checkout.session.completed', { id: 'cs_async', payment_status: 'unpaid', metadata });
    expect((await deliver(t, pending)).statusCode).toBe(200);
    expect(await keysBalance(t.db, guest.userId)).toBe(0);
    expect((await eventRow(pending.id))?.outcome).toBe('awaiting_payment');
    const succeeded = sessionEvent('checkout.session.async_payment_succeeded', { id: 'cs_async', payment_status: 'paid', metadata });
    expect((await deliver(t, succeeded)).statusCode).toBe(200);
    expect(await keysBalance(t.db, guest.userId)).toBe(4);
  });
});

describe('kinds', () => {
  it('acknowledges unknown kinds and unknown event types without changing anything', async () => {
    const unknownKind = sessionEvent('checkout.session.completed', { metadata: { kind: 'time_machine' } });
    const res = await deliver(t, unknownKind);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true });
    expect((await eventRow(unknownKind.id))?.outcome).toBe('unhandled_kind');
    const noKind = sessionEvent('checkout.session.completed', { metadata: {} });
    expect((await deliver(t, noKind)).statusCode).toBe(200);
    const otherType = { id: eventId(), type: 'charge.dispute.created', created: 1, data: { object: { id: 'dp_1' } } };
    expect((await deliver(t, otherType)).statusCode).toBe(200);
    expect((await eventRow(otherType.id))?.outcome).toBe('unhandled_type');
  });

  it('membership sets the guest tier', async () => {
    const guest = await createGuest(t);
    const event = sessionEvent('checkout.session.completed', { metadata: { kind: 'membership', user_id: guest.userId, tier: 'gold' } });
    expect((await deliver(t, event)).statusCode).toBe(200);
    const user = await t.db.kysely.selectFrom('users').select('membership_tier').where('id', '=', guest.userId).executeTakeFirstOrThrow();
    expect(user.membership_tier).toBe('gold');
  });

  it('acknowledges keys_topup and membership sessions with unusable metadata without acting on them', async () => {
    const guest = await createGuest(t);
    const unusable: Record<string, string>[] = [
      { kind: 'keys_topup', user_id: guest.userId, keys: '-3' },
      { kind: 'keys_topup', user_id: guest.userId, keys: '2.5' },
      { kind: 'keys_topup', user_id: 'usr_nobody', keys: '3' },
      { kind: 'membership', user_id: guest.userId, tier: '   ' },
    ];
    for (const metadata of unusable) {
      const event = sessionEvent('checkout.session.completed', { metadata });
      expect((await deliver(t, event)).statusCode).toBe(200);
      expect((await eventRow(event.id))?.outcome).toBe('ignored');
    }
    expect(await keysBalance(t.db, guest.userId)).toBe(0);
    const user = await t.db.kysely.selectFrom('users').select('membership_tier').where('id', '=', guest.userId).executeTakeFirstOrThrow();
    expect(user.membership_tier).toBeNull();
  });
});

describe('expired sessions', () => {
  const released: string[] = [];
  const confirmed: string[] = [];
  beforeAll(() => {
    // The bookings module registers booking_deposit; this stand-in names its target the same way.
    t.ctx.payments.fulfilments.register('test_hold', {
      target: (session) => `test_hold:${session.metadata.booking_id}`,
      async completed(trx, session) {
        confirmed.push(session.metadata.booking_id);
        await trx
          .insertInto('platform_settings')
          .values({ key: `confirmed:${session.metadata.booking_id}`, value: session.id, updated_at: 'x' })
          .execute();
      },
      async expired(trx, session) {
        released.push(session.metadata.booking_id);
        await trx
          .insertInto('platform_settings')
          .values({ key: `released:${session.metadata.booking_id}`, value: session.id, updated_at: 'x' })
          .execute();
      },
    });
  });

  it('release the target through the registry, once, keyed by the contract target field', async () => {
    const metadata = { kind: 'test_hold', booking_id: 'bkg_expiring' };
    const expired = sessionEvent('checkout.session.expired', { id: 'cs_exp_1', metadata });
    expect((await deliver(t, expired)).statusCode).toBe(200);
    expect((await deliver(t, expired)).statusCode).toBe(200);
    expect(released.filter((id) => id === 'bkg_expiring')).toHaveLength(1);
    expect(await setting('released:bkg_expiring')).toEqual({ value: 'cs_exp_1' });
    expect((await eventRow(expired.id))?.target_key).toBe('test_hold:bkg_expiring');

    // A late completion of another session for the same booking finds the target settled.
    const late = sessionEvent('checkout.session.completed', { id: 'cs_exp_2', metadata });
    expect((await deliver(t, late)).statusCode).toBe(200);
    expect(confirmed).not.toContain('bkg_expiring');
    expect((await eventRow(late.id))?.outcome).toBe('duplicate_target');
  });

  it('after a completion, an expiry of another session for the same target changes nothing', async () => {
    const metadata = { kind: 'test_hold', booking_id: 'bkg_paid' };
    expect((await deliver(t, sessionEvent('checkout.session.completed', { id: 'cs_paid_1', metadata }))).statusCode).toBe(200);
    expect((await deliver(t, sessionEvent('checkout.session.expired', { id: 'cs_paid_2', metadata }))).statusCode).toBe(200);
    expect(confirmed.filter((id) => id === 'bkg_paid')).toHaveLength(1);
    expect(released).not.toContain('bkg_paid');
  });

  it('an expiry of a kind with nothing to release is acknowledged and does not claim the target', async () => {
    const guest = await createGuest(t);
    const metadata = { kind: 'keys_topup', user_id: guest.userId, keys: '5' };
    const expired = sessionEvent('checkout.session.expired', { id: 'cs_topup_exp', metadata });
    expect((await deliver(t, expired)).statusCode).toBe(200);
    expect((await eventRow(expired.id))?.outcome).toBe('nothing_to_release');
    expect(await keysBalance(t.db, guest.userId)).toBe(0);
  });
});

describe('registry', () => {
  it('refuses a second registration of a kind and badly named kinds', () => {
    expect(() => t.ctx.payments.fulfilments.register('keys_topup', { completed: async () => {} })).toThrow(/already registered/);
    expect(() => t.ctx.payments.fulfilments.register('Bad-Kind', { completed: async () => {} })).toThrow(/lower_snake_case/);
    expect(t.ctx.payments.fulfilments.kinds()).toEqual(expect.arrayContaining(['keys_topup', 'membership']));
  });
});

describe('signing secret', () => {
  it('without PAYMENT_WEBHOOK_SECRET, is random per database, created once and kept', async () => {
    const own = await createTestApp({ PAYMENT_WEBHOOK_SECRET: '' });
    try {
      const secret = await own.ctx.payments.webhookSecret();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
      const stored = await own.db.kysely
        .selectFrom('platform_settings')
        .select('value')
        .where('key', '=', WEBHOOK_SECRET_SETTING)
        .executeTakeFirstOrThrow();
      expect(stored.value).toBe(secret);
      expect(await ensureWebhookSecret(own.db, own.clock.now())).toEqual({ secret, created: false });

      const guest = await createGuest(own);
      const raw = JSON.stringify(topup(guest.userId, 3));
      expect((await deliver(own, raw, sign(raw, { timestamp: nowSeconds(own) }))).statusCode).toBe(400);
      expect((await deliver(own, raw, sign(raw, { secret, timestamp: nowSeconds(own) }))).statusCode).toBe(200);
      expect(await keysBalance(own.db, guest.userId)).toBe(3);
    } finally {
      await own.close();
    }
    const other = await createTestApp({ PAYMENT_WEBHOOK_SECRET: '' });
    try {
      const first = await ensureWebhookSecret(other.db, other.clock.now());
      expect(first.created).toBe(true);
      expect(await other.ctx.payments.webhookSecret()).toBe(first.secret);
    } finally {
      await other.close();
    }
  });
});
