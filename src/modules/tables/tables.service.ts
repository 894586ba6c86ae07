/**
 * Tables of a venue (with live `is_blocked`/`is_taken` for a window), bulk type and area changes,
 * table blocks, table combinations and seating areas. Every look-up is scoped to the venue, so a row of
 * another venue is simply not found (404).
 */
import type { Kysely, Selectable } from 'kysely';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { localToUtc } from '../../domain/venue-time.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { rewriteFloorplanReferences } from '../availability/availability.repository.js';
import { byName, compareCodePoints, compareText, isCalendarDate, requireName } from '../availability/availability.service.js';
import { blockedTableIds, takenTableIds } from './occupancy.js';
import { parseCanvas, tableNumberOf } from './tables.canvas.js';
import type { BlockUpdateBody, TableListQuery, TableUpdateBody } from './tables.schemas.js';
import { DEFAULT_BLOCK_REASON, type TableBlocksTable, type VenueTablesTable } from './tables.table.js';
import { parseVenueInstant } from '../../domain/venue-instant.js';

type Q = Kysely<Database>;
type TableRow = Selectable<VenueTablesTable>;

/** Far enough ahead to mean "any time from now on" while still comparing as ISO text. */
const END_OF_TIME = new Date('9999-12-31T23:59:59.999Z');

export const toTable = (row: TableRow) => ({
  id: row.id,
  table_number: row.table_number,
  capacity: row.capacity,
  min_covers: row.min_covers,
  status: row.status,
  table_type: row.table_type,
  seating_area_id: row.seating_area_id,
  floor_id: row.floor_id,
  x: row.x,
  y: row.y,
  shape: row.shape,
  size: row.size,
});

/** Table numbers in the order people read them: 2 before 10; never a tie between different numbers ("01", "1"). */
export const byTableNumber = (a: { table_number: string }, b: { table_number: string }) => compareText(a.table_number, b.table_number);

export async function venueTables(db: Q, venueId: string): Promise<TableRow[]> {
  const rows = await db.selectFrom('venue_tables').selectAll().where('venue_id', '=', venueId).execute();
  return rows.sort(byTableNumber);
}

/** The venue's tables with these ids, in the order asked; 404 when any is not the venue's. */
export async function tablesOf(db: Q, venueId: string, ids: readonly string[]): Promise<TableRow[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await db.selectFrom('venue_tables').selectAll().where('venue_id', '=', venueId).where('id', 'in', unique).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return unique.map((id) => {
    const row = byId.get(id);
    if (!row) throw notFound('Table');
    return row;
  });
}

export async function assertNumberFree(db: Q, venueId: string, tableNumber: string, exceptId?: string) {
  let query = db.selectFrom('venue_tables').select('id').where('venue_id', '=', venueId).where('table_number', '=', tableNumber);
  if (exceptId) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw conflict(`Table number ${tableNumber} is already used at this venue`);
}

export function checkCovers(minCovers: number, capacity: number) {
  if (minCovers > capacity) throw badRequest('min_covers must not exceed capacity');
}

/** Turns a lost race on the (venue, table_number) unique index into the same 409 as the check. */
export async function numberUnique<T>(tableNumber: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (/unique|duplicate/i.test(String((error as Error).message))) throw conflict(`Table number ${tableNumber} is already used at this venue`);
    throw error;
  }
}

/** Deletes the venue's combinations left with fewer than two tables. */
export async function pruneCombinations(db: Q, venueId: string) {
  const counts = await db
    .selectFrom('table_combinations as c')
    .leftJoin('table_combination_tables as m', 'm.combination_id', 'c.id')
    .select(['c.id', (eb) => eb.fn.count<number>('m.table_id').as('members')])
    .where('c.venue_id', '=', venueId)
    .groupBy('c.id')
    .execute();
  const lonely = counts.filter((row) => Number(row.members) < 2).map((row) => row.id);
  if (lonely.length > 0) await db.deleteFrom('table_combinations').where('id', 'in', lonely).execute();
}

const toBlock = (row: Selectable<TableBlocksTable> & { table_number: string }) => ({
  id: row.id,
  table_id: row.table_id,
  table_number: row.table_number,
  blocked_from: row.blocked_from,
  blocked_to: row.blocked_to,
  reason: row.reason,
});

export function createTablesService(ctx: AppContext) {
  const db = ctx.db.kysely;
  const now = () => ctx.clock.now().toISOString();

  async function tableOf(venueId: string, id: string, q: Q = db) {
    const row = await q.selectFrom('venue_tables').selectAll().where('venue_id', '=', venueId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Table');
    return row;
  }

  async function areaOf(venueId: string, id: string, q: Q = db) {
    const row = await q.selectFrom('seating_areas').selectAll().where('venue_id', '=', venueId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Seating area');
    return row;
  }

  /** The venue's blocks, each with its table's number. */
  const venueBlocks = (venueId: string) =>
    db
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
    async list(venue: VenueRow, query: TableListQuery) {
      const rows = await venueTables(db, venue.id);
      if (query.date === undefined && query.time === undefined && query.duration === undefined) return rows.map(toTable);
      if (query.date === undefined || query.time === undefined) throw badRequest('date and time are required together (duration is optional)');
      if (!isCalendarDate(query.date)) throw badRequest('date is not a valid date');
      const from = localToUtc(query.date, query.time, venue.timezone);
      const to = new Date(from.getTime() + (query.duration ?? venue.default_booking_duration) * 60_000);
      const [taken, blocked] = await Promise.all([takenTableIds(db, venue.id, from, to), blockedTableIds(db, venue.id, from, to)]);
      return rows.map((row) => ({ ...toTable(row), is_blocked: blocked.has(row.id), is_taken: taken.has(row.id) }));
    },

    async get(venueId: string, id: string) {
      return toTable(await tableOf(venueId, id));
    },

    async create(venueId: string, body: { table_number: string | number; capacity?: number; status?: string; table_type?: string; min_covers?: number }) {
      const table_number = tableNumberOf(body.table_number);
      if (!table_number) throw badRequest('table_number is required');
      const capacity = body.capacity ?? 4;
      const min_covers = body.min_covers ?? 1;
      checkCovers(min_covers, capacity);
      await assertNumberFree(db, venueId, table_number);
      const id = newId('tbl');
      const at = now();
      await numberUnique(table_number, () =>
        db
          .insertInto('venue_tables')
          .values({
            id,
            venue_id: venueId,
            table_number,
            capacity,
            min_covers,
            status: body.status ?? 'active',
            table_type: body.table_type ?? 'standard',
            seating_area_id: null,
            floor_id: null,
            x: null,
            y: null,
            shape: null,
            size: null,
            created_at: at,
            updated_at: at,
          })
          .execute(),
      );
      return id;
    },

    /** Updates the fields sent; the floor canvas shows the change through its link to the table. */
    async update(venueId: string, id: string, body: TableUpdateBody) {
      const current = await tableOf(venueId, id);
      const table_number = body.table_number === undefined ? current.table_number : tableNumberOf(body.table_number);
      if (!table_number) throw badRequest('table_number is required');
      const capacity = body.capacity ?? current.capacity;
      const min_covers = body.min_covers ?? current.min_covers;
      checkCovers(min_covers, capacity);
      if (table_number !== current.table_number) await assertNumberFree(db, venueId, table_number, id);
      await numberUnique(table_number, () =>
        db
          .updateTable('venue_tables')
          .set({
            table_number,
            capacity,
            min_covers,
            status: body.status ?? current.status,
            table_type: body.table_type ?? current.table_type,
            updated_at: now(),
          })
          .where('venue_id', '=', venueId)
          .where('id', '=', id)
          .execute(),
      );
    },

    /**
     * Refused (409) while the table holds an active booking that has not ended. Otherwise its blocks,
     * price overrides and combination memberships go with it (combinations left with one table too), and
     * shifts, access rules and its floor's canvas stop naming it.
     */
    async remove(venueId: string, id: string) {
      const at = now();
      await withTransaction(ctx.db, async (trx) => {
        const table = await tableOf(venueId, id, trx);
        const upcoming = await takenTableIds(trx, venueId, ctx.clock.now(), END_OF_TIME, { tableIds: [id] });
        if (upcoming.size > 0) throw conflict('This table has upcoming reservations; move them before deleting it');
        await trx.deleteFrom('venue_tables').where('venue_id', '=', venueId).where('id', '=', id).execute();
        await pruneCombinations(trx, venueId);
        await rewriteFloorplanReferences(trx, venueId, { tables: new Map([[id, null]]) }, at);
        if (table.floor_id) {
          const floor = await trx.selectFrom('floors').select(['id', 'canvas_data']).where('id', '=', table.floor_id).executeTakeFirst();
          if (floor) {
            const entries = parseCanvas(floor.canvas_data).filter((entry) => entry.table_id !== id);
            await trx.updateTable('floors').set({ canvas_data: JSON.stringify(entries), updated_at: at }).where('id', '=', floor.id).execute();
          }
        }
      });
    },

    async setType(venueId: string, tableIds: string[], tableType: string) {
      const tables = await tablesOf(db, venueId, tableIds);
      await db
        .updateTable('venue_tables')
        .set({ table_type: tableType, updated_at: now() })
        .where('venue_id', '=', venueId)
        .where('id', 'in', tables.map((t) => t.id))
        .execute();
    },

    /** A null area detaches the tables from any area. */
    async setArea(venueId: string, tableIds: string[], areaId: string | null) {
      const tables = await tablesOf(db, venueId, tableIds);
      if (areaId !== null) await areaOf(venueId, areaId);
      await db
        .updateTable('venue_tables')
        .set({ seating_area_id: areaId, updated_at: now() })
        .where('venue_id', '=', venueId)
        .where('id', 'in', tables.map((t) => t.id))
        .execute();
    },

    // ---- blocks ----

    async listBlocks(venueId: string) {
      const rows = await venueBlocks(venueId).execute();
      // Instants are fixed-format UTC text; table numbers sort naturally, the same on both engines.
      return rows.sort((a, b) => compareCodePoints(a.blocked_from, b.blocked_from) || byTableNumber(a, b) || compareCodePoints(a.id, b.id)).map(toBlock);
    },

    async block(venue: VenueRow, body: { table_ids: string[]; from: string; to: string; reason?: string | null }) {
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
      await db.insertInto('table_blocks').values(rows).execute();
      return rows.map((row) => row.id);
    },

    /** Updates the fields sent; a null or empty reason returns to the default. */
    async updateBlock(venue: VenueRow, id: string, body: BlockUpdateBody) {
      const current = await blockOf(venue.id, id);
      const from = body.blocked_from === undefined ? new Date(current.blocked_from) : parseWhen(body.blocked_from, venue.timezone, 'blocked_from');
      const to = body.blocked_to === undefined ? new Date(current.blocked_to) : parseWhen(body.blocked_to, venue.timezone, 'blocked_to');
      if (to <= from) throw badRequest('blocked_to must be after blocked_from');
      const reason = body.reason === undefined ? current.reason : body.reason?.trim() || DEFAULT_BLOCK_REASON;
      await db
        .updateTable('table_blocks')
        .set({ blocked_from: from.toISOString(), blocked_to: to.toISOString(), reason, updated_at: now() })
        .where('venue_id', '=', venue.id)
        .where('id', '=', id)
        .execute();
    },

    async deleteBlock(venueId: string, id: string) {
      await blockOf(venueId, id);
      await db.deleteFrom('table_blocks').where('venue_id', '=', venueId).where('id', '=', id).execute();
    },

    /** Clears every block, past and future, on these tables. */
    async unblock(venueId: string, tableIds: string[]) {
      const tables = await tablesOf(db, venueId, tableIds);
      await db
        .deleteFrom('table_blocks')
        .where('venue_id', '=', venueId)
        .where('table_id', 'in', tables.map((t) => t.id))
        .execute();
    },

    // ---- combinations ----

    async listCombos(venueId: string) {
      const combos = await db.selectFrom('table_combinations').selectAll().where('venue_id', '=', venueId).execute();
      const members = await db
        .selectFrom('table_combination_tables as m')
        .innerJoin('table_combinations as c', 'c.id', 'm.combination_id')
        .innerJoin('venue_tables as t', 't.id', 'm.table_id')
        .select(['m.combination_id', 't.id', 't.table_number', 't.capacity'])
        .where('c.venue_id', '=', venueId)
        .where('t.venue_id', '=', venueId)
        .execute();
      const byCombo = new Map<string, typeof members>();
      for (const member of members) {
        const group = byCombo.get(member.combination_id);
        if (group) group.push(member);
        else byCombo.set(member.combination_id, [member]);
      }
      return combos.sort(byName).map((combo) => {
        const tables = (byCombo.get(combo.id) ?? []).sort(byTableNumber);
        return {
          id: combo.id,
          name: combo.name,
          table_ids: tables.map((t) => t.id),
          // Computed on read, so a capacity change of a member shows at once.
          combined_capacity: tables.reduce((sum, t) => sum + t.capacity, 0),
        };
      });
    },

    async createCombo(venueId: string, body: { name: string; table_ids: string[] }) {
      const name = requireName(body.name);
      if (new Set(body.table_ids).size < 2) throw badRequest('A combination needs two or more different tables');
      const id = newId('cmb');
      const at = now();
      // Members are looked up inside the transaction, so a table deleted meanwhile is a 404, not a foreign-key error.
      return withTransaction(ctx.db, async (trx) => {
        const tables = await tablesOf(trx, venueId, body.table_ids);
        await trx.insertInto('table_combinations').values({ id, venue_id: venueId, name, created_at: at, updated_at: at }).execute();
        await trx
          .insertInto('table_combination_tables')
          .values(tables.map((table) => ({ combination_id: id, table_id: table.id })))
          .execute();
        return { id, combined_capacity: tables.reduce((sum, t) => sum + t.capacity, 0) };
      });
    },

    async deleteCombo(venueId: string, id: string) {
      const deleted = await db.deleteFrom('table_combinations').where('venue_id', '=', venueId).where('id', '=', id).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) throw notFound('Table combination');
    },

    // ---- seating areas ----

    async listAreas(venueId: string) {
      const rows = await db.selectFrom('seating_areas').select(['id', 'name']).where('venue_id', '=', venueId).execute();
      return rows.sort(byName);
    },

    async createArea(venueId: string, rawName: string) {
      const name = requireName(rawName);
      const id = newId('area');
      const at = now();
      await db.insertInto('seating_areas').values({ id, venue_id: venueId, name, created_at: at, updated_at: at }).execute();
      return { id, name };
    },

    async renameArea(venueId: string, id: string, rawName: string) {
      await areaOf(venueId, id);
      await db
        .updateTable('seating_areas')
        .set({ name: requireName(rawName), updated_at: now() })
        .where('venue_id', '=', venueId)
        .where('id', '=', id)
        .execute();
    },

    /** Detaches the area's tables first, and drops it from shifts and access rules. */
    async deleteArea(venueId: string, id: string) {
      const at = now();
      await withTransaction(ctx.db, async (trx) => {
        await areaOf(venueId, id, trx);
        await trx.updateTable('venue_tables').set({ seating_area_id: null, updated_at: at }).where('venue_id', '=', venueId).where('seating_area_id', '=', id).execute();
        await rewriteFloorplanReferences(trx, venueId, { areas: new Map([[id, null]]) }, at);
        await trx.deleteFrom('seating_areas').where('venue_id', '=', venueId).where('id', '=', id).execute();
      });
    },
  };
}
