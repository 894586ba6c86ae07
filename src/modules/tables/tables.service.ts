/**
 * Tables of a venue (with live `is_blocked`/`is_taken` for a window) and bulk type and area changes.
 * Every look-up is scoped to the venue, so a row of another venue is simply not found (404).
 */
import type { Db } from '../../db/connect.js';
import { withTransaction } from '../../db/transaction.js';
import { isCalendarDate, localToUtc } from '../../domain/venue-time.js';
import type { Audit } from '../../platform/audit.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest, conflict } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { References } from '../../platform/references.js';
import { VenueCache } from '../../platform/venue-cache.js';
import { blockedTableIds, takenTableIds, type BookedTables } from './occupancy.js';
import { parseCanvas, tableNumberOf } from './tables.canvas.js';
import {
  assertNumberFree,
  checkCovers,
  END_OF_TIME,
  findArea,
  findTable,
  numberUnique,
  pruneCombinations,
  tablesOf,
  toTable,
  venueTables,
} from './tables.repository.js';
import type { TableListQuery, TableUpdateBody } from './tables.schemas.js';

export interface TablesDeps {
  db: Db;
  clock: Clock;
  references: References;
  /** What bookings hold (the bookings module's, given by the composition root). */
  booked: BookedTables;
  audit: Audit;
}

export function createTablesService(deps: TablesDeps) {
  const { db, clock, references, booked, audit } = deps;
  const now = () => clock.now().toISOString();
  /**
   * Each venue's tables, as answered, from the venue cache: floor screens poll the list all
   * evening and it changes rarely. Any write to the venue's configuration invalidates it before the
   * write returns (other instances learn of it through the change feed); bookings do not move it.
   */
  const lists = new VenueCache<ReturnType<typeof toTable>[]>(db.changes, clock, {
    ttlMs: 60_000,
    maxEntries: 2_000,
    scope: 'configuration',
  });

  return {
    async list(venue: VenueRow, query: TableListQuery) {
      const tables = await lists.get(venue.id, 'tables', async () => {
        const list = (await venueTables(db, venue.id)).map(toTable);
        // Frozen: the answer is this very list, shared by every request until the venue changes.
        Object.freeze(list);
        return list;
      });
      if (query.date === undefined && query.time === undefined && query.duration === undefined) return tables;
      if (query.date === undefined || query.time === undefined)
        throw badRequest('date and time are required together (duration is optional)');
      if (!isCalendarDate(query.date)) throw badRequest('date is not a valid date');
      const from = localToUtc(query.date, query.time, venue.timezone);
      const to = new Date(from.getTime() + (query.duration ?? venue.default_booking_duration) * 60_000);
      const [taken, blocked] = await Promise.all([
        takenTableIds(booked, db, venue.id, from, to, { tableIds: tables.map((table) => table.id) }),
        blockedTableIds(db, venue.id, from, to),
      ]);
      return tables.map((table) => ({ ...table, is_blocked: blocked.has(table.id), is_taken: taken.has(table.id) }));
    },

    async get(venueId: string, id: string) {
      return toTable(await findTable(db, venueId, id));
    },

    async create(
      venueId: string,
      body: { table_number: string | number; capacity?: number; status?: string; table_type?: string; min_covers?: number },
    ) {
      const table_number = tableNumberOf(body.table_number);
      if (!table_number) throw badRequest('table_number is required');
      const capacity = body.capacity ?? 4;
      const min_covers = body.min_covers ?? 1;
      checkCovers(min_covers, capacity);
      await assertNumberFree(db, venueId, table_number);
      const id = newId('tbl');
      const at = now();
      const row = {
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
      };
      await numberUnique(table_number, () =>
        withTransaction(db, async (trx) => {
          await trx.insertInto('venue_tables').values(row).execute();
          await audit.record(trx, { action: 'table.created', entityType: 'table', entityId: id, venueId, after: row });
        }),
      );
      return id;
    },

    /** Updates the fields sent; the floor canvas shows the change through its link to the table. */
    async update(venueId: string, id: string, body: TableUpdateBody) {
      const current = await findTable(db, venueId, id);
      const table_number = body.table_number === undefined ? current.table_number : tableNumberOf(body.table_number);
      if (!table_number) throw badRequest('table_number is required');
      const capacity = body.capacity ?? current.capacity;
      const min_covers = body.min_covers ?? current.min_covers;
      checkCovers(min_covers, capacity);
      if (table_number !== current.table_number) await assertNumberFree(db, venueId, table_number, id);
      const changes = {
        table_number,
        capacity,
        min_covers,
        status: body.status ?? current.status,
        table_type: body.table_type ?? current.table_type,
        updated_at: now(),
      };
      await numberUnique(table_number, () =>
        withTransaction(db, async (trx) => {
          await trx.updateTable('venue_tables').set(changes).where('venue_id', '=', venueId).where('id', '=', id).execute();
          await audit.record(trx, { action: 'table.updated', entityType: 'table', entityId: id, venueId, before: current, after: changes });
        }),
      );
    },

    /**
     * Refused (409) while the table holds an active booking that has not ended. Otherwise its blocks,
     * price overrides and combination memberships go with it (combinations left with one table too), and
     * shifts, access rules and its floor's canvas stop naming it.
     */
    async remove(venueId: string, id: string) {
      const at = now();
      await withTransaction(db, async (trx) => {
        const table = await findTable(trx, venueId, id);
        const upcoming = await takenTableIds(booked, trx, venueId, clock.now(), END_OF_TIME, { tableIds: [id] });
        if (upcoming.size > 0) throw conflict('This table has upcoming reservations; move them before deleting it');
        await trx.deleteFrom('venue_tables').where('venue_id', '=', venueId).where('id', '=', id).execute();
        await audit.record(trx, { action: 'table.deleted', entityType: 'table', entityId: id, venueId, before: table });
        await pruneCombinations(trx, venueId);
        await references.repoint(trx, 'table', venueId, new Map([[id, null]]), at);
        if (table.floor_id) {
          const floor = await trx.selectFrom('floors').select(['id', 'canvas_data']).where('id', '=', table.floor_id).executeTakeFirst();
          if (floor) {
            const entries = parseCanvas(floor.canvas_data).filter((entry) => entry.table_id !== id);
            await trx
              .updateTable('floors')
              .set({ canvas_data: JSON.stringify(entries), updated_at: at })
              .where('id', '=', floor.id)
              .execute();
          }
        }
      });
    },

    async setType(venueId: string, tableIds: string[], tableType: string) {
      const tables = await tablesOf(db, venueId, tableIds);
      await db.kysely
        .updateTable('venue_tables')
        .set({ table_type: tableType, updated_at: now() })
        .where('venue_id', '=', venueId)
        .where(
          'id',
          'in',
          tables.map((t) => t.id),
        )
        .execute();
    },

    /** A null area detaches the tables from any area. */
    async setArea(venueId: string, tableIds: string[], areaId: string | null) {
      const tables = await tablesOf(db, venueId, tableIds);
      if (areaId !== null) await findArea(db, venueId, areaId);
      await db.kysely
        .updateTable('venue_tables')
        .set({ seating_area_id: areaId, updated_at: now() })
        .where('venue_id', '=', venueId)
        .where(
          'id',
          'in',
          tables.map((t) => t.id),
        )
        .execute();
    },
  };
}

export type TablesService = ReturnType<typeof createTablesService>;
