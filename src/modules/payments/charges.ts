/**
 * Taking money, as the other modules call it (`ctx.payments.createIntent(…)` etc.): each call goes to
 * the configured provider with the routing and fee its payment record fixed, and the bookkeeping (the
 * payment record per intent or checkout session, the operator ledger as money moves) is
 * `payment-records.ts`'s.
 * Provider failures become AppErrors: 503 unconfigured, 502 provider down, 409 wrong state, 404, 400, 402.
 * Calls that act on an intent or session a caller named take a `scope` (operator, venue): a payment of
 * another tenant is simply not found, exactly like one that does not exist.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../platform/clock.js';
import { AppError, badGateway, conflict, notFound, paymentRequired, serviceUnavailable } from '../../platform/errors.js';
import type { CheckoutSessionObject } from './fulfilments.js';
import { createPaymentRecords, destinationOf, providerMetadata, type PaymentParty, type PaymentScope } from './payment-records.js';
import {
  PaymentProviderError,
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
  /** Must carry `kind` (decisions: Inbound payment webhook) and the kind's target field. */
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
  captureIntent(
    intentId: string,
    options?: { amountPence?: number; idempotencyKey?: string; scope?: PaymentScope },
  ): Promise<PaymentIntent>;
  /** Releases a card hold or abandons an unpaid intent. */
  cancelIntent(intentId: string, options?: { idempotencyKey?: string; scope?: PaymentScope }): Promise<PaymentIntent>;
  /** Refunds a paid intent, fully or `amountPence`. */
  refund(
    intentId: string,
    options?: { amountPence?: number; idempotencyKey?: string; reason?: string; scope?: PaymentScope },
  ): Promise<Refund>;
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
  function provider(): PaymentProvider {
    if (!deps.provider) throw serviceUnavailable(PAYMENTS_UNCONFIGURED);
    return deps.provider;
  }

  const records = createPaymentRecords({ ...deps, providerName: () => provider().name });
  const { observeIntent, checkScope } = records;

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
    sessionSettled: records.sessionSettled,
    retrieveIntent,
    retrieveCheckoutSession,

    async createIntent(request) {
      const capture = request.capture ?? 'automatic';
      const record = await records.open(request, capture, 'intent');
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
        await records.attachIntent(record, intent);
        return intent;
      } catch (error) {
        await records.markFailed(record);
        throw toAppError(error);
      }
    },

    captureIntent: (intentId, options = {}) =>
      guarded(async () => {
        await checkScope('intent_id', intentId, options.scope);
        const record = await records.byIntent(intentId);
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
        const record = await records.byIntent(intentId);
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
        if (record) await records.refunded(record, refund);
        return refund;
      }),

    async createCheckoutSession(request) {
      const record = await records.open(request, 'automatic', 'session');
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
        await records.attachSession(record, session);
        return session;
      } catch (error) {
        await records.markFailed(record);
        throw toAppError(error);
      }
    },

    expireCheckoutSession: (sessionId, scope) =>
      guarded(async () => {
        await checkScope('checkout_session_id', sessionId, scope);
        return provider().expireCheckoutSession(sessionId);
      }),
  };
}
