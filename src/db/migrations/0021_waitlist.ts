/**
 * The waitlist (waitlist module): one row per party waiting at a venue. A `walk_in` entry is a party at
 * the door waiting for a table now (quoted a wait, notified, seated from the list as a walk-in booking);
 * an `online` entry is a guest who asked for a full date and a time window, offered a freed slot for a
 * limited time (`offer_*`), which they accept into a booking. The guest's link is a MACed token naming
 * the entry (domain/booking-tokens/waitlist-link.ts). Statuses and their moves: docs/waitlist.md. The
 * entry goes with its venue; the booking it made keeps it (set null when the booking row goes).
 */
import type { Kysely } from 'kysely';
import { idColumn } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await idColumn(db.schema.createTable('waitlist_entries'))
    .addColumn('venue_id', 'text', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('party_size', 'integer', (c) => c.notNull())
    .addColumn('guest_name', 'text', (c) => c.notNull())
    .addColumn('guest_email', 'text')
    .addColumn('guest_phone', 'text')
    .addColumn('notes', 'text')
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('time_from', 'text')
    .addColumn('time_to', 'text')
    .addColumn('quoted_minutes', 'integer')
    .addColumn('offer_time', 'text')
    .addColumn('offer_access_rule_id', 'text')
    .addColumn('offer_expires_at', 'text')
    .addColumn('offers_made', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('notified_at', 'text')
    .addColumn('booking_id', 'text', (c) => c.references('bookings.id').onDelete('set null'))
    .addColumn('status_changed_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The lists by venue, day and kind in line order; the offer pass's waiting and offered entries.
  await db.schema
    .createIndex('waitlist_entries_venue_date_idx')
    .on('waitlist_entries')
    .columns(['venue_id', 'date', 'kind', 'created_at'])
    .execute();
  await db.schema.createIndex('waitlist_entries_status_idx').on('waitlist_entries').columns(['kind', 'status', 'date']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('waitlist_entries').execute();
}
