/**
 * The SMTP side of mail: the sender address from MAIL_FROM, the nodemailer transport over SMTP_URL,
 * turning an outbox row into a nodemailer message, and telling a permanent refusal from a passing failure.
 */
import { createRequire } from 'node:module';
import type Nodemailer from 'nodemailer';
import type { SendMailOptions, Transporter } from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser/index.js';
import { ConfigError } from '../../config/config.js';
import type { MailOutboxTable } from '../../db/platform.table.js';

export interface Sender {
  name: string;
  address: string;
}

/** MAIL_FROM, e.g. `Maitred <no-reply@example.com>`: its address sends every mail, its name is the default display name. */
export function parseMailFrom(mailFrom: string): Sender {
  const parsed = addressparser(mailFrom, { flatten: true }).filter((a) => a.address);
  if (parsed.length !== 1 || !/^[^\s@]+@[^\s@]+$/.test(parsed[0].address)) {
    throw new ConfigError(`MAIL_FROM must be one address such as "Maitred <no-reply@example.com>", got "${mailFrom}"`);
  }
  return { name: parsed[0].name, address: parsed[0].address };
}

/**
 * Short timeouts (nodemailer waits minutes by default) keep one unreachable server from stalling the
 * worker, and keep every send well inside the claim a worker holds on a row (see mail.ts).
 */
export const SMTP_TIMEOUTS_MS = { connection: 10_000, greeting: 10_000, socket: 30_000 };

const requireCjs = createRequire(import.meta.url);

/** nodemailer (~60 ms to load) is loaded only when SMTP_URL is set. */
export function createSmtpTransport(smtpUrl: string): Transporter {
  const nodemailer = requireCjs('nodemailer') as typeof Nodemailer;
  return nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: SMTP_TIMEOUTS_MS.connection,
    greetingTimeout: SMTP_TIMEOUTS_MS.greeting,
    socketTimeout: SMTP_TIMEOUTS_MS.socket,
  });
}

export interface StoredAttachment {
  filename: string;
  content_type: string;
  content: string;
}

export function toNodemailerMessage(row: MailOutboxTable, from: Sender): SendMailOptions {
  const attachments = JSON.parse(row.attachments) as StoredAttachment[];
  const domain = from.address.slice(from.address.lastIndexOf('@') + 1);
  return {
    from: { name: row.sender_name ?? from.name, address: from.address },
    to: row.recipient,
    ...(row.reply_to ? { replyTo: row.reply_to } : {}),
    subject: row.subject,
    text: row.text_body,
    ...(row.html_body !== null ? { html: row.html_body } : {}),
    attachments: attachments.map((a) => ({ filename: a.filename, content: a.content, contentType: a.content_type })),
    // Stable per row: if a send is ever repeated (a worker died between the server's acceptance and
    // recording it), receiving systems can recognise the copy.
    messageId: `<${row.id}@${domain}>`,
    headers: { 'Auto-Submitted': 'auto-generated' },
  };
}

interface SmtpError {
  code?: string;
  responseCode?: number;
  command?: string;
}

/**
 * A 5xx answer to the recipient or the message itself will be the same next time (unknown mailbox,
 * rejected content), as is a message nodemailer cannot send at all; anything else (connection refused,
 * timeouts, 4xx, authentication, a refused sender, which are the server's or our configuration's
 * passing state) is retried.
 */
export function isPermanentFailure(error: unknown): boolean {
  const e = (error ?? {}) as SmtpError;
  const code = typeof e.responseCode === 'number' ? e.responseCode : 0;
  if (code >= 500 && code < 600) return e.command === 'RCPT TO' || e.command === 'DATA';
  return e.code === 'EMESSAGE' && !code;
}
