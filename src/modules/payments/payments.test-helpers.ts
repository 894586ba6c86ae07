/**
 * Test support for the payments tests: signed webhook deliveries (as the provider signs them) and
 * shortcuts through the payments API. Used only by `*.test.ts` files of this module.
 */
import { createHmac } from 'node:crypto';
import type { TestApp } from '../../../test/helpers/app.js';
import { AppError } from '../../platform/errors.js';

export const TEST_WEBHOOK_SECRET = 'whsec_test';

export const nowSeconds = (t: TestApp) => Math.floor(t.clock.now().getTime() / 1000);

/** `t=…,v1=…` over `<t>.<body>`, computed independently of the code under test. */
export function sign(body: string | Buffer, options: { secret?: string; timestamp: number }): string {
  const mac = createHmac('sha256', options.secret ?? TEST_WEBHOOK_SECRET)
    .update(`${options.timestamp}.`)
    .update(body)
    .digest('hex');
  return `t=${options.timestamp},v1=${mac}`;
}

let counter = 0;
export const eventId = () => `evt_test_${Date.now().toString(36)}_${++counter}`;

export interface SessionFields {
  id?: string;
  payment_intent?: string | null;
  payment_status?: string;
  amount_total?: number;
  metadata: Record<string, string>;
}

export function sessionEvent(type: string, session: SessionFields, id = eventId(), created = 1_780_000_000) {
  return {
    id,
    object: 'event',
    type,
    created,
    data: {
      object: {
        id: session.id ?? `cs_test_${++counter}`,
        object: 'checkout.session',
        payment_intent: session.payment_intent ?? `pi_test_${counter}`,
        payment_status: session.payment_status ?? (type === 'checkout.session.completed' ? 'paid' : 'unpaid'),
        status: type === 'checkout.session.expired' ? 'expired' : 'complete',
        amount_total: session.amount_total ?? 500,
        metadata: session.metadata,
      },
    },
  };
}

/** Posts a body to the webhook, signed now unless `signature` says otherwise. */
export function deliver(t: TestApp, body: unknown, signature?: string) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/payment',
    headers: { 'content-type': 'application/json', 'payment-signature': signature ?? sign(raw, { timestamp: nowSeconds(t) }) },
    payload: raw,
  });
}

export async function confirm(t: TestApp, intentId: string, paymentMethod: string) {
  return t.app.inject({
    method: 'POST',
    url: `/api/public/simulated-payments/${intentId}/confirm`,
    payload: { payment_method: paymentMethod },
  });
}

/** The HTTP status a payments call would answer with: 200, or the AppError's status. */
export async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    if (error instanceof AppError) return error.status;
    throw error;
  }
}

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
export const RETURN_URL = 'http://maitred.test/payouts/onboarding/return';
export const REFRESH_URL = 'http://maitred.test/payouts/onboarding/refresh';

/** The operator's connected account id, as the platform recorded it. */
export async function accountIdOf(t: TestApp, operatorId: string): Promise<string> {
  const row = await t.db.kysely
    .selectFrom('payment_accounts')
    .select('account_id')
    .where('operator_id', '=', operatorId)
    .executeTakeFirstOrThrow();
  return row.account_id;
}

/** POST /payout/connect/start; returns the path of the hosted onboarding link. */
export async function startOnboarding(t: TestApp, headers: Record<string, string>): Promise<string> {
  const start = await t.app.inject({ method: 'POST', url: '/api/my-operator/payout/connect/start', headers });
  if (start.statusCode !== 200) throw new Error(`connect/start failed: ${start.statusCode} ${start.body}`);
  return new URL(start.json().url as string).pathname;
}

/** Starts onboarding for the operator and finishes it on the simulated page (`verified` or `pending`). */
export async function onboard(
  t: TestApp,
  op: { headers: Record<string, string>; operatorId: string },
  outcome: 'verified' | 'pending' = 'verified',
) {
  const path = await startOnboarding(t, op.headers);
  const finish = await t.app.inject({ method: 'POST', url: path, headers: FORM, payload: `outcome=${outcome}` });
  // As at the real provider, finishing sends the browser to the link's return URL.
  if (finish.statusCode !== 303 || finish.headers.location !== RETURN_URL)
    throw new Error(`onboarding failed: ${finish.statusCode} ${finish.body}`);
  return { accountId: await accountIdOf(t, op.operatorId), path };
}
