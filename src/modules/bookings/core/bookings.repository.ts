/**
 * Read functions over bookings for other modules (through this module's index): which tables active
 * stays hold (table `is_taken`, floorplan replacement), whether a venue has upcoming reservations
 * (back-to-draft refusal) and the booking figures of the stats pages. Windows are half-open: a stay
 * ending at 20:00 leaves the table free at 20:00.
 */
import { sql } from 'kysely';
import { kyselyOf, type Conn } from '../../../db/transaction.js';
import { ACTIVE_BOOKING_STATUSES } from './bookings.table.js';

const ACTIVE = [...ACTIVE_BOOKING_STATUSES];
/** Bookings that never happened do not make someone a guest. */
const NOT_A_GUEST = ['cancelled', 'rejected', 'expired'];
/** One guest: the signed-in user, else the lower-cased email. */
const GUEST_KEY = sql<string>`coalesce(user_id, lower(guest_email))`;

/**
 * The tables among `tableIds` held by a booking with an active status whose stay overlaps
 * [fromUtc, toUtc). Filtering by table keeps the look-up on the (table_id, ends_at, starts_at) index.
 */
export async function tablesTakenBetween(
  db: Conn,
  venueId: string,
  tableIds: readonly string[],
  fromUtc: Date,
  toUtc: Date,
  options: { excludeBookingId?: string } = {},
): Promise<Set<string>> {
  if (tableIds.length === 0) return new Set();
  let query = kyselyOf(db)
    .selectFrom('booking_tables as bt')
    .innerJoin('bookings as b', 'b.id', 'bt.booking_id')
    .select('bt.table_id')
    .distinct()
    .where('b.venue_id', '=', venueId)
    .where('b.status', 'in', ACTIVE)
    .where('bt.starts_at', '<', toUtc.toISOString())
    .where('bt.ends_at', '>', fromUtc.toISOString())
    .where('bt.table_id', 'in', [...tableIds]);
  if (options.excludeBookingId) query = query.where('bt.booking_id', '!=', options.excludeBookingId);
  const rows = await query.execute();
  return new Set(rows.map((row) => row.table_id));
}

/** True when the venue has an active booking on or after `today` (venue-local date). */
export async function hasUpcomingBookings(db: Conn, venueId: string, today: string): Promise<boolean> {
  const row = await kyselyOf(db)
    .selectFrom('bookings')
    .select('id')
    .where('venue_id', '=', venueId)
    .where('status', 'in', ACTIVE)
    .where('booking_date', '>=', today)
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}

/** A venue's booking figures: counts by status, today's active count, distinct guests, and a per-day chart. */
export async function venueBookingFigures(db: Conn, venueId: string, window: { today: string; chartFrom: string }) {
  const bookings = kyselyOf(db).selectFrom('bookings').where('venue_id', '=', venueId);
  const [byStatus, today, guests, chart] = await Promise.all([
    bookings
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('status')
      .execute(),
    bookings
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('booking_date', '=', window.today)
      .where('status', 'in', ACTIVE)
      .executeTakeFirstOrThrow(),
    bookings
      .select(sql<number>`count(distinct ${GUEST_KEY})`.as('count'))
      .where('status', 'not in', NOT_A_GUEST)
      .executeTakeFirstOrThrow(),
    bookings
      .select(['booking_date', 'status', (eb) => eb.fn.countAll<number>().as('count')])
      .where('booking_date', '>=', window.chartFrom)
      .where('booking_date', '<=', window.today)
      .groupBy(['booking_date', 'status'])
      .orderBy('booking_date')
      .orderBy('status')
      .execute(),
  ]);
  return {
    byStatus: byStatus.map((row) => ({ status: row.status, count: Number(row.count) })),
    todayCount: Number(today.count),
    uniqueGuests: Number(guests.count),
    chart: chart.map((row) => ({ booking_date: row.booking_date, status: row.status, count: Number(row.count) })),
  };
}

/**
 * Distinct guests of an account's venues (`venueIds`), counted over every date or only within each
 * venue's own date range (venues in different zones may be in different months).
 */
export async function distinctGuests(
  db: Conn,
  operatorId: string,
  venueIds: readonly string[],
  ranges?: readonly { venueIds: readonly string[]; fromDate: string; toDate: string }[],
): Promise<number> {
  if (venueIds.length === 0) return 0;
  const row = await kyselyOf(db)
    .selectFrom('bookings')
    .select(sql<number>`count(distinct ${GUEST_KEY})`.as('n'))
    .where('operator_id', '=', operatorId)
    .where('venue_id', 'in', [...venueIds])
    .where('status', 'not in', NOT_A_GUEST)
    .$if(ranges !== undefined, (q) =>
      q.where((eb) =>
        eb.or(
          (ranges ?? []).map((r) =>
            eb.and([eb('venue_id', 'in', [...r.venueIds]), eb('booking_date', '>=', r.fromDate), eb('booking_date', '<', r.toDate)]),
          ),
        ),
      ),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
