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
import { chunked } from '../../db/batch.js';
import type { CopyScope } from '../../platform/copy-scopes.js';
import { conflict } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { matchByKey, type Keyed, type References } from '../../platform/references.js';
import { compareCodePoints } from '../../platform/text.js';
import { takenTableIds, type BookedTables } from './occupancy.js';
import { END_OF_TIME } from './tables.repository.js';
import { parseCanvas, type StoredCanvasEntry } from './tables.canvas.js';

/** A venue's rows as { id, key }, oldest first (copies share one timestamp, so their ids order them). */
const keyedBy = <T extends { id: string; created_at: string }>(rows: T[], key: (row: T) => string): Keyed[] =>
  [...rows]
    .sort((a, b) => compareCodePoints(a.created_at, b.created_at) || compareCodePoints(a.id, b.id))
    .map((row) => ({ id: row.id, key: key(row) }));

export function createTablesCopyScope(references: References, booked: BookedTables): CopyScope {
  return {
    name: 'tables',
    permission: 'tables',
    async copy({ trx, sourceVenueId: source, targetVenueId: target, now }) {
      const at = now.toISOString();
      if ((await takenTableIds(booked, trx, target, now, END_OF_TIME)).size > 0) {
        throw conflict('The target venue has upcoming reservations on its tables; its floorplan cannot be replaced');
      }

      // What the target has now, to re-point the other modules' references at the copies.
      const oldTables = await trx
        .selectFrom('venue_tables')
        .select(['id', 'table_number', 'created_at'])
        .where('venue_id', '=', target)
        .execute();
      const oldAreas = await trx.selectFrom('seating_areas').select(['id', 'name', 'created_at']).where('venue_id', '=', target).execute();
      const oldPricelists = await trx
        .selectFrom('pricelists')
        .select(['id', 'name', 'created_at'])
        .where('venue_id', '=', target)
        .execute();

      await trx.deleteFrom('table_combinations').where('venue_id', '=', target).execute();
      // Old price lists go only after the references to them are re-pointed (a foreign key would clear them).
      await trx.deleteFrom('venue_tables').where('venue_id', '=', target).execute();
      await trx.deleteFrom('floors').where('venue_id', '=', target).execute();
      await trx.deleteFrom('seating_areas').where('venue_id', '=', target).execute();
      await trx.deleteFrom('smart_table_settings').where('venue_id', '=', target).execute();

      let count = 0;
      const copyOf = new Map<string, string>();
      const mapped = (id: string | null) => (id === null ? null : (copyOf.get(id) ?? null));

      const areas = await trx.selectFrom('seating_areas').selectAll().where('venue_id', '=', source).execute();
      for (const row of areas) copyOf.set(row.id, newId('area'));
      const areaCopies = areas.map((row) => ({ ...row, id: copyOf.get(row.id)!, venue_id: target, created_at: at, updated_at: at }));
      for (const chunk of chunked(areaCopies)) await trx.insertInto('seating_areas').values(chunk).execute();
      const floors = await trx.selectFrom('floors').selectAll().where('venue_id', '=', source).execute();
      for (const row of floors) copyOf.set(row.id, newId('flr'));
      const tables = await trx.selectFrom('venue_tables').selectAll().where('venue_id', '=', source).execute();
      for (const row of tables) copyOf.set(row.id, newId('tbl'));
      const floorCopies = floors.map((row) => {
        const entries: StoredCanvasEntry[] = parseCanvas(row.canvas_data).flatMap((entry) => {
          if (!entry.table_id) return [entry];
          const table = copyOf.get(entry.table_id);
          return table ? [{ ...entry, table_id: table }] : [];
        });
        return { ...row, id: copyOf.get(row.id)!, venue_id: target, canvas_data: JSON.stringify(entries), created_at: at, updated_at: at };
      });
      for (const chunk of chunked(floorCopies)) await trx.insertInto('floors').values(chunk).execute();
      const tableCopies = tables.map((row) => ({
        ...row,
        id: copyOf.get(row.id)!,
        venue_id: target,
        seating_area_id: mapped(row.seating_area_id),
        floor_id: mapped(row.floor_id),
        created_at: at,
        updated_at: at,
      }));
      for (const chunk of chunked(tableCopies)) await trx.insertInto('venue_tables').values(chunk).execute();
      count += areas.length + floors.length + tables.length;

      const combos = await trx.selectFrom('table_combinations').selectAll().where('venue_id', '=', source).execute();
      for (const row of combos) copyOf.set(row.id, newId('cmb'));
      const members = await trx
        .selectFrom('table_combination_tables as m')
        .innerJoin('table_combinations as c', 'c.id', 'm.combination_id')
        .select(['m.combination_id', 'm.table_id'])
        .where('c.venue_id', '=', source)
        .execute();
      const comboCopies = combos.map((row) => ({ ...row, id: copyOf.get(row.id)!, venue_id: target, created_at: at, updated_at: at }));
      for (const chunk of chunked(comboCopies)) await trx.insertInto('table_combinations').values(chunk).execute();
      const memberCopies = members.map((member) => ({
        combination_id: copyOf.get(member.combination_id)!,
        table_id: copyOf.get(member.table_id)!,
      }));
      for (const chunk of chunked(memberCopies)) await trx.insertInto('table_combination_tables').values(chunk).execute();
      count += combos.length + members.length;

      const pricelists = await trx.selectFrom('pricelists').selectAll().where('venue_id', '=', source).execute();
      for (const row of pricelists) copyOf.set(row.id, newId('prl'));
      const prices = await trx
        .selectFrom('pricelist_prices as p')
        .innerJoin('pricelists as l', 'l.id', 'p.pricelist_id')
        .select(['p.pricelist_id', 'p.table_id', 'p.price_pence'])
        .where('l.venue_id', '=', source)
        .execute();
      const pricelistCopies = pricelists.map((row) => ({
        ...row,
        id: copyOf.get(row.id)!,
        venue_id: target,
        created_at: at,
        updated_at: at,
      }));
      for (const chunk of chunked(pricelistCopies)) await trx.insertInto('pricelists').values(chunk).execute();
      const priceCopies = prices.map((price) => ({
        pricelist_id: copyOf.get(price.pricelist_id)!,
        table_id: copyOf.get(price.table_id)!,
        price_pence: price.price_pence,
      }));
      for (const chunk of chunked(priceCopies)) await trx.insertInto('pricelist_prices').values(chunk).execute();
      count += pricelists.length + prices.length;

      const settings = await trx.selectFrom('smart_table_settings').selectAll().where('venue_id', '=', source).executeTakeFirst();
      if (settings) {
        // The last run is the target's own history: a copied schedule has not run there yet.
        await trx
          .insertInto('smart_table_settings')
          .values({ ...settings, venue_id: target, reassign_last_run: null, updated_at: at })
          .execute();
        count++;
      }

      // Shifts, access rules and table profiles follow to the copies with the same number or name.
      await references.repoint(
        trx,
        'table',
        target,
        matchByKey(
          keyedBy(oldTables, (r) => r.table_number),
          keyedBy(tableCopies, (r) => r.table_number),
        ),
        at,
      );
      await references.repoint(
        trx,
        'seating_area',
        target,
        matchByKey(
          keyedBy(oldAreas, (r) => r.name),
          keyedBy(areaCopies, (r) => r.name),
        ),
        at,
      );
      await references.repoint(
        trx,
        'pricelist',
        target,
        matchByKey(
          keyedBy(oldPricelists, (r) => r.name),
          keyedBy(pricelistCopies, (r) => r.name),
        ),
        at,
      );
      if (oldPricelists.length > 0)
        await trx
          .deleteFrom('pricelists')
          .where(
            'id',
            'in',
            oldPricelists.map((row) => row.id),
          )
          .execute();
      return count;
    },
  };
}
