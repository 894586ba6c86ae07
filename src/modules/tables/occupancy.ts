/**
 * Which tables of a venue are taken by active bookings or blocked during a UTC window. The table list
 * uses these for `is_taken`/`is_blocked`; the booking engine reuses them (inside its transaction) when
 * it checks and assigns tables (bookings are read through the bookings module). Windows are half-open: a stay ending at 20:00 leaves the table free at 20:00.
 */
import { kyselyOf, type Conn } from '../../db/transaction.js';
import { tablesTakenBetween } from '../bookings/index.js';

export interface OccupancyOptions {
  /** Only these tables (candidates for an assignment). */
  tableIds?: readonly string[];
  /** Ignore this booking's own tables (moving or extending a booking). */
  excludeBookingId?: string;
}

/** The venue's tables held by a booking with an active status whose stay overlaps [fromUtc, toUtc). */
export async function takenTableIds(
  db: Conn,
  venueId: string,
  fromUtc: Date,
  toUtc: Date,
  options: OccupancyOptions = {},
): Promise<Set<string>> {
  const tableIds =
    options.tableIds ??
    (await kyselyOf(db).selectFrom('venue_tables').select('id').where('venue_id', '=', venueId).execute()).map((row) => row.id);
  return tablesTakenBetween(db, venueId, tableIds, fromUtc, toUtc, { excludeBookingId: options.excludeBookingId });
}

/** Tables with a block overlapping [fromUtc, toUtc). */
export async function blockedTableIds(
  db: Conn,
  venueId: string,
  fromUtc: Date,
  toUtc: Date,
  options: Pick<OccupancyOptions, 'tableIds'> = {},
): Promise<Set<string>> {
  if (options.tableIds && options.tableIds.length === 0) return new Set();
  let query = kyselyOf(db)
    .selectFrom('table_blocks')
    .select('table_id')
    .distinct()
    .where('venue_id', '=', venueId)
    .where('blocked_from', '<', toUtc.toISOString())
    .where('blocked_to', '>', fromUtc.toISOString());
  if (options.tableIds) query = query.where('table_id', 'in', [...options.tableIds]);
  const rows = await query.execute();
  return new Set(rows.map((row) => row.table_id));
}
