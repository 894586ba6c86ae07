/**
 * Outbound webhooks: endpoints CRUD with its validation, permissions and tenancy; events recorded with
 * the changes that cause them; signed delivery with retries and back-off; the delivery log, redelivery,
 * disabling after repeated failures (with a mail), one delivery across two instances, and the SSRF
 * refusals at registration and at delivery.
 */
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createOperator,
  createStaff,
  createTestApp,
  insertVenue,
  mailsTo,
  setupVenue,
  type TestApp,
  type TestOperator,
  venueApi,
} from '../../../test/helpers/app.js';
import { createContext } from '../../context.js';
import { domainEvents } from '../../platform/domain-events.js';
import { insertTable } from '../bookings/core/bookings.test-support.js';
import { enableVouchers, issueComp } from '../vouchers/vouchers.test-support.js';
import { WEBHOOK_DISABLE_AFTER_FAILURES, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS } from './delivery.js';
import { startReceiver, verifySignature } from './webhooks.test-support.js';

let t: TestApp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  t = await createTestApp({ WEBHOOKS_ALLOW_PRIVATE: 'true' });
  receiver = await startReceiver();
});
// Each test starts with no delivery due (earlier tests' retries would answer its deliverDue) and a receiver that answers 200.
beforeEach(async () => {
  await t.db.kysely.updateTable('webhook_deliveries').set({ status: 'failed' }).where('status', '=', 'pending').execute();
  receiver.received.length = 0;
  receiver.answers.length = 0;
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const call = (headers: Record<string, string>, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/my-operator/webhooks${url}`, headers, ...(payload ? { payload } : {}) });

async function register(op: TestOperator, body: Record<string, unknown> = {}) {
  const res = await call(op.headers, 'POST', '', { url: receiver.url, events: ['booking.created', 'booking.cancelled'], ...body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { success: true; id: string; secret: string };
}

const deliverDue = () => t.ctx.webhooks.delivery.deliverDue();
const deliveriesOf = async (op: TestOperator, endpointId: string) => {
  const res = await call(op.headers, 'GET', `/${endpointId}/deliveries`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Array<Record<string, any>>;
};
const emit = (operatorId: string, venueId: string | null, type: 'booking.created' | 'guest.updated' = 'booking.created') =>
  domainEvents.emit(t.db, { type, operatorId, venueId, at: t.clock.now().toISOString(), data: { object: 'test', id: 'x' } });

const FRIDAY = '2026-06-19';
const staffBook = (op: TestOperator, venueId: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/my-venues/${venueId}/staff-bookings`,
    headers: op.headers,
    payload: { date: FRIDAY, time: '19:00', party_size: 2, guest_name: 'Ada Lovelace', guest_email: 'ada@example.test' },
  });

describe('endpoints', () => {
  it('registers an endpoint, shows the secret once, keeps it sealed, and lists, reads, changes and deletes it', async () => {
    const op = await createOperator(t);
    const { id, secret } = await register(op, { description: ' Till ' });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const row = await t.db.kysely.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.secret.startsWith('v1:')).toBe(true);
    expect(row.secret).not.toContain(secret.slice(6));

    const list = (await call(op.headers, 'GET', '')).json();
    expect(list).toEqual({
      data: [
        {
          id,
          url: receiver.url,
          description: 'Till',
          events: ['booking.created', 'booking.cancelled'],
          venue_ids: [],
          enabled: true,
          consecutive_failures: 0,
          disabled_at: null,
          disabled_reason: null,
          created_at: t.clock.now().toISOString(),
          updated_at: t.clock.now().toISOString(),
        },
      ],
    });
    expect(JSON.stringify(list)).not.toContain(secret);

    const venueId = (await setupVenue(t)).venueId; // another operator's venue
    const own = await t.db.kysely.selectFrom('venues').select('id').where('operator_id', '=', op.operatorId).execute();
    expect(own).toEqual([]);
    expect((await call(op.headers, 'PATCH', `/${id}`, { venue_ids: [venueId] })).statusCode).toBe(400);

    const patched = await call(op.headers, 'PATCH', `/${id}`, { events: ['voucher.issued'], enabled: false });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await call(op.headers, 'GET', `/${id}`)).json()).toMatchObject({
      events: ['voucher.issued'],
      enabled: false,
      disabled_reason: null,
    });

    expect((await call(op.headers, 'DELETE', `/${id}`)).statusCode).toBe(200);
    expect((await call(op.headers, 'GET', `/${id}`)).statusCode).toBe(404);
    expect((await call(op.headers, 'DELETE', `/${id}`)).statusCode).toBe(404);
  });

  it.each([
    ['a non-http scheme', { url: 'ftp://example.com/hook', events: ['booking.created'] }],
    ['a URL with credentials', { url: 'http://user:pass@127.0.0.1/hook', events: ['booking.created'] }],
    ['no events', { url: 'https://example.com/hook', events: [] }],
    ['an unknown event', { url: 'https://example.com/hook', events: ['booking.exploded'] }],
    ['a repeated event', { url: 'https://example.com/hook', events: ['booking.created', 'booking.created'] }],
    ['no url', { events: ['booking.created'] }],
    ['an unknown field', { url: 'https://example.com/hook', events: ['booking.created'], secret: 'mine' }],
    ['a venue of no account', { url: 'https://example.com/hook', events: ['booking.created'], venue_ids: ['ven_nope'] }],
  ])('refuses %s (400) and registers nothing', async (_label, body) => {
    const op = await createOperator(t);
    const res = await call(op.headers, 'POST', '', body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toEqual(expect.any(String));
    expect((await call(op.headers, 'GET', '')).json().data).toEqual([]);
  });

  it('refuses an empty change (400)', async () => {
    const op = await createOperator(t);
    const { id } = await register(op);
    expect((await call(op.headers, 'PATCH', `/${id}`, {})).statusCode).toBe(400);
  });

  it('rotates the secret: the new one shown once, both signing for a day', async () => {
    const op = await createOperator(t);
    const { venueId } = await setupVenueOf(op);
    const { id, secret } = await register(op);
    const rotated = await call(op.headers, 'POST', `/${id}/rotate-secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { secret: fresh, previous_secret_valid_until } = rotated.json();
    expect(fresh).not.toBe(secret);
    expect(previous_secret_valid_until).toBe(new Date(t.clock.now().getTime() + 86_400_000).toISOString());
    receiver.received.length = 0;
    await emit(op.operatorId, venueId);
    await deliverDue();
    const [got] = receiver.received;
    verifySignature(got!.headers['maitred-signature'], got!.body, fresh);
    verifySignature(got!.headers['maitred-signature'], got!.body, secret);
  });

  it('answers 401 without a session, 403 without operators.settings (reads with read), 404 across accounts', async () => {
    const op = await createOperator(t);
    const { id } = await register(op);
    expect((await t.app.inject({ method: 'GET', url: '/api/my-operator/webhooks' })).statusCode).toBe(401);
    const none = await createStaff(t, op, { tables: 'write' });
    const reader = await createStaff(t, op, { 'operators.settings': 'read' });
    expect((await call(none.headers, 'GET', '')).statusCode).toBe(403);
    expect((await call(reader.headers, 'GET', '')).statusCode).toBe(200);
    expect((await call(reader.headers, 'GET', `/${id}/deliveries`)).statusCode).toBe(200);
    expect((await call(reader.headers, 'POST', '', { url: receiver.url, events: ['booking.created'] })).statusCode).toBe(403);
    expect((await call(reader.headers, 'PATCH', `/${id}`, { enabled: false })).statusCode).toBe(403);
    expect((await call(reader.headers, 'DELETE', `/${id}`)).statusCode).toBe(403);
    expect((await call(reader.headers, 'POST', `/${id}/rotate-secret`)).statusCode).toBe(403);

    const other = await createOperator(t);
    expect((await call(other.headers, 'GET', `/${id}`)).statusCode).toBe(404);
    expect((await call(other.headers, 'PATCH', `/${id}`, { enabled: false })).statusCode).toBe(404);
    expect((await call(other.headers, 'DELETE', `/${id}`)).statusCode).toBe(404);
    expect((await call(other.headers, 'POST', `/${id}/rotate-secret`)).statusCode).toBe(404);
    expect((await call(other.headers, 'GET', `/${id}/deliveries`)).statusCode).toBe(404);
    expect((await call(other.headers, 'GET', '')).json().data).toEqual([]);
    expect((await call(op.headers, 'GET', `/${id}`)).json().enabled).toBe(true);
  });
});

/** A venue of `op` with one table. */
async function setupVenueOf(op: TestOperator) {
  const venueId = await insertVenue(t, op.operatorId);
  await insertTable(t, venueId, { table_number: '1', capacity: 4 });
  return { venueId };
}

describe('delivery', () => {
  it('delivers a staff booking signed, retrying with back-off: fails twice, arrives on the third attempt', async () => {
    const op = await createOperator(t);
    const { venueId } = await setupVenueOf(op);
    const { id, secret } = await register(op);
    receiver.received.length = 0;
    receiver.answers.push(500, 503);

    const booked = await staffBook(op, venueId);
    expect(booked.statusCode, booked.body).toBe(200);
    const bookingId = booked.json().id as string;

    expect(await deliverDue()).toEqual({ delivered: 0, retrying: 1, failed: 0 });
    // Not due again before the first back-off has passed.
    t.clock.advance(WEBHOOK_RETRY_DELAYS_MS[0]! - 1000);
    expect(await deliverDue()).toEqual({ delivered: 0, retrying: 0, failed: 0 });
    t.clock.advance(1000);
    expect(await deliverDue()).toEqual({ delivered: 0, retrying: 1, failed: 0 });
    t.clock.advance(WEBHOOK_RETRY_DELAYS_MS[1]!);
    expect(await deliverDue()).toEqual({ delivered: 1, retrying: 0, failed: 0 });

    expect(receiver.received).toHaveLength(3);
    const bodies = new Set(receiver.received.map((r) => r.body));
    expect(bodies.size).toBe(1);
    const last = receiver.received[2]!;
    const timestamp = verifySignature(last.headers['maitred-signature'], last.body, secret);
    expect(timestamp).toBe(Math.floor(t.clock.now().getTime() / 1000));
    const event = JSON.parse(last.body);
    expect(event).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      type: 'booking.created',
      created: expect.any(Number),
      operator_id: op.operatorId,
      venue_id: venueId,
      data: { object: { object: 'booking', id: bookingId, status: 'confirmed', guest_name: 'Ada Lovelace', guest_count: 2, date: FRIDAY } },
    });
    expect(last.headers['maitred-event-id']).toBe(event.id);
    expect(last.headers['maitred-event-type']).toBe('booking.created');
    expect(last.headers['content-type']).toBe('application/json');

    const [delivery] = await deliveriesOf(op, id);
    expect(delivery).toMatchObject({
      status: 'delivered',
      event_id: event.id,
      last_status_code: 200,
      last_error: null,
      next_attempt_at: null,
    });
    expect(delivery!.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([200, 503, 500]);
    expect(delivery!.attempts[1]).toMatchObject({ manual: false, error: 'Answered 503', duration_ms: expect.any(Number) });
    expect(delivery!.attempts[1].response_body).toHaveLength(1000);
    expect((await call(op.headers, 'GET', `/${id}`)).json().consecutive_failures).toBe(0);
  });

  it('records events of cancellations, vouchers, only for subscribed types and venues, and none for a rolled-back change', async () => {
    const op = await createOperator(t);
    const { venueId } = await setupVenueOf(op);
    const { venueId: otherVenue } = await setupVenueOf(op);
    const all = await register(op, { events: ['booking.created', 'booking.cancelled', 'voucher.issued', 'voucher.redeemed'] });
    const onlyOther = await register(op, { events: ['booking.created'], venue_ids: [otherVenue] });
    const booked = (await staffBook(op, venueId)).json().id as string;
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/bookings/${booked}/staff-cancel`,
      headers: op.headers,
      payload: { reason: 'Closed' },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    // A refused change (the booking is already cancelled) records nothing.
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/bookings/${booked}/staff-cancel`, headers: op.headers, payload: {} })).statusCode,
    ).toBe(409);
    const api = venueApi(t, op.headers, venueId);
    await enableVouchers(api);
    const voucher = await issueComp(api);
    expect((await api.post('/vouchers/redeem', { code: voucher.code, amount_pence: 1000 })).statusCode).toBe(200);

    const types = (await deliveriesOf(op, all.id)).map((d) => d.event_type).reverse();
    expect(types).toEqual(['booking.created', 'booking.cancelled', 'voucher.issued', 'voucher.redeemed']);
    expect(await deliveriesOf(op, onlyOther.id)).toEqual([]);
    const redeemed = JSON.parse((await deliveriesOf(op, all.id))[0]!.payload);
    expect(redeemed.data.object).toMatchObject({
      object: 'voucher',
      remaining_pence: 4000,
      redemption: { amount_pence: 1000, venue_id: venueId },
    });
  });

  it('gives up after the last retry, and an operator redelivers it', async () => {
    const op = await createOperator(t);
    const { venueId } = await setupVenueOf(op);
    const { id, secret } = await register(op);
    receiver.received.length = 0;
    receiver.answers.push(...Array<number>(WEBHOOK_MAX_ATTEMPTS).fill(500));
    await emit(op.operatorId, venueId);
    for (const delay of [0, ...WEBHOOK_RETRY_DELAYS_MS]) {
      t.clock.advance(delay);
      await deliverDue();
    }
    const [failed] = await deliveriesOf(op, id);
    expect(failed).toMatchObject({ status: 'failed', last_status_code: 500, next_attempt_at: null });
    expect(failed!.attempts).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    expect(receiver.received).toHaveLength(WEBHOOK_MAX_ATTEMPTS);

    const res = await call(op.headers, 'POST', `/${id}/deliveries/${failed!.id}/redeliver`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().delivery).toMatchObject({ id: failed!.id, status: 'delivered', last_status_code: 200 });
    expect(res.json().delivery.attempts[0]).toMatchObject({ manual: true, status_code: 200 });
    const got = receiver.received.at(-1)!;
    verifySignature(got.headers['maitred-signature'], got.body, secret);
    expect(got.body).toBe(failed!.payload);

    const other = await createOperator(t);
    expect((await call(other.headers, 'POST', `/${id}/deliveries/${failed!.id}/redeliver`)).statusCode).toBe(404);
    const { id: second } = await register(op);
    expect((await call(op.headers, 'POST', `/${second}/deliveries/${failed!.id}/redeliver`)).statusCode).toBe(404);
    const reader = await createStaff(t, op, { 'operators.settings': 'read' });
    expect((await call(reader.headers, 'POST', `/${id}/deliveries/${failed!.id}/redeliver`)).statusCode).toBe(403);
  });

  it('treats a redirect as a failure and does not follow it', async () => {
    const op = await createOperator(t);
    const { id } = await register(op);
    receiver.received.length = 0;
    receiver.answers.push(302);
    await emit(op.operatorId, null);
    await deliverDue();
    const [delivery] = await deliveriesOf(op, id);
    expect(delivery).toMatchObject({ status: 'pending', last_status_code: 302, last_error: 'Redirects are not followed' });
    expect(receiver.received).toHaveLength(1);
  });

  it(`disables an endpoint after ${WEBHOOK_DISABLE_AFTER_FAILURES} failures in a row over a day, failing what is pending, and mails the owner`, async () => {
    const op = await createOperator(t);
    const { id } = await register(op);
    receiver.answers.length = 0;
    receiver.answers.push(...Array<number>(100).fill(500));
    for (let i = 0; i < WEBHOOK_DISABLE_AFTER_FAILURES; i++) await emit(op.operatorId, null);
    await deliverDue();
    // Twenty failures in a row, but within the hour: still enabled.
    expect((await call(op.headers, 'GET', `/${id}`)).json()).toMatchObject({
      enabled: true,
      consecutive_failures: WEBHOOK_DISABLE_AFTER_FAILURES,
    });
    expect(await mailsTo(t, op.email)).toEqual([]);
    await emit(op.operatorId, null);
    t.clock.advance(24 * 3_600_000);
    await deliverDue();
    const endpoint = (await call(op.headers, 'GET', `/${id}`)).json();
    expect(endpoint).toMatchObject({ enabled: false, disabled_reason: expect.stringContaining('failed attempts in a row') });
    const deliveries = await deliveriesOf(op, id);
    expect(deliveries.every((d) => d.status === 'failed')).toBe(true);
    const mails = await mailsTo(t, op.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('webhook endpoint');
    expect(mails[0]!.text_body).toContain('/app/webhooks');
    // Disabled: no new deliveries are recorded, and a redelivery is refused until it is enabled again.
    await emit(op.operatorId, null);
    expect(await deliveriesOf(op, id)).toHaveLength(deliveries.length);
    expect((await call(op.headers, 'POST', `/${id}/deliveries/${deliveries[0]!.id}/redeliver`)).statusCode).toBe(409);
    expect((await call(op.headers, 'PATCH', `/${id}`, { enabled: true })).statusCode).toBe(200);
    expect((await call(op.headers, 'GET', `/${id}`)).json()).toMatchObject({
      enabled: true,
      consecutive_failures: 0,
      disabled_reason: null,
    });
    receiver.answers.length = 0;
    expect((await call(op.headers, 'POST', `/${id}/deliveries/${deliveries[0]!.id}/redeliver`)).json().delivery.status).toBe('delivered');
  });

  it('is delivered once when two instances run the job at the same time', async () => {
    const op = await createOperator(t);
    const { id } = await register(op);
    const other = createContext(t.config, t.db, { clock: t.clock, log: pino({ level: 'silent' }) });
    receiver.received.length = 0;
    receiver.answers.length = 0;
    for (let i = 0; i < 5; i++) await emit(op.operatorId, null);
    const [a, b] = await Promise.all([deliverDue(), other.webhooks.delivery.deliverDue()]);
    expect(a.delivered + b.delivered).toBe(5);
    expect(receiver.received).toHaveLength(5);
    expect(new Set(receiver.received.map((r) => r.headers['maitred-delivery-id'])).size).toBe(5);
    expect((await deliveriesOf(op, id)).every((d) => d.attempts.length === 1)).toBe(true);
  });
});

describe('private addresses (SSRF)', () => {
  it('refuses, without WEBHOOKS_ALLOW_PRIVATE, a host that resolves to a loopback or private address at registration (400)', async () => {
    const strict = await createTestApp();
    try {
      const op = await createOperator(strict);
      for (const url of [
        `http://localhost:${receiver.port}/hooks`,
        receiver.url,
        'http://[::1]/x',
        'http://10.0.0.8/x',
        'http://169.254.169.254/latest',
      ]) {
        const res = await strict.app.inject({
          method: 'POST',
          url: '/api/my-operator/webhooks',
          headers: op.headers,
          payload: { url, events: ['booking.created'] },
        });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().error).toMatch(/public addresses only/);
      }
      expect(await strict.db.kysely.selectFrom('webhook_endpoints').selectAll().execute()).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  it('refuses at delivery time too: an instance without the setting does not send to a private address', async () => {
    const op = await createOperator(t);
    const { id } = await register(op);
    const strict = createContext({ ...t.config, webhooks: { ...t.config.webhooks, allowPrivate: false } }, t.db, {
      clock: t.clock,
      log: pino({ level: 'silent' }),
    });
    receiver.received.length = 0;
    await emit(op.operatorId, null);
    expect(await strict.webhooks.delivery.deliverDue()).toMatchObject({ retrying: 1 });
    expect(receiver.received).toEqual([]);
    const [delivery] = await deliveriesOf(op, id);
    expect(delivery!.last_error).toMatch(/not a public address \(loopback\)/);
  });
});
