/**
 * Availability (time periods, shifts, access rules, blackouts) and the floorplan (seating areas, floors,
 * tables, blocks, combinations, smart-table settings, price lists with per-table overrides).
 *
 * References to profiles, payment policies and bundles carry no foreign key: those tables arrive in
 * 0005, and their module nulls the columns when it deletes a referenced row.
 */
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { idColumn, timestamps } from './helpers.js';

const venueRef = (c: ColumnDefinitionBuilder) => c.notNull().references('venues.id').onDelete('cascade');

export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db.schema.createTable('seating_areas'))
    .addColumn('venue_id', 'text', venueRef)
    .addColumn('name', 'text', (c) => c.notNull())
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('seating_areas_venue_idx').on('seating_areas').column('venue_id').execute();

  await idColumn(db.schema.createTable('floors'))
    .addColumn('venue_id', 'text', venueRef)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('canvas_data', 'text', (c) => c.notNull().defaultTo('[]'))
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('floors_venue_idx').on('floors').column('venue_id').execute();

  await idColumn(db.schema.createTable('venue_tables'))
    .addColumn('venue_id', 'text', venueRef)
    .addColumn('table_number', 'text', (c) => c.notNull())
    .addColumn('capacity', 'integer', (c) => c.notNull().defaultTo(4))
    .addColumn('min_covers', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('table_type', 'text', (c) => c.notNull().defaultTo('standard'))
    .addColumn('seating_area_id', 'text', (c) => c.references('seating_areas.id').onDelete('set null'))
    .addColumn('floor_id', 'text', (c) => c.references('floors.id').onDelete('set null'))
    .addColumn('x', 'double precision')
    .addColumn('y', 'double precision')
    .addColumn('shape', 'text')
    .addColumn('size', 'text')
    .$call(timestamps)
    // The floor canvas links items to tables by number, so a number names one table per venue.
    .addUniqueConstraint('venue_tables_number_uq', ['venue_id', 'table_number'])
    .execute();
  await db.schema.createIndex('venue_tables_area_idx').on('venue_tables').column('seating_area_id').execute();
  await db.schema.createIndex('venue_tables_floor_idx').on('venue_tables').column('floor_id').execute();

  await idColumn(db.schema.createTable('table_blocks'))
    .addColumn('venue_id', 'text', venueRef)
    .addColumn('table_id', 'text', (c) => c.notNull().references('venue_tables.id').onDelete('cascade'))
    .addColumn('blocked_from', 'text', (c) => c.notNull())
    .addColumn('blocked_to', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .$call(timestamps)
    .execute();
  // "Blocks of a table (or of the venue) overlapping a time range": `blocked_to > from AND blocked_from < to`.
  // Led by blocked_to, the range skips the past blocks that pile up over the years (led by blocked_from it
  // would scan all of them); blocked_from is then checked inside the index. The venue index also serves the block list.
  await db.schema
    .createIndex('table_blocks_table_window_idx')
    .on('table_blocks')
    .columns(['table_id', 'blocked_to', 'blocked_from'])
    .execute();
  await db.schema
    .createIndex('table_blocks_venue_window_idx')
    .on('table_blocks')
    .columns(['venue_id', 'blocked_to', 'blocked_from'])
    .execute();

  await idColumn(db.schema.createTable('table_combinations'))
    .addColumn('venue_id', 'text', venueRef)
    .addColumn('name', 'text', (c) => c.notNull())
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('table_combinations_venue_idx').on('table_combinations').column('venue_id').execute();

  await db.schema
    .createTable('table_combination_tables')
    .addColumn('combination_id', 'text', (c) => c.notNull().references('table_combinations.id').onDelete('cascade'))
    .addColumn('table_id', 'text', (c) => c.notNull().references('venue_tables.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('table_combination_tables_pk', ['combination_id', 'table_id'])
    .execute();
  await db.schema.createIndex('table_combination_tables_table_idx').on('table_combination_tables').column('table_id').execute();

  await db.schema
    .createTable('smart_table_settings')
    .addColumn('venue_id', 'text', (c) => c.primaryKey().references('venues.id').onDelete('cascade'))
    .addColumn('reassign_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reassign_time', 'text', (c) => c.notNull().defaultTo('06:00'))
    .addColumn('duration_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reassign_last_run', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await idColumn(db.schema.createTable('pricelists'))
    .addColumn('venue_id', 'text', venueRef)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('default_price_pence', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('pricelists_venue_idx').on('pricelists').column('venue_id').execute();

  await db.schema
    .createTable('pricelist_prices')
    .addColumn('pricelist_id', 'text', (c) => c.notNull().references('pricelists.id').onDelete('cascade'))
    .addColumn('table_id', 'text', (c) => c.notNull().references('venue_tables.id').onDelete('cascade'))
    .addColumn('price_pence', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('pricelist_prices_pk', ['pricelist_id', 'table_id'])
    .execute();
  await db.schema.createIndex('pricelist_prices_table_idx').on('pricelist_prices').column('table_id').execute();

  await idColumn(db.schema.createTable('time_periods'))
    .addColumn('venue_id', 'text', venueRef)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('time_from', 'text', (c) => c.notNull())
    .addColumn('time_to', 'text', (c) => c.notNull())
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('time_periods_venue_idx').on('time_periods').column('venue_id').execute();

  await idColumn(db.schema.createTable('shifts'))
    .addColumn('venue_id', 'text', venueRef)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('days_of_week', 'text', (c) => c.notNull())
    .addColumn('time_type', 'text', (c) => c.notNull().defaultTo('default'))
    .addColumn('time_period_id', 'text', (c) => c.references('time_periods.id').onDelete('set null'))
    .addColumn('time_from', 'text')
    .addColumn('time_to', 'text')
    .addColumn('schedule_start', 'text')
    .addColumn('schedule_end', 'text')
    .addColumn('party_size_min', 'integer')
    .addColumn('party_size_max', 'integer')
    .addColumn('seating_area_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('table_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('duration_type', 'text', (c) => c.notNull().defaultTo('default'))
    .addColumn('duration_minutes', 'integer')
    .addColumn('payment_policy_id', 'text')
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('shifts_venue_idx').on('shifts').column('venue_id').execute();

  await idColumn(db.schema.createTable('access_rules'))
    .addColumn('venue_id', 'text', venueRef)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('rule_type', 'text', (c) => c.notNull().defaultTo('table'))
    .addColumn('days_of_week', 'text', (c) => c.notNull())
    .addColumn('time_from', 'text')
    .addColumn('time_to', 'text')
    .addColumn('app_opt_out', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('party_size_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('party_size_min', 'integer')
    .addColumn('party_size_max', 'integer')
    .addColumn('table_assignment_mode', 'text', (c) => c.notNull().defaultTo('auto'))
    .addColumn('guest_pick_area_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('duration_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duration_minutes', 'integer')
    .addColumn('display_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('display_title', 'text')
    .addColumn('display_description', 'text')
    .addColumn('display_image_url', 'text')
    .addColumn('seating_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('seating_area_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('table_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('bundles_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bundle_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('booking_window_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('booking_cutoff_value', 'integer')
    .addColumn('booking_cutoff_unit', 'text')
    .addColumn('booking_start_value', 'integer')
    .addColumn('booking_start_unit', 'text')
    .addColumn('max_covers_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_covers', 'integer')
    .addColumn('venue_access_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('venue_access_value', 'double precision')
    .addColumn('free_guest_list_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('free_guest_list_value', 'double precision')
    .addColumn('paid_guest_list_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('paid_guest_list_value', 'double precision')
    .addColumn('queue_skip_price_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('queue_skip_price_value', 'double precision')
    .addColumn('surge_threshold_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('surge_threshold_value', 'double precision')
    .addColumn('surge_price_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('surge_price_value', 'double precision')
    .addColumn('reservation_tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('pricelist_id', 'text', (c) => c.references('pricelists.id').onDelete('set null'))
    .addColumn('payment_policy_id', 'text')
    .addColumn('list_profile_id', 'text')
    .addColumn('table_profile_id', 'text')
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('access_rules_venue_idx').on('access_rules').column('venue_id').execute();

  await idColumn(db.schema.createTable('blackouts'))
    .addColumn('venue_id', 'text', venueRef)
    .addColumn('date_from', 'text', (c) => c.notNull())
    .addColumn('date_to', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('affects_guestlist', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('affects_events', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('affects_reservations', 'integer', (c) => c.notNull().defaultTo(1))
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('blackouts_venue_date_idx').on('blackouts').columns(['venue_id', 'date_from']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'blackouts',
    'access_rules',
    'shifts',
    'time_periods',
    'pricelist_prices',
    'pricelists',
    'smart_table_settings',
    'table_combination_tables',
    'table_combinations',
    'table_blocks',
    'venue_tables',
    'floors',
    'seating_areas',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
