/**
 * The daily retention pass (a `one` job, platform/scheduler.ts): rows kept only for a while are deleted
 * once past their period, in small batches, each its own short statement, so bookings never wait behind
 * it. Each module names its own rules (its tables); the periods are settings (RETENTION_*), documented
 * in the README and docs/decisions.md ("Running it in production").
 */
import type { Logger } from 'pino';
import type { Db } from '../db/connect.js';

export interface RetentionRule {
  /** What goes, for the log: e.g. `expired sessions`. */
  name: string;
  /** Deletes at most `limit` rows past the period as of `now`; answers how many went. */
  prune(now: Date, limit: number): Promise<number>;
}

/** Rows deleted per statement: small enough that a writer never waits long behind one. */
export const RETENTION_BATCH = 500;

export const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();

/** Runs every rule to the end, batch by batch (yielding between batches); answers what each deleted. */
export async function runRetention(rules: readonly RetentionRule[], now: Date, log: Logger, batch = RETENTION_BATCH) {
  const deleted: Record<string, number> = {};
  for (const rule of rules) {
    let total = 0;
    for (;;) {
      const n = await rule.prune(now, batch);
      total += n;
      if (n < batch) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    deleted[rule.name] = total;
  }
  log.info({ deleted }, 'retention pass done');
  return deleted;
}

/** The platform's own: mail sent more than `days` ago (failed mail is kept three times as long, for support). */
export function platformRetention(db: Db, days: { mailDays: number }): RetentionRule[] {
  return [
    {
      name: 'sent mail',
      async prune(now, limit) {
        const result = await db.kysely
          .deleteFrom('mail_outbox')
          .where('id', 'in', (eb) =>
            eb
              .selectFrom('mail_outbox')
              .select('id')
              .where((w) =>
                w.or([
                  w.and([w('status', '=', 'sent'), w('sent_at', '<', daysBefore(now, days.mailDays))]),
                  w.and([w('status', '=', 'failed'), w('created_at', '<', daysBefore(now, days.mailDays * 3))]),
                ]),
              )
              .limit(limit),
          )
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      },
    },
    {
      // Text messages hold guests' numbers and words: kept as long as mail (RETENTION_MAIL_DAYS).
      name: 'finished text messages',
      async prune(now, limit) {
        const result = await db.kysely
          .deleteFrom('sms_outbox')
          .where('id', 'in', (eb) =>
            eb
              .selectFrom('sms_outbox')
              .select('id')
              .where((w) =>
                w.or([
                  w.and([w('status', 'in', ['sent', 'kept', 'opted_out']), w('created_at', '<', daysBefore(now, days.mailDays))]),
                  w.and([w('status', '=', 'failed'), w('created_at', '<', daysBefore(now, days.mailDays * 3))]),
                ]),
              )
              .limit(limit),
          )
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      },
    },
  ];
}
