/**
 * `ctx.sms`: outgoing text messages through a transactional outbox, like mail (../mail/mail.ts).
 *
 * - `queue(trx, message)` inserts a row into `sms_outbox` on the caller's connection, so the message
 *   exists exactly when the change that causes it commits. A number that texted STOP gets a row marked
 *   `opted_out` and nothing is sent. Consent is the caller's check (consent.ts), before it queues.
 * - With Twilio configured, rows are `pending` and sent by `flush()`: the `sms` background job on every
 *   instance, and right after the commit once started. Each attempt claims its row with a conditional
 *   update (the attempt count is the row's version), so one instance sends each message; a claim lasts
 *   5 minutes, after which a row whose sender died is retried (at least once). Failures are retried with
 *   exponential back-off (30 s doubling to 1 h, 8 attempts); a permanent refusal (4xx) fails at once.
 * - Without Twilio (the simulated provider), rows are `kept`: listed by `maitred outbox --sms`, never sent.
 */
import type { Logger } from 'pino';
import type { Config } from '../../config/config.js';
import type { Db } from '../../db/connect.js';
import type { SmsOutboxTable } from '../../db/platform.table.js';
import { afterCommit, kyselyOf, type Conn } from '../../db/transaction.js';
import { textableNumber } from '../../domain/reminder-schedule.js';
import type { Clock } from '../clock.js';
import { orderedId } from '../ids.js';
import { isOptedOut } from './consent.js';
import { SmsSendError, twilioProvider, type SmsProvider } from './twilio.js';

export const SMS_MAX_ATTEMPTS = 8;
export const SMS_RETRY_FIRST_MS = 30_000;
export const SMS_RETRY_MAX_MS = 60 * 60_000;
export const SMS_CLAIM_MS = 5 * 60_000;
export const SMS_MAX_LENGTH = 1600;
const BATCH = 50;

/** What other modules use to text a guest: queued on the caller's transaction. */
export interface TextMessages {
  queue(trx: Conn, message: { to: string; body: string; venueId: string | null; kind: string }): Promise<void>;
}

export interface SmsReport {
  sent: number;
  retrying: number;
  failed: number;
}

export interface SmsService extends TextMessages {
  /** True with Twilio configured: queued messages are sent; otherwise kept in the outbox. */
  delivering: boolean;
  flush(): Promise<SmsReport>;
  start(): void;
  stop(): void;
}

const retryDelay = (attempts: number) => Math.min(SMS_RETRY_FIRST_MS * 2 ** Math.max(0, attempts - 1), SMS_RETRY_MAX_MS);

export function createSms(deps: { db: Db; clock: Clock; log: Logger; config: Config; provider?: SmsProvider }): SmsService {
  const { db, clock, log } = deps;
  const provider: SmsProvider | null = deps.provider ?? (deps.config.twilio ? twilioProvider(deps.config.twilio) : null);
  const iso = (ms = 0) => new Date(clock.now().getTime() + ms).toISOString();
  let started = false;
  let flushing: Promise<SmsReport> | undefined;

  async function queue(conn: Conn, message: { to: string; body: string; venueId: string | null; kind: string }): Promise<void> {
    const to = textableNumber(message.to);
    if (!to) throw new Error(`not a textable number: ${message.to}`);
    const body = message.body.trim().slice(0, SMS_MAX_LENGTH);
    if (!body) throw new Error('text message body is empty');
    const optedOut = await isOptedOut(conn, to);
    const at = iso();
    await kyselyOf(conn)
      .insertInto('sms_outbox')
      .values({
        id: orderedId('sms'),
        venue_id: message.venueId,
        recipient: to,
        body,
        kind: message.kind.slice(0, 40),
        status: optedOut ? 'opted_out' : provider ? 'pending' : 'kept',
        attempts: 0,
        next_attempt_at: at,
        last_error: null,
        provider_id: null,
        created_at: at,
        sent_at: null,
      })
      .execute();
    if (provider && started && !optedOut)
      afterCommit(conn, () => void flush().catch((error: unknown) => log.error({ err: error }, 'sms flush failed')));
  }

  async function attempt(sender: SmsProvider, row: SmsOutboxTable, now: string): Promise<keyof SmsReport | 'skipped'> {
    const attempts = Number(row.attempts) + 1;
    const claimed = await db.kysely
      .updateTable('sms_outbox')
      .set({ status: 'sending', attempts, next_attempt_at: iso(SMS_CLAIM_MS) })
      .where('id', '=', row.id)
      .where('attempts', '=', row.attempts)
      .where('status', 'in', ['pending', 'sending'])
      .where('next_attempt_at', '<=', now)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return 'skipped';
    const ours = db.kysely
      .updateTable('sms_outbox')
      .where('id', '=', row.id)
      .where('attempts', '=', attempts)
      .where('status', '=', 'sending');
    // A STOP that arrived after the message was queued still stops it.
    if (await isOptedOut(db, row.recipient)) {
      await ours.set({ status: 'opted_out' }).execute();
      return 'failed';
    }
    try {
      const { providerId } = await sender.send({ to: row.recipient, body: row.body });
      await ours.set({ status: 'sent', sent_at: iso(), provider_id: providerId || null, last_error: null }).execute();
      log.info({ smsId: row.id, attempts }, 'text message sent');
      return 'sent';
    } catch (error) {
      const permanent = error instanceof SmsSendError && error.permanent;
      const giveUp = permanent || attempts >= SMS_MAX_ATTEMPTS;
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      await ours.set({ status: giveUp ? 'failed' : 'pending', next_attempt_at: iso(retryDelay(attempts)), last_error: reason }).execute();
      log.warn({ smsId: row.id, attempts, reason, giveUp }, 'text message not sent');
      return giveUp ? 'failed' : 'retrying';
    }
  }

  async function deliverDue(): Promise<SmsReport> {
    const report: SmsReport = { sent: 0, retrying: 0, failed: 0 };
    if (!provider) return report;
    for (let pass = 0; pass < 100; pass++) {
      const now = iso();
      const due = await db.kysely
        .selectFrom('sms_outbox')
        .selectAll()
        .where('status', 'in', ['pending', 'sending'])
        .where('next_attempt_at', '<=', now)
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(BATCH)
        .execute();
      for (const row of due) {
        const outcome = await attempt(provider, row, now);
        if (outcome !== 'skipped') report[outcome]++;
      }
      if (due.length < BATCH) break;
    }
    return report;
  }

  /** Sends every due message now; a call during a pass waits for it and runs another. */
  async function flush(): Promise<SmsReport> {
    while (flushing) await flushing.catch(() => undefined);
    flushing = deliverDue().finally(() => {
      flushing = undefined;
    });
    return flushing;
  }

  return {
    delivering: provider !== null,
    queue,
    flush,
    start() {
      started = true;
      if (!provider) log.warn('Twilio is not configured: text messages are kept in the database outbox (maitred outbox --sms lists them)');
    },
    stop() {
      started = false;
    },
  };
}
