/**
 * Which tables of a venue are taken by active bookings or blocked during a UTC window, for the table
 * list's `is_taken`/`is_blocked` and the refusals that protect upcoming reservations. Bookings belong to
 * the bookings module, which itself reads the floorplan from here: so what bookings hold comes in as a
 * function (`BookedTables`, the bookings module's `tablesTakenBetween`, given by the composition root)
 * rather than an import. Windows are half-open: a stay ending at 20:00 leaves the table free at 20:00.
 */
import { kyselyOf, type Conn } from '../../db/transaction.js';

/** The tables among `tableIds` held by an active booking overlapping [fromUtc, toUtc). */
export type BookedTables = (
  db: Conn,
  venueId: string,
  tableIds: readonly string[],
  fromUtc: Date,
  toUtc: Date,
  options?: { excludeBookingId?: string },
) => Promise<Set<string>>;

export interface OccupancyOptions {
  /** Only these tables (candidates for an assignment). */
  tableIds?: readonly string[];
  /** Ignore this booking's own tables (moving or extending a booking). */
  excludeBookingId?: string;
}

/** The venue's tables held by a booking with an active status whose stay overlaps [fromUtc, toUtc). */
export async function takenTableIds(
  booked: BookedTables,
  db: Conn,
  venueId: string,
  fromUtc: Date,
  toUtc: Date,
  options: OccupancyOptions = {},
): Promise<Set<string>> {
  const tableIds =
    options.tableIds ??
    (await kyselyOf(db).selectFrom('venue_tables').select('id').where('venue_id', '=', venueId).execute()).map((row) => row.id);
  return booked(db, venueId, tableIds, fromUtc, toUtc, { excludeBookingId: options.excludeBookingId });
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
