/**
 * Table blocks: a table taken out of service for a window, with a reason. Times are sent in venue-local
 * `YYYY-MM-DDTHH:MM` or as ISO 8601 instants with an offset, and stored as UTC instants.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';
import { parseVenueInstant } from '../../domain/venue-instant.js';
import { addDays, isCalendarDate, localToUtc } from '../../domain/venue-time.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { compareCodePoints } from '../../platform/text.js';
import { byTableNumber, tablesOf } from './tables.repository.js';
import type { BlockUpdateBody } from './tables.schemas.js';
import { DEFAULT_BLOCK_REASON, type TableBlocksTable } from './tables.table.js';

const toBlock = (row: Selectable<TableBlocksTable> & { table_number: string }) => ({
  id: row.id,
  table_id: row.table_id,
  table_number: row.table_number,
  blocked_from: row.blocked_from,
  blocked_to: row.blocked_to,
  reason: row.reason,
});

/** When a venue's service day (the reservation floor's day) begins, venue-local; it ends at this time the next morning. */
const SERVICE_DAY_STARTS = '06:00';

export function createBlocksService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  const now = () => clock.now().toISOString();

  /** The venue's blocks, each with its table's number. */
  const venueBlocks = (venueId: string) =>
    db.kysely
      .selectFrom('table_blocks as b')
      .innerJoin('venue_tables as t', 't.id', 'b.table_id')
      .selectAll('b')
      .select('t.table_number')
      .where('b.venue_id', '=', venueId);

  async function blockOf(venueId: string, id: string) {
    const row = await venueBlocks(venueId).where('b.id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Table block');
    return row;
  }

  function parseWhen(value: string, zone: string, field: string): Date {
    const instant = parseVenueInstant(value, zone);
    if (!instant) throw badRequest(`${field} must be YYYY-MM-DDTHH:MM (venue time) or an ISO 8601 date-time with an offset`);
    return instant;
  }

  return {
    /** The venue's blocks; with `date`, those overlapping that service day (06:00 venue-local to 06:00 the next morning). */
    async list(venue: Pick<VenueRow, 'id' | 'timezone'>, date?: string) {
      let query = venueBlocks(venue.id);
      if (date !== undefined) {
        if (!isCalendarDate(date)) throw badRequest('date must be a real calendar date');
        const from = localToUtc(date, SERVICE_DAY_STARTS, venue.timezone).toISOString();
        const to = localToUtc(addDays(date, 1), SERVICE_DAY_STARTS, venue.timezone).toISOString();
        query = query.where('b.blocked_from', '<', to).where('b.blocked_to', '>', from);
      }
      const rows = await query.execute();
      // Instants are fixed-format UTC text; table numbers sort naturally, the same on both engines.
      return rows
        .sort((a, b) => compareCodePoints(a.blocked_from, b.blocked_from) || byTableNumber(a, b) || compareCodePoints(a.id, b.id))
        .map(toBlock);
    },

    async create(venue: VenueRow, body: { table_ids: string[]; from: string; to: string; reason?: string | null }) {
      const from = parseWhen(body.from, venue.timezone, 'from');
      const to = parseWhen(body.to, venue.timezone, 'to');
      if (to <= from) throw badRequest('to must be after from');
      const tables = await tablesOf(db, venue.id, body.table_ids);
      const reason = body.reason?.trim() || DEFAULT_BLOCK_REASON;
      const at = now();
      const rows = tables.map((table) => ({
        id: newId('tblk'),
        venue_id: venue.id,
        table_id: table.id,
        blocked_from: from.toISOString(),
        blocked_to: to.toISOString(),
        reason,
        created_at: at,
        updated_at: at,
      }));
      await db.kysely.insertInto('table_blocks').values(rows).execute();
      return rows.map((row) => row.id);
    },

    /** Updates the fields sent; a null or empty reason returns to the default. */
    async update(venue: VenueRow, id: string, body: BlockUpdateBody) {
      const current = await blockOf(venue.id, id);
      const from =
        body.blocked_from === undefined ? new Date(current.blocked_from) : parseWhen(body.blocked_from, venue.timezone, 'blocked_from');
      const to = body.blocked_to === undefined ? new Date(current.blocked_to) : parseWhen(body.blocked_to, venue.timezone, 'blocked_to');
      if (to <= from) throw badRequest('blocked_to must be after blocked_from');
      const reason = body.reason === undefined ? current.reason : body.reason?.trim() || DEFAULT_BLOCK_REASON;
      await db.kysely
        .updateTable('table_blocks')
        .set({ blocked_from: from.toISOString(), blocked_to: to.toISOString(), reason, updated_at: now() })
        .where('venue_id', '=', venue.id)
        .where('id', '=', id)
        .execute();
    },

    async remove(venueId: string, id: string) {
      await blockOf(venueId, id);
      await db.kysely.deleteFrom('table_blocks').where('venue_id', '=', venueId).where('id', '=', id).execute();
    },

    /** Clears every block, past and future, on these tables. */
    async unblock(venueId: string, tableIds: string[]) {
      const tables = await tablesOf(db, venueId, tableIds);
      await db.kysely
        .deleteFrom('table_blocks')
        .where('venue_id', '=', venueId)
        .where(
          'table_id',
          'in',
          tables.map((t) => t.id),
        )
        .execute();
    },
  };
}

export type BlocksService = ReturnType<typeof createBlocksService>;
