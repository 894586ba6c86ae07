/**
 * When the door may act on a booking (CONTRACT §4, booking statuses; security round 2): check-in from
 * a window before the booking's time (a venue setting, 120 minutes unless set) until its end, never
 * before its service date; a no-show only once its time has passed; a no-show undone only within its
 * service day. Pure: `now`, the venue's zone and the window come in as arguments, and the answers are
 * reasons, never thrown errors.
 *
 * Instants are compared in absolute time, so a window spanning a DST change is as long in real
 * minutes as on any other day. A booking's own UTC instants (`startsAt`, `endsAt`) win over its
 * local date and clock time: a stay after midnight belongs to the service day it started on, and
 * only its instants say on which calendar day it really falls.
 */
import { addDays, localToUtc } from './venue-time.js';

export const DEFAULT_CHECK_IN_WINDOW_MINUTES = 120;

/** The clock time at which a service day hands over to the next (the small hours belong to the night before). */
export const SERVICE_DAY_TURNOVER = '06:00';

const MINUTE_MS = 60_000;

export interface BookingTimes {
  /** The venue-local service date (`booking_date`). */
  serviceDate: string;
  /** The venue-local clock time (`start_time`), null for a booking without one (a whole-day list). */
  startTime: string | null;
  startsAt: Date | null;
  endsAt: Date | null;
}

/** The instant the booking is for: its stay's start, else its date and time, else its date's local midnight. */
export function bookingStart(booking: BookingTimes, zone: string): Date {
  return booking.startsAt ?? localToUtc(booking.serviceDate, booking.startTime ?? '00:00', zone);
}

/** When the booking's service day ends: the turnover the morning after its date, or its stay's end when later. */
export function serviceDayEnd(booking: BookingTimes, zone: string): Date {
  const turnover = localToUtc(addDays(booking.serviceDate, 1), SERVICE_DAY_TURNOVER, zone);
  return booking.endsAt && booking.endsAt > turnover ? booking.endsAt : turnover;
}

export interface CheckInWindow {
  opensAt: Date;
  closesAt: Date;
}

/**
 * The half-open span in which the booking may be checked in: from `windowMinutes` before its start
 * (not before its service date's local midnight) until its end (the end of its service day when the
 * booking has no end of its own).
 */
export function checkInWindow(booking: BookingTimes, zone: string, windowMinutes: number): CheckInWindow {
  const start = bookingStart(booking, zone);
  const dayStart = localToUtc(booking.serviceDate, '00:00', zone);
  const early = new Date(start.getTime() - Math.max(0, windowMinutes) * MINUTE_MS);
  const closesAt = booking.endsAt ?? serviceDayEnd(booking, zone);
  return { opensAt: early > dayStart ? early : dayStart, closesAt };
}

export type CheckInTiming = { ok: true } | { ok: false; reason: 'too_early' | 'too_late'; window: CheckInWindow };

export function checkInTiming(now: Date, booking: BookingTimes, zone: string, windowMinutes: number): CheckInTiming {
  const window = checkInWindow(booking, zone, windowMinutes);
  if (now < window.opensAt) return { ok: false, reason: 'too_early', window };
  if (now >= window.closesAt) return { ok: false, reason: 'too_late', window };
  return { ok: true };
}

/** A guest is a no-show only once the booking's time has passed. */
export const noShowDue = (now: Date, booking: BookingTimes, zone: string): boolean => now >= bookingStart(booking, zone);

/** A no-show may be taken back until its service day ends. */
export const noShowUndoable = (now: Date, booking: BookingTimes, zone: string): boolean => now < serviceDayEnd(booking, zone);
