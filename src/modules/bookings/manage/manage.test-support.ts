/**
 * What the manage-link test files share: the app with a test SMTP server, a venue with a payment policy,
 * booking (free, or paid through the simulated provider), the manage token (from the mail or signed
 * here), the two routes, and reads of what changed. `useManageApp()` registers the app's set-up in the
 * calling test file; `t`, `smtp` and `op` are live bindings set by it.
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { signManageToken } from '../../../domain/booking-tokens/index.js';
import { createTestSmtp, type TestSmtp } from '../../../platform/mail/smtp.test-helpers.js';
import {
  asSent,
  createOperator,
  createTestApp,
  insertVenue,
  insertVenueRow,
  TEST_NOW,
  type TestApp,
  type TestOperator,
} from '../../../../test/helpers/app.js';
import { insertAccessRule, insertShift } from '../../../../test/helpers/rows.js';
import { insertTable } from '../core/bookings.test-support.js';
import { MANAGE_SECRET_SETTING } from '../core/door-keys.js';

export let t: TestApp;
export let smtp: TestSmtp;
export let op: TestOperator;
export const FRIDAY = '2026-06-19';
/** 19:00 in London (BST) on FRIDAY. */
export const FRIDAY_19_UTC = '2026-06-19T18:00:00.000Z';
export const MANAGE = '/api/public/bookings/manage';

export function useManageApp() {
  beforeAll(async () => {
    smtp = await createTestSmtp();
    t = await createTestApp({
      RATE_LIMITS: 'public_booking=1000/60',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Maitred Bookings <bookings@maitred.test>',
    });
    op = await createOperator(t);
  });

  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  beforeEach(() => {
    t.clock.set(TEST_NOW);
  });
}

let counter = 0;
export const guest = () => {
  const n = ++counter;
  return { guest_name: `Guest ${n}`, guest_email: `manage${n}@example.test` };
};

export interface PolicyVenue {
  venueId: string;
  ruleId: string;
  tableId: string;
}

/**
 * A live venue with one table, a Friday evening shift and one access rule; with `policy`, the rule has
 * that payment policy and a price list of `pricePence` per cover.
 */
export async function policyVenue(policy?: Record<string, unknown>, pricePence = 1000): Promise<PolicyVenue> {
  const venueId = await insertVenue(t, op.operatorId, { status: 'live', email: 'hello@venue.test' });
  await insertShift(t, venueId, { days_of_week: '["fri"]', time_type: 'custom', time_from: '18:00', time_to: '23:00' });
  const tableId = await insertTable(t, venueId, { table_number: '1' });
  const refs: Record<string, string> = {};
  if (policy) {
    refs.payment_policy_id = await insertVenueRow(t, 'payment_policies', venueId, { name: 'Policy', ...policy }, 'pp');
    refs.pricelist_id = await insertVenueRow(t, 'pricelists', venueId, { name: 'Prices', default_price_pence: pricePence }, 'pl');
  }
  const ruleId = await insertAccessRule(t, venueId, { name: 'Dinner', rule_type: 'table', days_of_week: '["fri"]', ...refs });
  return { venueId, ruleId, tableId };
}

export const book = (v: PolicyVenue, who: { guest_name: string; guest_email: string }, options: { date?: string; party?: number } = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/api/public/venues/${v.venueId}/book`,
    payload: {
      access_rule_id: v.ruleId,
      rule_type: 'table',
      date: options.date ?? FRIDAY,
      time: '19:00',
      party_size: options.party ?? 2,
      ...who,
    },
  });

export const pay = (intentId: string) =>
  t.app.inject({ method: 'POST', url: `/api/public/simulated-payments/${intentId}/confirm`, payload: { payment_method: 'pm_card_visa' } });

/** Books through the public deposit flow, pays with the test card and finalizes: a confirmed booking. */
export async function bookPaid(v: PolicyVenue, options: { date?: string; party?: number } = {}) {
  const who = guest();
  const answer = (await book(v, who, options)).json();
  expect(answer.requires_payment, JSON.stringify(answer)).toBe(true);
  expect((await pay(answer.payment_intent_id)).statusCode).toBe(200);
  const done = await t.app.inject({
    method: 'POST',
    url: `/api/public/venues/${v.venueId}/book/finalize`,
    payload: { booking_id: answer.booking_id },
  });
  expect(done.json()).toMatchObject({ ok: true, status: 'confirmed' });
  return { bookingId: answer.booking_id as string, intentId: answer.payment_intent_id as string, email: who.guest_email };
}

/** A booking without a deposit, confirmed at once. */
export async function bookFree(v: PolicyVenue, options: { date?: string } = {}) {
  const who = guest();
  const res = await book(v, who, options);
  expect(res.json(), res.body).toMatchObject({ ok: true, status: 'confirmed' });
  return { bookingId: res.json().booking_id as string, email: who.guest_email };
}

export const outbox = async (to: string) =>
  asSent(
    t,
    await t.db.kysely.selectFrom('mail_outbox').selectAll().where('recipient', '=', to).orderBy('created_at').orderBy('id').execute(),
  );

/** The token of the manage link in the guest's confirmation mail. */
export async function tokenFromMail(email: string): Promise<string> {
  const confirmation = (await outbox(email)).find((m) => /confirmed/.test(m.subject));
  const match = /\/widget\/manage\?token=([A-Za-z0-9._~%-]+)/.exec(confirmation?.text_body ?? '');
  if (!match) throw new Error(`no manage link mailed to ${email}`);
  return decodeURIComponent(match[1]);
}

/** A token signed with the server's secret (created on first use: a first request makes sure of it). */
export async function signedToken(bookingId: string, expiresAt = new Date('2026-12-31T00:00:00.000Z')): Promise<string> {
  await t.app.inject({ url: `${MANAGE}?token=warm-up` });
  const secret = await t.db.kysely
    .selectFrom('platform_settings')
    .select('value')
    .where('key', '=', MANAGE_SECRET_SETTING)
    .executeTakeFirstOrThrow();
  return signManageToken({ bookingId, expiresAt }, secret.value);
}

export const view = (token: string, headers: Record<string, string> = {}) =>
  t.app.inject({ url: `${MANAGE}?token=${encodeURIComponent(token)}`, headers });
export const cancel = (token: string) => t.app.inject({ method: 'POST', url: `${MANAGE}/cancel`, payload: { token } });

export const bookingRow = (id: string) => t.db.kysely.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
export const refundsOf = (intentId: string) =>
  t.db.kysely.selectFrom('sim_refunds').select('amount').where('payment_intent_id', '=', intentId).execute();
export const historyOf = async (bookingId: string) =>
  (await t.app.inject({ url: `/api/bookings/${bookingId}`, headers: op.headers })).json().history as {
    action: string;
    actor: { kind: string };
    from_status: string | null;
    to_status: string | null;
    detail: Record<string, unknown>;
  }[];
