/**
 * Reusable venue settings and the catalogue: profiles (four families in one table), admission groups
 * and rules, booking policies, payment policies, bundles and items, promo codes, custom tag categories
 * and tags of venues and of whole accounts.
 */
import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';
import { idColumn, timestamps } from './helpers.js';

const venueRef = (c: ColumnDefinitionBuilder) => c.notNull().references('venues.id').onDelete('cascade');

/**
 * Category flags, 0/1. A custom category's row sets all three; a row that only tunes a category of a
 * level above (custom = 0) sets the flags it changed and leaves the others null, so they keep following
 * that level (a later account change still reaches a venue that tuned another flag).
 */
function flagColumns<T extends string>(table: CreateTableBuilder<T, any>): CreateTableBuilder<T, any> {
  return table.addColumn('allow_guest_select', 'integer').addColumn('show_on_slip', 'integer').addColumn('show_in_summary', 'integer');
}

export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db.schema.createTable('admission_groups'))
    .addColumn('venue_id', 'text', venueRef)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('admission_groups_venue_idx').on('admission_groups').columns(['venue_id', 'sort_order']).execute();

  await idColumn(db.schema.createTable('admission_rules'))
    .addColumn('venue_id', 'text', venueRef)
    .addColumn('group_id', 'text', (c) => c.notNull().references('admission_groups.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('cond_tags_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cond_tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('cond_bookings_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cond_bookings_min', 'integer')
    .addColumn('cond_connections_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cond_connections_min', 'integer')
    .addColumn('act_discount_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('act_discount_pct', 'double precision')
    .addColumn('act_autoapprove_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('act_maxplus_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('act_maxplus', 'integer')
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('admission_rules_group_idx').on('admission_rules').columns(['group_id', 'created_at']).execute();
  await db.schema.createIndex('admission_rules_venue_idx').on('admission_rules').column('venue_id').execute();

  await idColumn(db.schema.createTable('payment_policies'))
    .addColumn('venue_id', 'text', venueRef)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('deposit_type', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('refund_type', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('refund_percent', 'integer', (c) => c.notNull().defaultTo(100))
    .addColumn('cancel_type', 'text', (c) => c.notNull().defaultTo('anytime'))
    .addColumn('cancel_cutoff_value', 'integer', (c) => c.notNull().defaultTo(24))
    .addColumn('cancel_cutoff_unit', 'text', (c) => c.notNull().defaultTo('hours'))
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('payment_policies_venue_idx').on('payment_policies').column('venue_id').execute();

  // One table for the four families. References other modules null are real columns; the rest of a
  // family's settings is JSON validated per family by the profiles module.
  await idColumn(db.schema.createTable('profiles'))
    .addColumn('venue_id', 'text', venueRef)
    .addColumn('family', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('admission_rule_group_id', 'text', (c) => c.references('admission_groups.id').onDelete('set null'))
    .addColumn('payment_policy_id', 'text', (c) => c.references('payment_policies.id').onDelete('set null'))
    .addColumn('pricelist_id', 'text')
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('profiles_venue_family_idx').on('profiles').columns(['venue_id', 'family', 'created_at']).execute();
  await db.schema.createIndex('profiles_group_idx').on('profiles').column('admission_rule_group_id').execute();
  await db.schema.createIndex('profiles_payment_policy_idx').on('profiles').column('payment_policy_id').execute();

  await db.schema
    .createTable('booking_policies')
    .addColumn('venue_id', 'text', (c) => c.primaryKey().references('venues.id').onDelete('cascade'))
    .addColumn('tables', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('guest_list', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('events', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await idColumn(db.schema.createTable('bundles'))
    .addColumn('venue_id', 'text', venueRef)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('applicable_profiles', 'text', (c) => c.notNull().defaultTo('["tables","events"]'))
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('bundles_venue_idx').on('bundles').columns(['venue_id', 'created_at']).execute();

  await idColumn(db.schema.createTable('bundle_items'))
    .addColumn('venue_id', 'text', venueRef)
    .addColumn('bundle_id', 'text', (c) => c.notNull().references('bundles.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('price', 'integer', (c) => c.notNull())
    .addColumn('max_qty', 'integer')
    .addColumn('image_url', 'text')
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('bundle_items_bundle_idx').on('bundle_items').columns(['bundle_id', 'created_at']).execute();

  await idColumn(db.schema.createTable('promo_codes'))
    .addColumn('venue_id', 'text', venueRef)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('discount_pct', 'double precision', (c) => c.notNull())
    .addColumn('max_uses', 'integer')
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'text')
    .$call(timestamps)
    .execute();
  // The arbiter of "unique per venue", also when two creates race.
  await db.schema.createIndex('promo_codes_venue_code_uq').on('promo_codes').columns(['venue_id', 'code']).unique().execute();

  // Tag names match case-insensitively ("vip" is the category "VIP"): the lower() indexes make that the
  // database's rule too, so two writers racing with different cases cannot both insert. The plain
  // (venue_id, kind, name) index is the ON CONFLICT target of flag upserts, which use the stored name.
  // A venue's custom categories, and its flag settings for platform-default or account categories (custom = 0).
  await idColumn(db.schema.createTable('tag_categories'))
    .addColumn('venue_id', 'text', venueRef)
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('custom', 'integer', (c) => c.notNull().defaultTo(1))
    .$call(flagColumns)
    .$call(timestamps)
    .execute();
  await db.schema
    .createIndex('tag_categories_venue_kind_name_uq')
    .on('tag_categories')
    .columns(['venue_id', 'kind', 'name'])
    .unique()
    .execute();
  await sql`create unique index tag_categories_venue_kind_lname_uq on tag_categories (venue_id, kind, lower(name))`.execute(db);

  await idColumn(db.schema.createTable('custom_tags'))
    .addColumn('venue_id', 'text', venueRef)
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await sql`create unique index custom_tags_uq on custom_tags (venue_id, kind, lower(category), lower(label))`.execute(db);

  // The same for a whole operator account: categories and tags every venue of the account sees, and the
  // account's flag settings for platform-default categories (custom = 0). Venues' own settings win.
  await idColumn(db.schema.createTable('account_tag_categories'))
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('custom', 'integer', (c) => c.notNull().defaultTo(1))
    .$call(flagColumns)
    .$call(timestamps)
    .execute();
  await db.schema
    .createIndex('account_tag_categories_operator_kind_name_uq')
    .on('account_tag_categories')
    .columns(['operator_id', 'kind', 'name'])
    .unique()
    .execute();
  await sql`create unique index account_tag_categories_operator_kind_lname_uq on account_tag_categories (operator_id, kind, lower(name))`.execute(
    db,
  );

  await idColumn(db.schema.createTable('account_tags'))
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await sql`create unique index account_tags_uq on account_tags (operator_id, kind, lower(category), lower(label))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'account_tags',
    'account_tag_categories',
    'custom_tags',
    'tag_categories',
    'promo_codes',
    'bundle_items',
    'bundles',
    'booking_policies',
    'profiles',
    'payment_policies',
    'admission_rules',
    'admission_groups',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
