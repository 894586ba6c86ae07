/**
 * payment_intent_cancels (payments module): an unpaid intent whose cancel failed after its booking or
 * purchase was released, kept until the sweep has cancelled it, so that no undo on a money path is lost.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payment_intent_cancels')
    .addColumn('intent_id', 'text', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('operator_id', 'text')
    .addColumn('venue_id', 'text')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payment_intent_cancels_due_idx').on('payment_intent_cancels').column('next_attempt_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('payment_intent_cancels').execute();
}
