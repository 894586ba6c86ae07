/**
 * The simulated payment provider (CONTRACT §3): the real provider's test mode, kept in our database so
 * every payment flow runs end to end offline. It owns the `sim_*` tables. Like the real provider it
 * refuses what the real one refuses (unknown ids, wrong states, amounts below the minimum, destination
 * accounts that cannot take charges, refunds beyond what was received), honours idempotency keys,
 * lets authorisations lapse after seven days and checkout sessions at their expiry, and tells the
 * platform about checkout sessions and account changes through signed webhook events (`emit`).
 * Test payment methods: `pm_card_visa` succeeds, `pm_card_chargeDeclined` is declined.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { lockKey, withTransaction, type Tx } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { newId, randomToken } from '../../platform/ids.js';
import type { SimAccountsTable, SimCheckoutSessionsTable, SimPaymentIntentsTable } from './payments.table.js';
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
type Executor = Kysely<Database>;

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
  /** Delivers an event to the platform's webhook, signed like the real provider's. */
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
  /** Finishing the hosted onboarding page: `verified` enables charges and payouts, else they stay pending. */
  completeOnboarding(accountId: string, verified: boolean): Promise<ConnectedAccount>;
}

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
   * Runs a create under an idempotency key: a repeated key returns the object the first request made
   * (the key is namespaced by operation, so a key reused for another kind of object cannot alias it).
   */
  async function idempotent<T>(
    operation: string,
    options: RequestOptions | undefined,
    create: (trx: Tx) => Promise<string>,
    load: (trx: Executor, id: string) => Promise<T>,
  ): Promise<T> {
    return withTransaction(db, async (trx) => {
      const key = options?.idempotencyKey ? `${operation}:${options.idempotencyKey}` : undefined;
      if (key) {
        await lockKey(db, trx, `sim-idempotency:${key}`);
        const seen = await trx.selectFrom('sim_idempotency_keys').select('object_id').where('key', '=', key).executeTakeFirst();
        if (seen) return load(trx, seen.object_id);
      }
      const id = await create(trx);
      if (key) await trx.insertInto('sim_idempotency_keys').values({ key, object_id: id, created_at: at() }).execute();
      return load(trx, id);
    });
  }

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
  async function confirmIn(trx: Executor, id: string, paymentMethod: string): Promise<IntentRow> {
    if (!(paymentMethod in TEST_PAYMENT_METHODS)) {
      throw invalid(
        `No such PaymentMethod: '${paymentMethod}'. Test payment methods: ${Object.keys(TEST_PAYMENT_METHODS).join(', ')}`,
        'resource_missing',
      );
    }
    const row = await intentRow(trx, id);
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
      const row = await sessionRow(trx, id);
      if (row.status !== 'open') {
        if (requireOpen) {
          throw new PaymentProviderError('state', `Only open sessions can be expired; this one is ${row.status}.`, 'checkout_session_unexpected_state');
        }
        return { row, expired: false };
      }
      await trx.updateTable('sim_checkout_sessions').set({ status: 'expired', updated_at: at() }).where('id', '=', id).where('status', '=', 'open').execute();
      return { row: await sessionRow(trx, id), expired: true };
    });
    const session = toSession(result.row);
    if (result.expired) await emit(event('checkout.session.expired', session));
    return session;
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

  const provider: SimulatedProvider = {
    name: 'simulated',

    async createPaymentIntent(input, requestOptions) {
      return idempotent(
        'payment_intent',
        requestOptions,
        (trx) => insertIntent(trx, input),
        async (trx, id) => toIntent(await intentRow(trx, id)),
      );
    },

    async retrievePaymentIntent(id) {
      return toIntent(await intentRow(db.kysely, id));
    },

    async confirmPaymentIntent(id, paymentMethod) {
      return toIntent(await withTransaction(db, (trx) => confirmIn(trx, id, paymentMethod)));
    },

    async capturePaymentIntent(id, input: CaptureInput = {}) {
      const row = await withTransaction(db, async (trx) => {
        const row = await intentRow(trx, id);
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
        return intentRow(trx, id);
      });
      return toIntent(row);
    },

    async cancelPaymentIntent(id) {
      const row = await withTransaction(db, async (trx) => {
        const row = await intentRow(trx, id);
        if (!CANCELABLE.includes(row.status as IntentStatus)) throw unexpectedState('PaymentIntent', row.status, 'canceled');
        await trx
          .updateTable('sim_payment_intents')
          .set({ status: 'canceled', amount_capturable: 0, cancellation_reason: 'requested_by_customer', updated_at: at() })
          .where('id', '=', id)
          .execute();
        return intentRow(trx, id);
      });
      return toIntent(row);
    },

    async createRefund(input: CreateRefundInput, requestOptions) {
      return idempotent(
        'refund',
        requestOptions,
        async (trx) => {
          const intent = await intentRow(trx, input.paymentIntentId);
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
        'checkout_session',
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
        const row = await sessionRow(trx, id);
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
          .execute();
        return { row: await sessionRow(trx, id), intent };
      });
      const session = toSession(result.row);
      if (session.status === 'complete') await emit(event('checkout.session.completed', session));
      return { session, declined: toIntent(result.intent).last_payment_error };
    },

    async createConnectedAccount(input: CreateAccountInput, requestOptions) {
      return idempotent(
        'account',
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
      return { url: `${publicBaseUrl}/simulated/onboarding/${input.account}`, expires_at: unix(now()) + ACCOUNT_LINK_LIFETIME_S };
    },

    async completeOnboarding(accountId, verified) {
      const enabled = verified ? 1 : 0;
      const row = await withTransaction(db, async (trx) => {
        await accountRow(trx, accountId);
        await trx
          .updateTable('sim_accounts')
          .set({ details_submitted: 1, charges_enabled: enabled, payouts_enabled: enabled, updated_at: at() })
          .where('id', '=', accountId)
          .execute();
        return accountRow(trx, accountId);
      });
      const account = toAccount(row);
      await emit(event('account.updated', { object: 'account', ...account }));
      return account;
    },

    async createTransfer(input, requestOptions): Promise<Transfer> {
      return idempotent(
        'transfer',
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
