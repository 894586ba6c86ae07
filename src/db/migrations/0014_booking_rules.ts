/**
 * Booking rules of security round 2:
 * - venues.check_in_window_minutes: how long before a booking's time the door may check it in (120).
 * - ticket_types.max_per_order: the most tickets of the type one order may take (10).
 * - bookings.hold_address: the client address that made an unpaid public hold, so holds are capped
 *   per address as well as per email (the payment-expiry index already narrows the count to live holds).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('venues')
    .addColumn('check_in_window_minutes', 'integer', (c) => c.notNull().defaultTo(120))
    .execute();
  await db.schema
    .alterTable('ticket_types')
    .addColumn('max_per_order', 'integer', (c) => c.notNull().defaultTo(10))
    .execute();
  await db.schema.alterTable('bookings').addColumn('hold_address', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bookings').dropColumn('hold_address').execute();
  await db.schema.alterTable('ticket_types').dropColumn('max_per_order').execute();
  await db.schema.alterTable('venues').dropColumn('check_in_window_minutes').execute();
}
