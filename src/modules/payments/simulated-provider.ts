/**
 * The simulated payment provider (CONTRACT §3): the real provider's test mode, kept in our database so
 * every payment flow runs end to end offline. It owns the `sim_*` tables. Like the real provider it
 * refuses what the real one refuses (unknown ids, wrong states, amounts below the minimum, destination
 * accounts that cannot take charges, refunds beyond what was received, an idempotency key reused for
 * another request), honours idempotency keys, lets authorisations lapse after seven days and checkout
 * sessions at their expiry, and tells the platform about checkout sessions and account changes through
 * signed webhook events (`emit`). Events are recorded in the transaction that changes the state and
 * retried with backoff until the platform accepts them, as the real provider retries its deliveries.
 * Changes to one intent or session are serialised (`lockKey`), so on PostgreSQL a hold cannot be both
 * captured and released, nor an intent refunded twice over.
 * Hosted onboarding links are single-use and expire after five minutes, like the real account links:
 * holding an account id is not enough to onboard it.
 * Test payment methods: `pm_card_visa` succeeds, `pm_card_chargeDeclined` is declined.
 */
import { createHash } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { lockKey, withTransaction } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { newId, randomToken } from '../../platform/ids.js';
import type { SimAccountLinksTable, SimAccountsTable, SimCheckoutSessionsTable, SimEventsTable, SimPaymentIntentsTable } from './payments.table.js';
import {
  CURRENCY,
  PaymentProviderError,
  type AccountLink,
  type CaptureInput,
  type CheckoutSession,
  type ConnectedAccount,
  type CreateAccountInput,
  type CreateCheckoutSessionInput,
  type CreateIntentInput,
  type CreateRefundInput,
  type IntentStatus,
  type PaymentErrorDetail,
  type PaymentIntent,
  type PaymentProvider,
  type Refund,
  type RequestOptions,
  type Transfer,
} from './provider.js';

export const SIMULATED_PUBLISHABLE_KEY = 'pk_test_simulated';

/** The provider's minimum charge in GBP. */
const MIN_AMOUNT = 30;
const AUTHORISATION_LIFETIME_MS = 7 * 24 * 3600_000;
const SESSION_MIN_MS = 30 * 60_000;
const SESSION_MAX_MS = 24 * 3600_000;
const ACCOUNT_LINK_LIFETIME_S = 300;
/** Undelivered events are retried with exponential backoff (1 minute doubling, at most hourly) for 3 days. */
const EVENT_RETRY_FIRST_MS = 60_000;
const EVENT_RETRY_MAX_MS = 3600_000;
const EVENT_RETRY_WINDOW_MS = 3 * 24 * 3600_000;

const DECLINED: PaymentErrorDetail = {
  type: 'card_error',
  code: 'card_declined',
  decline_code: 'generic_decline',
  message: 'Your card was declined.',
};

/** The test payment methods and what confirming with each does (null: the card is accepted). */
export const TEST_PAYMENT_METHODS: Record<string, PaymentErrorDetail | null> = {
  pm_card_visa: null,
  pm_card_chargeDeclined: DECLINED,
};

const CONFIRMABLE: IntentStatus[] = ['requires_payment_method', 'requires_confirmation', 'requires_action'];
const CANCELABLE: IntentStatus[] = ['requires_payment_method', 'requires_confirmation', 'requires_action', 'requires_capture', 'processing'];

export interface SimulatedEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  livemode: false;
  data: { object: unknown };
}

type IntentRow = Selectable<SimPaymentIntentsTable>;
type SessionRow = Selectable<SimCheckoutSessionsTable>;
type AccountRow = Selectable<SimAccountsTable>;
type LinkRow = Selectable<SimAccountLinksTable>;
type EventRow = Selectable<SimEventsTable>;
type Executor = Kysely<Database>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** JSON with object keys sorted, so the same parameters always hash alike. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const unix = (date: Date | string) => Math.floor(new Date(date).getTime() / 1000);
const parseMetadata = (text: string): Record<string, string> => JSON.parse(text) as Record<string, string>;

function missing(what: string, id: string): PaymentProviderError {
  return new PaymentProviderError('not_found', `No such ${what}: '${id}'`, 'resource_missing');
}

function unexpectedState(what: string, status: string, action: string): PaymentProviderError {
  return new PaymentProviderError(
    'state',
    `This ${what} could not be ${action} because it has a status of ${status}.`,
    'payment_intent_unexpected_state',
  );
}

function invalid(message: string, code: string | null = null): PaymentProviderError {
  return new PaymentProviderError('invalid_request', message, code);
}

function toIntent(row: IntentRow): PaymentIntent {
  return {
    id: row.id,
    client_secret: row.client_secret,
    amount: row.amount,
    currency: row.currency,
    status: row.status as IntentStatus,
    capture_method: row.capture_method as PaymentIntent['capture_method'],
    amount_capturable: row.amount_capturable,
    amount_received: row.amount_received,
    metadata: parseMetadata(row.metadata),
    destination: row.destination,
    application_fee_amount: row.application_fee_amount,
    last_payment_error: row.last_payment_error ? (JSON.parse(row.last_payment_error) as PaymentErrorDetail) : null,
    created: unix(row.created_at),
  };
}

function toAccount(row: AccountRow): ConnectedAccount {
  return {
    id: row.id,
    email: row.email,
    details_submitted: Boolean(row.details_submitted),
    charges_enabled: Boolean(row.charges_enabled),
    payouts_enabled: Boolean(row.payouts_enabled),
  };
}

export interface SimulatedProviderOptions {
  db: Db;
  clock: Clock;
  /** Base of the hosted pages (checkout, onboarding) the simulated provider hands out. */
  publicBaseUrl: string;
  /** Delivers an event to the platform's webhook, signed like the real provider's; throws when it was not accepted. */
  emit(event: SimulatedEvent): Promise<void>;
}

export interface CheckoutPage {
  session: CheckoutSession;
  name: string;
  successUrl: string;
  cancelUrl: string;
}

export interface SimulatedProvider extends PaymentProvider {
  readonly name: 'simulated';
  /** What the payment form does with a test payment method (the widget's test card form). */
  confirmPaymentIntent(id: string, paymentMethod: string): Promise<PaymentIntent>;
  /** The hosted checkout page: the session and what the page shows. */
  checkoutPage(id: string): Promise<CheckoutPage>;
  /** Paying on the hosted checkout page. A declined card leaves the session open. */
  payCheckoutSession(id: string, paymentMethod: string): Promise<{ session: CheckoutSession; declined: PaymentErrorDetail | null }>;
  /** The hosted onboarding page of an account link: open, or spent (used or expired: go to its refresh URL). */
  onboardingLink(token: string): Promise<OnboardingLinkView>;
  /**
   * Finishing the hosted onboarding page through an unspent link: details are submitted; `verified`
   * enables charges and payouts, else what was enabled stays as it was. Spends the link.
   */
  completeOnboarding(token: string, verified: boolean): Promise<OnboardingOutcome>;
  /** Delivers the events that are due (new, or due for a retry); returns how many were accepted. */
  deliverDueEvents(): Promise<number>;
}

export type OnboardingLinkView = { state: 'open'; account: ConnectedAccount } | { state: 'spent'; refreshUrl: string };
export type OnboardingOutcome = { state: 'done'; account: ConnectedAccount; returnUrl: string } | { state: 'spent'; refreshUrl: string };

export function createSimulatedProvider(options: SimulatedProviderOptions): SimulatedProvider {
  const { db, clock, publicBaseUrl, emit } = options;
  const now = () => clock.now();
  const at = () => now().toISOString();

  const sessionUrl = (id: string) => `${publicBaseUrl}/simulated/checkout/${id}`;

  function toSession(row: SessionRow): CheckoutSession {
    return {
      id: row.id,
      object: 'checkout.session',
      url: row.status === 'open' ? sessionUrl(row.id) : null,
      status: row.status as CheckoutSession['status'],
      payment_status: row.payment_status as CheckoutSession['payment_status'],
      payment_intent: row.payment_intent_id,
      amount_total: row.amount_total,
      currency: row.currency,
      metadata: parseMetadata(row.metadata),
      expires_at: unix(row.expires_at),
    };
  }

  const event = (type: string, object: unknown): SimulatedEvent => ({
    id: newId('evt'),
    object: 'event',
    type,
    created: unix(now()),
    livemode: false,
    data: { object },
  });

  /**
   * Runs a request under an idempotency key: a repeated key returns the object the first request made.
   * Keys are global, as at the real provider: a key reused for another operation or with other
   * parameters is refused, so a flow that would fail there fails here too.
   */
  async function idempotent<T>(
    operation: string,
    params: unknown,
    options: RequestOptions | undefined,
    create: (trx: Kysely<Database>) => Promise<string>,
    load: (trx: Executor, id: string) => Promise<T>,
  ): Promise<T> {
    return withTransaction(db, async (trx) => {
      const key = options?.idempotencyKey;
      const requestHash = sha256(stableJson(params));
      if (key) {
        await lockKey(db, trx, `sim-idempotency:${key}`);
        const seen = await trx.selectFrom('sim_idempotency_keys').selectAll().where('key', '=', key).executeTakeFirst();
        if (seen) {
          if (seen.operation !== operation || seen.request_hash !== requestHash) {
            throw invalid(
              `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
              'idempotency_key_in_use',
            );
          }
          return load(trx, seen.object_id);
        }
      }
      const id = await create(trx);
      if (key) {
        await trx.insertInto('sim_idempotency_keys').values({ key, operation, request_hash: requestHash, object_id: id, created_at: at() }).execute();
      }
      return load(trx, id);
    });
  }

  /** Reads an intent for a change, after taking its lock: changes to one intent never interleave. */
  async function lockedIntent(trx: Kysely<Database>, id: string): Promise<IntentRow> {
    await lockKey(db, trx, `sim-intent:${id}`);
    return intentRow(trx, id);
  }

  async function lockedSession(trx: Kysely<Database>, id: string): Promise<SessionRow> {
    await lockKey(db, trx, `sim-session:${id}`);
    return sessionRow(trx, id);
  }

  /** Records an event for the platform inside the transaction that made the change it reports. */
  async function recordEvent(trx: Executor, type: string, object: unknown): Promise<void> {
    const value = event(type, object);
    await trx
      .insertInto('sim_events')
      .values({ id: value.id, type, payload: JSON.stringify(value), status: 'pending', next_attempt_at: at(), created_at: at() })
      .execute();
  }

  const retryDelay = (attempts: number) => Math.min(EVENT_RETRY_FIRST_MS * 2 ** Math.max(0, attempts - 1), EVENT_RETRY_MAX_MS);

  /** Delivers one due event; the claim (moving its next attempt on) keeps two instances from both sending it. */
  async function deliverEvent(row: EventRow): Promise<boolean> {
    const attempts = row.attempts + 1;
    const claimed = await db.kysely
      .updateTable('sim_events')
      .set({ attempts, next_attempt_at: new Date(now().getTime() + retryDelay(attempts)).toISOString() })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '=', row.next_attempt_at)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return false;
    try {
      await emit(JSON.parse(row.payload) as SimulatedEvent);
    } catch {
      // Not accepted (the sender logs why): retried at the next attempt, given up after the window.
      if (now().getTime() - new Date(row.created_at).getTime() >= EVENT_RETRY_WINDOW_MS) {
        await db.kysely.updateTable('sim_events').set({ status: 'failed' }).where('id', '=', row.id).execute();
      }
      return false;
    }
    await db.kysely.updateTable('sim_events').set({ status: 'delivered' }).where('id', '=', row.id).execute();
    return true;
  }

  async function deliverDueEvents(): Promise<number> {
    const due = await db.kysely
      .selectFrom('sim_events')
      .selectAll()
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', at())
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    let delivered = 0;
    for (const row of due) if (await deliverEvent(row)) delivered++;
    return delivered;
  }

  async function linkRow(executor: Executor, token: string): Promise<LinkRow> {
    const row = await executor.selectFrom('sim_account_links').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst();
    if (!row) throw missing('account_link', '…');
    return row;
  }

  const spent = (link: LinkRow) => link.used_at !== null || new Date(link.expires_at).getTime() <= now().getTime();

  async function intentRow(executor: Executor, id: string): Promise<IntentRow> {
    const row = await executor.selectFrom('sim_payment_intents').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw missing('payment_intent', id);
    return lapseAuthorisation(executor, row);
  }

  /** An authorisation not captured within seven days is released, as card networks do. */
  async function lapseAuthorisation(executor: Executor, row: IntentRow): Promise<IntentRow> {
    if (row.status !== 'requires_capture') return row;
    if (now().getTime() - new Date(row.created_at).getTime() < AUTHORISATION_LIFETIME_MS) return row;
    const update = { status: 'canceled', amount_capturable: 0, cancellation_reason: 'automatic', updated_at: at() };
    await executor.updateTable('sim_payment_intents').set(update).where('id', '=', row.id).where('status', '=', 'requires_capture').execute();
    return { ...row, ...update };
  }

  async function accountRow(executor: Executor, id: string): Promise<AccountRow> {
    const row = await executor.selectFrom('sim_accounts').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw missing('account', id);
    return row;
  }

  async function checkDestination(executor: Executor, destination: string | null | undefined, fee: number | null | undefined, amount: number) {
    if (fee !== null && fee !== undefined) {
      if (!Number.isInteger(fee) || fee < 0) throw invalid('application_fee_amount must be a non-negative integer');
      if (!destination) throw invalid('application_fee_amount needs a destination (transfer_data[destination])');
      if (fee > amount) throw invalid('application_fee_amount cannot exceed the amount');
    }
    if (!destination) return;
    const account = await executor.selectFrom('sim_accounts').selectAll().where('id', '=', destination).executeTakeFirst();
    if (!account) throw missing('account', destination);
    if (!account.charges_enabled) {
      throw invalid('Your destination account needs to have the transfers capability enabled.', 'insufficient_capabilities_for_transfer');
    }
  }

  function checkAmount(amount: number) {
    if (!Number.isInteger(amount) || amount < MIN_AMOUNT) {
      throw invalid(`Amount must be an integer of at least ${MIN_AMOUNT} pence.`, 'amount_too_small');
    }
  }

  async function insertIntent(trx: Executor, input: CreateIntentInput & { paymentMethod?: string }): Promise<string> {
    checkAmount(input.amount);
    await checkDestination(trx, input.destination, input.applicationFeeAmount, input.amount);
    const id = newId('pi');
    await trx
      .insertInto('sim_payment_intents')
      .values({
        id,
        client_secret: `${id}_secret_${randomToken(18)}`,
        amount: input.amount,
        currency: CURRENCY,
        status: 'requires_payment_method',
        capture_method: input.captureMethod,
        metadata: JSON.stringify(input.metadata),
        description: input.description ?? null,
        destination: input.destination ?? null,
        application_fee_amount: input.applicationFeeAmount ?? null,
        payment_method: null,
        last_payment_error: null,
        cancellation_reason: null,
        created_at: at(),
        updated_at: at(),
      })
      .execute();
    return id;
  }

  /** Confirms with a test payment method inside the caller's transaction. */
  async function confirmIn(trx: Kysely<Database>, id: string, paymentMethod: string): Promise<IntentRow> {
    if (!(paymentMethod in TEST_PAYMENT_METHODS)) {
      throw invalid(
        `No such PaymentMethod: '${paymentMethod}'. Test payment methods: ${Object.keys(TEST_PAYMENT_METHODS).join(', ')}`,
        'resource_missing',
      );
    }
    const row = await lockedIntent(trx, id);
    if (!CONFIRMABLE.includes(row.status as IntentStatus)) throw unexpectedState('PaymentIntent', row.status, 'confirmed');
    const declined = TEST_PAYMENT_METHODS[paymentMethod];
    const update = declined
      ? { status: 'requires_payment_method', payment_method: null, last_payment_error: JSON.stringify(declined) }
      : row.capture_method === 'manual'
        ? { status: 'requires_capture', payment_method: paymentMethod, last_payment_error: null, amount_capturable: row.amount }
        : { status: 'succeeded', payment_method: paymentMethod, last_payment_error: null, amount_received: row.amount };
    await trx.updateTable('sim_payment_intents').set({ ...update, updated_at: at() }).where('id', '=', id).execute();
    return intentRow(trx, id);
  }

  async function sessionRow(executor: Executor, id: string): Promise<SessionRow> {
    const row = await executor.selectFrom('sim_checkout_sessions').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw missing('checkout.session', id);
    return row;
  }

  /** Marks an open session expired (once, whoever gets there first) and tells the platform. */
  async function expireSession(id: string, requireOpen: boolean): Promise<CheckoutSession> {
    const result = await withTransaction(db, async (trx) => {
      const row = await lockedSession(trx, id);
      if (row.status !== 'open') {
        if (requireOpen) {
          throw new PaymentProviderError('state', `Only open sessions can be expired; this one is ${row.status}.`, 'checkout_session_unexpected_state');
        }
        return { row, expired: false };
      }
      await trx.updateTable('sim_checkout_sessions').set({ status: 'expired', updated_at: at() }).where('id', '=', id).where('status', '=', 'open').execute();
      const expired = await sessionRow(trx, id);
      await recordEvent(trx, 'checkout.session.expired', toSession(expired));
      return { row: expired, expired: true };
    });
    if (result.expired) await deliverDueEvents();
    return toSession(result.row);
  }

  /** A session past its expiry is expired when next looked at (the real provider runs a sweeper). */
  async function currentSession(id: string): Promise<SessionRow> {
    const row = await sessionRow(db.kysely, id);
    if (row.status === 'open' && new Date(row.expires_at).getTime() <= now().getTime()) {
      await expireSession(id, false);
      return sessionRow(db.kysely, id);
    }
    return row;
  }

  const loadIntent = async (trx: Executor, id: string) => toIntent(await intentRow(trx, id));

  const provider: SimulatedProvider = {
    name: 'simulated',

    async createPaymentIntent(input, requestOptions) {
      return idempotent(
        'payment_intent.create',
        input,
        requestOptions,
        (trx) => insertIntent(trx, input),
        loadIntent,
      );
    },

    async retrievePaymentIntent(id) {
      return toIntent(await intentRow(db.kysely, id));
    },

    async confirmPaymentIntent(id, paymentMethod) {
      return toIntent(await withTransaction(db, (trx) => confirmIn(trx, id, paymentMethod)));
    },

    async capturePaymentIntent(id, input: CaptureInput = {}, requestOptions) {
      return idempotent('payment_intent.capture', { id, ...input }, requestOptions, async (trx) => {
        const row = await lockedIntent(trx, id);
        if (row.status !== 'requires_capture') throw unexpectedState('PaymentIntent', row.status, 'captured');
        const amount = input.amountToCapture ?? row.amount_capturable;
        if (!Number.isInteger(amount) || amount < 1 || amount > row.amount_capturable) {
          throw invalid(`amount_to_capture must be between 1 and ${row.amount_capturable}.`, 'amount_too_large');
        }
        const fee = input.applicationFeeAmount ?? row.application_fee_amount;
        if (fee !== null && fee !== undefined && (!row.destination || fee > amount)) {
          throw invalid('application_fee_amount cannot exceed the captured amount and needs a destination');
        }
        await trx
          .updateTable('sim_payment_intents')
          .set({ status: 'succeeded', amount_received: amount, amount_capturable: 0, application_fee_amount: fee ?? null, updated_at: at() })
          .where('id', '=', id)
          .execute();
        return id;
      }, loadIntent);
    },

    async cancelPaymentIntent(id, requestOptions) {
      return idempotent('payment_intent.cancel', { id }, requestOptions, async (trx) => {
        const row = await lockedIntent(trx, id);
        if (!CANCELABLE.includes(row.status as IntentStatus)) throw unexpectedState('PaymentIntent', row.status, 'canceled');
        await trx
          .updateTable('sim_payment_intents')
          .set({ status: 'canceled', amount_capturable: 0, cancellation_reason: 'requested_by_customer', updated_at: at() })
          .where('id', '=', id)
          .execute();
        return id;
      }, loadIntent);
    },

    async createRefund(input: CreateRefundInput, requestOptions) {
      return idempotent(
        'refund.create',
        input,
        requestOptions,
        async (trx) => {
          const intent = await lockedIntent(trx, input.paymentIntentId);
          if (intent.status !== 'succeeded') {
            throw new PaymentProviderError('state', `This PaymentIntent has a status of ${intent.status} and cannot be refunded.`, 'charge_not_refundable');
          }
          const refundable = intent.amount_received - intent.amount_refunded;
          if (refundable <= 0) throw new PaymentProviderError('state', 'This charge has already been refunded.', 'charge_already_refunded');
          const amount = input.amount ?? refundable;
          if (!Number.isInteger(amount) || amount < 1 || amount > refundable) {
            throw invalid(`Refund amount must be between 1 and ${refundable} pence.`, 'amount_too_large');
          }
          const id = newId('re');
          await trx
            .insertInto('sim_refunds')
            .values({
              id,
              payment_intent_id: intent.id,
              amount,
              currency: intent.currency,
              status: 'succeeded',
              reverse_transfer: input.reverseTransfer ? 1 : 0,
              refund_application_fee: input.refundApplicationFee ? 1 : 0,
              metadata: JSON.stringify(input.metadata ?? {}),
              created_at: at(),
            })
            .execute();
          await trx
            .updateTable('sim_payment_intents')
            .set((eb) => ({ amount_refunded: eb('amount_refunded', '+', amount), updated_at: at() }))
            .where('id', '=', intent.id)
            .execute();
          return id;
        },
        async (trx, id): Promise<Refund> => {
          const row = await trx.selectFrom('sim_refunds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
          return { id: row.id, payment_intent: row.payment_intent_id, amount: row.amount, currency: row.currency, status: row.status };
        },
      );
    },

    async createCheckoutSession(input: CreateCheckoutSessionInput, requestOptions) {
      return idempotent(
        'checkout.session.create',
        input,
        requestOptions,
        async (trx) => {
          checkAmount(input.amount);
          await checkDestination(trx, input.destination, input.applicationFeeAmount, input.amount);
          const created = now().getTime();
          const expiresAt = input.expiresAt !== undefined ? input.expiresAt * 1000 : created + SESSION_MAX_MS;
          if (expiresAt < created + SESSION_MIN_MS || expiresAt > created + SESSION_MAX_MS) {
            throw invalid('expires_at must be between 30 minutes and 24 hours from now.');
          }
          const id = newId('cs_test');
          await trx
            .insertInto('sim_checkout_sessions')
            .values({
              id,
              payment_intent_id: null,
              amount_total: input.amount,
              currency: CURRENCY,
              name: input.name,
              status: 'open',
              payment_status: 'unpaid',
              metadata: JSON.stringify(input.metadata),
              destination: input.destination ?? null,
              application_fee_amount: input.applicationFeeAmount ?? null,
              customer_email: input.customerEmail ?? null,
              success_url: input.successUrl,
              cancel_url: input.cancelUrl,
              expires_at: new Date(expiresAt).toISOString(),
              created_at: at(),
              updated_at: at(),
            })
            .execute();
          return id;
        },
        async (trx, id) => toSession(await sessionRow(trx, id)),
      );
    },

    async retrieveCheckoutSession(id) {
      return toSession(await currentSession(id));
    },

    async expireCheckoutSession(id) {
      return expireSession(id, true);
    },

    async checkoutPage(id) {
      const row = await currentSession(id);
      return { session: toSession(row), name: row.name, successUrl: row.success_url, cancelUrl: row.cancel_url };
    },

    async payCheckoutSession(id, paymentMethod) {
      const result = await withTransaction(db, async (trx) => {
        // Locked: paying and expiring one session never both happen.
        const row = await lockedSession(trx, id);
        if (row.status !== 'open' || new Date(row.expires_at).getTime() <= now().getTime()) {
          throw new PaymentProviderError('state', `This checkout session is ${row.status === 'open' ? 'expired' : row.status}.`, 'checkout_session_unexpected_state');
        }
        // One intent per session, created at the first attempt and reused after a decline.
        const intentId =
          row.payment_intent_id ??
          (await insertIntent(trx, {
            amount: row.amount_total,
            metadata: parseMetadata(row.metadata),
            captureMethod: 'automatic',
            destination: row.destination,
            applicationFeeAmount: row.application_fee_amount,
          }));
        const intent = await confirmIn(trx, intentId, paymentMethod);
        const paid = intent.status === 'succeeded';
        await trx
          .updateTable('sim_checkout_sessions')
          .set({
            payment_intent_id: intentId,
            ...(paid ? { status: 'complete', payment_status: 'paid' } : {}),
            updated_at: at(),
          })
          .where('id', '=', id)
          .where('status', '=', 'open')
          .execute();
        const updated = await sessionRow(trx, id);
        if (paid) await recordEvent(trx, 'checkout.session.completed', toSession(updated));
        return { row: updated, intent };
      });
      const session = toSession(result.row);
      if (session.status === 'complete') await deliverDueEvents();
      return { session, declined: toIntent(result.intent).last_payment_error };
    },

    async createConnectedAccount(input: CreateAccountInput, requestOptions) {
      return idempotent(
        'account.create',
        input,
        requestOptions,
        async (trx) => {
          const id = newId('acct');
          await trx
            .insertInto('sim_accounts')
            .values({
              id,
              email: input.email ?? null,
              business_name: input.businessName ?? null,
              metadata: JSON.stringify(input.metadata),
              created_at: at(),
              updated_at: at(),
            })
            .execute();
          return id;
        },
        async (trx, id) => toAccount(await accountRow(trx, id)),
      );
    },

    async retrieveConnectedAccount(id) {
      return toAccount(await accountRow(db.kysely, id));
    },

    async createAccountLink(input): Promise<AccountLink> {
      await accountRow(db.kysely, input.account);
      // The token is the capability (192 random bits); only its hash is stored.
      const token = randomToken(24);
      const expiresAt = unix(now()) + ACCOUNT_LINK_LIFETIME_S;
      await db.kysely
        .insertInto('sim_account_links')
        .values({
          token_hash: sha256(token),
          account_id: input.account,
          return_url: input.returnUrl,
          refresh_url: input.refreshUrl,
          expires_at: new Date(expiresAt * 1000).toISOString(),
          used_at: null,
          created_at: at(),
        })
        .execute();
      return { url: `${publicBaseUrl}/simulated/onboarding/${token}`, expires_at: expiresAt };
    },

    async onboardingLink(token) {
      const link = await linkRow(db.kysely, token);
      if (spent(link)) return { state: 'spent', refreshUrl: link.refresh_url };
      return { state: 'open', account: toAccount(await accountRow(db.kysely, link.account_id)) };
    },

    async completeOnboarding(token, verified) {
      const outcome = await withTransaction(db, async (trx): Promise<OnboardingOutcome> => {
        await lockKey(db, trx, `sim-account-link:${sha256(token)}`);
        const link = await linkRow(trx, token);
        if (spent(link)) return { state: 'spent', refreshUrl: link.refresh_url };
        const account = await accountRow(trx, link.account_id);
        // Finishing onboarding again never takes away what the account already has.
        await trx
          .updateTable('sim_accounts')
          .set({
            details_submitted: 1,
            charges_enabled: verified ? 1 : account.charges_enabled,
            payouts_enabled: verified ? 1 : account.payouts_enabled,
            updated_at: at(),
          })
          .where('id', '=', account.id)
          .execute();
        await trx.updateTable('sim_account_links').set({ used_at: at() }).where('token_hash', '=', link.token_hash).execute();
        const updated = toAccount(await accountRow(trx, account.id));
        await recordEvent(trx, 'account.updated', { object: 'account', ...updated });
        return { state: 'done', account: updated, returnUrl: link.return_url };
      });
      if (outcome.state === 'done') await deliverDueEvents();
      return outcome;
    },

    deliverDueEvents,

    async createTransfer(input, requestOptions): Promise<Transfer> {
      return idempotent(
        'transfer.create',
        input,
        requestOptions,
        async (trx) => {
          if (!Number.isInteger(input.amount) || input.amount < 1) throw invalid('Transfer amount must be a positive integer.');
          const account = await accountRow(trx, input.destination);
          if (!account.charges_enabled) {
            throw invalid('The destination account needs to have the transfers capability enabled.', 'insufficient_capabilities_for_transfer');
          }
          const id = newId('tr');
          await trx
            .insertInto('sim_transfers')
            .values({ id, amount: input.amount, currency: CURRENCY, destination: input.destination, metadata: JSON.stringify(input.metadata), created_at: at() })
            .execute();
          return id;
        },
        async (trx, id) => {
          const row = await trx.selectFrom('sim_transfers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
          return { id: row.id, amount: row.amount, currency: row.currency, destination: row.destination };
        },
      );
    },
  };
  return provider;
}
