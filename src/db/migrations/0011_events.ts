/**
 * Ticketed events (events module):
 * - events: a venue's events (fixed venue, date and times, capacity, status, listing, image and its
 *   attribution). One index serves the same-day clash check and the venue list.
 * - ticket_types: an event's ticket types (price, capacity or unlimited, order, the ticket profile and
 *   admission group they use, which the profiles module detaches when those are deleted). `event_id`,
 *   `venue_id` and the other columns are nullable or defaulted so rows that name only the two reference
 *   columns (tests of the profiles module) can still be written.
 * - event_tickets: what each event booking bought (ticket type, quantity, unit price) and its door token.
 */
import type { Kysely } from 'kysely';
import { timestamps } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('venue_id', 'text', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('event_date', 'text', (c) => c.notNull())
    .addColumn('start_time', 'text')
    .addColumn('end_time', 'text')
    .addColumn('last_entry_time', 'text')
    .addColumn('event_type', 'text')
    .addColumn('event_genre', 'text')
    .addColumn('description', 'text')
    .addColumn('guest_list_capacity', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('public'))
    .addColumn('event_mode', 'text', (c) => c.notNull().defaultTo('ticketed'))
    .addColumn('image_url', 'text')
    .addColumn('image_attribution', 'text')
    .addColumn('app_listing_status', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('status_changed_at', 'text')
    .$call(timestamps)
    .execute();
  await db.schema.createIndex('events_venue_date_idx').on('events').columns(['venue_id', 'event_date', 'status']).execute();
  await db.schema.createIndex('events_operator_date_idx').on('events').columns(['operator_id', 'event_date']).execute();

  await db.schema
    .createTable('ticket_types')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.references('events.id').onDelete('cascade'))
    .addColumn('venue_id', 'text', (c) => c.references('venues.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('price_pence', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('capacity', 'integer')
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('admission_rule_group_id', 'text')
    .addColumn('ticket_profile_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('ticket_types_event_idx').on('ticket_types').columns(['event_id', 'sort_order']).execute();
  await db.schema.createIndex('ticket_types_profile_idx').on('ticket_types').column('ticket_profile_id').execute();
  await db.schema.createIndex('ticket_types_group_idx').on('ticket_types').column('admission_rule_group_id').execute();

  await db.schema
    .createTable('event_tickets')
    .addColumn('booking_id', 'text', (c) => c.primaryKey().references('bookings.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('ticket_type_id', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('unit_price_pence', 'integer', (c) => c.notNull())
    .addColumn('qr_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('event_tickets_event_idx').on('event_tickets').columns(['event_id', 'ticket_type_id']).execute();
  await db.schema.createIndex('bookings_event_idx').on('bookings').columns(['event_id', 'status']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('bookings_event_idx').execute();
  await db.schema.dropTable('event_tickets').execute();
  await db.schema.dropTable('ticket_types').execute();
  await db.schema.dropTable('events').execute();
}
