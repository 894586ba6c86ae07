/**
 * The platform's own record of each payment (`payment_records`, one per intent or checkout session)
 * and the operator ledger written as money moves. A record is opened before the provider is called and
 * fixes how the payment is routed (the operating decision on payments before payout onboarding: a
 * destination charge with the platform fee once the operator's connected account takes charges;
 * otherwise a charge on the platform account, owed to the operator). What the provider later reports (a
 * re-read intent, a settled checkout session, a refund) is booked here once, whoever reports it first.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { AppError, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { CheckoutSessionObject } from './fulfilments.js';
import { chargedOf, recordCharge, recordRefund, type PaymentRecord } from './ledger.js';
import { platformFee, proportionalFee, type CaptureMethod, type CheckoutSession, type PaymentIntent, type Refund } from './provider.js';
import type { AfterCommit, SessionOutcome } from './webhooks.js';

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

/** What opening a record needs of a request for an intent or a checkout session. */
export type RecordRequest = PaymentParty & { amountPence: number; metadata: Record<string, string>; idempotencyKey?: string };

export interface PaymentRecords {
  /** Inserts the record before calling the provider, so no provider object exists without one. */
  open(request: RecordRequest, captureMethod: CaptureMethod, object: 'intent' | 'session'): Promise<PaymentRecord>;
  /** The provider's intent or session for a record, once created. */
  attachIntent(record: PaymentRecord, intent: PaymentIntent): Promise<void>;
  attachSession(record: PaymentRecord, session: CheckoutSession): Promise<void>;
  /** The provider refused to create the object: the record is kept, marked failed. */
  markFailed(record: PaymentRecord): Promise<void>;
  byIntent(intentId: string): Promise<PaymentRecord | undefined>;
  /** 404 unless the intent or session is a payment of the scope's operator (and venue). */
  checkScope(column: 'intent_id' | 'checkout_session_id', value: string, scope: PaymentScope | undefined): Promise<void>;
  /** Records what a re-read or updated intent says: its status, and the charge once it succeeded. */
  observeIntent(intent: PaymentIntent): Promise<PaymentIntent>;
  /** Books a refund of a record's charge and the share of the platform fee given back with it. */
  refunded(record: PaymentRecord, refund: Refund): Promise<void>;
  /** Webhook hook: bookkeeping of a paid or expired checkout session, inside the event's transaction. */
  sessionSettled(trx: Kysely<Database>, session: CheckoutSessionObject, outcome: SessionOutcome): Promise<AfterCommit | undefined>;
}

/** The provider metadata of a record's intent or session: the caller's, plus what links it back to the record. */
export const providerMetadata = (record: PaymentRecord, metadata: Record<string, string>) => ({
  ...metadata,
  maitred_payment_id: record.id,
  ...(record.operator_id ? { operator_id: record.operator_id } : {}),
});

/** The destination charge parameters of a record routed to the operator's connected account. */
export const destinationOf = (record: PaymentRecord) =>
  record.mode === 'destination' ? { destination: record.destination_account, applicationFeeAmount: record.fee_pence } : {};

export function createPaymentRecords(deps: {
  db: Db;
  clock: Clock;
  log: Logger;
  /** The configured provider's name; throws (503) when payments are not configured. */
  providerName(): string;
  feePercent: number;
  /** A platform-mode charge was recorded: transfer what is owed if the account is enabled by now. */
  afterPlatformCharge(operatorId: string): Promise<void>;
}): PaymentRecords {
  const { db, clock, log, providerName, feePercent } = deps;
  const at = () => clock.now().toISOString();

  /** Destination charge when the operator's connected account takes charges, else platform. */
  async function routing(party: PaymentParty, amount: number) {
    if (!party.operatorId) return { mode: 'platform', destination: null, fee: 0 };
    const account = await db.kysely
      .selectFrom('payment_accounts')
      .select('account_id')
      .where('operator_id', '=', party.operatorId)
      .where('provider', '=', providerName())
      .where('charges_enabled', '=', 1)
      .executeTakeFirst();
    const fee = platformFee(amount, feePercent);
    return account ? { mode: 'destination', destination: account.account_id, fee } : { mode: 'platform', destination: null, fee };
  }

  async function recordBy(
    column: 'intent_id' | 'checkout_session_id' | 'idempotency_key',
    value: string,
  ): Promise<PaymentRecord | undefined> {
    return db.kysely
      .selectFrom('payment_records')
      .selectAll()
      .where('provider', '=', providerName())
      .where(column, '=', value)
      .executeTakeFirst();
  }

  /** The fee on `received` pence of a record: the provider's application fee, or the record's share. */
  function feeOn(record: PaymentRecord, received: number, applicationFee: number | null): number {
    if (record.mode === 'destination' && applicationFee !== null) return applicationFee;
    return proportionalFee(record.fee_pence, received, record.amount_pence);
  }

  async function settleQuietly(operatorId: string) {
    await deps.afterPlatformCharge(operatorId).catch((error) => log.error({ err: error, operatorId }, 'transfer of owed payments failed'));
  }

  return {
    async open(request, captureMethod, object) {
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
          provider: providerName(),
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
    },

    async attachIntent(record, intent) {
      await db.kysely
        .updateTable('payment_records')
        .set({ intent_id: intent.id, status: intent.status, updated_at: at() })
        .where('id', '=', record.id)
        .execute();
    },

    async attachSession(record, session) {
      await db.kysely
        .updateTable('payment_records')
        .set({ checkout_session_id: session.id, status: session.status, updated_at: at() })
        .where('id', '=', record.id)
        .execute();
    },

    async markFailed(record) {
      await db.kysely
        .updateTable('payment_records')
        .set({ status: 'failed', updated_at: at() })
        .where('id', '=', record.id)
        .where('status', '=', 'creating')
        .execute();
    },

    byIntent: (intentId) => recordBy('intent_id', intentId),

    async checkScope(column, value, scope) {
      if (!scope) return;
      const record = await recordBy(column, value);
      if (!record || record.operator_id !== scope.operatorId || (scope.venueId !== undefined && record.venue_id !== scope.venueId)) {
        throw notFound('Payment');
      }
    },

    async observeIntent(intent) {
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
    },

    async refunded(record, refund) {
      if (!record.operator_id) return;
      const charged = await chargedOf(db.kysely, record.id);
      await withTransaction(db, (trx) =>
        recordRefund(trx, record, {
          refundId: refund.id,
          amount: refund.amount,
          feeRefund: proportionalFee(charged.fee, refund.amount, charged.amount),
          at: at(),
        }),
      );
    },

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
