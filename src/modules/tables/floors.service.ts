/**
 * Floors and their canvas. Saving a canvas syncs the venue's tables: a table item whose tableNumber
 * names a table updates that table's type, covers, position, shape and size and places it on this floor;
 * an unknown tableNumber creates the table. Tables that were on the floor but are missing from the new
 * canvas leave the floor (floor and position cleared); they are not deleted, because they may hold
 * bookings, blocks and prices. Deleting a floor likewise only takes its tables off the floor.
 */
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { withTransaction } from '../../db/transaction.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Clock } from '../../platform/clock.js';
import { byName, requiredText } from '../../platform/text.js';
import { isTableItem, parseCanvas, renderCanvas, tableNumberOf, type StoredCanvasEntry } from './tables.canvas.js';
import type { CanvasItem, FloorUpdateBody } from './tables.schemas.js';
import { byTableNumber, checkCovers, numberUnique, toTable } from './tables.repository.js';
import type { FloorsTable, VenueTablesTable } from './tables.table.js';

/** Rows per multi-row insert: far below SQLite's and PostgreSQL's bound-parameter limits. */
const INSERT_CHUNK = 500;

/** The table columns a canvas item owns. */
type CanvasOwned = Pick<VenueTablesTable, 'table_type' | 'capacity' | 'min_covers' | 'x' | 'y' | 'shape' | 'size' | 'floor_id'>;
const CANVAS_OWNED = ['table_type', 'capacity', 'min_covers', 'x', 'y', 'shape', 'size', 'floor_id'] as const;

/**
 * Applies a canvas to the venue's tables inside the caller's transaction; returns the entries to store.
 */
export async function syncCanvas(
  trx: Kysely<Database>,
  venueId: string,
  floorId: string,
  items: CanvasItem[],
  at: string,
): Promise<StoredCanvasEntry[]> {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (!isTableItem(item)) return;
    if (item.tableNumber === undefined || !tableNumberOf(item.tableNumber)) {
      throw badRequest(`canvas_data.${index}.tableNumber is required for table items`);
    }
    const number = tableNumberOf(item.tableNumber);
    if (seen.has(number)) throw badRequest(`canvas_data names table ${number} twice`);
    seen.add(number);
  });

  const tables = await trx.selectFrom('venue_tables').selectAll().where('venue_id', '=', venueId).execute();
  const byNumber = new Map(tables.map((table) => [table.table_number, table]));
  const entries: StoredCanvasEntry[] = [];
  const placed = new Set<string>();
  const created: Insertable<VenueTablesTable>[] = [];

  for (const item of items) {
    if (!isTableItem(item)) {
      entries.push({ item });
      continue;
    }
    const number = tableNumberOf(item.tableNumber!);
    const existing = byNumber.get(number);
    const capacity = item.maxCovers ?? existing?.capacity ?? 4;
    const min_covers = item.minCovers ?? existing?.min_covers ?? 1;
    checkCovers(min_covers, capacity);
    // Keys the item leaves out keep the table's value; null clears position, shape and size.
    const layout = {
      x: item.x === undefined ? (existing?.x ?? null) : item.x,
      y: item.y === undefined ? (existing?.y ?? null) : item.y,
      shape: item.shape === undefined ? (existing?.shape ?? null) : item.shape,
      size: item.size === undefined ? (existing?.size ?? null) : item.size,
    };
    const table_type = item.tableType ?? existing?.table_type ?? 'standard';
    const owned: CanvasOwned = { table_type, capacity, min_covers, ...layout, floor_id: floorId };
    let tableId: string;
    if (existing) {
      tableId = existing.id;
      // A save usually moves one or two tables: only those are written.
      if (CANVAS_OWNED.some((key) => existing[key] !== owned[key])) {
        await trx
          .updateTable('venue_tables')
          .set({ ...owned, updated_at: at })
          .where('id', '=', existing.id)
          .execute();
      }
    } else {
      tableId = newId('tbl');
      created.push({
        id: tableId,
        venue_id: venueId,
        table_number: number,
        status: 'active',
        seating_area_id: null,
        ...owned,
        created_at: at,
        updated_at: at,
      });
    }
    placed.add(tableId);
    entries.push({ item, table_id: tableId });
  }
  for (let start = 0; start < created.length; start += INSERT_CHUNK) {
    const chunk = created.slice(start, start + INSERT_CHUNK);
    await numberUnique(chunk.map((row) => row.table_number).join(', '), () => trx.insertInto('venue_tables').values(chunk).execute());
  }

  const leaving = tables.filter((table) => table.floor_id === floorId && !placed.has(table.id)).map((table) => table.id);
  if (leaving.length > 0) {
    await trx.updateTable('venue_tables').set({ floor_id: null, x: null, y: null, updated_at: at }).where('id', 'in', leaving).execute();
  }
  return entries;
}

export function createFloorsService(deps: { db: Db; clock: Clock }) {
  const db = deps.db.kysely;
  const now = () => deps.clock.now().toISOString();

  async function floorOf(venueId: string, id: string, q: Kysely<Database> = db) {
    const row = await q.selectFrom('floors').selectAll().where('venue_id', '=', venueId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Floor');
    return row;
  }

  async function tablesOnFloors(venueId: string, floorIds: string[]) {
    if (floorIds.length === 0) return [];
    const rows = await db
      .selectFrom('venue_tables')
      .selectAll()
      .where('venue_id', '=', venueId)
      .where('floor_id', 'in', floorIds)
      .execute();
    return rows.sort(byTableNumber);
  }

  const toFloor = (row: Selectable<FloorsTable>, tables: Awaited<ReturnType<typeof tablesOnFloors>>) => ({
    id: row.id,
    name: row.name,
    sort_order: row.sort_order,
    canvas_data: renderCanvas(
      parseCanvas(row.canvas_data),
      tables.filter((table) => table.floor_id === row.id),
    ),
  });

  return {
    async list(venueId: string) {
      const rows = (await db.selectFrom('floors').selectAll().where('venue_id', '=', venueId).execute()).sort(
        (a, b) => a.sort_order - b.sort_order || byName(a, b),
      );
      const tables = await tablesOnFloors(
        venueId,
        rows.map((row) => row.id),
      );
      return rows.map((row) => toFloor(row, tables));
    },

    async get(venueId: string, id: string) {
      const row = await floorOf(venueId, id);
      const tables = await tablesOnFloors(venueId, [id]);
      return { ...toFloor(row, tables), tables: tables.map(toTable) };
    },

    async create(venueId: string, body: { name: string; sort_order?: number; canvas_data?: CanvasItem[] }) {
      const name = requiredText(body.name, 'name');
      const id = newId('flr');
      const at = now();
      await withTransaction(deps.db, async (trx) => {
        await trx
          .insertInto('floors')
          .values({ id, venue_id: venueId, name, sort_order: body.sort_order ?? 0, canvas_data: '[]', created_at: at, updated_at: at })
          .execute();
        if (body.canvas_data) {
          const entries = await syncCanvas(trx, venueId, id, body.canvas_data, at);
          await trx
            .updateTable('floors')
            .set({ canvas_data: JSON.stringify(entries) })
            .where('id', '=', id)
            .execute();
        }
      });
      return id;
    },

    /** Updates the fields sent; a canvas_data replaces the canvas and syncs the tables. */
    async update(venueId: string, id: string, body: FloorUpdateBody) {
      const at = now();
      await withTransaction(deps.db, async (trx) => {
        const current = await floorOf(venueId, id, trx);
        const canvas = body.canvas_data ? JSON.stringify(await syncCanvas(trx, venueId, id, body.canvas_data, at)) : current.canvas_data;
        await trx
          .updateTable('floors')
          .set({
            name: body.name === undefined ? current.name : requiredText(body.name, 'name'),
            sort_order: body.sort_order ?? current.sort_order,
            canvas_data: canvas,
            updated_at: at,
          })
          .where('id', '=', id)
          .execute();
      });
    },

    async remove(venueId: string, id: string) {
      const at = now();
      await withTransaction(deps.db, async (trx) => {
        await floorOf(venueId, id, trx);
        await trx
          .updateTable('venue_tables')
          .set({ floor_id: null, x: null, y: null, updated_at: at })
          .where('venue_id', '=', venueId)
          .where('floor_id', '=', id)
          .execute();
        await trx.deleteFrom('floors').where('id', '=', id).execute();
      });
    },
  };
}

export type FloorsService = ReturnType<typeof createFloorsService>;
