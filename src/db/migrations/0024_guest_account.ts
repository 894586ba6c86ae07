/**
 * The guest's own account (account module): one-time sign-in codes mailed to an address (kept only as a
 * salted SHA-256, with their attempts) and each guest's contact preferences per channel. A code goes
 * when it is used, replaced or expires; preferences go with their user. "My bookings" and "my vouchers"
 * find records by the guest's address across every operator: indexes on the lower-cased addresses.
 */
import { sql, type Kysely } from 'kysely';
import { idColumn } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db.schema.createTable('account_sign_in_codes'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('code_salt', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('account_sign_in_codes_email_idx').on('account_sign_in_codes').columns(['email', 'expires_at']).execute();

  await db.schema
    .createTable('account_preferences')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('marketing_email', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('marketing_sms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reminders_email', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('reminders_sms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createIndex('bookings_guest_email_idx')
    .on('bookings')
    .expression(sql`lower(guest_email)`)
    .execute();
  await db.schema
    .createIndex('vouchers_recipient_email_idx')
    .on('vouchers')
    .expression(sql`lower(recipient_email)`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('vouchers_recipient_email_idx').execute();
  await db.schema.dropIndex('bookings_guest_email_idx').execute();
  await db.schema.dropTable('account_preferences').execute();
  await db.schema.dropTable('account_sign_in_codes').execute();
}
