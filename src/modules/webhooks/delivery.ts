/**
 * Delivering the outbox (docs/webhooks.md, Delivery). Every instance runs `deliverDue` (a scheduler job
 * of kind `each`); each delivery row is claimed with a conditional update (its attempt count is the
 * version, and `claimed_until` keeps it this instance's while the request runs), so however many
 * instances run, one of them makes each attempt. A claim that outlives its instance lapses after
 * WEBHOOK_CLAIM_MS and the row is attempted again (at least once: receivers de-duplicate on the event id).
 *
 * A 2xx answer delivers; anything else (another status, a redirect, no answer, a refused address) fails
 * the attempt, retried with exponential back-off (WEBHOOK_RETRY_DELAYS_MS) up to WEBHOOK_MAX_ATTEMPTS.
 * An endpoint whose attempts have failed WEBHOOK_DISABLE_AFTER_FAILURES times in a row, over at least
 * WEBHOOK_DISABLE_MIN_FAILING_MS, is disabled: its pending deliveries fail and the account's primary
 * contact is mailed, in the same transaction.
 */
import type { Insertable, Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { withTransaction, type Conn } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { sequentialId } from '../../platform/ids.js';
import type { Mail } from '../../platform/mail/mail.js';
import { renderMail } from '../../platform/mail/templates.js';
import type { SecretBox } from '../../platform/secret-box.js';
import { SIGNATURE_HEADER, signatureHeader } from './signing.js';
import { postJson, RefusedAddressError, type TransportOptions } from './transport.js';
import type { WebhookAttemptsTable, WebhookDeliveriesTable } from './webhooks.table.js';

const MINUTE = 60_000;
/** The wait after failed attempt n (1-based): 1 min × 4^(n−1), at most 12 h. */
export const WEBHOOK_RETRY_DELAYS_MS = [1, 4, 16, 64, 256, 720, 720].map((minutes) => minutes * MINUTE);
/** The first attempt and one per retry delay: 8 attempts over about 29.6 hours. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;
export const WEBHOOK_DISABLE_AFTER_FAILURES = 20;
export const WEBHOOK_DISABLE_MIN_FAILING_MS = 24 * 60 * MINUTE;
export const WEBHOOK_CLAIM_MS = 5 * MINUTE;
export const WEBHOOK_RESPONSE_BODY_CHARS = 1000;
const BATCH = 50;
const CONCURRENCY = 8;
const PLATFORM = 'Maitred';

export const secretContext = (endpointId: string) => `webhook-endpoint:${endpointId}`;

export interface DeliveryDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  secrets: SecretBox;
  mail: Mail;
  transport: TransportOptions;
  publicBaseUrl: string;
  /** The account's name and primary contact's address (team), for the mail when an endpoint is disabled. */
  contact(conn: Conn, operatorId: string): Promise<{ name: string; email: string | null } | undefined>;
}

type DeliveryRow = WebhookDeliveriesTable;

export interface AttemptOutcome {
  status: 'delivered' | 'pending' | 'failed';
  statusCode: number | null;
  error: string | null;
}

export function createWebhookDelivery(deps: DeliveryDeps) {
  const { db, clock } = deps;

  /** Claims the row for one attempt; the claimed row, or undefined when another instance has it or it is not due. */
  async function claim(row: Pick<DeliveryRow, 'id' | 'attempts'>, now: Date): Promise<DeliveryRow | undefined> {
    const at = now.toISOString();
    const claimed = await db.kysely
      .updateTable('webhook_deliveries')
      .set({ attempts: row.attempts + 1, claimed_until: new Date(now.getTime() + WEBHOOK_CLAIM_MS).toISOString(), updated_at: at })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('attempts', '=', row.attempts)
      .where('next_attempt_at', '<=', at)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
      .returningAll()
      .executeTakeFirst();
    return claimed;
  }

  /** Sends the claimed delivery once and records the outcome (the attempt, the row, the endpoint's health). */
  async function attempt(delivery: DeliveryRow, manual: boolean): Promise<AttemptOutcome> {
    const endpoint = await db.kysely.selectFrom('webhook_endpoints').selectAll().where('id', '=', delivery.endpoint_id).executeTakeFirst();
    if (!endpoint || endpoint.enabled !== 1) {
      await finish(delivery, { status: 'failed', statusCode: null, error: 'The endpoint is disabled' }, null);
      return { status: 'failed', statusCode: null, error: 'The endpoint is disabled' };
    }
    const started = clock.now();
    const signingSecrets = [await deps.secrets.open(endpoint.secret, secretContext(endpoint.id))];
    if (endpoint.previous_secret && endpoint.previous_secret_until && endpoint.previous_secret_until > started.toISOString()) {
      signingSecrets.push(await deps.secrets.open(endpoint.previous_secret, secretContext(endpoint.id)));
    }
    const headers = {
      'user-agent': 'Maitred-Webhooks/1.0',
      [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(delivery.payload, signingSecrets, Math.floor(started.getTime() / 1000)),
      'maitred-event-id': delivery.event_id,
      'maitred-event-type': delivery.event_type,
      'maitred-delivery-id': delivery.id,
    };
    const timer = performance.now();
    let statusCode: number | null = null;
    let responseBody: string | null = null;
    let error: string | null = null;
    try {
      const answer = await postJson(endpoint.url, delivery.payload, headers, deps.transport);
      statusCode = answer.statusCode;
      responseBody = answer.body.slice(0, WEBHOOK_RESPONSE_BODY_CHARS);
      if (statusCode >= 300 && statusCode < 400) error = 'Redirects are not followed';
      else if (statusCode < 200 || statusCode >= 300) error = `Answered ${statusCode}`;
    } catch (failure) {
      error = failure instanceof RefusedAddressError || failure instanceof Error ? failure.message : String(failure);
      error = error.slice(0, 500);
    }
    const durationMs = Math.round(performance.now() - timer);
    const ok = error === null;
    const outcome: AttemptOutcome = ok
      ? { status: 'delivered', statusCode, error: null }
      : { status: delivery.attempts >= WEBHOOK_MAX_ATTEMPTS ? 'failed' : 'pending', statusCode, error };
    await finish(delivery, outcome, {
      id: sequentialId('wha'),
      delivery_id: delivery.id,
      attempted_at: started.toISOString(),
      manual: manual ? 1 : 0,
      status_code: statusCode,
      duration_ms: durationMs,
      error,
      response_body: responseBody,
    });
    return outcome;
  }

  async function finish(
    delivery: DeliveryRow,
    outcome: AttemptOutcome,
    attemptRow: Insertable<WebhookAttemptsTable> | null,
  ): Promise<void> {
    const now = clock.now();
    const at = now.toISOString();
    await withTransaction(db, async (trx) => {
      if (attemptRow) await trx.insertInto('webhook_attempts').values(attemptRow).execute();
      const delay = WEBHOOK_RETRY_DELAYS_MS[Math.min(delivery.attempts, WEBHOOK_RETRY_DELAYS_MS.length) - 1] ?? 0;
      await trx
        .updateTable('webhook_deliveries')
        .set({
          status: outcome.status,
          claimed_until: null,
          next_attempt_at: outcome.status === 'pending' ? new Date(now.getTime() + delay).toISOString() : at,
          last_status_code: outcome.statusCode,
          last_error: outcome.error,
          delivered_at: outcome.status === 'delivered' ? at : null,
          updated_at: at,
        })
        .where('id', '=', delivery.id)
        .where('attempts', '=', delivery.attempts)
        .execute();
      if (!attemptRow) return;
      if (outcome.status === 'delivered') {
        await trx
          .updateTable('webhook_endpoints')
          .set({ consecutive_failures: 0, failing_since: null })
          .where('id', '=', delivery.endpoint_id)
          .where('consecutive_failures', '>', 0)
          .execute();
        return;
      }
      const endpoint = await trx
        .updateTable('webhook_endpoints')
        .set((eb) => ({
          consecutive_failures: eb('consecutive_failures', '+', 1),
          failing_since: eb.fn.coalesce('failing_since', eb.val(attemptRow.attempted_at)),
        }))
        .where('id', '=', delivery.endpoint_id)
        .returning(['consecutive_failures', 'failing_since', 'enabled'])
        .executeTakeFirst();
      let disabled = endpoint?.enabled === 0;
      if (
        endpoint &&
        !disabled &&
        endpoint.consecutive_failures >= WEBHOOK_DISABLE_AFTER_FAILURES &&
        endpoint.failing_since !== null &&
        Date.parse(endpoint.failing_since) <= now.getTime() - WEBHOOK_DISABLE_MIN_FAILING_MS
      ) {
        await disable(trx, delivery.endpoint_id, endpoint.consecutive_failures, now);
        disabled = true;
      }
      // No retry is left waiting on a disabled endpoint (this attempt may have run while it was disabled).
      if (disabled && outcome.status === 'pending') {
        await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'failed', last_error: 'The endpoint was disabled', updated_at: at })
          .where('id', '=', delivery.id)
          .where('attempts', '=', delivery.attempts)
          .execute();
      }
    });
  }

  /** Disables the endpoint (once), fails its pending deliveries and mails the account's primary contact. */
  async function disable(trx: Kysely<Database>, endpointId: string, failures: number, now: Date) {
    const at = now.toISOString();
    const reason = `Disabled after ${failures} failed attempts in a row`;
    const disabled = await trx
      .updateTable('webhook_endpoints')
      .set({ enabled: 0, disabled_at: at, disabled_reason: reason, updated_at: at })
      .where('id', '=', endpointId)
      .where('enabled', '=', 1)
      .returning(['operator_id', 'url'])
      .executeTakeFirst();
    if (!disabled) return;
    await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'failed', last_error: 'The endpoint was disabled', updated_at: at })
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
      .execute();
    const contact = await deps.contact(trx, disabled.operator_id);
    if (!contact?.email) return;
    const subject = `${PLATFORM}: a webhook endpoint of ${contact.name} was disabled`;
    const { text, html } = renderMail({
      title: 'A webhook endpoint was disabled',
      paragraphs: [
        `Deliveries to ${disabled.url} failed ${failures} times in a row for more than a day, so ${PLATFORM} has stopped sending ` +
          'events to it. Events of the meantime are in its delivery log.',
        'Once the endpoint answers again, enable it in the portal’s webhook settings and redeliver the events you need.',
      ],
      link: { label: 'Open the webhook settings', url: `${deps.publicBaseUrl}/app/webhooks` },
      venueName: PLATFORM,
    });
    await deps.mail.queue(trx, { to: contact.email, subject, text, html, senderName: PLATFORM });
  }

  return {
    /** One pass: claims and attempts every due delivery (in batches); answers how each ended. */
    async deliverDue(): Promise<{ delivered: number; retrying: number; failed: number }> {
      const report = { delivered: 0, retrying: 0, failed: 0 };
      const now = clock.now();
      const at = now.toISOString();
      const due = await db.kysely
        .selectFrom('webhook_deliveries')
        .select(['id', 'attempts'])
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', at)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(BATCH)
        .execute();
      for (let i = 0; i < due.length; i += CONCURRENCY) {
        await Promise.all(
          due.slice(i, i + CONCURRENCY).map(async (row) => {
            const claimed = await claim(row, now);
            if (!claimed) return;
            const outcome = await attempt(claimed, false).catch((error: unknown) => {
              deps.log.error({ err: error, deliveryId: row.id }, 'webhook delivery failed unexpectedly');
              return undefined;
            });
            if (outcome) report[outcome.status === 'delivered' ? 'delivered' : outcome.status === 'pending' ? 'retrying' : 'failed']++;
          }),
        );
      }
      return report;
    },

    /**
     * An operator's redelivery: a new round for the delivery (its attempts start again), attempted now.
     * Undefined when an attempt is running on it at this moment.
     */
    async redeliver(deliveryId: string): Promise<AttemptOutcome | undefined> {
      const now = clock.now();
      const at = now.toISOString();
      const claimed = await db.kysely
        .updateTable('webhook_deliveries')
        .set({
          status: 'pending',
          attempts: 1,
          next_attempt_at: at,
          claimed_until: new Date(now.getTime() + WEBHOOK_CLAIM_MS).toISOString(),
          updated_at: at,
        })
        .where('id', '=', deliveryId)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
        .returningAll()
        .executeTakeFirst();
      if (!claimed) return undefined;
      return attempt(claimed, true);
    },
  };
}

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>;
