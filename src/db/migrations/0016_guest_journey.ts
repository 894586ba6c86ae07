/**
 * The guest's journey. Bookings module: a short booking reference a guest can read out at the door,
 * unique per venue and service date (the full `bkg_…` id stays the key); older bookings keep none.
 * Guests module: the reversed-digits search term of every roster phone (search by the last digits),
 * which new and changed roster entries write themselves (search-terms.ts).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bookings').addColumn('reference', 'text').execute();
  await db.schema.createIndex('bookings_reference_uq').on('bookings').columns(['venue_id', 'booking_date', 'reference']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('guest_search_terms').where('term', 'like', '#%').execute();
  await db.schema.dropIndex('bookings_reference_uq').execute();
  await db.schema.alterTable('bookings').dropColumn('reference').execute();
}
