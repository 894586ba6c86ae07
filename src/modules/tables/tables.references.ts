/** The kinds of row the tables module owns that other modules refer to: tables, seating areas, price lists. */
import { kyselyOf, type Conn } from '../../db/transaction.js';
import type { References } from '../../platform/references.js';

const ids = (rows: { id: string }[]) => new Set(rows.map((row) => row.id));

export function registerTablesReferences(references: References): void {
  references.own('table', {
    keyed: (db: Conn, venueId: string) =>
      kyselyOf(db)
        .selectFrom('venue_tables')
        .select(['id', 'table_number as key'])
        .where('venue_id', '=', venueId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    existing: async (db, venueId, tableIds) =>
      ids(
        await kyselyOf(db)
          .selectFrom('venue_tables')
          .select('id')
          .where('venue_id', '=', venueId)
          .where('id', 'in', [...tableIds])
          .execute(),
      ),
  });
  references.own('seating_area', {
    keyed: (db, venueId) =>
      kyselyOf(db)
        .selectFrom('seating_areas')
        .select(['id', 'name as key'])
        .where('venue_id', '=', venueId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    existing: async (db, venueId, areaIds) =>
      ids(
        await kyselyOf(db)
          .selectFrom('seating_areas')
          .select('id')
          .where('venue_id', '=', venueId)
          .where('id', 'in', [...areaIds])
          .execute(),
      ),
  });
  references.own('pricelist', {
    keyed: (db, venueId) =>
      kyselyOf(db)
        .selectFrom('pricelists')
        .select(['id', 'name as key'])
        .where('venue_id', '=', venueId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    existing: async (db, venueId, listIds) =>
      ids(
        await kyselyOf(db)
          .selectFrom('pricelists')
          .select('id')
          .where('venue_id', '=', venueId)
          .where('id', 'in', [...listIds])
          .execute(),
      ),
  });
}
