/**
 * The only writers of the booking record (`bookings`, `booking_tables`, `booking_slots`; the flows call
 * these, test/platform/table-ownership.test.ts refuses a write anywhere else): a new booking with its
 * tables and their slots, a change of its fields, a close of its stay, and freeing its tables. Status
 * moves are `changeStatus` (booking-store.ts); re-seating is `holdTables` (seating.ts).
 */
import type { Insertable, Updateable } from 'kysely';
import type { DeferredRows } from '../../../db/deferred-rows.js';
import { kyselyOf, type Conn } from '../../../db/transaction.js';
import { domainEvents } from '../../../platform/domain-events.js';
import { randomChars } from '../../../platform/ids.js';
import { joinRoster, joinRosterMany } from '../../guests/index.js';
import { bookingEvent } from './booking-events.js';
import type { BookingsTable } from './bookings.table.js';
import { claimSlots, releaseSlots, slotRows } from './slots.js';

export interface NewBooking {
  /** The row as the flow builds it (its columns are written in this order). */
  row: Insertable<BookingsTable> & { id: string; venue_id: string };
  /** The guest joins the venue's roster, right after the row is written. */
  roster?: Parameters<typeof joinRoster>[1];
  /** The tables the booking holds for its stay, and their 15-minute slots (409 when one is taken). */
  tables?: { tableIds: readonly string[]; startsAt: Date; endsAt: Date };
}

/**
 * Writes a new booking: its row, the guest's roster entry, its tables and their slots, in that order.
 * Answers its reference (drawn when the row has none).
 *
 * With `deferred` (a group commit's batch), the row, its tables and their slots are left to the batch's
 * multi-row statements (db/deferred-rows.ts), and the guest's roster entry to the batch's `joinRosterMany`: nothing later in the batch may read them, and a taken slot
 * or reference then fails the whole batch, which is tried again booking by booking (where it is the 409).
 * Its reference is then drawn without a look at the stored ones: the unique index is the check.
 */
export async function insertBooking(conn: Conn, booking: NewBooking, deferred?: DeferredRows): Promise<string> {
  const { row, tables } = booking;
  const reference = row.reference ?? (deferred ? drawReference() : await freeReference(conn, row.venue_id, row.booking_date));
  if (deferred) deferred.add('bookings', [{ ...row, reference }]);
  else
    await kyselyOf(conn)
      .insertInto('bookings')
      .values({ ...row, reference })
      .execute();
  if (booking.roster) {
    if (deferred) deferred.collect('roster', booking.roster, joinRosterMany);
    else await joinRoster(conn, booking.roster);
  }
  if (tables && tables.tableIds.length > 0) {
    const { tableIds, startsAt, endsAt } = tables;
    if (deferred) {
      deferred.add('booking_tables', bookingTableRows({ id: row.id, venue_id: row.venue_id }, tableIds, startsAt, endsAt));
      deferred.add('booking_slots', slotRows({ id: row.id, venueId: row.venue_id }, tableIds, startsAt, endsAt));
    } else {
      await insertBookingTables(conn, { id: row.id, venue_id: row.venue_id }, tableIds, startsAt, endsAt);
      await claimSlots(conn, { id: row.id, venueId: row.venue_id }, tableIds, startsAt, endsAt);
    }
  }
  await domainEvents.emit(conn, bookingEvent('booking.created', { ...row, reference }, row.created_at));
  return reference;
}

const bookingTableRows = (booking: { id: string; venue_id: string }, tableIds: readonly string[], startsAt: Date, endsAt: Date) =>
  tableIds.map((tableId) => ({
    booking_id: booking.id,
    table_id: tableId,
    venue_id: booking.venue_id,
    starts_at: startsAt.toISOString(),
    ends_at: endsAt.toISOString(),
  }));

/** The booking's tables for [startsAt, endsAt) (their slots are claimed separately). */
export async function insertBookingTables(
  conn: Conn,
  booking: { id: string; venue_id: string },
  tableIds: readonly string[],
  startsAt: Date,
  endsAt: Date,
): Promise<void> {
  await kyselyOf(conn)
    .insertInto('booking_tables')
    .values(bookingTableRows(booking, tableIds, startsAt, endsAt))
    .execute();
}

/**
 * Sets fields of booking `id` (never its status: `changeStatus`), only while each `onlyIf` column still
 * has its value. Answers how many rows changed (0 or 1).
 */
export async function updateBooking(
  conn: Conn,
  id: string,
  set: Updateable<BookingsTable>,
  onlyIf: Partial<Record<'kind' | 'payment_status' | 'payment_intent_id', string>> = {},
): Promise<number> {
  let query = kyselyOf(conn).updateTable('bookings').set(set).where('id', '=', id);
  for (const [column, value] of Object.entries(onlyIf)) query = query.where(column as keyof typeof onlyIf, '=', value);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Staff close the table: the booking and its tables end at `endsAt` (its slots from then on are freed by the caller). */
export async function closeStay(conn: Conn, bookingId: string, at: string, endsAt: string): Promise<void> {
  const k = kyselyOf(conn);
  await k.updateTable('bookings').set({ closed_at: at, ends_at: endsAt, updated_at: at }).where('id', '=', bookingId).execute();
  await k.updateTable('booking_tables').set({ ends_at: endsAt }).where('booking_id', '=', bookingId).execute();
}

/** Frees every table of the booking: its slots, then its tables. */
export async function releaseTables(conn: Conn, bookingId: string): Promise<void> {
  await releaseSlots(conn, bookingId);
  await kyselyOf(conn).deleteFrom('booking_tables').where('booking_id', '=', bookingId).execute();
}

/** Letters and digits people cannot confuse when read out or typed (no 0/O, 1/I/L, 5/S, 2/Z, 8/B). */
const REFERENCE_ALPHABET = 'ACDEFGHJKMNPQRTUVWXY34679';
export const REFERENCE_LENGTH = 6;

/** A random reference (25^6 of them, each as likely). */
function drawReference(): string {
  return randomChars(REFERENCE_ALPHABET, REFERENCE_LENGTH);
}

/**
 * A reference not yet used at the venue on that date. With 25^6 (about 244 million) references and at
 * most a few thousand bookings a day, the first draw almost always wins; the unique index
 * (venue_id, booking_date, reference) is the final arbiter if two instances drew the same one at once.
 */
async function freeReference(conn: Conn, venueId: string, date: string): Promise<string> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const reference = drawReference();
    const taken = await kyselyOf(conn)
      .selectFrom('bookings')
      .select('id')
      .where('venue_id', '=', venueId)
      .where('booking_date', '=', date)
      .where('reference', '=', reference)
      .executeTakeFirst();
    if (!taken) return reference;
  }
  throw new Error('could not draw an unused booking reference');
}
