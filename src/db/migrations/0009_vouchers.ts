/**
 * Gift vouchers (vouchers module):
 * - voucher_purchases: one per voucher payment, the intent it waits on and what it buys (amount per
 *   voucher, quantity, delivery, recipient, the terms shown). Public purchases and operator-issued paid
 *   vouchers alike; `status` goes `pending` → `fulfilled` once, so the vouchers of a payment are issued
 *   once whoever (finalize, the webhook, the operator) gets there first, and an intent is used once.
 * - vouchers: the codes (unique), the balance left (never below zero), who they were issued to, expiry
 *   (the local date and the instant it ends), and the refund.
 * - voucher_redemptions: one row per redemption (partial redemption keeps its history): where, how
 *   much, who and the note.
 */
import { sql, type Kysely } from 'kysely';
import { timestamps } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('voucher_purchases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('venue_id', 'text', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    // `public` (the vouchers widget) or `operator` (POST /voucher-intent, then a paid POST /vouchers).
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('intent_id', 'text')
    .addColumn('amount_pence', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    // `email` (to the recipient), `purchaser` (to the purchaser) or `none` (operator-issued).
    .addColumn('delivery', 'text', (c) => c.notNull())
    .addColumn('recipient_name', 'text')
    .addColumn('recipient_email', 'text')
    .addColumn('purchaser_name', 'text')
    .addColumn('purchaser_email', 'text')
    .addColumn('message', 'text')
    .addColumn('expiration_months', 'integer', (c) => c.notNull())
    .addColumn('terms', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('idempotency_key', 'text')
    .addColumn('request_hash', 'text')
    // `pending` or `fulfilled`.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('fulfilled_at', 'text')
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('voucher_purchases_intent_uq').on('voucher_purchases').column('intent_id').unique().execute();
  // Null keys never collide (both engines treat nulls as distinct in a unique index).
  await db.schema
    .createIndex('voucher_purchases_idempotency_uq')
    .on('voucher_purchases')
    .columns(['venue_id', 'idempotency_key'])
    .unique()
    .execute();

  await db.schema
    .createTable('vouchers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('venue_id', 'text', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('amount_pence', 'integer', (c) => c.notNull())
    .addColumn('remaining_pence', 'integer', (c) => c.notNull())
    // `active`, `redeemed` or `refunded`; `expired` is read from `valid_until`.
    .addColumn('status', 'text', (c) => c.notNull())
    // `comp` or `paid`.
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('purchase_id', 'text', (c) => c.references('voucher_purchases.id').onDelete('cascade'))
    .addColumn('purchase_seq', 'integer')
    .addColumn('recipient_name', 'text')
    .addColumn('recipient_email', 'text')
    .addColumn('message', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('valid_until', 'text', (c) => c.notNull())
    .addColumn('emailed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('issued_by', 'text')
    .addColumn('refunded_pence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('refund_id', 'text')
    .addColumn('refunded_at', 'text')
    .addColumn('refunded_by', 'text')
    .$call(timestamps)
    .addCheckConstraint('vouchers_remaining_check', sql`remaining_pence >= 0 and remaining_pence <= amount_pence`)
    .execute();
  await db.schema.createIndex('vouchers_code_uq').on('vouchers').column('code').unique().execute();
  await db.schema.createIndex('vouchers_purchase_uq').on('vouchers').columns(['purchase_id', 'purchase_seq']).unique().execute();
  await db.schema.createIndex('vouchers_venue_idx').on('vouchers').columns(['venue_id', 'created_at']).execute();

  await db.schema
    .createTable('voucher_redemptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('voucher_id', 'text', (c) => c.notNull().references('vouchers.id').onDelete('cascade'))
    // The venue it was spent at (the voucher's own, or a sister venue).
    .addColumn('venue_id', 'text', (c) => c.notNull())
    .addColumn('amount_pence', 'integer', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('redeemed_by', 'text')
    .addColumn('redeemed_by_name', 'text')
    .addColumn('redeemed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('voucher_redemptions_voucher_idx').on('voucher_redemptions').columns(['voucher_id', 'redeemed_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('voucher_redemptions').execute();
  await db.schema.dropTable('vouchers').execute();
  await db.schema.dropTable('voucher_purchases').execute();
}
