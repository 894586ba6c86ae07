/**
 * The tables module's copy-from scope `tables`: seating areas, tables, floors (with their canvas),
 * combinations, price lists with their per-table overrides, and smart-table settings. The target's
 * floorplan is replaced inside the caller's transaction; copies point at each other (table → area and
 * floor, canvas → tables, combination → tables, override → table). Table blocks are not copied: they
 * are dated operations of one venue, not settings.
 *
 * The target's shifts, access rules and table profiles keep working: their table, area and price-list
 * references are re-pointed at the copies with the same table number or name, or dropped. A target whose
 * tables hold upcoming reservations is refused (409), because replacing them would orphan those bookings.
 */
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Tx } from '../../db/transaction.js';
import type { CopyScope } from '../../platform/copy-scopes.js';
import { conflict } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { idsByKey, keyedRows, rewriteFloorplanReferences, type IdRemap } from '../availability/availability.repository.js';
import { takenTableIds } from './occupancy.js';
import { parseCanvas, type StoredCanvasEntry } from './tables.canvas.js';

const END_OF_TIME = new Date('9999-12-31T23:59:59.999Z');

/** Rows per multi-row insert: far below SQLite's and PostgreSQL's bound-parameter limits. */
const INSERT_CHUNK = 500;

/** One insert per chunk of rows instead of one per row (a venue may have hundreds of tables). */
async function insertAll<T extends keyof Database & string>(trx: Tx, table: T, rows: Insertable<Database[T]>[]): Promise<void> {
  // The generic table name defeats Kysely's per-table typing; the rows are typed by the signature above.
  const loose = trx as unknown as Kysely<any>;
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) await loose.insertInto(table).values(rows.slice(start, start + INSERT_CHUNK)).execute();
}

/** Old target id → the copy with the same key, or null when the source has none. */
function remapByKey(old: { id: string; key: string }[], copies: Map<string, string>): IdRemap {
  return new Map(old.map((row) => [row.id, copies.get(row.key) ?? null]));
}

const tablesScope: CopyScope = {
  name: 'tables',
  async copy({ trx, sourceVenueId: source, targetVenueId: target, now }) {
    const at = now.toISOString();
    if ((await takenTableIds(trx, target, now, END_OF_TIME)).size > 0) {
      throw conflict('The target venue has upcoming reservations on its tables; its floorplan cannot be replaced');
    }
    // Profiles belong to another module whose Kysely types may not exist yet.
    const profiles = trx as unknown as Kysely<any>;

    // What the target's availability and profiles point at now, to re-point them at the copies.
    const oldTables = await keyedRows(trx, 'venue_tables', target, { key: 'table_number' });
    const oldAreas = await keyedRows(trx, 'seating_areas', target);
    const oldPricelists = new Map((await keyedRows(trx, 'pricelists', target)).map((row) => [row.id, row.key]));
    const rulePricelists = await trx.selectFrom('access_rules').select(['id', 'pricelist_id']).where('venue_id', '=', target).where('pricelist_id', 'is not', null).execute();
    const profilePricelists: { id: string; pricelist_id: string }[] = await profiles
      .selectFrom('profiles')
      .select(['id', 'pricelist_id'])
      .where('venue_id', '=', target)
      .where('pricelist_id', 'is not', null)
      .execute();

    await trx.deleteFrom('table_combinations').where('venue_id', '=', target).execute();
    await trx.deleteFrom('pricelists').where('venue_id', '=', target).execute();
    await trx.deleteFrom('venue_tables').where('venue_id', '=', target).execute();
    await trx.deleteFrom('floors').where('venue_id', '=', target).execute();
    await trx.deleteFrom('seating_areas').where('venue_id', '=', target).execute();
    await trx.deleteFrom('smart_table_settings').where('venue_id', '=', target).execute();

    let count = 0;
    const copyOf = new Map<string, string>();
    const mapped = (id: string | null) => (id === null ? null : (copyOf.get(id) ?? null));

    const areas = await trx.selectFrom('seating_areas').selectAll().where('venue_id', '=', source).execute();
    for (const row of areas) copyOf.set(row.id, newId('area'));
    await insertAll(trx, 'seating_areas', areas.map((row) => ({ ...row, id: copyOf.get(row.id)!, venue_id: target, created_at: at, updated_at: at })));
    const floors = await trx.selectFrom('floors').selectAll().where('venue_id', '=', source).execute();
    for (const row of floors) copyOf.set(row.id, newId('flr'));
    const tables = await trx.selectFrom('venue_tables').selectAll().where('venue_id', '=', source).execute();
    for (const row of tables) copyOf.set(row.id, newId('tbl'));
    await insertAll(
      trx,
      'floors',
      floors.map((row) => {
        const entries: StoredCanvasEntry[] = parseCanvas(row.canvas_data).flatMap((entry) => {
          if (!entry.table_id) return [entry];
          const table = copyOf.get(entry.table_id);
          return table ? [{ ...entry, table_id: table }] : [];
        });
        return { ...row, id: copyOf.get(row.id)!, venue_id: target, canvas_data: JSON.stringify(entries), created_at: at, updated_at: at };
      }),
    );
    await insertAll(
      trx,
      'venue_tables',
      tables.map((row) => ({
        ...row,
        id: copyOf.get(row.id)!,
        venue_id: target,
        seating_area_id: mapped(row.seating_area_id),
        floor_id: mapped(row.floor_id),
        created_at: at,
        updated_at: at,
      })),
    );
    count += areas.length + floors.length + tables.length;

    const combos = await trx.selectFrom('table_combinations').selectAll().where('venue_id', '=', source).execute();
    for (const row of combos) copyOf.set(row.id, newId('cmb'));
    const members = await trx
      .selectFrom('table_combination_tables as m')
      .innerJoin('table_combinations as c', 'c.id', 'm.combination_id')
      .select(['m.combination_id', 'm.table_id'])
      .where('c.venue_id', '=', source)
      .execute();
    await insertAll(trx, 'table_combinations', combos.map((row) => ({ ...row, id: copyOf.get(row.id)!, venue_id: target, created_at: at, updated_at: at })));
    await insertAll(
      trx,
      'table_combination_tables',
      members.map((member) => ({ combination_id: copyOf.get(member.combination_id)!, table_id: copyOf.get(member.table_id)! })),
    );
    count += combos.length + members.length;

    const pricelists = await trx.selectFrom('pricelists').selectAll().where('venue_id', '=', source).execute();
    for (const row of pricelists) copyOf.set(row.id, newId('prl'));
    const prices = await trx
      .selectFrom('pricelist_prices as p')
      .innerJoin('pricelists as l', 'l.id', 'p.pricelist_id')
      .select(['p.pricelist_id', 'p.table_id', 'p.price_pence'])
      .where('l.venue_id', '=', source)
      .execute();
    await insertAll(trx, 'pricelists', pricelists.map((row) => ({ ...row, id: copyOf.get(row.id)!, venue_id: target, created_at: at, updated_at: at })));
    await insertAll(
      trx,
      'pricelist_prices',
      prices.map((price) => ({ pricelist_id: copyOf.get(price.pricelist_id)!, table_id: copyOf.get(price.table_id)!, price_pence: price.price_pence })),
    );
    count += pricelists.length + prices.length;

    const settings = await trx.selectFrom('smart_table_settings').selectAll().where('venue_id', '=', source).executeTakeFirst();
    if (settings) {
      // The last run is the target's own history: a copied schedule has not run there yet.
      await trx.insertInto('smart_table_settings').values({ ...settings, venue_id: target, reassign_last_run: null, updated_at: at }).execute();
      count++;
    }

    const newTables = await idsByKey(trx, 'venue_tables', target, { key: 'table_number' });
    const newAreas = await idsByKey(trx, 'seating_areas', target);
    await rewriteFloorplanReferences(trx, target, { tables: remapByKey(oldTables, newTables), areas: remapByKey(oldAreas, newAreas) }, at);
    const newPricelists = await idsByKey(trx, 'pricelists', target);
    const repoint = (old: string) => newPricelists.get(oldPricelists.get(old) ?? '') ?? null;
    for (const rule of rulePricelists) {
      await trx.updateTable('access_rules').set({ pricelist_id: repoint(rule.pricelist_id!), updated_at: at }).where('id', '=', rule.id).execute();
    }
    for (const profile of profilePricelists) {
      await profiles.updateTable('profiles').set({ pricelist_id: repoint(profile.pricelist_id), updated_at: at }).where('id', '=', profile.id).execute();
    }
    return count;
  },
};

export const tablesCopyScopes: CopyScope[] = [tablesScope];
