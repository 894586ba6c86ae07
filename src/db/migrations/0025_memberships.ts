/**
 * Memberships (memberships module): the tiers an operator account sells to guests (price, period, perk
 * tags for admission rules, a member discount on tickets), each guest's membership of an operator (one
 * row per operator and guest: its tier, start and expiry; renewals move the expiry), and the purchases
 * (one per checkout session, claimed once when paid). A tier with members or purchases is archived,
 * never deleted (docs/memberships.md); purchases are money records and outlive the guest (set null).
 */
import type { Kysely } from 'kysely';
import { idColumn, timestamps } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await timestamps(
    idColumn(db.schema.createTable('membership_tiers'))
      .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('price_pence', 'integer', (c) => c.notNull())
      .addColumn('period', 'text', (c) => c.notNull())
      .addColumn('period_days', 'integer')
      .addColumn('perk_tags', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('ticket_discount_pct', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('archived_at', 'text'),
  ).execute();
  await db.schema.createIndex('membership_tiers_operator_idx').on('membership_tiers').columns(['operator_id', 'name']).execute();

  await timestamps(
    idColumn(db.schema.createTable('guest_memberships'))
      .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('tier_id', 'text', (c) => c.notNull().references('membership_tiers.id'))
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('guest_memberships_operator_user_key', ['operator_id', 'user_id']),
  ).execute();
  await db.schema.createIndex('guest_memberships_user_idx').on('guest_memberships').columns(['user_id']).execute();
  await db.schema.createIndex('guest_memberships_tier_idx').on('guest_memberships').columns(['tier_id', 'expires_at']).execute();

  await timestamps(
    idColumn(db.schema.createTable('membership_purchases'))
      .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('tier_id', 'text', (c) => c.notNull().references('membership_tiers.id'))
      .addColumn('venue_id', 'text', (c) => c.references('venues.id').onDelete('set null'))
      .addColumn('amount_pence', 'integer', (c) => c.notNull())
      .addColumn('period', 'text', (c) => c.notNull())
      .addColumn('period_days', 'integer')
      .addColumn('checkout_session_id', 'text', (c) => c.unique())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('fulfilled_at', 'text')
      .addColumn('expires_at', 'text'),
  ).execute();
  await db.schema.createIndex('membership_purchases_user_idx').on('membership_purchases').columns(['user_id']).execute();
  await db.schema.createIndex('membership_purchases_tier_idx').on('membership_purchases').columns(['tier_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('membership_purchases').execute();
  await db.schema.dropTable('guest_memberships').execute();
  await db.schema.dropTable('membership_tiers').execute();
}
