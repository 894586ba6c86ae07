/**
 * The fulfilment registry: what a paid (or expired) checkout session does, keyed by its
 * `metadata.kind` (decisions: Inbound payment webhook). Modules register their kind once at start:
 *
 *   ctx.payments.fulfilments.register('booking_deposit', {
 *     completed: async (trx, session, event) => { … confirm the booking … },
 *     expired: async (trx, session, event) => { … release it … },
 *   });
 *
 * Handlers run inside the transaction that records the event id and claims the target key, so they
 * run at most once per target whatever is redelivered or raced. They must use only `trx` (never
 * `ctx.db` nor the payment provider: on SQLite that would wait on the very transaction it runs in).
 * Throwing rolls everything back and answers 500, so the provider delivers the event again later.
 * A handler that confirms something paid checks the session with `sessionMismatch` (payment-match.ts)
 * and answers `ignored` when it is not the thing's own payment of its amount: an ignored session does
 * not claim the target, so the genuine payment's event still fulfils it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface CheckoutSessionObject {
  id: string;
  payment_intent: string | null;
  payment_status: string;
  status: string | null;
  amount_total: number | null;
  /** Lower-case ISO code; null when the event leaves it out. */
  currency: string | null;
  metadata: Record<string, string>;
}

export interface PaymentEvent {
  id: string;
  type: string;
  created: number | null;
  data: { object: Record<string, unknown> };
}

/** `ignored`: the session's metadata could not be acted on; the event is still acknowledged. */
export type FulfilmentResult = void | 'ignored';

export type FulfilmentFn = (trx: Kysely<Database>, session: CheckoutSessionObject, event: PaymentEvent) => Promise<FulfilmentResult>;

export interface FulfilmentHandler {
  /**
   * The thing paid for, as a key: at most one fulfilment (completed or expired) per target. Defaults
   * to `<kind>:<metadata field>` for the kinds the decisions name a target for, else `<kind>:<session id>`.
   */
  target?(session: CheckoutSessionObject): string;
  completed: FulfilmentFn;
  /** Releases what awaited payment; kinds with nothing to release leave it out. */
  expired?: FulfilmentFn;
}

/** The metadata field naming the target of each kind (decisions: Inbound payment webhook). */
export const TARGET_FIELDS: Readonly<Record<string, string>> = {
  booking_deposit: 'booking_id',
  event_booking: 'booking_id',
  voucher_purchase: 'intent_id',
};

export interface ResolvedFulfilment {
  handler: FulfilmentHandler;
  target: string;
}

export class FulfilmentRegistry {
  private readonly handlers = new Map<string, FulfilmentHandler>();

  register(kind: string, handler: FulfilmentHandler): void {
    if (!/^[a-z][a-z0-9_]*$/.test(kind)) throw new Error(`Fulfilment kind "${kind}" must be lower_snake_case`);
    if (this.handlers.has(kind)) throw new Error(`A fulfilment for kind "${kind}" is already registered`);
    this.handlers.set(kind, handler);
  }

  kinds(): string[] {
    return [...this.handlers.keys()].sort();
  }

  resolve(kind: string | undefined, session: CheckoutSessionObject): ResolvedFulfilment | undefined {
    const handler = kind ? this.handlers.get(kind) : undefined;
    if (!kind || !handler) return undefined;
    if (handler.target) return { handler, target: handler.target(session) };
    const field = TARGET_FIELDS[kind];
    const value = field ? session.metadata[field] : undefined;
    return { handler, target: `${kind}:${value || session.id}` };
  }
}
