/** The kinds of row the tables module owns that other modules refer to: tables, seating areas, price lists. */
import { kyselyOf } from '../../db/transaction.js';
import type { References } from '../../platform/references.js';

export function registerTablesReferences(references: References): void {
  references.own('table', (db, venueId) =>
    kyselyOf(db)
      .selectFrom('venue_tables')
      .select(['id', 'table_number as key'])
      .where('venue_id', '=', venueId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  );
  references.own('seating_area', (db, venueId) =>
    kyselyOf(db)
      .selectFrom('seating_areas')
      .select(['id', 'name as key'])
      .where('venue_id', '=', venueId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  );
  references.own('pricelist', (db, venueId) =>
    kyselyOf(db)
      .selectFrom('pricelists')
      .select(['id', 'name as key'])
      .where('venue_id', '=', venueId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  );
}
