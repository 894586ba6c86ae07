/**
 * The bookings module's writes that every flow shares: reading a booking, moving it between statuses
 * (race-safe, with its slots and history), and the shape staff see.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import { canMove, isActive, refusedMoveMessage, type BookingStatus } from '../../../domain/booking-status.js';
import { kyselyOf, type Conn } from '../../../db/transaction.js';
import { domainEvents } from '../../../platform/domain-events.js';
import { conflict, notFound } from '../../../platform/errors.js';
import type { BookingRow } from './bookings.table.js';
import { bookingEvent, statusEventType } from './booking-events.js';
import { refundSpentKeys } from './guestlist-keys.js';
import { recordHistory, type Actor } from './history.js';
import { releaseSlots } from './slots.js';

export type { BookingRow };

/** What a staff change of one booking runs with: its venue, who acts, and when. */
export interface ChangeContext {
  venue: VenueRow;
  actor: Actor;
  now: Date;
}

/** One change of a booking, run on the freshly read row inside its serialised transaction. */
export type Change = (trx: Kysely<Database>, booking: BookingRow, context: ChangeContext) => Promise<void>;

export async function findBooking(db: Conn, id: string): Promise<BookingRow | undefined> {
  return kyselyOf(db).selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The venue's booking with a short reference on one of `dates` (the first date's first). */
export async function bookingByReference(db: Conn, venueId: string, reference: string, dates: string[]): Promise<BookingRow | undefined> {
  const rows = await kyselyOf(db)
    .selectFrom('bookings')
    .selectAll()
    .where('venue_id', '=', venueId)
    .where('reference', '=', reference)
    .where('booking_date', 'in', dates)
    .execute();
  return dates.map((date) => rows.find((row) => row.booking_date === date)).find(Boolean);
}

export async function bookingOrThrow(db: Conn, id: string): Promise<BookingRow> {
  const row = await findBooking(db, id);
  if (!row) throw notFound('Booking');
  return row;
}

/** The table ids a booking holds (its assignment, kept after it ends as a record). */
export async function tableIdsOf(db: Conn, bookingId: string): Promise<string[]> {
  const rows = await kyselyOf(db)
    .selectFrom('booking_tables')
    .select('table_id')
    .where('booking_id', '=', bookingId)
    .orderBy('table_id')
    .execute();
  return rows.map((row) => row.table_id);
}

export interface StatusChange {
  to: BookingStatus;
  /** Past participle for the refusal message: "approved", "checked in". */
  action: string;
  /** The history action name (`approve`, `check_in`…). */
  historyAction: string;
  actor: Actor;
  now: Date;
  /** Other columns written with the status. */
  set?: Partial<Omit<BookingRow, 'id' | 'status'>>;
  detail?: Record<string, unknown>;
  /** Takes a no-show back to the status it replaced (the caller checked it: `noShowUndo`), outside the status table. */
  undo?: boolean;
}

/**
 * Moves `booking` to `change.to` when the status table allows it from its current status (409 naming
 * the current status otherwise). The update is conditional on the status read, so of two concurrent
 * moves only one applies; the other is refused with the status the first left. A booking that stops
 * being active frees its table slots.
 */
export async function changeStatus(trx: Conn, booking: BookingRow, change: StatusChange): Promise<BookingRow> {
  if (!change.undo && !canMove(booking.status, change.to))
    throw conflict(refusedMoveMessage(booking.status, change.action), { status: booking.status });
  const at = change.now.toISOString();
  const extra: Record<string, unknown> = { ...change.set };
  if (change.to === 'checked_in') extra.checked_in_at ??= at;
  if (change.to === 'cancelled') extra.cancelled_at ??= at;
  const result = await kyselyOf(trx)
    .updateTable('bookings')
    .set({ ...extra, status: change.to, status_changed_at: at, updated_at: at })
    .where('id', '=', booking.id)
    .where('status', '=', booking.status)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) {
    const now = await bookingOrThrow(trx, booking.id);
    throw conflict(refusedMoveMessage(now.status, change.action), { status: now.status });
  }
  if (!isActive(change.to)) await releaseSlots(trx, booking.id);
  await recordHistory(
    trx,
    booking.id,
    change.actor,
    { action: change.historyAction, fromStatus: booking.status, toStatus: change.to, detail: change.detail },
    change.now,
  );
  // A guest-list booking that ends without the guest getting in gives back the keys it spent (once).
  await refundSpentKeys(trx, booking, change);
  const moved = await bookingOrThrow(trx, booking.id);
  await domainEvents.emit(trx, bookingEvent(statusEventType(change.to), moved, at));
  return moved;
}
