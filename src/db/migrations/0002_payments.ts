/**
 * Payments: the operators' connected accounts and money ledger, the payment records that tie provider
 * intents and checkout sessions to an operator and venue, received webhook events and fulfilments
 * (unique keys make redelivery harmless), the guests' keys billing ledger, and the simulated provider's
 * own state (intents, refunds, checkout sessions, accounts, onboarding links, transfers, idempotency keys,
 * outgoing events).
 */
import type { Kysely } from 'kysely';
import { idColumn, timestamps } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payment_accounts')
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('details_submitted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('charges_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('payouts_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .$call(timestamps)
    .addPrimaryKeyConstraint('payment_accounts_pk', ['operator_id', 'provider'])
    .execute();
  await db.schema.createIndex('payment_accounts_account_uq').on('payment_accounts').columns(['provider', 'account_id']).unique().execute();

  await idColumn(db.schema.createTable('payment_records'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('operator_id', 'text', (c) => c.references('operators.id').onDelete('cascade'))
    .addColumn('venue_id', 'text')
    .addColumn('kind', 'text')
    .addColumn('intent_id', 'text')
    .addColumn('checkout_session_id', 'text')
    .addColumn('idempotency_key', 'text')
    .addColumn('amount_pence', 'integer', (c) => c.notNull())
    .addColumn('fee_pence', 'integer', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('destination_account', 'text')
    .addColumn('capture_method', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('payment_records_intent_uq').on('payment_records').columns(['provider', 'intent_id']).unique().execute();
  await db.schema
    .createIndex('payment_records_session_uq')
    .on('payment_records')
    .columns(['provider', 'checkout_session_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('payment_records_idempotency_uq')
    .on('payment_records')
    .columns(['provider', 'idempotency_key'])
    .unique()
    .execute();

  await idColumn(db.schema.createTable('payment_ledger'))
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('venue_id', 'text')
    .addColumn('record_id', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('amount_pence', 'integer', (c) => c.notNull())
    .addColumn('entry_key', 'text', (c) => c.notNull())
    .addColumn('provider_ref', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payment_ledger_entry_uq').on('payment_ledger').column('entry_key').unique().execute();
  await db.schema.createIndex('payment_ledger_operator_idx').on('payment_ledger').columns(['operator_id', 'created_at']).execute();
  await db.schema.createIndex('payment_ledger_venue_idx').on('payment_ledger').columns(['operator_id', 'venue_id', 'created_at']).execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('kind', 'text')
    .addColumn('target_key', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    // Unix seconds: bigint, since PostgreSQL's integer ends in 2038 (SQLite's integer is 64-bit anyway).
    .addColumn('event_created', 'bigint')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('payment_fulfilments')
    .addColumn('target_key', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await idColumn(db.schema.createTable('billing_ledger'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('delta', 'integer', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('booking_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('billing_ledger_user_idx').on('billing_ledger').columns(['user_id', 'created_at']).execute();

  // The simulated provider's state: what the real provider would keep on its side.
  await idColumn(db.schema.createTable('sim_payment_intents'))
    .addColumn('client_secret', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('capture_method', 'text', (c) => c.notNull())
    .addColumn('amount_capturable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amount_received', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amount_refunded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('destination', 'text')
    .addColumn('application_fee_amount', 'integer')
    .addColumn('payment_method', 'text')
    .addColumn('last_payment_error', 'text')
    .addColumn('cancellation_reason', 'text')
    .$call(timestamps)
    .execute();

  await idColumn(db.schema.createTable('sim_refunds'))
    .addColumn('payment_intent_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reverse_transfer', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('refund_application_fee', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sim_refunds_intent_idx').on('sim_refunds').column('payment_intent_id').execute();

  await idColumn(db.schema.createTable('sim_checkout_sessions'))
    .addColumn('payment_intent_id', 'text')
    .addColumn('amount_total', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('payment_status', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('destination', 'text')
    .addColumn('application_fee_amount', 'integer')
    .addColumn('customer_email', 'text')
    .addColumn('success_url', 'text', (c) => c.notNull())
    .addColumn('cancel_url', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .$call(timestamps)
    .execute();

  await idColumn(db.schema.createTable('sim_accounts'))
    .addColumn('email', 'text')
    .addColumn('business_name', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('details_submitted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('charges_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('payouts_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(timestamps)
    .execute();

  await idColumn(db.schema.createTable('sim_transfers'))
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  // Keys are global, like the real provider's: reusing one for another request is refused.
  await db.schema
    .createTable('sim_idempotency_keys')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  // Hosted onboarding links: single-use, short-lived bearer capabilities (only the hash is kept).
  await db.schema
    .createTable('sim_account_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('return_url', 'text', (c) => c.notNull())
    .addColumn('refresh_url', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  // Events the simulated provider sends to the platform's webhook, retried until delivered.
  await db.schema
    .createTable('sim_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sim_events_due_idx').on('sim_events').columns(['status', 'next_attempt_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'sim_events',
    'sim_account_links',
    'sim_idempotency_keys',
    'sim_transfers',
    'sim_accounts',
    'sim_checkout_sessions',
    'sim_refunds',
    'sim_payment_intents',
    'billing_ledger',
    'payment_fulfilments',
    'webhook_events',
    'payment_ledger',
    'payment_records',
    'payment_accounts',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
