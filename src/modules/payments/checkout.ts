/**
 * The one payment lifecycle of everything a guest pays for before it counts: a table deposit or card
 * hold, event tickets, gift vouchers. The owning module describes its thing once (a `CheckoutSpec`: how
 * to read it, what it costs, what confirming and releasing it write) and every step runs here, each
 * beside its undo:
 *
 *   ask      a payment intent for the thing, created once (the provider's idempotency key) and attached
 *     undo   release: the thing stops holding what it held (a table, tickets) and its intent is cancelled;
 *            when the provider cannot create the intent the thing is released at once
 *   confirm  by finalize (the intent read back) or by the provider's event (a checkout session): only the
 *            thing's own intent, in GBP, of exactly its amount confirms it (payment-match.ts)
 *     undo   give back: a hold released, a payment refunded (`giveBack`, for cancellations)
 *   expire   the sweep releases what stayed unpaid past its window (`release`, as the undo of ask)
 *
 * A release or cancel that fails is never dropped: a failed cancel is kept and retried by the sweep
 * (intent-cancels.ts), a failed release is logged with its ids and left to the expiry sweep.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { withTransaction, type Conn } from '../../db/transaction.js';
import { AppError, conflict } from '../../platform/errors.js';
import type { Charges } from './charges.js';
import type { CheckoutSessionObject, FulfilmentRegistry } from './fulfilments.js';
import type { createIntentCancels } from './intent-cancels.js';
import { intentMismatch, PAYMENT_MISMATCH_MESSAGE, sessionMismatch } from './payment-match.js';
import type { PaymentScope } from './payment-records.js';
import type { IntentStatus, PaymentIntent } from './provider.js';

/** What the lifecycle needs to know of a thing to be paid for. */
export interface Payable {
  id: string;
  operatorId: string;
  venueId: string;
  /** The intent asked for it, once there is one. */
  intentId: string | null;
  /** What confirms it: exactly this much, in GBP. */
  amountPence: number;
  /** Still waiting for its payment (confirming or releasing anything else changes nothing). */
  awaitingPayment: boolean;
}

export interface CheckoutSpec<T> {
  /** The provider's `metadata.kind` of its intents and the fulfilment it registers. */
  kind: string;
  /** Idempotency keys of its provider calls (kept as they always were, so a retry meets the same intent). */
  keys: { ask(id: string): string; release(id: string): string };
  /** For the logs, e.g. `booking:bkg_…`. */
  subject(id: string): string;
  view(thing: T): Payable;
  /** The thing a provider's checkout session is for (its metadata), or undefined. */
  fromSession(conn: Conn, session: CheckoutSessionObject): Promise<T | undefined>;
  /** The intent to ask for: its metadata (the kind and the thing's id), manual capture for a card hold. */
  intent(thing: T): { capture?: 'manual' | 'automatic'; metadata: Record<string, string> };
  attachIntent(conn: Conn, id: string, intentId: string): Promise<void>;
  /** Paid: the thing counts from now (in the caller's transaction); a thing no longer awaiting payment is left alone. */
  confirm(trx: Kysely<Database>, id: string, paid: { held: boolean; via: 'finalize' | 'webhook' }): Promise<void>;
  /** Unpaid: gives back what it held; true when it released it now. Things that hold nothing leave it out. */
  release?(trx: Kysely<Database>, id: string, why: string): Promise<boolean>;
  /**
   * What finalize does when the intent is neither paid nor cancelled (a declined card): `release` (a venue
   * booking: the spec's state table releases it) or `keep` (the guest may try another card until the
   * intent is cancelled or the payment window passes).
   */
  whenUnpaid: 'release' | 'keep';
}

export interface CheckoutFlow<T> {
  /** ask: the thing's payment intent (created once, then the same one); released when none can be made. */
  ask(thing: T, description: string): Promise<PaymentIntent>;
  /** confirm by finalize: reads the intent back and confirms, releases or keeps the thing; null without an intent to read. */
  finalize(thing: T): Promise<IntentStatus | null>;
  /** The undo of ask (finalize on a failed payment, the expiry sweep): released, then its intent cancelled or kept for the sweep. */
  release(thing: T, why: string): Promise<boolean>;
  /** confirm and release by the provider's events: the fulfilments of the spec's kind. */
  registerFulfilments(): void;
}

/** Intent states a cancel abandons (nothing taken yet, or a hold not captured). */
const RELEASABLE: readonly IntentStatus[] = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'requires_capture',
  'processing',
];

export interface GiveBackRequest {
  intentId: string | null;
  scope: PaymentScope;
  subject: string;
  /** Idempotency keys: one release and one refund per thing, so a retry never moves money twice. */
  keys: { release: string; refund: string };
  /** The thing's payment status as recorded (`requires_payment`, `held`, `paid` …). */
  paymentStatus: string;
  refundedPence: number;
  /** Of what the guest paid, how much goes back in all (all of it unless a policy says less). */
  refundable?(receivedPence: number): number;
  reason: string;
  /**
   * A release the provider fails: `throw` (the request fails and can be retried) or `retry` (a batch that
   * goes on: the cancel is kept and retried by the sweep, and the payment status left as it was).
   */
  onReleaseFailure: 'throw' | 'retry';
}

/** What giving back changed, for the thing's row. */
export interface GaveBack {
  payment_status?: 'released' | 'paid' | 'refunded' | 'partially_refunded';
  refunded_pence?: number;
}

interface CheckoutDeps {
  db: Db;
  log: Logger;
  charges: Pick<Charges, 'createIntent' | 'retrieveIntent' | 'cancelIntent' | 'refund'>;
  cancels: ReturnType<typeof createIntentCancels>;
  fulfilments: FulfilmentRegistry;
}

export function createCheckout(deps: CheckoutDeps) {
  const { db, log, charges, cancels } = deps;
  const scopeOf = (payable: Payable): PaymentScope => ({ operatorId: payable.operatorId, venueId: payable.venueId });

  function flow<T>(spec: CheckoutSpec<T>): CheckoutFlow<T> {
    /** Releases in its own transaction; a failure is logged with its ids and left to the expiry sweep. */
    async function releaseNow(payable: Payable, why: string): Promise<boolean> {
      const release = spec.release;
      if (!release) return false;
      try {
        return await withTransaction(db, (trx) => release(trx, payable.id, why));
      } catch (error) {
        log.error(
          { err: error, subject: spec.subject(payable.id), why },
          'releasing an unpaid payment failed: the expiry sweep releases it',
        );
        return false;
      }
    }

    async function release(thing: T, why: string): Promise<boolean> {
      const payable = spec.view(thing);
      const released = spec.release ? await withTransaction(db, (trx) => spec.release!(trx, payable.id, why)) : true;
      // Only what was released now: a thing paid meanwhile keeps its intent, and another release cancels its own.
      if (released && payable.intentId) {
        await cancels.cancelOrRetry({
          intentId: payable.intentId,
          idempotencyKey: spec.keys.release(payable.id),
          scope: scopeOf(payable),
          subject: spec.subject(payable.id),
        });
      }
      return released;
    }

    return {
      release,

      async ask(thing, description) {
        const payable = spec.view(thing);
        const asked = spec.intent(thing);
        let intent: PaymentIntent;
        try {
          intent = await charges.createIntent({
            amountPence: payable.amountPence,
            capture: asked.capture,
            metadata: asked.metadata,
            idempotencyKey: spec.keys.ask(payable.id),
            operatorId: payable.operatorId,
            venueId: payable.venueId,
            description,
          });
        } catch (error) {
          // Without a payment nothing may stay held for it.
          await releaseNow(payable, 'payment_unavailable');
          throw error;
        }
        if (payable.intentId !== intent.id) await spec.attachIntent(db, payable.id, intent.id);
        return intent;
      },

      async finalize(thing) {
        const payable = spec.view(thing);
        if (!payable.awaitingPayment || !payable.intentId) return null;
        const intent = await charges.retrieveIntent(payable.intentId, scopeOf(payable));
        if (intent.status === 'succeeded' || intent.status === 'requires_capture') {
          const mismatch = intentMismatch(intent, { intentId: payable.intentId, amountPence: payable.amountPence });
          if (mismatch) {
            log.warn({ subject: spec.subject(payable.id), intentId: intent.id, mismatch }, 'finalize: the payment does not match');
            throw conflict(PAYMENT_MISMATCH_MESSAGE);
          }
          // withTransaction: mail queued by the confirmation is delivered right after the commit.
          const held = intent.status === 'requires_capture';
          await withTransaction(db, (trx) => spec.confirm(trx, payable.id, { held, via: 'finalize' }));
        } else if (intent.status === 'canceled') {
          if (spec.release) await withTransaction(db, (trx) => spec.release!(trx, payable.id, 'payment_canceled'));
        } else if (intent.status !== 'processing' && spec.whenUnpaid === 'release') {
          await release(thing, 'payment_not_completed');
        }
        return intent.status;
      },

      registerFulfilments() {
        deps.fulfilments.register(spec.kind, {
          completed: async (trx, session, event) => {
            const thing = await spec.fromSession(trx, session);
            const payable = thing === undefined ? undefined : spec.view(thing);
            const mismatch = payable && sessionMismatch(session, { intentId: payable.intentId, amountPence: payable.amountPence });
            if (!payable || mismatch) {
              log.warn(
                { eventId: event.id, sessionId: session.id, kind: spec.kind, mismatch },
                'checkout session without a matching payment',
              );
              return 'ignored';
            }
            await spec.confirm(trx, payable.id, { held: false, via: 'webhook' });
          },
          ...(spec.release
            ? {
                expired: async (trx, session) => {
                  const thing = await spec.fromSession(trx, session);
                  if (thing === undefined) return 'ignored';
                  await spec.release!(trx, spec.view(thing).id, 'checkout_expired');
                },
              }
            : {}),
        });
      },
    };
  }

  /**
   * The undo of confirm, for a cancellation: what the thing holds goes back to the guest before the
   * cancellation is written. The provider's intent is the truth: an intent not yet paid (or a hold) is
   * cancelled; one paid meanwhile (the cancel answers 409) is refunded like any payment; a payment is
   * refunded by `refundable` less what was refunded already.
   */
  async function giveBack(request: GiveBackRequest): Promise<GaveBack> {
    const { intentId, scope } = request;
    if (!intentId) return {};
    let intent = await charges.retrieveIntent(intentId, scope);
    if (RELEASABLE.includes(intent.status)) {
      const cancel = { intentId, idempotencyKey: request.keys.release, scope, subject: request.subject };
      let refused: unknown;
      if (request.onReleaseFailure === 'retry') {
        if (await cancels.cancelOrRetry(cancel)) return { payment_status: 'released' };
      } else {
        try {
          await charges.cancelIntent(intentId, { idempotencyKey: cancel.idempotencyKey, scope });
          return { payment_status: 'released' };
        } catch (error) {
          // A 409: the guest's payment completed in the meantime, and is refunded below like any payment.
          if (!(error instanceof AppError) || error.status !== 409) throw error;
          refused = error;
        }
      }
      intent = await charges.retrieveIntent(intentId, scope);
      if (intent.status !== 'succeeded') {
        if (refused) throw refused;
        return {};
      }
    }
    const awaited = request.paymentStatus === 'held' || request.paymentStatus === 'requires_payment';
    if (intent.status === 'canceled') return awaited ? { payment_status: 'released' } : {};
    if (intent.status !== 'succeeded') return {};
    const received = intent.amount_received;
    const due = Math.max(0, (request.refundable?.(received) ?? received) - request.refundedPence);
    if (due === 0) return request.paymentStatus === 'requires_payment' ? { payment_status: 'paid' } : {};
    const refund = await charges.refund(intentId, { amountPence: due, idempotencyKey: request.keys.refund, reason: request.reason, scope });
    const refunded = request.refundedPence + refund.amount;
    return { payment_status: refunded >= received ? 'refunded' : 'partially_refunded', refunded_pence: refunded };
  }

  return { flow, giveBack };
}
