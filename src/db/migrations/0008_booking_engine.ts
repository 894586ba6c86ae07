/**
 * The booking engine (bookings module):
 * - bookings gain what a reservation's life needs: its rule type and source, the table lock and close,
 *   lifecycle flags, notes and bundle selections, the deposit or hold and what became of it, the payment
 *   deadline of a booking awaiting payment, and the times of its transitions.
 * - booking_slots: one row per table and 15-minute slot an active stay occupies, primary key
 *   (table_id, slot), so two active stays can never share a table even if an application check is
 *   skipped or two instances race; written and released with the booking's status.
 * - booking_history: who changed what and when, per booking.
 * - idempotency_keys: the first answer to a public create, by its `Idempotency-Key`.
 * - venue_door_keys: each venue's Ed25519 key pair signing booking QR tokens (private key sealed).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const columns: [string, 'text' | 'integer', ((c: any) => any)?][] = [
    ['rule_type', 'text'],
    // `widget`, `staff` or `walk_in`.
    ['source', 'text', (c) => c.notNull().defaultTo('widget')],
    ['table_locked', 'integer', (c) => c.notNull().defaultTo(0)],
    ['closed_at', 'text'],
    // JSON object of lifecycle flags (arrived, seated, mains, dessert, bill, left…) with their times.
    ['lifecycle', 'text', (c) => c.notNull().defaultTo('{}')],
    ['notes', 'text'],
    ['bundle_selections', 'text', (c) => c.notNull().defaultTo('[]')],
    ['payment_policy_id', 'text'],
    // `none`, `deposit` or `hold` (the policy's deposit_type when the booking was made).
    ['deposit_type', 'text', (c) => c.notNull().defaultTo('none')],
    ['deposit_pence', 'integer', (c) => c.notNull().defaultTo(0)],
    ['payment_intent_id', 'text'],
    // `none`, `requires_payment`, `paid`, `held`, `captured`, `released`, `refunded`, `partially_refunded`.
    ['payment_status', 'text', (c) => c.notNull().defaultTo('none')],
    ['captured_pence', 'integer', (c) => c.notNull().defaultTo(0)],
    ['refunded_pence', 'integer', (c) => c.notNull().defaultTo(0)],
    ['payment_expires_at', 'text'],
    ['status_changed_at', 'text'],
    ['checked_in_at', 'text'],
    ['cancelled_at', 'text'],
    ['cancel_reason', 'text'],
  ];
  for (const [name, type, build] of columns) {
    await db.schema
      .alterTable('bookings')
      .addColumn(name, type, build ?? ((c) => c))
      .execute();
  }
  await db.schema.createIndex('bookings_payment_expiry_idx').on('bookings').columns(['status', 'payment_expires_at']).execute();
  await db.schema.createIndex('bookings_payment_intent_idx').on('bookings').column('payment_intent_id').execute();

  await db.schema
    .createTable('booking_slots')
    .addColumn('table_id', 'text', (c) => c.notNull())
    // Minutes since the Unix epoch divided by 15: the 15-minute slot of an instant, in any time zone.
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('booking_id', 'text', (c) => c.notNull().references('bookings.id').onDelete('cascade'))
    .addColumn('venue_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('booking_slots_pk', ['table_id', 'slot'])
    .execute();
  await db.schema.createIndex('booking_slots_booking_idx').on('booking_slots').column('booking_id').execute();

  await db.schema
    .createTable('booking_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('booking_id', 'text', (c) => c.notNull().references('bookings.id').onDelete('cascade'))
    .addColumn('at', 'text', (c) => c.notNull())
    // `guest`, `staff` or `system`.
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text')
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.createIndex('booking_history_booking_idx').on('booking_history').columns(['booking_id', 'at']).execute();

  await db.schema
    .createTable('idempotency_keys')
    // The route and its tenant (e.g. `book:<venue id>`): a key is only ever compared within one scope.
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').column('created_at').execute();

  await db.schema
    .createTable('venue_door_keys')
    .addColumn('venue_id', 'text', (c) => c.primaryKey().references('venues.id').onDelete('cascade'))
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['venue_door_keys', 'idempotency_keys', 'booking_history', 'booking_slots'])
    await db.schema.dropTable(table).execute();
  await db.schema.dropIndex('bookings_payment_intent_idx').execute();
  await db.schema.dropIndex('bookings_payment_expiry_idx').execute();
  for (const name of [
    'cancel_reason',
    'cancelled_at',
    'checked_in_at',
    'status_changed_at',
    'payment_expires_at',
    'refunded_pence',
    'captured_pence',
    'payment_status',
    'payment_intent_id',
    'deposit_pence',
    'deposit_type',
    'payment_policy_id',
    'bundle_selections',
    'notes',
    'lifecycle',
    'closed_at',
    'table_locked',
    'source',
    'rule_type',
  ]) {
    await db.schema.alterTable('bookings').dropColumn(name).execute();
  }
}
