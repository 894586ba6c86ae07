/**
 * The database's guarantee against double booking (booking_slots, migration 0008): an active stay owns
 * one row per table and 15-minute slot it touches, and (table_id, slot) is the primary key. The service
 * checks availability first and names what is wrong; this is what holds when that check is skipped or
 * two server instances race: the second insert fails, and the transaction rolls back.
 * Slots are written when a booking becomes active and deleted when it stops being active (cancelled,
 * rejected, expired, door-rejected, no-show), when it moves tables or changes duration (rewritten),
 * and from the close time on when staff close the table.
 */
import { kyselyOf, type Conn } from '../../../db/transaction.js';
import { isUniqueViolation } from '../../../db/errors.js';
import { chunked } from '../../../db/batch.js';
import { slotKeysOf } from '../../../domain/table-assignment/index.js';

export { slotKeyOf as slotOf, slotKeysOf as slotsOf } from '../../../domain/table-assignment/index.js';
import { conflict } from '../../../platform/errors.js';

export const TABLE_TAKEN_MESSAGE = 'That table is no longer available at that time';

/**
 * Claims `tableIds` for the booking's stay. A slot already held by another active stay is a 409 (the
 * caller's transaction must roll back: on PostgreSQL a failed statement aborts it).
 */
export async function claimSlots(
  trx: Conn,
  booking: { id: string; venueId: string },
  tableIds: readonly string[],
  startsAt: Date,
  endsAt: Date,
): Promise<void> {
  const rows = slotRows(booking, tableIds, startsAt, endsAt);
  try {
    for (const chunk of chunked(rows)) await kyselyOf(trx).insertInto('booking_slots').values(chunk).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(TABLE_TAKEN_MESSAGE);
    throw error;
  }
}

/** The slot rows of a stay at `tableIds` over [startsAt, endsAt). */
export function slotRows(booking: { id: string; venueId: string }, tableIds: readonly string[], startsAt: Date, endsAt: Date) {
  const slots = slotKeysOf(startsAt, endsAt);
  return tableIds.flatMap((tableId) =>
    slots.map((slot) => ({ table_id: tableId, slot, booking_id: booking.id, venue_id: booking.venueId })),
  );
}

/** Frees every slot of the booking (or those from `fromSlot` on). */
export async function releaseSlots(trx: Conn, bookingId: string, fromSlot?: number): Promise<void> {
  await kyselyOf(trx)
    .deleteFrom('booking_slots')
    .where('booking_id', '=', bookingId)
    .$if(fromSlot !== undefined, (q) => q.where('slot', '>=', fromSlot!))
    .execute();
}
