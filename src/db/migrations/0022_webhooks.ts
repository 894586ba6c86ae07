/**
 * Outbound webhooks (webhooks module): the endpoints an operator registers (the signing secret sealed
 * with the secret box, the previous one kept for a day after a rotation), one delivery row per event and
 * endpoint (the outbox, written in the transaction of the change), and each delivery's attempts.
 */
import type { Kysely } from 'kysely';
import { idColumn, timestamps } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await timestamps(
    idColumn(db.schema.createTable('webhook_endpoints'))
      .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('venue_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('previous_secret', 'text')
      .addColumn('previous_secret_until', 'text')
      .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failing_since', 'text')
      .addColumn('disabled_at', 'text')
      .addColumn('disabled_reason', 'text'),
  ).execute();
  await db.schema.createIndex('webhook_endpoints_operator_idx').on('webhook_endpoints').columns(['operator_id', 'enabled']).execute();

  await timestamps(
    idColumn(db.schema.createTable('webhook_deliveries'))
      .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
      .addColumn('operator_id', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('claimed_until', 'text')
      .addColumn('last_status_code', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', 'text'),
  ).execute();
  await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_endpoint_idx').on('webhook_deliveries').columns(['endpoint_id', 'created_at']).execute();

  await idColumn(db.schema.createTable('webhook_attempts'))
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('attempted_at', 'text', (c) => c.notNull())
    .addColumn('manual', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status_code', 'integer')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('response_body', 'text')
    .execute();
  await db.schema.createIndex('webhook_attempts_delivery_idx').on('webhook_attempts').columns(['delivery_id', 'attempted_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_attempts').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
}
