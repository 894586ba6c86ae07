/**
 * Cancelling an unpaid payment intent once the thing it was for has been released (a deposit booking, an
 * event booking): the undo of asking for payment. A cancel that fails (the provider down, a timeout) is
 * logged with its ids and kept in `payment_intent_cancels`, and the sweep (`retryDue`, every instance's
 * jobs beat) tries it again with the same idempotency key, backing off, until it succeeds or the provider
 * answers that the intent cannot be cancelled (it was paid or cancelled meanwhile), which ends it with an
 * error in the log for a person to look at.
 */
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import type { Charges } from './charges.js';
import type { PaymentScope } from './payment-records.js';

/** Tries after a failure: 1, 2, 4 … minutes apart, at most an hour; given up after this many. */
export const CANCEL_MAX_ATTEMPTS = 12;
const backoffMs = (attempts: number) => Math.min(60, 2 ** Math.max(0, attempts - 1)) * 60_000;
/** What is kept of a failure for a person to read (as the mail outbox keeps its last error). */
const lastError = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

export interface IntentCancelRequest {
  intentId: string;
  idempotencyKey: string;
  scope?: PaymentScope;
  /** What the intent was for, for the logs: e.g. `booking:bkg_…`. */
  subject: string;
}

/** The provider refused for good (the intent is paid, already cancelled, or unknown): retrying cannot help. */
const refusedForGood = (error: unknown) => error instanceof AppError && error.status >= 400 && error.status < 500 && error.status !== 429;

export function createIntentCancels(deps: { db: Db; clock: Clock; log: Logger; cancelIntent: Charges['cancelIntent'] }) {
  const { db, clock, log } = deps;

  /** Cancels now; on failure logs it and keeps it for the sweep. True when cancelled now. */
  async function cancelOrRetry(request: IntentCancelRequest): Promise<boolean> {
    try {
      await deps.cancelIntent(request.intentId, { idempotencyKey: request.idempotencyKey, scope: request.scope });
      return true;
    } catch (error) {
      const now = clock.now();
      if (refusedForGood(error)) {
        log.error({ err: error, intentId: request.intentId, subject: request.subject }, 'payment intent could not be cancelled');
        return false;
      }
      log.warn(
        { err: error, intentId: request.intentId, subject: request.subject },
        'cancelling a payment intent failed: the sweep retries it',
      );
      await db.kysely
        .insertInto('payment_intent_cancels')
        .values({
          intent_id: request.intentId,
          idempotency_key: request.idempotencyKey,
          operator_id: request.scope?.operatorId ?? null,
          venue_id: request.scope?.venueId ?? null,
          subject: request.subject,
          attempts: 1,
          next_attempt_at: new Date(now.getTime() + backoffMs(1)).toISOString(),
          last_error: lastError(error),
          created_at: now.toISOString(),
        })
        .onConflict((oc) => oc.column('intent_id').doNothing())
        .execute();
      return false;
    }
  }

  /** The sweep: tries the due cancels again. Answers how many are done (cancelled, or given up). */
  async function retryDue(limit = 50): Promise<number> {
    const now = clock.now();
    const due = await db.kysely
      .selectFrom('payment_intent_cancels')
      .selectAll()
      .where('next_attempt_at', '<=', now.toISOString())
      .orderBy('next_attempt_at')
      .limit(limit)
      .execute();
    let done = 0;
    for (const row of due) {
      // Claimed by moving its next attempt: another instance's sweep skips it meanwhile.
      const attempts = row.attempts + 1;
      const claimed = await db.kysely
        .updateTable('payment_intent_cancels')
        .set({ attempts, next_attempt_at: new Date(now.getTime() + backoffMs(attempts)).toISOString() })
        .where('intent_id', '=', row.intent_id)
        .where('attempts', '=', row.attempts)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) continue;
      const context = { intentId: row.intent_id, subject: row.subject, attempts };
      try {
        const scope = row.operator_id ? { operatorId: row.operator_id, venueId: row.venue_id ?? undefined } : undefined;
        await deps.cancelIntent(row.intent_id, { idempotencyKey: row.idempotency_key, scope });
        await db.kysely.deleteFrom('payment_intent_cancels').where('intent_id', '=', row.intent_id).execute();
        log.info(context, 'payment intent cancelled on retry');
        done += 1;
      } catch (error) {
        if (refusedForGood(error) || attempts >= CANCEL_MAX_ATTEMPTS) {
          await db.kysely.deleteFrom('payment_intent_cancels').where('intent_id', '=', row.intent_id).execute();
          log.error({ err: error, ...context }, 'payment intent could not be cancelled: given up');
          done += 1;
        } else {
          const message = error instanceof Error ? error.message.slice(0, 500) : String(error).slice(0, 500);
          await db.kysely
            .updateTable('payment_intent_cancels')
            .set({ last_error: message })
            .where('intent_id', '=', row.intent_id)
            .execute();
          log.warn({ err: error, ...context }, 'cancelling a payment intent failed again');
        }
      }
    }
    return done;
  }

  return { cancelOrRetry, retryDue };
}
