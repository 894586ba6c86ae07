/**
 * The door's timing rules applied to a booking row (security round 2; the rules themselves are pure,
 * in `domain/door-window.ts`): check-in inside the venue's window on the booking's service date, a
 * second check-in answered with the time of the first, a no-show only once the booking's time has
 * passed, and a no-show taken back to the status it replaced within its service day. Staff may send
 * `force: true` to check in or mark a no-show outside those times; the history records that they did.
 */
import { checkInTiming, noShowDue, noShowUndoable, type BookingTimes } from '../../../domain/door-window.js';
import { utcToLocal } from '../../../domain/venue-time.js';
import { kyselyOf, type Conn } from '../../../db/transaction.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import { conflict } from '../../../platform/errors.js';
import type { BookingRow } from '../core/booking-store.js';

/** Statuses a no-show may be taken back to: the ones it can be set from. */
const UNDOABLE_FROM = ['pending', 'approved', 'confirmed'];

const timesOf = (booking: BookingRow): BookingTimes => ({
  serviceDate: booking.booking_date,
  startTime: booking.start_time,
  startsAt: booking.starts_at ? new Date(booking.starts_at) : null,
  endsAt: booking.ends_at ? new Date(booking.ends_at) : null,
});

const localLabel = (instant: Date, zone: string) => {
  const { date, time } = utcToLocal(instant, zone);
  return `${time} on ${date}`;
};

/** "2026-12-13 at 20:30" (or the date alone): what the guest booked, in the venue's terms. */
const bookedFor = (booking: BookingRow) => (booking.start_time ? `${booking.booking_date} at ${booking.start_time}` : booking.booking_date);

/**
 * Refuses a check-in the door may not make now (409): a second one ("already checked in at HH:MM"), or
 * one outside the window unless forced. Answers what the history records: `{ forced: reason }` when
 * `force` overrode the window, else nothing.
 */
export function checkInAllowed(booking: BookingRow, venue: VenueRow, now: Date, force: boolean): Record<string, unknown> {
  if (booking.status === 'checked_in') {
    const at = booking.checked_in_at ? utcToLocal(new Date(booking.checked_in_at), venue.timezone).time : null;
    throw conflict(at ? `Already checked in at ${at}` : 'Already checked in', {
      status: booking.status,
      reason: 'already_checked_in',
      checked_in_at: booking.checked_in_at,
    });
  }
  const timing = checkInTiming(now, timesOf(booking), venue.timezone, venue.check_in_window_minutes);
  if (timing.ok) return {};
  if (force) return { forced: timing.reason };
  const { opensAt, closesAt } = timing.window;
  const when =
    timing.reason === 'too_early'
      ? `check-in opens at ${localLabel(opensAt, venue.timezone)}`
      : `check-in closed at ${localLabel(closesAt, venue.timezone)}`;
  throw conflict(`This booking is for ${bookedFor(booking)}: ${when}`, {
    status: booking.status,
    reason: timing.reason,
    booking_date: booking.booking_date,
    start_time: booking.start_time,
    opens_at: opensAt.toISOString(),
    closes_at: closesAt.toISOString(),
  });
}

/** Refuses a no-show before the booking's time unless forced (409); answers the history's `{ forced }`. */
export function noShowAllowed(booking: BookingRow, venue: VenueRow, now: Date, force: boolean): Record<string, unknown> {
  // From any other status the status table answers (409 naming the status).
  if (!UNDOABLE_FROM.includes(booking.status) || noShowDue(now, timesOf(booking), venue.timezone)) return {};
  if (force) return { forced: 'too_early' };
  throw conflict(`This booking is for ${bookedFor(booking)}: it cannot be marked as a no-show before then`, {
    status: booking.status,
    reason: 'too_early',
    booking_date: booking.booking_date,
    start_time: booking.start_time,
  });
}

/**
 * Whether moving a no-show to `to` takes it back: `to` must be the status the no-show replaced, on
 * its service day (409 otherwise, naming what is allowed).
 */
export async function noShowUndo(trx: Conn, booking: BookingRow, venue: VenueRow, now: Date, to: string): Promise<void> {
  const marked = await kyselyOf(trx)
    .selectFrom('booking_history')
    .select('from_status')
    .where('booking_id', '=', booking.id)
    .where('to_status', '=', 'no_show')
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const previous = marked?.from_status ?? null;
  if (!previous || !UNDOABLE_FROM.includes(previous) || previous !== to) {
    throw conflict(
      previous && UNDOABLE_FROM.includes(previous)
        ? `This booking is a no-show: it can only be returned to ${previous}`
        : 'This booking is a no-show: it cannot be changed',
      { status: booking.status, reason: 'no_show_undo', previous_status: previous },
    );
  }
  if (!noShowUndoable(now, timesOf(booking), venue.timezone)) {
    throw conflict(`This booking was for ${bookedFor(booking)}: a no-show can only be undone during its service day`, {
      status: booking.status,
      reason: 'service_day_over',
      previous_status: previous,
    });
  }
}

/**
 * The door's rules for a staff move to `to`: a no-show taken back (`undo`, checked by `noShowUndo`), or
 * a check-in or no-show within its timing; answers what the history records (`detail`, when forced).
 */
export async function staffMoveRules(
  trx: Conn,
  booking: BookingRow,
  { venue, now }: { venue: VenueRow; now: Date },
  to: string,
  force: boolean,
): Promise<{ undo: boolean; detail?: Record<string, unknown> }> {
  if (booking.status === 'no_show' && to !== 'no_show') {
    await noShowUndo(trx, booking, venue, now, to);
    return { undo: true };
  }
  const timing =
    to === 'checked_in' ? checkInAllowed(booking, venue, now, force) : to === 'no_show' ? noShowAllowed(booking, venue, now, force) : {};
  return { undo: false, detail: Object.keys(timing).length > 0 ? timing : undefined };
}
