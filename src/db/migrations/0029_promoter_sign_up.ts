/**
 * Promoter sign-up proven by a mailed code, and refunds in the promoter ledger (promoters module).
 * - promoter_sign_ups: a self sign-up waiting for its address to be proven, one row per sign-up (a few
 *   may wait for one email, each with its own password); the 6-digit code is kept only as a salted
 *   SHA-256, with its expiry and the attempts spent on it; the password is kept hashed, as on users.
 * - promoter_ledger.refunded_total_pence: 0 on a sale row; on a refund row, what the booking had been
 *   refunded in all once that refund was recorded. The unique key becomes (booking_id, kind,
 *   refunded_total_pence): one sale per booking, and each refund of it once.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('promoter_sign_ups')
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
  await db.schema.createIndex('promoter_sign_ups_expires_idx').on('promoter_sign_ups').column('expires_at').execute();
  await db.schema.createIndex('promoter_sign_ups_email_idx').on('promoter_sign_ups').columns(['email', 'id']).execute();

  await db.schema
    .alterTable('promoter_ledger')
    .addColumn('refunded_total_pence', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.dropIndex('promoter_ledger_booking_idx').execute();
  await db.schema
    .createIndex('promoter_ledger_entry_idx')
    .on('promoter_ledger')
    .columns(['booking_id', 'kind', 'refunded_total_pence'])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('promoter_ledger_entry_idx').execute();
  await db.deleteFrom('promoter_ledger').where('kind', '<>', 'sale').execute();
  await db.schema.alterTable('promoter_ledger').dropColumn('refunded_total_pence').execute();
  await db.schema.createIndex('promoter_ledger_booking_idx').on('promoter_ledger').columns(['booking_id', 'kind']).unique().execute();
  await db.schema.dropTable('promoter_sign_ups').execute();
}
