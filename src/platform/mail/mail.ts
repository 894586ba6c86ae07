/**
 * `ctx.mail`: outgoing mail through a transactional outbox.
 *
 * - `queue(conn, message)` inserts a row into `mail_outbox` on the caller's connection, so the mail
 *   exists exactly when the change that causes it commits: a rolled-back booking sends nothing.
 * - `defer(conn, message)` does the same with a small row: the subject, a template's name and the few
 *   values it renders from, so the rendering (bodies, attachments, signed links) stays out of the
 *   transaction and the row out of the write-ahead log. The row is rendered when it is sent (and when
 *   the outbox is listed) by the template its owner registered (`template(name, render)`), from those
 *   values and what the database holds then; a template may answer `{ skip }` (what it renders from is
 *   gone, e.g. the guest was erased): the row fails at once with that reason, never retried.
 * - With SMTP_URL, rows are `pending` and delivered by nodemailer: right after the commit (an
 *   `afterCommit` hook) once the worker is started, and by the worker's poll every 10 s, which also
 *   picks up mail queued by other instances, by the CLI, or in a transaction opened without
 *   `withTransaction`. Without SMTP_URL, rows are `kept`: recorded for `maitred outbox` and never sent,
 *   not even if SMTP_URL is configured later (guests would get stale confirmations days late).
 * - A delivery claims its row with a conditional update (the attempt count is the row's version), so
 *   any number of instances can run workers and each attempt belongs to one of them. A claim lasts 5
 *   minutes, far beyond the SMTP timeouts; a worker that dies mid-send has its row retried after that,
 *   so delivery is at least once, and a repeat keeps the same Message-ID.
 * - Failures are retried with exponential backoff (30 s doubling to 1 h, 12 attempts, about 5 h), so an
 *   SMTP server that is down for minutes or hours loses nothing. A permanent refusal (5xx to the
 *   recipient or the message) fails at once. Given-up rows stay `failed` with their last error.
 * - From: MAIL_FROM's address with the sender name of the message (the venue's name) as its display name.
 * - Retention: sent, failed and kept rows older than 30 days are deleted by the worker (at most hourly),
 *   since they hold guests' addresses and messages.
 *
 * Tests do not start the worker: they call `flush()` and await it, so nothing is delivered behind their back.
 */
import type { Logger } from 'pino';
import type { Transporter } from 'nodemailer';
import type { Config } from '../../config/config.js';
import type { Db } from '../../db/connect.js';
import type { DeferredRows } from '../../db/deferred-rows.js';
import type { MailOutboxTable } from '../../db/platform.table.js';
import { afterCommit, kyselyOf, type Conn } from '../../db/transaction.js';
import type { Clock } from '../clock.js';
import { badRequest } from '../errors.js';
import { orderedId } from '../ids.js';
import { listOutbox, OUTBOX_DEFAULT_LIMIT, type OutboxEntry } from './outbox.js';
import { createSmtpTransport, isPermanentFailure, parseMailFrom, toNodemailerMessage, type StoredAttachment } from './transport.js';

export const MAIL_MAX_ATTEMPTS = 12;
export const MAIL_RETRY_FIRST_MS = 30_000;
export const MAIL_RETRY_MAX_MS = 60 * 60_000;
export const MAIL_CLAIM_MS = 5 * 60_000;
export const MAIL_POLL_MS = 10_000;
export const MAIL_RETENTION_MS = 30 * 24 * 60 * 60_000;
const PRUNE_EVERY_MS = 60 * 60_000;
const BATCH = 50;

export interface MailAttachment {
  filename: string;
  /** e.g. `text/calendar; charset=utf-8; method=REQUEST` for a booking's `.ics`. */
  contentType: string;
  content: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Display name of the From (the venue's name); the address is always MAIL_FROM's. */
  senderName?: string;
  replyTo?: string;
  attachments?: MailAttachment[];
}

/** A row rendered when sent (`defer`): its recipient and subject, and the template that renders the rest. */
export interface DeferredMail {
  to: string;
  subject: string;
  /** A template name registered with `template(name, render)`. */
  template: string;
  /** What the template renders from (ids and the values that must not change before sending); kept as JSON. */
  data: Record<string, unknown>;
}

/** What a template answers: the whole message, or why there is nothing to send any more. */
export type RenderedMail = MailMessage | { skip: string };

/** Renders a deferred row's message from its data, reading the database through `conn`. */
export type MailTemplate = (conn: Conn, data: Record<string, unknown>) => Promise<RenderedMail>;

export interface DeliveryReport {
  sent: number;
  retrying: number;
  failed: number;
}

export interface Mail {
  /** True with SMTP_URL: queued mail is delivered; otherwise it is kept in the outbox. */
  delivering: boolean;
  /** Queues a message on `conn` (the database or the caller's open transaction); returns its id. */
  queue(conn: Conn, message: MailMessage): Promise<string>;
  /** Queues a message rendered when it is sent (see the top of this file); returns its id. */
  /** With `deferred`, the row is left to the batch's multi-row statement (db/deferred-rows.ts). */
  defer(conn: Conn, message: DeferredMail, deferred?: DeferredRows): Promise<string>;
  /** Registers the template deferred rows name (each module registers its own once, at start-up). */
  template(name: string, render: MailTemplate): void;
  /** A row's message as it is (or would be) sent: as stored, or rendered by its template now. */
  render(row: MailOutboxTable): Promise<RenderedMail>;
  /** Delivers every due message now (what the worker does on each pass). */
  flush(): Promise<DeliveryReport>;
  /** The outbox, newest first. */
  list(options?: { limit?: number }): Promise<OutboxEntry[]>;
  /** Deletes finished rows past the retention period; returns how many. */
  prune(): Promise<number>;
  /** Starts the worker: delivery after each commit and a poll for due mail. */
  start(): void;
  /** Stops the worker and waits for its current pass. */
  stop(): Promise<void>;
}

const EMAIL = /^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\]+\.[^\s@<>,;:"()[\]\\]+$/;

function address(value: string, what: string): string {
  const trimmed = value.trim();
  if (trimmed.length > 254 || !EMAIL.test(trimmed)) throw badRequest(`${what} is not a valid email address`);
  return trimmed;
}

// Header values: line breaks and control characters would otherwise fold into (or forge) headers.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

function attachment(a: MailAttachment): StoredAttachment {
  const filename = oneLine(a.filename);
  if (!filename || /[/\\]/.test(filename)) throw new Error(`mail attachment filename "${a.filename}" must be a plain file name`);
  if (!/^[\w.+-]+\/[\w.+-]+(\s*;[^\r\n]*)?$/.test(a.contentType))
    throw new Error(`mail attachment content type "${a.contentType}" is invalid`);
  return { filename, content_type: a.contentType, content: a.content };
}

/** The message a row stored rendered holds. */
export function storedMessage(row: MailOutboxTable): MailMessage {
  const attachments = JSON.parse(row.attachments) as StoredAttachment[];
  return {
    to: row.recipient,
    subject: row.subject,
    text: row.text_body,
    ...(row.html_body !== null ? { html: row.html_body } : {}),
    ...(row.sender_name ? { senderName: row.sender_name } : {}),
    ...(row.reply_to ? { replyTo: row.reply_to } : {}),
    attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.content_type, content: a.content })),
  };
}

/** A message's columns as stored in the outbox (the headers checked, the subject on one line). */
export function storedColumns(message: MailMessage) {
  const subject = oneLine(message.subject);
  if (!subject) throw new Error('mail subject is empty');
  const senderName = message.senderName ? oneLine(message.senderName).slice(0, 100) : '';
  return {
    recipient: address(message.to, 'Recipient'),
    subject,
    text_body: message.text,
    html_body: message.html ?? null,
    sender_name: senderName || null,
    reply_to: message.replyTo ? address(message.replyTo, 'Reply-To') : null,
    attachments: JSON.stringify((message.attachments ?? []).map(attachment)),
  };
}

const retryDelay = (attempts: number) => Math.min(MAIL_RETRY_FIRST_MS * 2 ** Math.max(0, attempts - 1), MAIL_RETRY_MAX_MS);

export function createMail(deps: { db: Db; clock: Clock; log: Logger; config: Config }): Mail {
  const { db, clock, log, config } = deps;
  const from = parseMailFrom(config.mailFrom);
  const transport: Transporter | null = config.smtpUrl ? createSmtpTransport(config.smtpUrl) : null;
  const iso = (ms = 0) => new Date(clock.now().getTime() + ms).toISOString();

  const templates = new Map<string, MailTemplate>();

  async function insert(
    conn: Conn,
    values: ReturnType<typeof storedColumns> & Pick<MailOutboxTable, 'template' | 'template_data'>,
    deferred?: DeferredRows,
  ): Promise<string> {
    const id = orderedId('mail');
    const at = iso();
    const row = {
      id,
      ...values,
      status: transport ? 'pending' : 'kept',
      attempts: 0,
      next_attempt_at: at,
      last_error: null,
      created_at: at,
      sent_at: null,
    };
    if (deferred) deferred.add('mail_outbox', [row]);
    else await kyselyOf(conn).insertInto('mail_outbox').values(row).execute();
    if (transport && started) afterCommit(conn, kick);
    return id;
  }

  async function queue(conn: Conn, message: MailMessage): Promise<string> {
    return insert(conn, { ...storedColumns(message), template: null, template_data: null });
  }

  async function defer(conn: Conn, message: DeferredMail, deferred?: DeferredRows): Promise<string> {
    if (!templates.has(message.template)) throw new Error(`mail template "${message.template}" is not registered`);
    return insert(
      conn,
      {
        ...storedColumns({ to: message.to, subject: message.subject, text: '' }),
        template: message.template,
        template_data: JSON.stringify(message.data),
      },
      deferred,
    );
  }

  async function render(row: MailOutboxTable): Promise<RenderedMail> {
    if (row.template === null) return storedMessage(row);
    const template = templates.get(row.template);
    // Not known here (an instance older than the one that queued it): an error, so the row is retried.
    if (!template) throw new Error(`mail template "${row.template}" is not registered`);
    const rendered = await template(db, JSON.parse(row.template_data ?? '{}') as Record<string, unknown>);
    return 'skip' in rendered ? rendered : { ...rendered, to: row.recipient };
  }

  type Outcome = keyof DeliveryReport | 'skipped';

  /** One attempt at one due row, if this worker wins the claim on it. */
  async function attempt(smtp: Transporter, row: MailOutboxTable, now: string): Promise<Outcome> {
    const attempts = Number(row.attempts) + 1;
    const claimed = await db.kysely
      .updateTable('mail_outbox')
      .set({ status: 'sending', attempts, next_attempt_at: iso(MAIL_CLAIM_MS) })
      .where('id', '=', row.id)
      .where('attempts', '=', row.attempts)
      .where('status', 'in', ['pending', 'sending'])
      .where('next_attempt_at', '<=', now)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return 'skipped';
    const ours = db.kysely
      .updateTable('mail_outbox')
      .where('id', '=', row.id)
      .where('attempts', '=', attempts)
      .where('status', '=', 'sending');
    try {
      const message = await render(row);
      if ('skip' in message) {
        // Nothing to send any more (what it rendered from is gone): final, not an error to retry.
        await ours.set({ status: 'failed', next_attempt_at: iso(), last_error: `not sent: ${message.skip}`.slice(0, 500) }).execute();
        log.info({ mailId: row.id, reason: message.skip }, 'mail not sent: nothing to render it from');
        return 'failed';
      }
      await smtp.sendMail(toNodemailerMessage({ ...row, ...storedColumns(message) }, from));
    } catch (error) {
      const giveUp = isPermanentFailure(error) || attempts >= MAIL_MAX_ATTEMPTS;
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      await ours.set({ status: giveUp ? 'failed' : 'pending', next_attempt_at: iso(retryDelay(attempts)), last_error: reason }).execute();
      if (giveUp) log.error({ mailId: row.id, attempts, reason }, 'mail not delivered; giving up');
      else log.warn({ mailId: row.id, attempts, reason }, 'mail not delivered; will retry');
      return giveUp ? 'failed' : 'retrying';
    }
    await ours.set({ status: 'sent', sent_at: iso(), last_error: null }).execute();
    log.info({ mailId: row.id, attempts }, 'mail sent');
    return 'sent';
  }

  async function flush(): Promise<DeliveryReport> {
    const report: DeliveryReport = { sent: 0, retrying: 0, failed: 0 };
    if (!transport) return report;
    // Each pass moves every row it returns out of "due" (claimed, sent or rescheduled), so this ends;
    // the cap only bounds one call under an endless stream of new mail.
    for (let pass = 0; pass < 100; pass++) {
      const now = iso();
      const due = await db.kysely
        .selectFrom('mail_outbox')
        .selectAll()
        .where('status', 'in', ['pending', 'sending'])
        .where('next_attempt_at', '<=', now)
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(BATCH)
        .execute();
      for (const row of due) {
        const outcome = await attempt(transport, row, now);
        if (outcome !== 'skipped') report[outcome]++;
      }
      if (due.length < BATCH) break;
    }
    return report;
  }

  async function prune(): Promise<number> {
    const result = await db.kysely
      .deleteFrom('mail_outbox')
      .where('status', 'in', ['sent', 'failed', 'kept'])
      .where('created_at', '<', iso(-MAIL_RETENTION_MS))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  // The worker: one pass at a time per instance; a kick during a pass runs another right after it.
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let prunedAt = -Infinity;

  function kick(): void {
    if (!started) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await flush();
        if (clock.now().getTime() - prunedAt >= PRUNE_EVERY_MS) {
          prunedAt = clock.now().getTime();
          await prune();
        }
      } while (again && started);
    })()
      .catch((error) => log.error({ err: error }, 'mail worker pass failed'))
      .finally(() => {
        running = undefined;
      });
  }

  function poll(): void {
    timer = setTimeout(() => {
      kick();
      poll();
    }, MAIL_POLL_MS);
    timer.unref();
  }

  return {
    delivering: transport !== null,
    queue,
    defer,
    template(name, renderer) {
      if (templates.has(name)) throw new Error(`mail template "${name}" is registered twice`);
      templates.set(name, renderer);
    },
    render,
    flush,
    list: ({ limit = OUTBOX_DEFAULT_LIMIT } = {}) => listOutbox(db, limit, render),
    prune,
    start() {
      if (started) return;
      started = true;
      if (!transport) log.warn('SMTP_URL is not set: mail is kept in the database outbox (maitred outbox lists it)');
      poll();
      kick();
    },
    async stop() {
      started = false;
      clearTimeout(timer);
      await running;
    },
  };
}
