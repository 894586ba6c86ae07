/**
 * The tables module's shared look-ups and rules over its own tables: row → response mapping, the venue's
 * tables in reading order, and the checks that tables, combinations and the floor canvas share.
 */
import type { Selectable } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import { kyselyOf, type Conn } from '../../db/transaction.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { compareText } from '../../platform/text.js';
import type { VenueTablesTable } from './tables.table.js';

type TableRow = Selectable<VenueTablesTable>;

/** Far enough ahead to mean "any time from now on" while still comparing as ISO text. */
export const END_OF_TIME = new Date('9999-12-31T23:59:59.999Z');

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

export async function venueTables(db: Conn, venueId: string): Promise<TableRow[]> {
  const rows = await kyselyOf(db).selectFrom('venue_tables').selectAll().where('venue_id', '=', venueId).execute();
  return rows.sort(byTableNumber);
}

/** The venue's tables with these ids, in the order asked; 404 when any is not the venue's. */
export async function tablesOf(db: Conn, venueId: string, ids: readonly string[]): Promise<TableRow[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await kyselyOf(db)
    .selectFrom('venue_tables')
    .selectAll()
    .where('venue_id', '=', venueId)
    .where('id', 'in', unique)
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return unique.map((id) => {
    const row = byId.get(id);
    if (!row) throw notFound('Table');
    return row;
  });
}

export async function assertNumberFree(db: Conn, venueId: string, tableNumber: string, exceptId?: string) {
  let query = kyselyOf(db).selectFrom('venue_tables').select('id').where('venue_id', '=', venueId).where('table_number', '=', tableNumber);
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
    if (isUniqueViolation(error)) throw conflict(`Table number ${tableNumber} is already used at this venue`);
    throw error;
  }
}

/** Deletes the venue's combinations left with fewer than two tables. */
export async function pruneCombinations(db: Conn, venueId: string) {
  const counts = await kyselyOf(db)
    .selectFrom('table_combinations as c')
    .leftJoin('table_combination_tables as m', 'm.combination_id', 'c.id')
    .select(['c.id', (eb) => eb.fn.count<number>('m.table_id').as('members')])
    .where('c.venue_id', '=', venueId)
    .groupBy('c.id')
    .execute();
  const lonely = counts.filter((row) => Number(row.members) < 2).map((row) => row.id);
  if (lonely.length > 0) await kyselyOf(db).deleteFrom('table_combinations').where('id', 'in', lonely).execute();
}

export async function findTable(db: Conn, venueId: string, id: string): Promise<TableRow> {
  const row = await kyselyOf(db)
    .selectFrom('venue_tables')
    .selectAll()
    .where('venue_id', '=', venueId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Table');
  return row;
}

export async function findArea(db: Conn, venueId: string, id: string) {
  const row = await kyselyOf(db)
    .selectFrom('seating_areas')
    .selectAll()
    .where('venue_id', '=', venueId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Seating area');
  return row;
}
