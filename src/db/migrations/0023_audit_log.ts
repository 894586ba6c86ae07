/**
 * The audit log (audit module): who changed what and when in an operator account. One row per operator
 * mutation, written in the transaction of the change. The actor's name and email are copied at the
 * time (the log outlives renamed and deleted users), and the venue is kept as a plain id (an entry
 * outlives its venue); an account's entries go with the account. `before`/`after` are JSON objects of
 * the changed fields only, secrets redacted (src/domain/audit-diff.ts).
 */
import type { Kysely } from 'kysely';
import { idColumn } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db.schema.createTable('audit_log'))
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('venue_id', 'text')
    .addColumn('actor_type', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'text')
    .addColumn('actor_name', 'text')
    .addColumn('actor_email', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text')
    .addColumn('before_json', 'text')
    .addColumn('after_json', 'text')
    .addColumn('request_id', 'text')
    .addColumn('ip', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // The list: newest first within an account, optionally narrowed to a venue, an actor or an entity.
  await db.schema.createIndex('audit_log_operator_created_idx').on('audit_log').columns(['operator_id', 'created_at', 'id']).execute();
  await db.schema
    .createIndex('audit_log_operator_venue_created_idx')
    .on('audit_log')
    .columns(['operator_id', 'venue_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('audit_log_operator_entity_idx')
    .on('audit_log')
    .columns(['operator_id', 'entity_type', 'entity_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
}
