/**
 * Payment intents of the simulated provider (`sim_payment_intents`): creation, confirming with a test
 * payment method, capture and release of card holds, and refunds (`sim_refunds`). Like the real
 * provider it refuses amounts below the minimum, wrong states and refunds beyond what was received, and
 * lets an uncaptured authorisation lapse after seven days. Changes to one intent are serialised
 * (`lockKey`), so on PostgreSQL a hold cannot be both captured and released, nor an intent refunded
 * twice over.
 * Test payment methods: `pm_card_visa` succeeds, `pm_card_chargeDeclined` is declined.
 */
import { lockKey, withTransaction } from '../../../db/transaction.js';
import { newId, randomToken } from '../../../platform/ids.js';
import {
  CURRENCY,
  PaymentProviderError,
  type CaptureInput,
  type CreateIntentInput,
  type CreateRefundInput,
  type IntentStatus,
  type PaymentErrorDetail,
  type PaymentIntent,
  type Refund,
} from '../provider.js';
import { checkDestination } from './accounts.js';
import type { Idempotent } from './idempotency.js';
import { invalid, missing, parseMetadata, unexpectedState, unix, type Executor, type IntentRow, type SimContext } from './rows.js';
import type { SimulatedProvider } from './types.js';

/** The provider's minimum charge in GBP. */
const MIN_AMOUNT = 30;
const AUTHORISATION_LIFETIME_MS = 7 * 24 * 3600_000;

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
const CANCELABLE: IntentStatus[] = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'requires_capture',
  'processing',
];

export type IntentMethods = Pick<
  SimulatedProvider,
  'createPaymentIntent' | 'retrievePaymentIntent' | 'confirmPaymentIntent' | 'capturePaymentIntent' | 'cancelPaymentIntent' | 'createRefund'
>;

/** The intents part: the provider's methods, and what a checkout session's payment does with an intent. */
export interface Intents {
  methods: IntentMethods;
  /** Creates an intent inside the caller's transaction; returns its id. */
  insert(trx: Executor, input: CreateIntentInput): Promise<string>;
  /** Confirms with a test payment method inside the caller's transaction. */
  confirmIn(trx: Executor, id: string, paymentMethod: string): Promise<IntentRow>;
}

export function toIntent(row: IntentRow): PaymentIntent {
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

/** The real provider's refusal of an amount it cannot charge (intents and checkout sessions alike). */
export function checkAmount(amount: number) {
  if (!Number.isInteger(amount) || amount < MIN_AMOUNT) {
    throw invalid(`Amount must be an integer of at least ${MIN_AMOUNT} pence.`, 'amount_too_small');
  }
}

export function createIntents({ db, now, at }: SimContext, idempotent: Idempotent): Intents {
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
    await executor
      .updateTable('sim_payment_intents')
      .set(update)
      .where('id', '=', row.id)
      .where('status', '=', 'requires_capture')
      .execute();
    return { ...row, ...update };
  }

  /** Reads an intent for a change, after taking its lock: changes to one intent never interleave. */
  async function lockedIntent(trx: Executor, id: string): Promise<IntentRow> {
    await lockKey(db, trx, `sim-intent:${id}`);
    return intentRow(trx, id);
  }

  const loadIntent = async (trx: Executor, id: string) => toIntent(await intentRow(trx, id));

  async function insert(trx: Executor, input: CreateIntentInput): Promise<string> {
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

  async function confirmIn(trx: Executor, id: string, paymentMethod: string): Promise<IntentRow> {
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
    await trx
      .updateTable('sim_payment_intents')
      .set({ ...update, updated_at: at() })
      .where('id', '=', id)
      .execute();
    return intentRow(trx, id);
  }

  const methods: IntentMethods = {
    async createPaymentIntent(input, requestOptions) {
      return idempotent('payment_intent.create', input, requestOptions, (trx) => insert(trx, input), loadIntent);
    },

    async retrievePaymentIntent(id) {
      return toIntent(await intentRow(db.kysely, id));
    },

    async confirmPaymentIntent(id, paymentMethod) {
      return toIntent(await withTransaction(db, (trx) => confirmIn(trx, id, paymentMethod)));
    },

    async capturePaymentIntent(id, input: CaptureInput = {}, requestOptions) {
      return idempotent(
        'payment_intent.capture',
        { id, ...input },
        requestOptions,
        async (trx) => {
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
            .set({
              status: 'succeeded',
              amount_received: amount,
              amount_capturable: 0,
              application_fee_amount: fee ?? null,
              updated_at: at(),
            })
            .where('id', '=', id)
            .execute();
          return id;
        },
        loadIntent,
      );
    },

    async cancelPaymentIntent(id, requestOptions) {
      return idempotent(
        'payment_intent.cancel',
        { id },
        requestOptions,
        async (trx) => {
          const row = await lockedIntent(trx, id);
          if (!CANCELABLE.includes(row.status as IntentStatus)) throw unexpectedState('PaymentIntent', row.status, 'canceled');
          await trx
            .updateTable('sim_payment_intents')
            .set({ status: 'canceled', amount_capturable: 0, cancellation_reason: 'requested_by_customer', updated_at: at() })
            .where('id', '=', id)
            .execute();
          return id;
        },
        loadIntent,
      );
    },

    async createRefund(input: CreateRefundInput, requestOptions) {
      return idempotent(
        'refund.create',
        input,
        requestOptions,
        async (trx) => {
          const intent = await lockedIntent(trx, input.paymentIntentId);
          if (intent.status !== 'succeeded') {
            throw new PaymentProviderError(
              'state',
              `This PaymentIntent has a status of ${intent.status} and cannot be refunded.`,
              'charge_not_refundable',
            );
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
  };

  return { methods, insert, confirmIn };
}
