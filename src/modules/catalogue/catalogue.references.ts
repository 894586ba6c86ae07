/** The kinds of row the catalogue owns that other modules refer to: bundles (by name) and promo codes (by code). */
import { kyselyOf } from '../../db/transaction.js';
import type { References } from '../../platform/references.js';

export function registerCatalogueReferences(references: References): void {
  references.own('bundle', {
    keyed: (db, venueId) =>
      kyselyOf(db)
        .selectFrom('bundles')
        .select(['id', 'name as key'])
        .where('venue_id', '=', venueId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    existing: async (db, venueId, ids) =>
      new Set(
        (
          await kyselyOf(db)
            .selectFrom('bundles')
            .select('id')
            .where('venue_id', '=', venueId)
            .where('id', 'in', [...ids])
            .execute()
        ).map((r) => r.id),
      ),
  });
  references.own('promo_code', {
    keyed: (db, venueId) =>
      kyselyOf(db)
        .selectFrom('promo_codes')
        .select(['id', 'code as key'])
        .where('venue_id', '=', venueId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    existing: async (db, venueId, ids) =>
      new Set(
        (
          await kyselyOf(db)
            .selectFrom('promo_codes')
            .select('id')
            .where('venue_id', '=', venueId)
            .where('id', 'in', [...ids])
            .execute()
        ).map((r) => r.id),
      ),
  });
}
