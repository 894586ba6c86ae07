/**
 * The staff reservation floor's service (decisions: the staff reservation floor): the venue bookings
 * list (booking-list.ts), reading a booking with its history, and every staff change to it (status moves, details, table
 * lock, lifecycle flags, duration, close, table assignment, cancel and door reject; card holds are in
 * staff-holds.ts). Each booking is reached through its venue: a booking at a venue the caller cannot
 * reach is a 404, exactly like one that does not exist.
 *
 * Every change runs in one transaction that first takes the booking's lock (PostgreSQL; SQLite has one
 * writer) and re-reads it, writes its history there, and answers the booking as it then is. Calls to
 * the payment provider happen outside the transaction (the simulated provider writes to the same
 * database) with an idempotency key per booking and operation, so a retry never moves money twice.
 */
import type { TextMessages } from '../../../platform/sms/sms.js';
import type { Logger } from 'pino';
import { canMove, isActive, refusedMoveMessage, type BookingStatus } from '../../../domain/booking-status.js';
import { isCalendarDate, localToUtc } from '../../../domain/venue-time.js';
import type { Db } from '../../../db/connect.js';
import { lockKey, withTransaction } from '../../../db/transaction.js';
import type { Audit } from '../../../platform/audit.js';
import type { AuthInfo, VenueRow } from '../../../platform/auth-guard.js';
import type { Clock } from '../../../platform/clock.js';
import { badRequest, conflict, notFound } from '../../../platform/errors.js';
import type { Mail } from '../../../platform/mail/mail.js';
import { clearableText, requiredText } from '../../../platform/text.js';
import type { Payments } from '../../payments/index.js';
import { floorplanRecords } from '../../tables/index.js';
import { closeStay, releaseTables, updateBooking } from '../core/booking-writes.js';
import { bookingMails } from '../core/booking-mail.js';
import {
  bookingOrThrow,
  changeStatus,
  findBooking,
  tableIdsOf,
  type BookingRow,
  type Change,
  type ChangeContext,
} from '../core/booking-store.js';
import { listBookings } from './booking-list.js';
import { toDetail } from './booking-views.js';
import type { DoorKeys } from '../core/door-keys.js';
import type {
  BookingChanged,
  BookingListQuery,
  CancelBody,
  DetailsBody,
  LifecycleFlag,
  MoveBody,
  StaffSettableStatus,
} from './bookings.schemas.js';
import { recordHistory, type Actor } from '../core/history.js';
import { bestSeating, checkTablesFree, holdTables, namedTablesFree, resolveTableRefs, stayOf } from '../core/seating.js';
import { claimSlots, releaseSlots, slotOf } from '../core/slots.js';
import { staffMoveRules } from '../door/door-timing.js';
import { domainEvents } from '../../../platform/domain-events.js';
import { bookingEvent } from '../core/booking-events.js';
import { createHoldActions } from './staff-holds.js';

export interface StaffDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  payments: Payments;
  mail: Mail;
  /** The manage-link secret and base URL, for the cancellation notice (booking-mail.ts). */
  doorKeys: Pick<DoorKeys, 'manageSecret'>;
  publicBaseUrl: string;
  /** Text messages (platform/sms): confirmation and cancellation texts to guests who agreed to them. */
  sms?: TextMessages;
  /** The venue when the caller may reach it (404 otherwise): the guard's. */
  reachableVenue(auth: AuthInfo, venueId: string): Promise<VenueRow>;
  audit: Audit;
}

export const staffActor = (auth: AuthInfo): Actor => ({ kind: 'staff', id: auth.user.id, name: auth.user.name });

/** Past participle for refusal messages of `PATCH …/status`. */
const MOVED: Record<StaffSettableStatus, string> = {
  pending: 'returned to pending',
  approved: 'approved',
  confirmed: 'confirmed',
  checked_in: 'checked in',
  cancelled: 'cancelled',
  rejected: 'rejected',
  no_show: 'marked as a no-show',
};

export function createStaffService(deps: StaffDeps) {
  const { db, clock, payments, reachableVenue, log } = deps;
  const mails = bookingMails({ mail: deps.mail, doorKeys: deps.doorKeys, publicBaseUrl: deps.publicBaseUrl, sms: deps.sms });

  /** The booking and its venue, when the caller can reach the venue; 404 otherwise. */
  async function reachableBooking(auth: AuthInfo, id: string): Promise<{ booking: BookingRow; venue: VenueRow }> {
    const booking = await findBooking(db, id);
    if (!booking) throw notFound('Booking');
    const venue = await reachableVenue(auth, booking.venue_id).catch(() => {
      throw notFound('Booking');
    });
    return { booking, venue };
  }

  const changed = async (booking: BookingRow, venue: VenueRow): Promise<BookingChanged> => ({
    success: true,
    booking: await toDetail(db, booking, venue.name),
  });

  /** Runs `change` on the freshly read booking in one transaction, serialised per booking; answers the booking after it. */
  async function update(auth: AuthInfo, id: string, change: Change): Promise<BookingChanged> {
    const { venue } = await reachableBooking(auth, id);
    const context: ChangeContext = { venue, actor: staffActor(auth), now: clock.now() };
    const booking = await withTransaction(db, async (trx) => {
      await lockKey(db, trx, `booking:${id}`);
      const before = await bookingOrThrow(trx, id);
      const tablesBefore = await tableIdsOf(trx, id);
      await change(trx, before, context);
      const after = await bookingOrThrow(trx, id);
      await deps.audit.record(trx, {
        // A status move is named by the status reached (booking.cancelled, booking.checked_in…); other changes are updates.
        action: after.status === before.status ? 'booking.updated' : `booking.${after.status}`,
        entityType: 'booking',
        entityId: id,
        venueId: after.venue_id,
        before: { ...before, table_ids: tablesBefore },
        after: { ...after, table_ids: await tableIdsOf(trx, id) },
        // The guest's contact details are recorded as changed but never kept: an erasure leaves none in the log.
        redact: ['guest_name', 'guest_email', 'guest_phone', 'hold_address'],
      });
      return after;
    });
    return changed(booking, venue);
  }

  /** A status move; a booking that becomes active again (unreject) takes its tables back (409 if they are taken since). */
  const moveTo =
    (to: BookingStatus, action: string, historyAction: string, detail?: Record<string, unknown>, undo = false): Change =>
    async (trx, booking, { actor, now }) => {
      const moved = await changeStatus(trx, booking, { to, action, historyAction, actor, now, detail, undo });
      if (!isActive(booking.status) && isActive(to) && moved.starts_at && moved.ends_at) {
        const tableIds = await tableIdsOf(trx, booking.id);
        if (tableIds.length > 0)
          await claimSlots(
            trx,
            { id: booking.id, venueId: booking.venue_id },
            tableIds,
            new Date(moved.starts_at),
            new Date(moved.ends_at),
          );
      }
    };

  const scopeOf = (booking: BookingRow) => ({ operatorId: booking.operator_id, venueId: booking.venue_id });

  /**
   * Gives back what a cancelled booking holds, before the cancellation is written: a card hold (or a
   * payment never completed) is released; a paid deposit (or captured hold) is refunded, the part not yet refunded.
   */
  const giveBack = (booking: BookingRow, reason: string | null) =>
    payments.giveBack({
      intentId: booking.payment_intent_id,
      scope: scopeOf(booking),
      subject: `booking:${booking.id}`,
      keys: { release: `booking-cancel-release:${booking.id}`, refund: `booking-cancel-refund:${booking.id}` },
      paymentStatus: booking.payment_status,
      refundedPence: booking.refunded_pence,
      reason: reason ?? 'Cancelled by the venue',
      onReleaseFailure: 'throw',
    });

  /** Staff cancel: refund (when asked) first, then the cancellation and the guest's notice in one transaction. */
  /**
   * Ends a booking as the venue (staff cancel, door reject): the refund (when asked) first, outside the
   * transaction, then the status move, its history and the guest's notice (`notify`) in one transaction.
   */
  async function endBooking(
    auth: AuthInfo,
    id: string,
    body: { reason?: string; refund?: boolean | 0 | 1 },
    end: { to: 'cancelled' | 'door_rejected'; action: string; historyAction: string; defaultReason: string | null; notify: boolean },
  ): Promise<BookingChanged> {
    const { booking } = await reachableBooking(auth, id);
    if (!canMove(booking.status, end.to)) throw conflict(refusedMoveMessage(booking.status, end.action), { status: booking.status });
    const reason = clearableText(body.reason) ?? null;
    const payment = body.refund ? await giveBack(booking, reason ?? end.defaultReason) : {};
    const refunded = (payment.refunded_pence ?? booking.refunded_pence) - booking.refunded_pence;
    try {
      return await update(auth, id, async (trx, current, { venue, actor, now }) => {
        const ended = await changeStatus(trx, current, {
          to: end.to,
          action: end.action,
          historyAction: end.historyAction,
          actor,
          now,
          set: { cancel_reason: reason, ...payment },
          detail: {
            reason,
            refund: Boolean(body.refund),
            refunded_pence: refunded,
            payment_status: payment.payment_status ?? current.payment_status,
          },
        });
        if (end.notify) await mails.cancellation(trx, venue, ended, { by: 'venue', refundedPence: refunded });
      });
    } catch (error) {
      // The money moved but the status move lost a race: keep the payment's record right.
      if (payment.payment_status) {
        await updateBooking(db, id, payment);
        log.warn({ bookingId: id, to: end.to }, 'refund given for a booking whose status move was refused');
      }
      throw error;
    }
  }

  /** Staff cancel: the guest is mailed a cancellation notice. */
  const cancel = (auth: AuthInfo, id: string, body: CancelBody) =>
    endBooking(auth, id, body, { to: 'cancelled', action: 'cancelled', historyAction: 'staff_cancel', defaultReason: null, notify: true });

  const holds = createHoldActions({ db, clock, payments, update, reachableBooking, changed, scopeOf });

  return {
    reachableBooking,

    async get(auth: AuthInfo, id: string) {
      const { booking, venue } = await reachableBooking(auth, id);
      return toDetail(db, booking, venue.name);
    },

    /** The venue's bookings by date, start time and id, filtered; offset or cursor paging. */
    list: (venue: VenueRow, query: BookingListQuery) => listBookings(db, venue, query),

    approve: (auth: AuthInfo, id: string) => update(auth, id, moveTo('approved', 'approved', 'approve')),
    reject: (auth: AuthInfo, id: string) => update(auth, id, moveTo('rejected', 'rejected', 'reject')),
    unreject: (auth: AuthInfo, id: string) => update(auth, id, moveTo('pending', 'unrejected', 'unreject')),
    cancel,

    /** Any move the status table allows, within the door's timing (door-timing.ts); a cancellation is a staff cancel without refund. */
    setStatus(auth: AuthInfo, id: string, status: StaffSettableStatus, force = false) {
      if (status === 'cancelled') return cancel(auth, id, {});
      return update(auth, id, async (trx, booking, context) => {
        const { undo, detail } = await staffMoveRules(trx, booking, context, status, force);
        const [action, history] = undo ? ['returned from a no-show', 'undo_no_show'] : [MOVED[status], 'set_status'];
        return moveTo(status, action, history, detail, undo)(trx, booking, context);
      });
    },

    updateDetails: (auth: AuthInfo, id: string, body: DetailsBody) =>
      update(auth, id, async (trx, booking, { actor, now }) => {
        const set: Partial<BookingRow> = {};
        if (body.guest_name !== undefined) set.guest_name = requiredText(body.guest_name, 'guest_name');
        if (body.guest_email !== undefined) set.guest_email = clearableText(body.guest_email) ?? null;
        if (body.guest_phone !== undefined) set.guest_phone = clearableText(body.guest_phone) ?? null;
        if (body.notes !== undefined) set.notes = clearableText(body.notes) ?? null;
        if (body.guest_count !== undefined) set.guest_count = body.guest_count;
        const changes = Object.fromEntries(
          Object.entries(set)
            .filter(([field, value]) => booking[field as keyof BookingRow] !== value)
            .map(([field, value]) => [field, { from: booking[field as keyof BookingRow], to: value }]),
        );
        if (Object.keys(changes).length === 0) return;
        if (set.guest_count !== undefined && set.guest_count > booking.guest_count && isActive(booking.status)) {
          const tableIds = await tableIdsOf(trx, booking.id);
          if (tableIds.length > 0) {
            const plan = await floorplanRecords(trx, booking.venue_id);
            const seats = plan.tables.filter((t) => tableIds.includes(t.id)).reduce((sum, t) => sum + t.capacity, 0);
            if (seats < set.guest_count) {
              throw conflict(`The booking's tables seat ${seats}: assign bigger tables before raising guest_count to ${set.guest_count}`);
            }
          }
        }
        await updateBooking(trx, booking.id, { ...set, updated_at: now.toISOString() });
        await recordHistory(trx, booking.id, actor, { action: 'update_details', detail: changes }, now);
        await domainEvents.emit(trx, bookingEvent('booking.updated', { ...booking, ...set, updated_at: now.toISOString() }, now));
      }),

    setLock: (auth: AuthInfo, id: string, locked: boolean) =>
      update(auth, id, async (trx, booking, { actor, now }) => {
        if (Boolean(booking.table_locked) === locked) return;
        await updateBooking(trx, booking.id, { table_locked: locked ? 1 : 0, updated_at: now.toISOString() });
        await recordHistory(trx, booking.id, actor, { action: locked ? 'lock_tables' : 'unlock_tables' }, now);
      }),

    /** Sets a lifecycle flag to now (a flag already set keeps its first time) or clears it. */
    setLifecycle: (auth: AuthInfo, id: string, flag: LifecycleFlag, value: boolean) =>
      update(auth, id, async (trx, booking, { actor, now }) => {
        const lifecycle = JSON.parse(booking.lifecycle) as Record<string, string>;
        if (value === flag in lifecycle) return;
        if (value) lifecycle[flag] = now.toISOString();
        else delete lifecycle[flag];
        await updateBooking(trx, booking.id, { lifecycle: JSON.stringify(lifecycle), updated_at: now.toISOString() });
        await recordHistory(trx, booking.id, actor, { action: 'lifecycle', detail: { flag, value } }, now);
      }),

    /** A new length of stay from the same start: the tables' slots are claimed again (409 when taken or blocked). */
    setDuration: (auth: AuthInfo, id: string, minutes: number) =>
      update(auth, id, async (trx, booking, { actor, now }) => {
        const { startsAt } = stayOf(booking, 'changed');
        if (booking.duration_minutes === minutes) return;
        const endsAt = new Date(startsAt.getTime() + minutes * 60_000);
        const tableIds = await tableIdsOf(trx, booking.id);
        if (tableIds.length > 0) {
          const plan = await floorplanRecords(trx, booking.venue_id);
          await checkTablesFree(
            trx,
            booking,
            plan.tables.filter((t) => tableIds.includes(t.id)),
            startsAt,
            endsAt,
          );
          await holdTables(trx, booking, tableIds, startsAt, endsAt);
        }
        await updateBooking(trx, booking.id, { duration_minutes: minutes, ends_at: endsAt.toISOString(), updated_at: now.toISOString() });
        await recordHistory(
          trx,
          booking.id,
          actor,
          { action: 'change_duration', detail: { from: booking.duration_minutes, to: minutes } },
          now,
        );
      }),

    /** Staff close the table now: the stay ends now (if it had not ended yet) and its slots from now on are freed. */
    close: (auth: AuthInfo, id: string) =>
      update(auth, id, async (trx, booking, { actor, now }) => {
        const { startsAt, endsAt } = stayOf(booking, 'closed');
        if (now < startsAt) throw conflict('This booking has not started yet: its table cannot be closed');
        const at = now.toISOString();
        const ends = now < endsAt ? at : endsAt.toISOString();
        await closeStay(trx, booking.id, at, ends);
        if (now < endsAt) await releaseSlots(trx, booking.id, slotOf(now));
        await recordHistory(trx, booking.id, actor, { action: 'close', detail: { ends_at: ends } }, now);
      }),

    /**
     * Seats the booking at these tables instead of its own: tables of its venue, active, seating its
     * party, free (and unblocked) for its stay.
     */
    assignTables: (auth: AuthInfo, id: string, requested: string[]) =>
      update(auth, id, async (trx, booking, { actor, now }) => {
        const { startsAt, endsAt } = stayOf(booking, 'seated');
        const ids = [...new Set(await resolveTableRefs(trx, booking.venue_id, requested))];
        const before = await tableIdsOf(trx, booking.id);
        await namedTablesFree(trx, booking, ids, booking.guest_count, { startsAt, endsAt });
        await holdTables(trx, booking, ids, startsAt, endsAt);
        await recordHistory(trx, booking.id, actor, { action: 'assign_tables', detail: { from: before, to: ids } }, now);
      }),

    /**
     * Moves the booking to another time (and date), keeping its length, at its own tables or the ones
     * named (none: unassigned): each checked as for assign-table, free and unblocked for the new stay.
     */
    move: (auth: AuthInfo, id: string, body: MoveBody) =>
      update(auth, id, async (trx, booking, { venue, actor, now }) => {
        const stay = stayOf(booking, 'moved');
        const date = body.date ?? booking.booking_date;
        if (!isCalendarDate(date)) throw badRequest('date must be a real calendar date');
        const startsAt = localToUtc(date, body.time, venue.timezone);
        const endsAt = new Date(startsAt.getTime() + (stay.endsAt.getTime() - stay.startsAt.getTime()));
        const before = await tableIdsOf(trx, booking.id);
        const tableIds = body.table_ids === undefined ? before : [...new Set(body.table_ids)];
        const sorted = [...tableIds].sort();
        const sameTables = before.length === sorted.length && [...before].sort().every((tableId, i) => tableId === sorted[i]);
        if (startsAt.getTime() === stay.startsAt.getTime() && date === booking.booking_date && sameTables) return;
        if (tableIds.length > 0) await namedTablesFree(trx, booking, tableIds, booking.guest_count, { startsAt, endsAt });
        await holdTables(trx, booking, tableIds, startsAt, endsAt);
        await updateBooking(trx, booking.id, {
          booking_date: date,
          start_time: body.time,
          starts_at: startsAt.toISOString(),
          ends_at: endsAt.toISOString(),
          updated_at: now.toISOString(),
        });
        const moved = { booking_date: date, start_time: body.time, starts_at: startsAt.toISOString(), ends_at: endsAt.toISOString() };
        await domainEvents.emit(trx, bookingEvent('booking.updated', { ...booking, ...moved, updated_at: now.toISOString() }, now));
        await recordHistory(
          trx,
          booking.id,
          actor,
          {
            action: 'move',
            detail: {
              from: { date: booking.booking_date, time: booking.start_time, table_ids: before },
              to: { date, time: body.time, table_ids: tableIds },
            },
          },
          now,
        );
      }),

    /** Frees the booking's tables (it keeps its time, without a table). Allowed while active or rejected. */
    unassignTables: (auth: AuthInfo, id: string) =>
      update(auth, id, async (trx, booking, { actor, now }) => {
        if (!isActive(booking.status) && booking.status !== 'rejected') {
          throw conflict(refusedMoveMessage(booking.status, 'unseated'), { status: booking.status });
        }
        const before = await tableIdsOf(trx, booking.id);
        if (before.length === 0) return;
        await releaseTables(trx, booking.id);
        await recordHistory(trx, booking.id, actor, { action: 'unassign_tables', detail: { from: before } }, now);
      }),

    /**
     * Seats the booking at the best free tables for its stay (its own tables count as free): the smallest
     * fitting table or combination that leaves the evening least broken up. 409 when its tables are locked
     * or nothing free seats the party.
     */
    autoAssign: (auth: AuthInfo, id: string) =>
      update(auth, id, async (trx, booking, { venue, actor, now }) => {
        const stay = stayOf(booking, 'seated');
        if (booking.table_locked) throw conflict('This booking’s tables are locked: unlock them before assigning others');
        const best = await bestSeating(trx, venue, {
          date: booking.booking_date,
          stay,
          partySize: booking.guest_count,
          excludeBookingId: booking.id,
        });
        if (!best) throw conflict(`No free table seats ${booking.guest_count} for this booking’s time`, { reason: 'no_table' });
        const before = await tableIdsOf(trx, booking.id);
        const after = [...best.tableIds].sort();
        if (before.length === after.length && before.every((tableId, i) => tableId === after[i])) return;
        await holdTables(trx, booking, best.tableIds, stay.startsAt, stay.endsAt);
        await recordHistory(trx, booking.id, actor, { action: 'auto_assign', detail: { from: before, to: best.tableIds } }, now);
      }),

    /**
     * Turns a guest away at the door: `door_rejected`, tables freed. With `refund` a paid deposit or
     * captured hold is refunded and a card hold released first, as for a staff cancel.
     */
    doorReject: (auth: AuthInfo, id: string, body: { reason?: string; refund?: boolean | 0 | 1 }) =>
      endBooking(auth, id, body, {
        to: 'door_rejected',
        action: 'turned away at the door',
        historyAction: 'door_reject',
        defaultReason: 'Refused at the door',
        notify: false,
      }),

    ...holds,
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
