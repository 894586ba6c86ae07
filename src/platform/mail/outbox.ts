/**
 * Reading the mail outbox: `ctx.mail.list` and `maitred outbox`, which works without a running server
 * (and while one runs). Without SMTP_URL this is where "sent" mail can be read.
 */
import { kyselyOf, type Conn } from '../../db/transaction.js';
import type { MailOutboxTable } from '../../db/platform.table.js';

/** Renders a row rendered when sent (the mail service's `render`): its text, or why there is nothing to send. */
export type RowRenderer = (row: MailOutboxTable) => Promise<{ text: string } | { skip: string }>;

export interface OutboxEntry {
  id: string;
  to: string;
  subject: string;
  /** `kept`, `pending`, `sending`, `sent` or `failed` (see mail.ts). */
  status: string;
  attempts: number;
  last_error: string | null;
  text: string;
  created_at: string;
  sent_at: string | null;
}

export const OUTBOX_DEFAULT_LIMIT = 20;
export const OUTBOX_MAX_LIMIT = 1000;

/**
 * Newest first; messages queued in the same millisecond in reverse id order (stable, if arbitrary). A row
 * rendered when sent is rendered for the listing by `render` (the mail service's, with every module's
 * templates); without one, or when it has nothing to render from any more, its text says so.
 */
export async function listOutbox(conn: Conn, limit: number, render?: RowRenderer): Promise<OutboxEntry[]> {
  const rows = await kyselyOf(conn)
    .selectFrom('mail_outbox')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  const entries: OutboxEntry[] = [];
  for (const r of rows) {
    let text = r.text_body;
    if (r.template !== null) {
      const rendered = render ? await render(r).catch((error: unknown) => ({ skip: `cannot render it: ${String(error)}` })) : undefined;
      if (!rendered) text = `(rendered when sent, from the template "${r.template}")`;
      else text = 'skip' in rendered ? `(nothing to send: ${rendered.skip})` : rendered.text;
    }
    entries.push({
      id: r.id,
      to: r.recipient,
      subject: r.subject,
      status: r.status,
      attempts: Number(r.attempts),
      last_error: r.last_error,
      text,
      created_at: r.created_at,
      sent_at: r.sent_at,
    });
  }
  return entries;
}

function state(entry: OutboxEntry): string {
  switch (entry.status) {
    case 'sent':
      return `sent ${entry.sent_at}`;
    case 'kept':
      return 'kept (no SMTP_URL: not sent)';
    case 'failed':
      return `failed after ${entry.attempts} attempt(s): ${entry.last_error ?? 'unknown error'}`;
    default:
      return entry.attempts ? `${entry.status}, ${entry.attempts} attempt(s) so far: ${entry.last_error ?? ''}`.trim() : entry.status;
  }
}

/** The human-readable listing: each message with its plain-text body, as the recipient would read it. */
export function formatOutbox(entries: OutboxEntry[]): string {
  if (!entries.length) return 'The outbox is empty.';
  return entries
    .map((e) => [`── ${e.created_at}  to ${e.to}  [${state(e)}]`, `Subject: ${e.subject}`, '', e.text.trimEnd(), ''].join('\n'))
    .join('\n');
}
