/** The kinds of row the catalogue owns that other modules refer to: bundles (by name) and promo codes (by code). */
import { kyselyOf } from '../../db/transaction.js';
import type { References } from '../../platform/references.js';

export function registerCatalogueReferences(references: References): void {
  references.own('bundle', (db, venueId) =>
    kyselyOf(db)
      .selectFrom('bundles')
      .select(['id', 'name as key'])
      .where('venue_id', '=', venueId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  );
  references.own('promo_code', (db, venueId) =>
    kyselyOf(db)
      .selectFrom('promo_codes')
      .select(['id', 'code as key'])
      .where('venue_id', '=', venueId)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  );
}
