/** The waitlist's queries (always scoped by venue) and the one row → response mapping. */
import type { Selectable } from 'kysely';
import { OPEN_STATUSES, type WaitlistKind, type WaitlistStatus } from '../../domain/waitlist.js';
import { kyselyOf, type Conn } from '../../db/transaction.js';
import type { Entry } from './waitlist.schemas.js';
import type { WaitlistEntriesTable } from './waitlist.table.js';

export type EntryRow = Selectable<WaitlistEntriesTable>;

export function entryOf(conn: Conn, venueId: string, id: string): Promise<EntryRow | undefined> {
  return kyselyOf(conn).selectFrom('waitlist_entries').selectAll().where('venue_id', '=', venueId).where('id', '=', id).executeTakeFirst();
}

export function entryById(conn: Conn, id: string): Promise<EntryRow | undefined> {
  return kyselyOf(conn).selectFrom('waitlist_entries').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A venue's entries of one service date (and kind), in line order. */
export function entriesOn(conn: Conn, venueId: string, date: string, kind?: WaitlistKind): Promise<EntryRow[]> {
  let query = kyselyOf(conn).selectFrom('waitlist_entries').selectAll().where('venue_id', '=', venueId).where('date', '=', date);
  if (kind) query = query.where('kind', '=', kind);
  return query.orderBy('created_at').orderBy('id').execute();
}

/**
 * Moves an entry to `to` only from one of `from` (and while `extra` holds): true when this call moved it.
 * Every status change goes through here, so two racing requests never both move one entry.
 */
export async function moveEntry(
  conn: Conn,
  id: string,
  from: readonly WaitlistStatus[],
  to: WaitlistStatus,
  now: Date,
  fields: Partial<Omit<EntryRow, 'id' | 'venue_id' | 'kind' | 'status'>> = {},
  extra?: { offerLiveAt: Date },
): Promise<boolean> {
  if (from.length === 0) return false;
  const at = now.toISOString();
  let query = kyselyOf(conn)
    .updateTable('waitlist_entries')
    .set({ ...fields, status: to, status_changed_at: at, updated_at: at })
    .where('id', '=', id)
    .where('status', 'in', [...from]);
  if (extra) query = query.where('offer_expires_at', '>', extra.offerLiveAt.toISOString());
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Places in line: 1-based among the open entries of each kind, in order; null for the others. */
export function positions(rows: readonly EntryRow[]): Map<string, number> {
  const next: Record<string, number> = {};
  const placed = new Map<string, number>();
  for (const row of rows) {
    if (!OPEN_STATUSES.includes(row.status as WaitlistStatus)) continue;
    next[row.kind] = (next[row.kind] ?? 0) + 1;
    placed.set(row.id, next[row.kind]);
  }
  return placed;
}

export function toEntry(row: EntryRow, now: Date, position: number | null, estimated: number | null): Entry {
  return {
    id: row.id,
    kind: row.kind as Entry['kind'],
    status: row.status as Entry['status'],
    position,
    party_size: row.party_size,
    guest_name: row.guest_name,
    guest_phone: row.guest_phone,
    guest_email: row.guest_email,
    notes: row.notes,
    date: row.date,
    time_from: row.time_from,
    time_to: row.time_to,
    quoted_minutes: row.quoted_minutes,
    estimated_minutes: estimated,
    waited_minutes: Math.max(0, Math.floor((now.getTime() - Date.parse(row.created_at)) / 60_000)),
    offer:
      row.status === 'offered' && row.offer_time && row.offer_access_rule_id && row.offer_expires_at
        ? { time: row.offer_time, access_rule_id: row.offer_access_rule_id, expires_at: row.offer_expires_at }
        : null,
    offers_made: row.offers_made,
    notified_at: row.notified_at,
    booking_id: row.booking_id,
    created_at: row.created_at,
    status_changed_at: row.status_changed_at,
  };
}
