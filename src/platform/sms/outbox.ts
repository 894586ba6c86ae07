/** Reading the text-message outbox: `maitred outbox --sms` (and `--all`), without a running server. */
import { kyselyOf, type Conn } from '../../db/transaction.js';

export interface SmsOutboxEntry {
  id: string;
  to: string;
  kind: string;
  status: string;
  attempts: number;
  last_error: string | null;
  body: string;
  created_at: string;
  sent_at: string | null;
}

/** Newest first. */
export async function listSmsOutbox(conn: Conn, limit: number): Promise<SmsOutboxEntry[]> {
  const rows = await kyselyOf(conn)
    .selectFrom('sms_outbox')
    .select(['id', 'recipient', 'kind', 'status', 'attempts', 'last_error', 'body', 'created_at', 'sent_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, to: r.recipient, attempts: Number(r.attempts) }));
}

function state(entry: SmsOutboxEntry): string {
  switch (entry.status) {
    case 'sent':
      return `sent ${entry.sent_at}`;
    case 'kept':
      return 'kept (simulated provider: not sent)';
    case 'opted_out':
      return 'not sent: the number texted STOP';
    case 'failed':
      return `failed after ${entry.attempts} attempt(s): ${entry.last_error ?? 'unknown error'}`;
    default:
      return entry.attempts ? `${entry.status}, ${entry.attempts} attempt(s) so far: ${entry.last_error ?? ''}`.trim() : entry.status;
  }
}

export function formatSmsOutbox(entries: SmsOutboxEntry[]): string {
  if (!entries.length) return 'The text-message outbox is empty.';
  return entries
    .map((e) => [`── ${e.created_at}  SMS to ${e.to}  (${e.kind})  [${state(e)}]`, '', e.body.trimEnd(), ''].join('\n'))
    .join('\n');
}
