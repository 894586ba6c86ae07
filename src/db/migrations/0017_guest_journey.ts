/**
 * The guest's journey.
 * - Bookings module: a short booking reference a guest can read out at the door, unique per venue and
 *   service date (the full `bkg_…` id stays the key); older bookings keep none.
 * - Guests module: the reversed-digits search term of every roster phone (search by the last digits),
 *   which new and changed roster entries write themselves (search-terms.ts).
 * - Uploads: image URLs of our own uploads were stored absolute (`http://host:port/uploads/<hash>.<ext>`),
 *   freezing the base URL of the day; they become paths (`/uploads/<hash>.<ext>`), which answers make
 *   absolute with the base URL of the moment (platform/uploads.ts).
 */
import { sql, type Kysely } from 'kysely';

/** The columns that hold image URLs, by table. */
const IMAGE_COLUMNS: Record<string, string[]> = {
  venues: ['logo_url', 'cover_image_url'],
  venue_branding: ['logo_url'],
  widget_settings: ['logo_url'],
  events: ['image_url'],
  bundle_items: ['image_url'],
  access_rules: ['display_image_url'],
  users: ['profile_image_url'],
};
const OWN_UPLOAD = /^https?:\/\/[^/]+(\/uploads\/[0-9a-f]{64}\.(?:png|jpg|webp|gif))$/;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bookings').addColumn('reference', 'text').execute();
  // Partial: bookings made before references have none, and a lookup by venue and date keeps its own
  // index (bookings_venue_date_idx) instead of this wider one.
  await db.schema
    .createIndex('bookings_reference_uq')
    .on('bookings')
    .columns(['venue_id', 'booking_date', 'reference'])
    .unique()
    .where(sql.ref('reference'), 'is not', null)
    .execute();
  await phoneSuffixTerms(db);
  await uploadPaths(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('guest_search_terms').where('term', 'like', '#%').execute();
  await db.schema.dropIndex('bookings_reference_uq').execute();
  await db.schema.alterTable('bookings').dropColumn('reference').execute();
}

async function phoneSuffixTerms(db: Kysely<any>): Promise<void> {
  const phones = await db.selectFrom('guest_roster').select(['operator_id', 'user_id', 'phone']).where('phone', 'is not', null).execute();
  for (const row of phones as { operator_id: string; user_id: string; phone: string }[]) {
    const digits = row.phone.replace(/\D/g, '');
    if (digits.length < 3) continue;
    await db
      .insertInto('guest_search_terms')
      .values({ operator_id: row.operator_id, user_id: row.user_id, term: `#${[...digits].reverse().join('')}` })
      .onConflict((c) => c.doNothing())
      .execute();
  }
}

/** Our own uploads' absolute URLs as paths, in every image column (exported for its test). */
export async function uploadPaths(db: Kysely<any>): Promise<void> {
  for (const [table, columns] of Object.entries(IMAGE_COLUMNS)) {
    for (const column of columns) {
      const rows = await db.selectFrom(table).select(column).distinct().where(column, 'like', '%/uploads/%').execute();
      for (const row of rows as Record<string, string>[]) {
        const match = OWN_UPLOAD.exec(row[column]);
        if (match)
          await db
            .updateTable(table)
            .set({ [column]: match[1] })
            .where(column, '=', row[column])
            .execute();
      }
    }
  }
}
