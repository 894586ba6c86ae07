/**
 * Which tables of a venue are taken by active bookings or blocked during a UTC window. The table list
 * uses these for `is_taken`/`is_blocked`; the booking engine reuses them (inside its transaction) when
 * it checks and assigns tables. Windows are half-open: a stay ending at 20:00 leaves the table free at 20:00.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { ACTIVE_BOOKING_STATUSES } from '../bookings/bookings.table.js';

export interface OccupancyOptions {
  /** Only these tables (candidates for an assignment). */
  tableIds?: readonly string[];
  /** Ignore this booking's own tables (moving or extending a booking). */
  excludeBookingId?: string;
}

/** Tables held by a booking with an active status whose stay overlaps [fromUtc, toUtc). */
export async function takenTableIds(
  db: Kysely<Database>,
  venueId: string,
  fromUtc: Date,
  toUtc: Date,
  options: OccupancyOptions = {},
): Promise<Set<string>> {
  if (options.tableIds && options.tableIds.length === 0) return new Set();
  let query = db
    .selectFrom('booking_tables as bt')
    .innerJoin('bookings as b', 'b.id', 'bt.booking_id')
    .select('bt.table_id')
    .distinct()
    .where('b.venue_id', '=', venueId)
    .where('b.status', 'in', [...ACTIVE_BOOKING_STATUSES])
    .where('bt.starts_at', '<', toUtc.toISOString())
    .where('bt.ends_at', '>', fromUtc.toISOString());
  // Filtering by table keeps the look-up on the (table_id, ends_at, starts_at) index.
  query = options.tableIds
    ? query.where('bt.table_id', 'in', [...options.tableIds])
    : query.where('bt.table_id', 'in', (eb) => eb.selectFrom('venue_tables').select('id').where('venue_id', '=', venueId));
  if (options.excludeBookingId) query = query.where('bt.booking_id', '!=', options.excludeBookingId);
  const rows = await query.execute();
  return new Set(rows.map((row) => row.table_id));
}

/** Tables with a block overlapping [fromUtc, toUtc). */
export async function blockedTableIds(
  db: Kysely<Database>,
  venueId: string,
  fromUtc: Date,
  toUtc: Date,
  options: Pick<OccupancyOptions, 'tableIds'> = {},
): Promise<Set<string>> {
  if (options.tableIds && options.tableIds.length === 0) return new Set();
  let query = db
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
