/** Venues module: sister links, branding, widget settings and theme, and gift-voucher settings. */
import type { Kysely } from 'kysely';
import { timestamps } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('venue_sisters')
    .addColumn('venue_id', 'text', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    .addColumn('sister_venue_id', 'text', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('venue_sisters_pk', ['venue_id', 'sister_venue_id'])
    .execute();
  // The cascade from a deleted venue on the sister side looks rows up by sister_venue_id.
  await db.schema.createIndex('venue_sisters_sister_idx').on('venue_sisters').column('sister_venue_id').execute();

  await db.schema
    .createTable('venue_branding')
    .addColumn('venue_id', 'text', (c) => c.primaryKey().references('venues.id').onDelete('cascade'))
    .addColumn('theme', 'text', (c) => c.notNull())
    .addColumn('accent_color', 'text', (c) => c.notNull())
    .addColumn('bg_color', 'text', (c) => c.notNull())
    .addColumn('text_color', 'text', (c) => c.notNull())
    .addColumn('font_key', 'text', (c) => c.notNull())
    .addColumn('logo_url', 'text')
    .$call(timestamps)
    .execute();

  await db.schema
    .createTable('widget_settings')
    .addColumn('venue_id', 'text', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    .addColumn('widget_type', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('logo_url', 'text')
    .$call(timestamps)
    .addPrimaryKeyConstraint('widget_settings_pk', ['venue_id', 'widget_type'])
    .execute();

  await db.schema
    .createTable('widget_themes')
    .addColumn('venue_id', 'text', (c) => c.primaryKey().references('venues.id').onDelete('cascade'))
    .addColumn('width', 'text', (c) => c.notNull())
    .addColumn('theme_mode', 'text', (c) => c.notNull())
    .addColumn('custom_css', 'text', (c) => c.notNull())
    .addColumn('show_map', 'integer', (c) => c.notNull())
    .addColumn('show_about', 'integer', (c) => c.notNull())
    .addColumn('show_tandc', 'integer', (c) => c.notNull())
    .addColumn('show_info_card', 'integer', (c) => c.notNull())
    .addColumn('show_contact', 'integer', (c) => c.notNull())
    .$call(timestamps)
    .execute();

  // Column defaults are the product's voucher defaults (VOUCHER_SETTINGS_DEFAULTS in modules/venues/voucher-settings.ts).
  await db.schema
    .createTable('voucher_settings')
    .addColumn('venue_id', 'text', (c) => c.primaryKey().references('venues.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expiration_months', 'integer', (c) => c.notNull().defaultTo(12))
    .addColumn('min_amount_pence', 'integer', (c) => c.notNull().defaultTo(1000))
    .addColumn('max_amount_pence', 'integer', (c) => c.notNull().defaultTo(50000))
    .addColumn('fixed_amounts', 'text', (c) => c.defaultTo('[2500,5000,10000]'))
    .addColumn('allow_custom', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('min_qty', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('max_qty', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('terms', 'text', (c) => c.notNull().defaultTo(''))
    .$call(timestamps)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['voucher_settings', 'widget_themes', 'widget_settings', 'venue_branding', 'venue_sisters']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
