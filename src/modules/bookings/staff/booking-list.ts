/**
 * The venue bookings list of the staff floor (decisions: Lists): filters by date, range, statuses and
 * guest text, ordered by date, time and id, offset or cursor paged, each booking with its tables.
 */
import { sql, type SqlBool } from 'kysely';
import { BOOKING_STATUSES, type BookingStatus } from '../../../domain/booking-status.js';
import { isCalendarDate } from '../../../domain/venue-time.js';
import type { Db } from '../../../db/connect.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import { badRequest } from '../../../platform/errors.js';
import { afterKey, cursorPage, offsetPage, pageRequest, textKey } from '../../../platform/paging.js';
import type { BookingRow } from '../core/booking-store.js';
import { tablesByBooking, toSummary } from './booking-views.js';
import type { BookingListQuery } from './bookings.schemas.js';

/** `%…%` for LIKE with the wildcards of the text itself escaped (`escape '\'`). */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

function parseStatuses(value: string | undefined): BookingStatus[] | undefined {
  if (value === undefined) return undefined;
  const statuses = [...new Set(value.split(',').map((part) => part.trim()))].filter(Boolean);
  if (statuses.length === 0) throw badRequest('status must name at least one status');
  for (const status of statuses) {
    if (!(BOOKING_STATUSES as readonly string[]).includes(status)) {
      throw badRequest(`status must be one or more (comma-separated) of: ${BOOKING_STATUSES.join(', ')}`);
    }
  }
  return statuses as BookingStatus[];
}

function checkDate(value: string | undefined, field: string): string | undefined {
  if (value !== undefined && !isCalendarDate(value)) throw badRequest(`${field} must be a real calendar date`);
  return value;
}

export async function listBookings(db: Db, venue: VenueRow, query: BookingListQuery) {
  const statuses = parseStatuses(query.status);
  const date = checkDate(query.date, 'date');
  const from = checkDate(query.from, 'from');
  const to = checkDate(query.to, 'to');
  if (from && to && from > to) throw badRequest('from must not be after to');
  const text = query.q?.trim();
  const page = pageRequest(query, 3);

  const filtered = db.kysely
    .selectFrom('bookings')
    .where('venue_id', '=', venue.id)
    .$if(date !== undefined, (q) => q.where('booking_date', '=', date!))
    .$if(from !== undefined, (q) => q.where('booking_date', '>=', from!))
    .$if(to !== undefined, (q) => q.where('booking_date', '<=', to!))
    .$if(statuses !== undefined, (q) => q.where('status', 'in', statuses!))
    .$if(Boolean(text), (q) =>
      q.where((eb) =>
        eb.or(
          (['guest_name', 'guest_email', 'guest_phone'] as const).map(
            (column) => sql<SqlBool>`lower(${sql.ref(column)}) like ${likePattern(text!)} escape '\\'`,
          ),
        ),
      ),
    );
  const keys = [sql.ref('booking_date'), textKey('start_time'), sql.ref('id')];
  const ordered = filtered.selectAll().orderBy('booking_date').orderBy(keys[1]).orderBy('id');
  const summaries = async (rows: BookingRow[]) => {
    const tables = await tablesByBooking(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => toSummary(row, venue.name, tables.get(row.id) ?? []));
  };

  if (page.mode === 'offset') {
    const [rows, count] = await Promise.all([
      ordered.limit(page.limit).offset(page.offset).execute(),
      filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return offsetPage(await summaries(rows), Number(count.total), page);
  }
  const rows = await ordered
    .$if(page.after !== null, (q) => q.where(afterKey(keys, page.after!)))
    .limit(page.limit + 1)
    .execute();
  const found = cursorPage(rows, page.limit, (row) => [row.booking_date, row.start_time ?? '', row.id]);
  return { ...found, data: await summaries(found.data) };
}
