/**
 * Receiving provider events (`POST /api/webhooks/payment`): verify the signature over the raw bytes,
 * then, in one transaction, record the event id (a redelivery stops there), do the money bookkeeping
 * of a checkout session, and run the fulfilment of its `metadata.kind` once per target. Work that
 * calls the provider (transfers, account reads) runs after the commit.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import { lockKey, withTransaction } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest } from '../../platform/errors.js';
import { bodyProblem } from '../../platform/input-guard.js';
import type { CheckoutSessionObject, FulfilmentRegistry, PaymentEvent } from './fulfilments.js';
import { verifySignature, type SignatureFailure } from './signature.js';

export type SessionOutcome = 'completed' | 'expired';

/** Work to do once the event's transaction has committed. */
export type AfterCommit = () => Promise<void>;

export interface WebhookHooks {
  /** Inside the event's transaction: bookkeeping of a paid or expired session (operator ledger). */
  sessionSettled(trx: Kysely<Database>, session: CheckoutSessionObject, outcome: SessionOutcome): Promise<AfterCommit | undefined>;
  /** After commit: a connected account changed at the provider. */
  accountUpdated(accountId: string): Promise<void>;
}

const SESSION_OUTCOMES: Record<string, SessionOutcome> = {
  'checkout.session.completed': 'completed',
  // Delayed payment methods: the session completes unpaid and one of these follows.
  'checkout.session.async_payment_succeeded': 'completed',
  'checkout.session.expired': 'expired',
  'checkout.session.async_payment_failed': 'expired',
};

const FAILURE_MESSAGES: Record<SignatureFailure, string> = {
  missing: 'Missing Payment-Signature header',
  malformed: 'Malformed Payment-Signature header',
  stale: 'Payment-Signature timestamp is outside the tolerance',
  mismatch: 'Payment-Signature does not match the body',
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseEvent(raw: Buffer): PaymentEvent {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw badRequest('Malformed JSON body');
  }
  // The raw body skips the global input guard (its parser keeps the bytes for the signature), so it is
  // guarded here like any other body: a NUL in an id would otherwise reach PostgreSQL (lock keys, text columns).
  const problem = bodyProblem(value);
  if (problem) throw badRequest(problem);
  if (
    !isObject(value) ||
    typeof value.id !== 'string' ||
    value.id.length === 0 ||
    value.id.length > 255 ||
    typeof value.type !== 'string' ||
    !isObject(value.data) ||
    !isObject(value.data.object)
  ) {
    throw badRequest('Not a payment event: id, type and data.object are required');
  }
  return {
    id: value.id,
    type: value.type,
    // Informational only; kept when it fits a bigint column on both engines.
    created: typeof value.created === 'number' && Number.isSafeInteger(Math.floor(value.created)) ? Math.floor(value.created) : null,
    data: { object: value.data.object },
  };
}

function sessionOf(object: Record<string, unknown>): CheckoutSessionObject | undefined {
  if (typeof object.id !== 'string') return undefined;
  // Metadata values are strings at the provider; anything else is dropped rather than trusted.
  const metadata: Record<string, string> = {};
  if (isObject(object.metadata)) {
    for (const [key, value] of Object.entries(object.metadata)) if (typeof value === 'string') metadata[key] = value;
  }
  return {
    id: object.id,
    payment_intent:
      typeof object.payment_intent === 'string'
        ? object.payment_intent
        : isObject(object.payment_intent)
          ? String(object.payment_intent.id)
          : null,
    payment_status: typeof object.payment_status === 'string' ? object.payment_status : 'unpaid',
    status: typeof object.status === 'string' ? object.status : null,
    amount_total: typeof object.amount_total === 'number' ? object.amount_total : null,
    currency: typeof object.currency === 'string' ? object.currency.toLowerCase() : null,
    metadata,
  };
}

interface Dispatched {
  outcome: string;
  kind: string | null;
  target: string | null;
  after: AfterCommit[];
}

export interface Webhooks {
  /** Verifies and processes one delivery; throws 400 on a bad signature or body. */
  receive(raw: Buffer, signature: string | undefined): Promise<{ duplicate: boolean; outcome: string }>;
}

export function createWebhooks(deps: {
  db: Db;
  clock: Clock;
  log: Logger;
  registry: FulfilmentRegistry;
  secret: () => Promise<string>;
  hooks: WebhookHooks;
}): Webhooks {
  const { db, clock, log, registry, hooks } = deps;

  async function dispatchSession(trx: Kysely<Database>, event: PaymentEvent, outcome: SessionOutcome): Promise<Dispatched> {
    const session = sessionOf(event.data.object);
    if (!session) return { outcome: 'invalid_session', kind: null, target: null, after: [] };
    const kind = session.metadata.kind ?? null;
    const paid = session.payment_status === 'paid' || session.payment_status === 'no_payment_required';
    if (outcome === 'completed' && !paid) return { outcome: 'awaiting_payment', kind, target: null, after: [] };

    const after: AfterCommit[] = [];
    const bookkeeping = await hooks.sessionSettled(trx, session, outcome);
    if (bookkeeping) after.push(bookkeeping);

    const resolved = registry.resolve(kind ?? undefined, session);
    if (!resolved) return { outcome: 'unhandled_kind', kind, target: null, after };
    const fn = outcome === 'completed' ? resolved.handler.completed : resolved.handler.expired;
    if (!fn) return { outcome: 'nothing_to_release', kind, target: resolved.target, after };

    // One fulfilment per target: a second event for the same thing (another session, a late expiry)
    // finds the claim and changes nothing. The lock makes concurrent claims wait on PostgreSQL.
    await lockKey(db, trx, `payment-target:${resolved.target}`);
    const claim = await trx
      .insertInto('payment_fulfilments')
      .values({
        target_key: resolved.target,
        kind: kind!,
        outcome,
        event_id: event.id,
        session_id: session.id,
        created_at: clock.now().toISOString(),
      })
      .onConflict((oc) => oc.column('target_key').doNothing())
      .executeTakeFirst();
    if (Number(claim.numInsertedOrUpdatedRows ?? 0) === 0) return { outcome: 'duplicate_target', kind, target: resolved.target, after };

    const result = await fn(trx, session, event);
    // A session that could not be acted on (another booking's payment, a wrong amount) gives the claim
    // back: the target's genuine payment must still be able to fulfil it.
    if (result === 'ignored') await trx.deleteFrom('payment_fulfilments').where('target_key', '=', resolved.target).execute();
    const done = result === 'ignored' ? 'ignored' : outcome === 'completed' ? 'fulfilled' : 'released';
    return { outcome: done, kind, target: resolved.target, after };
  }

  async function dispatch(trx: Kysely<Database>, event: PaymentEvent): Promise<Dispatched> {
    const sessionOutcome = SESSION_OUTCOMES[event.type];
    if (sessionOutcome) return dispatchSession(trx, event, sessionOutcome);
    if (event.type === 'account.updated' && typeof event.data.object.id === 'string') {
      const accountId = event.data.object.id;
      // The payload may be older than the account's state: re-read it from the provider instead.
      return { outcome: 'account_refresh', kind: null, target: null, after: [() => hooks.accountUpdated(accountId)] };
    }
    return { outcome: 'unhandled_type', kind: null, target: null, after: [] };
  }

  return {
    async receive(raw, signature) {
      const check = verifySignature(signature, raw, await deps.secret(), Math.floor(clock.now().getTime() / 1000));
      if (!check.ok) throw badRequest(FAILURE_MESSAGES[check.reason]);
      const event = parseEvent(raw);
      const result = await withTransaction(db, async (trx) => {
        await lockKey(db, trx, `payment-event:${event.id}`);
        const recorded = await trx
          .insertInto('webhook_events')
          .values({
            id: event.id,
            type: event.type,
            kind: null,
            target_key: null,
            outcome: 'processing',
            event_created: event.created,
            payload: raw.toString('utf8'),
            received_at: clock.now().toISOString(),
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .executeTakeFirst();
        if (Number(recorded.numInsertedOrUpdatedRows ?? 0) === 0)
          return { duplicate: true, outcome: 'duplicate_event', after: [] as AfterCommit[] };
        const dispatched = await dispatch(trx, event);
        await trx
          .updateTable('webhook_events')
          .set({ outcome: dispatched.outcome, kind: dispatched.kind, target_key: dispatched.target })
          .where('id', '=', event.id)
          .execute();
        return { duplicate: false, outcome: dispatched.outcome, after: dispatched.after };
      });
      for (const task of result.after) {
        // The event is recorded; follow-up work that fails is retried by the next status read.
        await task().catch((error) => log.error({ err: error, eventId: event.id }, 'payment event follow-up failed'));
      }
      return { duplicate: result.duplicate, outcome: result.outcome };
    },
  };
}
