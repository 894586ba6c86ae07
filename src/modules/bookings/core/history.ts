/**
 * A booking's history: every change, who made it (a guest, a staff user, the system) and when, written
 * in the transaction of the change itself, so the history never disagrees with the booking.
 */
import type { DeferredRows } from '../../../db/deferred-rows.js';
import { afterCommit, kyselyOf, type Conn } from '../../../db/transaction.js';
import { sequentialId } from '../../../platform/ids.js';
import { metrics } from '../../../platform/metrics.js';

export interface Actor {
  kind: 'guest' | 'staff' | 'system';
  id?: string | null;
  name?: string | null;
}

export const SYSTEM: Actor = { kind: 'system', name: 'Maitred' };

export interface HistoryEntry {
  action: string;
  fromStatus?: string | null;
  toStatus?: string | null;
  detail?: Record<string, unknown>;
}

/** Records one change of the booking; with `deferred`, left to the batch's multi-row statement (db/deferred-rows.ts). */
export async function recordHistory(
  trx: Conn,
  bookingId: string,
  actor: Actor,
  entry: HistoryEntry,
  at: Date,
  deferred?: DeferredRows,
): Promise<void> {
  const row = {
    id: sequentialId('bkh'),
    booking_id: bookingId,
    at: at.toISOString(),
    actor_kind: actor.kind,
    actor_id: actor.id ?? null,
    actor_name: actor.name ?? null,
    action: entry.action,
    from_status: entry.fromStatus ?? null,
    to_status: entry.toStatus ?? null,
    detail: JSON.stringify(entry.detail ?? {}),
  };
  if (deferred) deferred.add('booking_history', [row]);
  else await kyselyOf(trx).insertInto('booking_history').values(row).execute();
  // Counted once it is committed (metrics: bookings, cancellations, check-ins… by action).
  afterCommit(trx, () => metrics.bookingEvent(entry.action));
}

export interface HistoryItem {
  at: string;
  actor: { kind: string; id: string | null; name: string | null };
  action: string;
  from_status: string | null;
  to_status: string | null;
  detail: Record<string, unknown>;
}

/** Oldest first: by time, then in the order written (history ids are sequential). */
export async function historyOf(db: Conn, bookingId: string): Promise<HistoryItem[]> {
  const rows = await kyselyOf(db)
    .selectFrom('booking_history')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .orderBy('at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    at: row.at,
    actor: { kind: row.actor_kind, id: row.actor_id, name: row.actor_name },
    action: row.action,
    from_status: row.from_status,
    to_status: row.to_status,
    detail: JSON.parse(row.detail) as Record<string, unknown>,
  }));
}
