/**
 * Guest identity (security round 2):
 * - email_verifications (auth module): a registration waiting for its address to be proven, one row per
 *   registration (a few may wait for one email: each code creates the account with its own password); the
 *   6-digit code is kept only as a salted SHA-256, with its expiry and the number of attempts spent on it.
 *   The password is kept hashed, as on users.
 * - guest_roster.phone (guests module): the phone a guest gave this operator (its bookings, walk-in
 *   record), so the CRM shows an operator only the contact details given to it, never the platform
 *   record's. Backfilled from the operator's latest booking with a phone, then its walk-in records. Guest
 *   records then forget the phone a first booking left on them (walk-in records, each one operator's, keep
 *   theirs), and the roster's digit-only search terms (phones, possibly another operator's) are dropped:
 *   each guest's are written again from the roster phone at their next roster event.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('email_verifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('code_salt', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('email_verifications_expires_idx').on('email_verifications').column('expires_at').execute();
  await db.schema.createIndex('email_verifications_email_idx').on('email_verifications').columns(['email', 'id']).execute();

  await db.schema.alterTable('guest_roster').addColumn('phone', 'text').execute();
  await sql`update guest_roster set phone = (
      select b.guest_phone from bookings b
      where b.operator_id = guest_roster.operator_id and b.user_id = guest_roster.user_id
        and b.guest_phone is not null and b.guest_phone <> ''
      order by b.created_at desc, b.id desc limit 1)`.execute(db);
  await sql`update guest_roster set phone = (
      select u.phone from users u join guest_walk_ins w on w.user_id = u.id
      where u.id = guest_roster.user_id and w.operator_id = guest_roster.operator_id)
    where phone is null`.execute(db);
  await sql`update users set phone = null where role = 'guest' and email not like 'walkin+%@guests.invalid'`.execute(db);
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await (
    postgres
      ? sql`delete from guest_search_terms where term ~ '^[0-9]+$'`
      : sql`delete from guest_search_terms where term not glob '*[^0-9]*'`
  ).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('guest_roster').dropColumn('phone').execute();
  await db.schema.dropTable('email_verifications').execute();
}
