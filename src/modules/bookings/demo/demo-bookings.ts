/**
 * Seeding a venue with bookings as the booking engine would have left them (`maitred demo`'s week of
 * reservations). Each booking is written as it was made — its row, its tables and their claimed slots,
 * its `create` history — and then taken through its later statuses by the same status machine the staff
 * floor and the door use (`changeStatus`), at the times those moves happened: slots are freed when it
 * stops being active, and its history, status times and slots agree with a booking made for real.
 * Everything runs in one transaction: a table already taken refuses the whole seed (409).
 */
import type { Db } from '../../../db/connect.js';
import { withTransaction, type Conn } from '../../../db/transaction.js';
import { localToUtc } from '../../../domain/venue-time.js';
import { conflict } from '../../../platform/errors.js';
import { orderedId } from '../../../platform/ids.js';
import { guestForEmail } from '../../auth/index.js';
import { bookingOrThrow, changeStatus, type StatusChange } from '../core/booking-store.js';
import { tablesTakenBetween } from '../core/bookings.repository.js';
import { insertBooking } from '../core/booking-writes.js';
import { recordHistory, type Actor } from '../core/history.js';
import { TABLE_TAKEN_MESSAGE } from '../core/slots.js';

/** A later status move of a seeded booking, made by the venue's staff at `at`. */
export interface SeedMove {
  to: 'approved' | 'confirmed' | 'checked_in' | 'no_show' | 'cancelled';
  at: Date;
  /** The cancellation's reason (a cancellation only). */
  reason?: string;
}

export interface SeedBooking {
  /** Venue-local date and clock time of the stay. */
  date: string;
  time: string;
  durationMinutes: number;
  tableIds: string[];
  accessRuleId: string | null;
  partySize: number;
  guest: { name: string; email: string; phone: string | null };
  notes?: string | null;
  /** `widget`: the guest booked online; `staff`: taken by the venue (by phone), made by the staff actor. */
  source: 'widget' | 'staff';
  /** `pending` waits for the venue's approval; `confirmed` was confirmed when made. */
  initialStatus: 'pending' | 'confirmed';
  createdAt: Date;
  /** Oldest first; each must be a move the status table allows. */
  moves: SeedMove[];
}

/** How each move is recorded: the refusal wording and the history action of the flow that makes it. */
const MOVE_RECORDS: Record<SeedMove['to'], Pick<StatusChange, 'action' | 'historyAction'>> = {
  approved: { action: 'approved', historyAction: 'approve' },
  confirmed: { action: 'confirmed', historyAction: 'set_status' },
  checked_in: { action: 'checked in', historyAction: 'check_in' },
  no_show: { action: 'marked as a no-show', historyAction: 'set_status' },
  cancelled: { action: 'cancelled', historyAction: 'staff_cancel' },
};

async function seedOne(
  trx: Conn,
  venue: { id: string; operatorId: string; timezone: string },
  staff: Actor,
  seed: SeedBooking,
): Promise<string> {
  const startsAt = localToUtc(seed.date, seed.time, venue.timezone);
  const endsAt = new Date(startsAt.getTime() + seed.durationMinutes * 60_000);
  const taken = await tablesTakenBetween(trx, venue.id, seed.tableIds, startsAt, endsAt);
  if (taken.size > 0) throw conflict(TABLE_TAKEN_MESSAGE, { table_ids: [...taken] });

  const id = orderedId('bkg');
  const created = seed.createdAt.toISOString();
  const userId = await guestForEmail(trx, { name: seed.guest.name, email: seed.guest.email }, seed.createdAt);
  await insertBooking(trx, {
    row: {
      id,
      operator_id: venue.operatorId,
      venue_id: venue.id,
      kind: 'table',
      rule_type: 'table',
      status: seed.initialStatus,
      // Matched to a guest record by email, as every booking is (decisions: guests are matched by email).
      user_id: userId,
      event_id: null,
      access_rule_id: seed.accessRuleId,
      booking_date: seed.date,
      start_time: seed.time,
      duration_minutes: seed.durationMinutes,
      starts_at: startsAt.toISOString(),
      ends_at: endsAt.toISOString(),
      guest_count: seed.partySize,
      guest_name: seed.guest.name,
      guest_email: seed.guest.email,
      guest_phone: seed.guest.phone,
      notes: seed.notes ?? null,
      source: seed.source,
      status_changed_at: created,
      created_at: created,
      updated_at: created,
    },
    roster: { operatorId: venue.operatorId, venueId: venue.id, userId, at: seed.createdAt, phone: seed.guest.phone },
    tables: { tableIds: seed.tableIds, startsAt, endsAt },
  });
  const maker: Actor = seed.source === 'staff' ? staff : { kind: 'guest', id: null, name: seed.guest.name };
  await recordHistory(
    trx,
    id,
    maker,
    { action: 'create', toStatus: seed.initialStatus, detail: { table_ids: seed.tableIds, deposit_pence: 0 } },
    seed.createdAt,
  );

  for (const move of seed.moves) {
    const cancel = move.to === 'cancelled';
    const reason = move.reason ?? null;
    await changeStatus(trx, await bookingOrThrow(trx, id), {
      to: move.to,
      ...MOVE_RECORDS[move.to],
      actor: staff,
      now: move.at,
      ...(cancel ? { set: { cancel_reason: reason } } : {}),
      detail: cancel
        ? { reason, refund: false, refunded_pence: 0, payment_status: 'none' }
        : move.to === 'checked_in'
          ? { via: 'qr' }
          : undefined,
    });
  }
  return id;
}

/**
 * Writes `bookings` at the venue, in order, in one transaction; answers their ids. `staff` is the
 * venue user who took phone bookings and made every later move.
 */
export async function seedDemoBookings(
  db: Db,
  venue: { id: string; operatorId: string; timezone: string },
  staff: Actor,
  bookings: readonly SeedBooking[],
): Promise<string[]> {
  return withTransaction(db, async (trx) => {
    const ids: string[] = [];
    for (const seed of bookings) ids.push(await seedOne(trx, venue, staff, seed));
    return ids;
  });
}
