/**
 * The booking write path under a crowd (docs/performance.md, "Under a crowd").
 * - Guests module: a guest's search terms are replaced by (operator, guest) on every booking. The index
 *   on (operator_id, user_id) did not hold the term, so SQLite preferred the primary key (operator_id,
 *   term, user_id) and read every term of the operator's whole roster to find one guest's; the index
 *   now ends with the term, so that read is one guest's terms on both engines.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('guest_search_terms_user_idx').execute();
  await db.schema.createIndex('guest_search_terms_user_idx').on('guest_search_terms').columns(['operator_id', 'user_id', 'term']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('guest_search_terms_user_idx').execute();
  await db.schema.createIndex('guest_search_terms_user_idx').on('guest_search_terms').columns(['operator_id', 'user_id']).execute();
}
