/**
 * The guest's journey (bookings module): a short booking reference a guest can read out at the door,
 * unique per venue and service date (the full `bkg_…` id stays the key). Older bookings keep none.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bookings').addColumn('reference', 'text').execute();
  await db.schema.createIndex('bookings_reference_uq').on('bookings').columns(['venue_id', 'booking_date', 'reference']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('bookings_reference_uq').execute();
  await db.schema.alterTable('bookings').dropColumn('reference').execute();
}
