/** Accounts, users, sessions, two-factor challenges, roles, members, platform settings, venues and bookings. */
import type { Kysely } from 'kysely';
import { idColumn, timestamps } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('platform_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await idColumn(db.schema.createTable('operators'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('company_name', 'text')
    .addColumn('company_reg', 'text')
    .addColumn('vat_number', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('payment_connect_status', 'text', (c) => c.notNull().defaultTo('not_started'))
    .addColumn('primary_user_id', 'text')
    .$call(timestamps)
    .execute();

  await idColumn(db.schema.createTable('roles'))
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('is_system', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('roles_operator_idx').on('roles').column('operator_id').execute();

  await db.schema
    .createTable('role_permissions')
    .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('permission_key', 'text', (c) => c.notNull())
    .addColumn('can_read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('can_write', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('role_permissions_pk', ['role_id', 'permission_key'])
    .execute();

  await idColumn(db.schema.createTable('users'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('operator_id', 'text', (c) => c.references('operators.id').onDelete('cascade'))
    .addColumn('role_id', 'text', (c) => c.references('roles.id').onDelete('set null'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('totp_secret', 'text')
    .addColumn('totp_pending_secret', 'text')
    .addColumn('totp_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('membership_tier', 'text')
    .addColumn('profile_image_url', 'text')
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('users_email_uq').on('users').column('email').unique().execute();
  await db.schema.createIndex('users_operator_idx').on('users').column('operator_id').execute();

  await idColumn(db.schema.createTable('sessions'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await idColumn(db.schema.createTable('two_factor_challenges'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await idColumn(db.schema.createTable('members'))
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('member'))
    .$call(timestamps)
    .addUniqueConstraint('members_operator_user_uq', ['operator_id', 'user_id'])
    .execute();

  await idColumn(db.schema.createTable('venues'))
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('live'))
    .addColumn('app_listing_status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('venue_type', 'text')
    .addColumn('food_types', 'text')
    .addColumn('phone', 'text')
    .addColumn('email', 'text')
    .addColumn('backdoor_capacity', 'integer')
    .addColumn('queue_skip_price', 'double precision')
    .addColumn('surge_threshold', 'double precision')
    .addColumn('surge_price', 'double precision')
    .addColumn('last_entry_time', 'text')
    .addColumn('max_plus_ones', 'integer', (c) => c.notNull().defaultTo(3))
    .addColumn('members_only', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('opening_hours', 'text')
    .addColumn('guest_list_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tables_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('paid_guest_list_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('booking_policy', 'text')
    .addColumn('default_booking_duration', 'integer', (c) => c.notNull().defaultTo(120))
    .addColumn('default_party_min', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('default_party_max', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('booking_cutoff_value', 'integer')
    .addColumn('booking_cutoff_unit', 'text')
    .addColumn('booking_start_value', 'integer')
    .addColumn('booking_start_unit', 'text')
    .addColumn('website', 'text')
    .addColumn('description', 'text')
    .addColumn('marketing_sender_name', 'text')
    .addColumn('marketing_reply_to', 'text')
    .addColumn('instagram_url', 'text')
    .addColumn('tiktok_url', 'text')
    .addColumn('twitter_url', 'text')
    .addColumn('logo_url', 'text')
    .addColumn('cover_image_url', 'text')
    .addColumn('timezone', 'text', (c) => c.notNull().defaultTo('Europe/London'))
    .addColumn('is_bookable', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('venues_operator_idx').on('venues').column('operator_id').execute();

  await db.schema
    .createTable('role_venues')
    .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('venue_id', 'text', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('role_venues_pk', ['role_id', 'venue_id'])
    .execute();

  await idColumn(db.schema.createTable('bookings'))
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('venue_id', 'text', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('event_id', 'text')
    .addColumn('access_rule_id', 'text')
    .addColumn('booking_date', 'text', (c) => c.notNull())
    .addColumn('start_time', 'text')
    .addColumn('duration_minutes', 'integer')
    .addColumn('starts_at', 'text')
    .addColumn('ends_at', 'text')
    .addColumn('guest_count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('guest_name', 'text')
    .addColumn('guest_email', 'text')
    .addColumn('guest_phone', 'text')
    .addColumn('total_pence', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('bookings_venue_date_idx').on('bookings').columns(['venue_id', 'booking_date']).execute();
  await db.schema.createIndex('bookings_operator_idx').on('bookings').columns(['operator_id', 'created_at']).execute();
  await db.schema.createIndex('bookings_user_idx').on('bookings').column('user_id').execute();

  await db.schema
    .createTable('booking_tables')
    .addColumn('booking_id', 'text', (c) => c.notNull().references('bookings.id').onDelete('cascade'))
    .addColumn('table_id', 'text', (c) => c.notNull())
    .addColumn('venue_id', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('ends_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('booking_tables_pk', ['booking_id', 'table_id'])
    .execute();
  // Overlap look-ups ask `ends_at > from AND starts_at < to`: leading with ends_at bounds the scan to
  // stays that have not ended, instead of a table's whole booking history.
  await db.schema
    .createIndex('booking_tables_table_window_idx')
    .on('booking_tables')
    .columns(['table_id', 'ends_at', 'starts_at'])
    .execute();
  await db.schema
    .createIndex('booking_tables_venue_window_idx')
    .on('booking_tables')
    .columns(['venue_id', 'ends_at', 'starts_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'booking_tables',
    'bookings',
    'role_venues',
    'venues',
    'members',
    'two_factor_challenges',
    'sessions',
    'users',
    'role_permissions',
    'roles',
    'operators',
    'platform_settings',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
