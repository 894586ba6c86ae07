/**
 * The bookings side of ticketed events (the events module never touches `bookings`): an event booking
 * written in the caller's transaction (the guest joins the operator's roster there too), its payment
 * intent, the reads events need (active bookings and guests, figures, stats, the door list, the other
 * reservations of a venue's day, a guest's past visits), and the moves a ticket sale makes: confirmed
 * when paid, released (`expired`) when not, and every booking of a cancelled event cancelled and
 * refunded, each guest told.
 */
import type { TextMessages } from '../../../platform/sms/sms.js';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { isActive, type BookingStatus } from '../../../domain/booking-status.js';
import { utcToLocal } from '../../../domain/venue-time.js';
import type { Db } from '../../../db/connect.js';
import type { Database } from '../../../db/schema.js';
import type { DeferredRows } from '../../../db/deferred-rows.js';
import { kyselyOf, lockKey, withTransaction, type Conn } from '../../../db/transaction.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import type { Clock } from '../../../platform/clock.js';
import type { GuestRecord } from '../../auth/index.js';
import type { Mail } from '../../../platform/mail/mail.js';
import type { Payments } from '../../payments/index.js';
import { bookingMails } from '../core/booking-mail.js';
import { confirmPaidBooking, releaseUnpaidBooking } from '../core/booking-payment.js';
import { changeStatus, findBooking, type BookingRow } from '../core/booking-store.js';
import { ACTIVE_BOOKING_STATUSES } from '../core/bookings.table.js';
import type { DoorKeys } from '../core/door-keys.js';
import { insertBooking, updateBooking } from '../core/booking-writes.js';
import { recordHistory, SYSTEM, type Actor } from '../core/history.js';

export type { BookingRow as EventBookingRow } from '../core/booking-store.js';

/** Statuses whose guests are committed to the event: accepted by the venue, paid or free, or inside. */
export const COMMITTED_STATUSES = ['approved', 'confirmed', 'checked_in'] as const;
/** Statuses an event cancellation moves to `cancelled` (a checked-in guest is history, left as it is). */
const CANCELLABLE: readonly BookingStatus[] = ['pending', 'pending_payment', 'approved', 'confirmed'];
const PAID = ['paid', 'captured', 'partially_refunded', 'refunded'];

export interface EventBookingInput {
  id: string;
  operatorId: string;
  venueId: string;
  eventId: string;
  date: string;
  startTime: string | null;
  startsAt: string | null;
  endsAt: string | null;
  guestCount: number;
  guestName: string;
  guestEmail: string;
  userId: string | null;
  /** The guest record as this transaction found or made it (`guestRecordForEmail`): its roster search terms need no read. */
  guest?: GuestRecord;
  totalPence: number;
  /** `confirmed` (free), `pending` (awaits the venue's approval) or `pending_payment` (paid). */
  status: 'confirmed' | 'pending' | 'pending_payment';
  paymentExpiresAt: string | null;
  /** The client address of a public unpaid hold (unpaid-holds.ts caps them). */
  holdAddress?: string | null;
  now: Date;
  detail?: Record<string, unknown>;
}

/** What a sale goes on with of the booking it wrote (its ticket, its mail, its webhook event). */
export type SoldEventBooking = Pick<
  BookingRow,
  'id' | 'operator_id' | 'venue_id' | 'reference' | 'total_pence' | 'guest_name' | 'guest_email' | 'booking_date' | 'start_time'
>;

/**
 * Writes an event booking in the caller's transaction, with its history; the guest joins the roster.
 * With `deferred` (a confirmed sale in a batch of several) its rows wait for the batch, which writes each
 * table's in one statement before it commits, and the booking is answered as written; otherwise it is
 * written at once and read back.
 */
export async function insertEventBooking(
  trx: Kysely<Database>,
  input: EventBookingInput,
  deferred?: DeferredRows,
): Promise<SoldEventBooking> {
  const at = input.now.toISOString();
  const paid = input.status === 'pending_payment';
  const row = {
    id: input.id,
    operator_id: input.operatorId,
    venue_id: input.venueId,
    kind: 'event' as const,
    status: input.status,
    user_id: input.userId,
    event_id: input.eventId,
    booking_date: input.date,
    start_time: input.startTime,
    starts_at: input.startsAt,
    ends_at: input.endsAt,
    guest_count: input.guestCount,
    guest_name: input.guestName,
    guest_email: input.guestEmail,
    total_pence: input.totalPence,
    source: 'widget',
    deposit_type: paid ? 'deposit' : 'none',
    deposit_pence: paid ? input.totalPence : 0,
    payment_status: paid ? 'requires_payment' : 'none',
    payment_expires_at: input.paymentExpiresAt,
    hold_address: input.holdAddress ?? null,
    status_changed_at: at,
    created_at: at,
    updated_at: at,
  };
  const roster = { operatorId: input.operatorId, venueId: input.venueId, userId: input.userId, at: input.now, guest: input.guest };
  const actor: Actor = { kind: 'guest', id: input.userId, name: input.guestName };
  const history = { action: 'create', toStatus: input.status, detail: input.detail } as const;
  const reference = await insertBooking(trx, { row, roster }, deferred);
  await recordHistory(trx, input.id, actor, history, input.now, deferred);
  return deferred ? { ...row, reference } : (await findBooking(trx, input.id))!;
}

export async function attachEventIntent(conn: Conn, bookingId: string, intentId: string, now: Date): Promise<void> {
  await updateBooking(conn, bookingId, { payment_intent_id: intentId, updated_at: now.toISOString() }, { kind: 'event' });
}

/** An event booking by id (undefined for other kinds). */
export async function eventBooking(conn: Conn, bookingId: string): Promise<BookingRow | undefined> {
  const row = await findBooking(conn, bookingId);
  return row?.kind === 'event' ? row : undefined;
}

/** The booking of an event paid (or to be paid) with this intent. */
export async function eventBookingByIntent(conn: Conn, eventId: string, intentId: string): Promise<BookingRow | undefined> {
  return kyselyOf(conn)
    .selectFrom('bookings')
    .selectAll()
    .where('kind', '=', 'event')
    .where('event_id', '=', eventId)
    .where('payment_intent_id', '=', intentId)
    .executeTakeFirst();
}

/** The event's bookings that hold places (awaiting payment or approval included). */
export async function activeEventBookings(conn: Conn, eventId: string): Promise<{ id: string; guest_count: number; status: string }[]> {
  return kyselyOf(conn)
    .selectFrom('bookings')
    .select(['id', 'guest_count', 'status'])
    .where('event_id', '=', eventId)
    .where('kind', '=', 'event')
    .where('status', 'in', [...ACTIVE_BOOKING_STATUSES])
    .execute();
}

export interface EventFigures {
  /** Every booking, whatever its status. */
  total: number;
  /** Bookings holding places. */
  active: number;
  /** Guests of committed bookings (`COMMITTED_STATUSES`). */
  committed_guests: number;
}

/** Booking figures per event, one query for a page of events. */
export async function eventFigures(conn: Conn, eventIds: readonly string[]): Promise<Map<string, EventFigures>> {
  const out = new Map<string, EventFigures>(eventIds.map((id) => [id, { total: 0, active: 0, committed_guests: 0 }]));
  if (eventIds.length === 0) return out;
  const rows = await kyselyOf(conn)
    .selectFrom('bookings')
    .select(['event_id', 'status', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.sum<number>('guest_count').as('guests')])
    .where('kind', '=', 'event')
    .where('event_id', 'in', [...eventIds])
    .groupBy(['event_id', 'status'])
    .execute();
  for (const row of rows) {
    const figures = out.get(row.event_id!)!;
    figures.total += Number(row.n);
    if (isActive(row.status)) figures.active += Number(row.n);
    if ((COMMITTED_STATUSES as readonly string[]).includes(row.status)) figures.committed_guests += Number(row.guests);
  }
  return out;
}

/** An event's stats (spec: `GET /api/my-events/:id/stats`) over its bookings but those released unpaid; timeline dates venue-local. */
export async function eventBookingStats(conn: Conn, eventId: string, timezone: string, recentCount = 10) {
  const rows = await kyselyOf(conn)
    .selectFrom('bookings')
    .select(['id', 'status', 'guest_count', 'guest_name', 'deposit_pence', 'refunded_pence', 'payment_status', 'created_at'])
    .where('kind', '=', 'event')
    .where('event_id', '=', eventId)
    // A reservation released unpaid never was a booking the organiser needs to count.
    .where('status', '!=', 'expired')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const count = (...statuses: string[]) => rows.filter((row) => statuses.includes(row.status)).length;
  const perDay = new Map<string, number>();
  for (const row of rows) {
    const day = utcToLocal(new Date(row.created_at), timezone).date;
    perDay.set(day, (perDay.get(day) ?? 0) + 1);
  }
  return {
    total_bookings: rows.length,
    active_bookings: rows.filter((row) => isActive(row.status)).length,
    approved: count('approved', 'confirmed'),
    pending: count('pending', 'pending_payment'),
    checked_in: count('checked_in'),
    cancelled: count('cancelled'),
    committed_guests: rows
      .filter((row) => (COMMITTED_STATUSES as readonly string[]).includes(row.status))
      .reduce((sum, row) => sum + row.guest_count, 0),
    revenue: rows
      .filter((row) => PAID.includes(row.payment_status))
      .reduce((sum, row) => sum + Math.max(0, row.deposit_pence - row.refunded_pence), 0),
    timeline: [...perDay.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([date, n]) => ({ date, count: n })),
    recent: rows
      .slice(0, recentCount)
      .map((row) => ({ id: row.id, status: row.status, guest_count: row.guest_count, user_name: row.guest_name })),
  };
}

/** The door list: every booking of the event not released unpaid, by guest name. */
export async function eventDoorList(conn: Conn, eventId: string) {
  return kyselyOf(conn)
    .selectFrom('bookings')
    .select([
      'id',
      'status',
      'guest_count',
      'guest_name',
      'guest_email',
      'guest_phone',
      'booking_date',
      'total_pence',
      'payment_status',
      'checked_in_at',
      'created_at',
    ])
    .where('kind', '=', 'event')
    .where('event_id', '=', eventId)
    .where('status', '!=', 'expired')
    .orderBy('guest_name')
    .orderBy('id')
    .execute();
}

/**
 * What cancelling an event would do to its bookings, read without changing anything (the cascade
 * `cancelAll` runs): each cancellable booking with the money it would give back — a paid booking its
 * payment less what was already refunded, an unpaid reservation its intent released, a free one nothing —
 * and the checked-in bookings it leaves as they are.
 */
export async function eventCancellationPreview(conn: Conn, eventId: string) {
  const rows = await kyselyOf(conn)
    .selectFrom('bookings')
    .select(['id', 'status', 'guest_count', 'guest_name', 'guest_email', 'deposit_pence', 'refunded_pence', 'payment_status', 'created_at'])
    .where('kind', '=', 'event')
    .where('event_id', '=', eventId)
    .where('status', 'in', [...CANCELLABLE, 'checked_in'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const due = rows.filter((row) => row.status !== 'checked_in');
  const bookings = due.map((row) => {
    const paid = PAID.includes(row.payment_status);
    const refund = paid ? Math.max(0, row.deposit_pence - row.refunded_pence) : 0;
    const outcome: 'refund' | 'release_payment' | 'cancel' =
      refund > 0 ? 'refund' : row.payment_status === 'requires_payment' ? 'release_payment' : 'cancel';
    return {
      id: row.id,
      status: row.status,
      guest_count: row.guest_count,
      guest_name: row.guest_name,
      guest_email: row.guest_email,
      payment_status: row.payment_status,
      paid_pence: paid ? row.deposit_pence : 0,
      refund_pence: refund,
      outcome,
    };
  });
  return {
    bookings,
    cancelled_bookings: bookings.length,
    refund_pence: bookings.reduce((sum, row) => sum + row.refund_pence, 0),
    refunded_bookings: bookings.filter((row) => row.outcome === 'refund').length,
    kept_checked_in: rows.length - due.length,
  };
}

/** The venue's other active reservations on a date (tables and guest list): what an event that day affects. */
export async function venueDayReservations(conn: Conn, venueId: string, date: string): Promise<{ bookings: number; guests: number }> {
  const row = await kyselyOf(conn)
    .selectFrom('bookings')
    .select([(eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.sum<number>('guest_count').as('guests')])
    .where('venue_id', '=', venueId)
    .where('booking_date', '=', date)
    .where('kind', '!=', 'event')
    .where('status', 'in', [...ACTIVE_BOOKING_STATUSES])
    .executeTakeFirstOrThrow();
  return { bookings: Number(row.n), guests: Number(row.guests ?? 0) };
}

/** A guest's visits to a venue (bookings confirmed or checked in): the admission rules' bookings count. */
export async function guestVisits(conn: Conn, venueId: string, userId: string): Promise<number> {
  const row = await kyselyOf(conn)
    .selectFrom('bookings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('venue_id', '=', venueId)
    .where('user_id', '=', userId)
    .where('status', 'in', ['confirmed', 'checked_in'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface EventBookingDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  payments: Payments;
  mail: Mail;
  doorKeys: Pick<DoorKeys, 'manageSecret'>;
  publicBaseUrl: string;
  /** Text messages (platform/sms): confirmation and cancellation texts to guests who agreed to them. */
  sms?: TextMessages;
}

/** The status moves of event bookings that need the payments platform or the guest's mail. */
export function createEventBookings(deps: EventBookingDeps) {
  const { db, clock, payments, log } = deps;
  const mails = bookingMails({ mail: deps.mail, doorKeys: deps.doorKeys, publicBaseUrl: deps.publicBaseUrl, sms: deps.sms });

  /** Paid: `pending_payment` → `confirmed` in the caller's transaction; undefined when it was not awaiting payment. */
  async function confirmPaid(trx: Kysely<Database>, bookingId: string, via: string): Promise<BookingRow | undefined> {
    if (!(await eventBooking(trx, bookingId))) return undefined;
    return confirmPaidBooking(trx, bookingId, { held: false, via }, clock.now());
  }

  /** Unpaid: `pending_payment` → `expired`, its tickets given back; undefined when it was not awaiting payment. */
  async function release(trx: Kysely<Database>, bookingId: string, why: string): Promise<BookingRow | undefined> {
    if (!(await eventBooking(trx, bookingId))) return undefined;
    return releaseUnpaidBooking(trx, bookingId, why, clock.now());
  }

  /** Gives back a booking's money before it is cancelled: a paid booking is refunded, an unpaid intent abandoned. */
  const giveBack = (booking: BookingRow, reason: string) =>
    payments.giveBack({
      intentId: booking.payment_intent_id,
      scope: { operatorId: booking.operator_id, venueId: booking.venue_id },
      subject: `event booking:${booking.id}`,
      keys: { release: `event-cancel-release:${booking.id}`, refund: `event-cancel-refund:${booking.id}` },
      paymentStatus: booking.payment_status,
      refundedPence: booking.refunded_pence,
      reason,
      // Cancelling an event goes on through its bookings: a release the provider fails is retried by the sweep.
      onReleaseFailure: 'retry',
    });

  /**
   * Cancels every cancellable booking of an event (the event was cancelled or rejected): each is
   * refunded through the provider first (idempotency key per booking, so a retry never refunds twice),
   * then cancelled with its refund recorded and the guest mailed, in one transaction per booking.
   * Answers how many it cancelled. Rerunning it finishes what a provider failure interrupted.
   */
  async function cancelAll(venue: VenueRow, eventId: string, reason: string, actor: Actor = SYSTEM): Promise<number> {
    const due = await kyselyOf(db)
      .selectFrom('bookings')
      .selectAll()
      .where('kind', '=', 'event')
      .where('event_id', '=', eventId)
      .where('status', 'in', [...CANCELLABLE])
      .orderBy('created_at')
      .execute();
    let cancelled = 0;
    for (const booking of due) {
      const payment = await giveBack(booking, reason);
      const done = await withTransaction(db, async (trx) => {
        await lockKey(db, trx, `booking:${booking.id}`);
        const current = await eventBooking(trx, booking.id);
        if (!current || !CANCELLABLE.includes(current.status as BookingStatus)) return false;
        const refunded = (payment.refunded_pence ?? current.refunded_pence) - current.refunded_pence;
        const ended = await changeStatus(trx, current, {
          to: 'cancelled',
          action: 'cancelled',
          historyAction: 'event_cancelled',
          actor,
          now: clock.now(),
          set: { cancel_reason: reason, ...payment },
          detail: { reason, refunded_pence: refunded, payment_status: payment.payment_status ?? current.payment_status },
        });
        await mails.cancellation(trx, venue, ended, { by: 'venue', refundedPence: refunded });
        return true;
      });
      if (done) cancelled += 1;
      else if (payment.payment_status) log.warn({ bookingId: booking.id }, 'event booking refunded but no longer cancellable');
    }
    return cancelled;
  }

  return { confirmPaid, release, cancelAll, manageUrl: mails.manageUrl };
}

export type EventBookings = ReturnType<typeof createEventBookings>;
