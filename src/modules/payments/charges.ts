/**
 * Taking money, as the other modules call it (`ctx.payments.createIntent(…)` etc.): it routes each
 * payment per CONTRACT §4 (a destination charge with the platform fee once the operator's connected
 * account takes charges; otherwise a charge on the platform account, owed to the operator), keeps a
 * payment record per intent or checkout session, and writes the operator ledger as money moves.
 * Provider failures become AppErrors: 503 unconfigured, 502 provider down, 409 wrong state, 404, 400, 402.
 * Calls that act on an intent or session a caller named take a `scope` (operator, venue): a payment of
 * another tenant is simply not found, exactly like one that does not exist.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import { withTransaction } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { AppError, badGateway, conflict, notFound, paymentRequired, serviceUnavailable } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { CheckoutSessionObject } from './fulfilments.js';
import { chargedOf, recordCharge, recordRefund, type PaymentRecord } from './ledger.js';
import {
  PaymentProviderError,
  platformFee,
  proportionalFee,
  type CaptureMethod,
  type CheckoutSession,
  type PaymentIntent,
  type PaymentProvider,
  type Refund,
} from './provider.js';
import type { AfterCommit, SessionOutcome } from './webhooks.js';

export const PAYMENTS_UNCONFIGURED = 'Payments are not configured on this platform';

/** Provider errors as the HTTP errors the product answers with. Anything else is rethrown as is. */
export function toAppError(error: unknown): unknown {
  if (!(error instanceof PaymentProviderError)) return error;
  switch (error.kind) {
    case 'card':
      return paymentRequired(error.message, { code: error.code });
    case 'state':
      return conflict(error.message);
    case 'not_found':
      return notFound('Payment');
    case 'invalid_request':
      return new AppError(400, error.publicMessage);
    default:
      return badGateway();
  }
}

async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toAppError(error);
  }
}

/**
 * Limits a call to one tenant's payments. Routes that act on an intent or session id they were given
 * must pass it: another operator's (or venue's) payment then answers 404, as an unknown one does.
 */
export interface PaymentScope {
  operatorId: string;
  venueId?: string;
}

/** Who a payment is for. Without an operator it is the platform's own sale (no operator ledger). */
export interface PaymentParty {
  operatorId?: string | null;
  venueId?: string | null;
}

export interface CreateIntentRequest extends PaymentParty {
  amountPence: number;
  /** Strings only (provider metadata); `kind` names the purpose. */
  metadata: Record<string, string>;
  /** `manual` for card holds, captured or released later. */
  capture?: CaptureMethod;
  /** Repeating a request with the same key returns the same intent. */
  idempotencyKey?: string;
  description?: string;
}

export interface CreateCheckoutRequest extends PaymentParty {
  amountPence: number;
  /** Line item name the payer sees. */
  name: string;
  /** Must carry `kind` (CONTRACT §3) and the kind's target field. */
  metadata: Record<string, string> & { kind: string };
  successUrl: string;
  cancelUrl: string;
  customerEmail?: string | null;
  expiresAt?: Date;
  idempotencyKey?: string;
}

export interface Charges {
  createIntent(request: CreateIntentRequest): Promise<PaymentIntent>;
  /** Re-reads an intent from the provider (finalize flows) and records any money it moved. */
  retrieveIntent(intentId: string, scope?: PaymentScope): Promise<PaymentIntent>;
  /**
   * Captures a card hold, all of it or `amountPence`. Idempotency keys are the provider's: global,
   * so use a distinct key per operation (e.g. `capture-<booking id>`, not the key of the intent).
   */
  captureIntent(intentId: string, options?: { amountPence?: number; idempotencyKey?: string; scope?: PaymentScope }): Promise<PaymentIntent>;
  /** Releases a card hold or abandons an unpaid intent. */
  cancelIntent(intentId: string, options?: { idempotencyKey?: string; scope?: PaymentScope }): Promise<PaymentIntent>;
  /** Refunds a paid intent, fully or `amountPence`. */
  refund(intentId: string, options?: { amountPence?: number; idempotencyKey?: string; reason?: string; scope?: PaymentScope }): Promise<Refund>;
  createCheckoutSession(request: CreateCheckoutRequest): Promise<CheckoutSession>;
  retrieveCheckoutSession(sessionId: string, scope?: PaymentScope): Promise<CheckoutSession>;
  /** Expires an open session; its `checkout.session.expired` event releases the target. */
  expireCheckoutSession(sessionId: string, scope?: PaymentScope): Promise<CheckoutSession>;
  /** Records what a re-read or updated intent says (used after the simulated card form). */
  observeIntent(intent: PaymentIntent): Promise<PaymentIntent>;
  /** Webhook hook: bookkeeping of a paid or expired checkout session, inside the event's transaction. */
  sessionSettled(trx: Kysely<Database>, session: CheckoutSessionObject, outcome: SessionOutcome): Promise<AfterCommit | undefined>;
}

export function createCharges(deps: {
  db: Db;
  clock: Clock;
  log: Logger;
  provider: PaymentProvider | null;
  feePercent: number;
  /** A platform-mode charge was recorded: transfer what is owed if the account is enabled by now. */
  afterPlatformCharge(operatorId: string): Promise<void>;
}): Charges {
  const { db, clock, log, feePercent } = deps;
  const at = () => clock.now().toISOString();

  function provider(): PaymentProvider {
    if (!deps.provider) throw serviceUnavailable(PAYMENTS_UNCONFIGURED);
    return deps.provider;
  }

  /** Destination charge when the operator's connected account takes charges, else platform. */
  async function routing(party: PaymentParty, amount: number) {
    if (!party.operatorId) return { mode: 'platform', destination: null, fee: 0 };
    const account = await db.kysely
      .selectFrom('payment_accounts')
      .select('account_id')
      .where('operator_id', '=', party.operatorId)
      .where('provider', '=', provider().name)
      .where('charges_enabled', '=', 1)
      .executeTakeFirst();
    const fee = platformFee(amount, feePercent);
    return account ? { mode: 'destination', destination: account.account_id, fee } : { mode: 'platform', destination: null, fee };
  }

  async function recordBy(column: 'intent_id' | 'checkout_session_id' | 'idempotency_key', value: string): Promise<PaymentRecord | undefined> {
    return db.kysely
      .selectFrom('payment_records')
      .selectAll()
      .where('provider', '=', provider().name)
      .where(column, '=', value)
      .executeTakeFirst();
  }

  /** 404 unless the intent or session is a payment of the scope's operator (and venue). */
  async function checkScope(column: 'intent_id' | 'checkout_session_id', value: string, scope: PaymentScope | undefined) {
    if (!scope) return;
    const record = await recordBy(column, value);
    if (!record || record.operator_id !== scope.operatorId || (scope.venueId !== undefined && record.venue_id !== scope.venueId)) {
      throw notFound('Payment');
    }
  }

  /** Inserts the record before calling the provider, so no provider object exists without one. */
  async function openRecord(
    request: PaymentParty & { amountPence: number; metadata: Record<string, string>; idempotencyKey?: string },
    captureMethod: CaptureMethod,
    object: 'intent' | 'session',
  ): Promise<PaymentRecord> {
    if (!Number.isSafeInteger(request.amountPence) || request.amountPence < 1) {
      throw new AppError(400, 'The amount must be a whole number of pence');
    }
    // Namespaced, so a key used for an intent and for a session names two records.
    const key = request.idempotencyKey ? `${object}:${request.idempotencyKey}` : null;
    if (key) {
      const existing = await recordBy('idempotency_key', key);
      if (existing) return existing;
    }
    const route = await routing(request, request.amountPence);
    const id = newId('pay');
    await db.kysely
      .insertInto('payment_records')
      .values({
        id,
        provider: provider().name,
        operator_id: request.operatorId ?? null,
        venue_id: request.venueId ?? null,
        kind: request.metadata.kind ?? null,
        intent_id: null,
        checkout_session_id: null,
        idempotency_key: key,
        amount_pence: request.amountPence,
        fee_pence: route.fee,
        mode: route.mode,
        destination_account: route.destination,
        capture_method: captureMethod,
        status: 'creating',
        created_at: at(),
        updated_at: at(),
      })
      .onConflict((oc) => oc.columns(['provider', 'idempotency_key']).doNothing())
      .execute();
    // A concurrent request with the same key may have inserted first: both continue with its record.
    const record = key
      ? await recordBy('idempotency_key', key)
      : await db.kysely.selectFrom('payment_records').selectAll().where('id', '=', id).executeTakeFirst();
    return record!;
  }

  const providerMetadata = (record: PaymentRecord, metadata: Record<string, string>) => ({
    ...metadata,
    maitred_payment_id: record.id,
    ...(record.operator_id ? { operator_id: record.operator_id } : {}),
  });

  const destinationOf = (record: PaymentRecord) =>
    record.mode === 'destination' ? { destination: record.destination_account, applicationFeeAmount: record.fee_pence } : {};

  async function markFailed(record: PaymentRecord) {
    await db.kysely.updateTable('payment_records').set({ status: 'failed', updated_at: at() }).where('id', '=', record.id).where('status', '=', 'creating').execute();
  }

  /** The fee on `received` pence of a record: the provider's application fee, or the record's share. */
  function feeOn(record: PaymentRecord, received: number, applicationFee: number | null): number {
    if (record.mode === 'destination' && applicationFee !== null) return applicationFee;
    return proportionalFee(record.fee_pence, received, record.amount_pence);
  }

  async function observeIntent(intent: PaymentIntent): Promise<PaymentIntent> {
    const record = await recordBy('intent_id', intent.id);
    if (!record) return intent;
    const newlyCharged = await withTransaction(db, async (trx) => {
      if (record.status !== intent.status) {
        await trx.updateTable('payment_records').set({ status: intent.status, updated_at: at() }).where('id', '=', record.id).execute();
      }
      if (intent.status !== 'succeeded' || intent.amount_received <= 0) return false;
      return recordCharge(trx, record, {
        amount: intent.amount_received,
        fee: feeOn(record, intent.amount_received, intent.application_fee_amount),
        providerRef: intent.id,
        at: at(),
      });
    });
    if (newlyCharged && record.mode === 'platform' && record.operator_id) await settleQuietly(record.operator_id);
    return intent;
  }

  async function settleQuietly(operatorId: string) {
    await deps.afterPlatformCharge(operatorId).catch((error) => log.error({ err: error, operatorId }, 'transfer of owed payments failed'));
  }

  const retrieveIntent = (intentId: string, scope?: PaymentScope) =>
    guarded(async () => {
      await checkScope('intent_id', intentId, scope);
      return observeIntent(await provider().retrievePaymentIntent(intentId));
    });
  const retrieveCheckoutSession = (sessionId: string, scope?: PaymentScope) =>
    guarded(async () => {
      await checkScope('checkout_session_id', sessionId, scope);
      return provider().retrieveCheckoutSession(sessionId);
    });

  return {
    observeIntent,
    retrieveIntent,
    retrieveCheckoutSession,

    async createIntent(request) {
      const capture = request.capture ?? 'automatic';
      const record = await openRecord(request, capture, 'intent');
      if (record.intent_id) return retrieveIntent(record.intent_id);
      try {
        const intent = await provider().createPaymentIntent(
          {
            amount: record.amount_pence,
            metadata: providerMetadata(record, request.metadata),
            captureMethod: capture,
            description: request.description,
            ...destinationOf(record),
          },
          { idempotencyKey: request.idempotencyKey ?? record.id },
        );
        await db.kysely
          .updateTable('payment_records')
          .set({ intent_id: intent.id, status: intent.status, updated_at: at() })
          .where('id', '=', record.id)
          .execute();
        return intent;
      } catch (error) {
        await markFailed(record);
        throw toAppError(error);
      }
    },

    captureIntent: (intentId, options = {}) =>
      guarded(async () => {
        await checkScope('intent_id', intentId, options.scope);
        const record = await recordBy('intent_id', intentId);
        const applicationFeeAmount =
          record?.mode === 'destination' && options.amountPence !== undefined
            ? proportionalFee(record.fee_pence, options.amountPence, record.amount_pence)
            : undefined;
        const intent = await provider().capturePaymentIntent(
          intentId,
          { amountToCapture: options.amountPence, applicationFeeAmount },
          { idempotencyKey: options.idempotencyKey },
        );
        return observeIntent(intent);
      }),

    cancelIntent: (intentId, options = {}) =>
      guarded(async () => {
        await checkScope('intent_id', intentId, options.scope);
        return observeIntent(await provider().cancelPaymentIntent(intentId, { idempotencyKey: options.idempotencyKey }));
      }),

    refund: (intentId, options = {}) =>
      guarded(async () => {
        await checkScope('intent_id', intentId, options.scope);
        const record = await recordBy('intent_id', intentId);
        // Make sure the charge itself is in the ledger before a refund of it is.
        if (record?.operator_id) await observeIntent(await provider().retrievePaymentIntent(intentId));
        const destination = record?.mode === 'destination';
        const refund = await provider().createRefund(
          {
            paymentIntentId: intentId,
            amount: options.amountPence,
            reverseTransfer: destination,
            refundApplicationFee: destination,
            metadata: options.reason ? { reason: options.reason } : undefined,
          },
          { idempotencyKey: options.idempotencyKey },
        );
        if (record?.operator_id) {
          const charged = await chargedOf(db.kysely, record.id);
          await withTransaction(db, (trx) =>
            recordRefund(trx, record, {
              refundId: refund.id,
              amount: refund.amount,
              feeRefund: proportionalFee(charged.fee, refund.amount, charged.amount),
              at: at(),
            }),
          );
        }
        return refund;
      }),

    async createCheckoutSession(request) {
      const record = await openRecord(request, 'automatic', 'session');
      if (record.checkout_session_id) return retrieveCheckoutSession(record.checkout_session_id);
      try {
        const session = await provider().createCheckoutSession(
          {
            amount: record.amount_pence,
            name: request.name,
            metadata: providerMetadata(record, request.metadata),
            successUrl: request.successUrl,
            cancelUrl: request.cancelUrl,
            customerEmail: request.customerEmail,
            expiresAt: request.expiresAt ? Math.floor(request.expiresAt.getTime() / 1000) : undefined,
            ...destinationOf(record),
          },
          { idempotencyKey: request.idempotencyKey ?? record.id },
        );
        await db.kysely
          .updateTable('payment_records')
          .set({ checkout_session_id: session.id, status: session.status, updated_at: at() })
          .where('id', '=', record.id)
          .execute();
        return session;
      } catch (error) {
        await markFailed(record);
        throw toAppError(error);
      }
    },

    expireCheckoutSession: (sessionId, scope) =>
      guarded(async () => {
        await checkScope('checkout_session_id', sessionId, scope);
        return provider().expireCheckoutSession(sessionId);
      }),

    async sessionSettled(trx, session, outcome) {
      const byId = session.metadata.maitred_payment_id;
      const record =
        (byId ? await trx.selectFrom('payment_records').selectAll().where('id', '=', byId).executeTakeFirst() : undefined) ??
        (await trx.selectFrom('payment_records').selectAll().where('checkout_session_id', '=', session.id).executeTakeFirst());
      if (!record) return undefined;
      if (outcome === 'expired') {
        // A late or out-of-order expiry never undoes a payment already booked.
        await trx
          .updateTable('payment_records')
          .set({ status: 'expired', updated_at: at() })
          .where('id', '=', record.id)
          .where('status', '!=', 'complete')
          .execute();
        return undefined;
      }
      await trx
        .updateTable('payment_records')
        .set({ status: 'complete', intent_id: record.intent_id ?? session.payment_intent, updated_at: at() })
        .where('id', '=', record.id)
        .execute();
      const amount = session.amount_total ?? 0;
      const newlyCharged = await recordCharge(trx, record, {
        amount,
        fee: proportionalFee(record.fee_pence, amount, record.amount_pence),
        providerRef: session.payment_intent ?? session.id,
        at: at(),
      });
      const operatorId = record.operator_id;
      return newlyCharged && record.mode === 'platform' && operatorId ? () => settleQuietly(operatorId) : undefined;
    },
  };
}
