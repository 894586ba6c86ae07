import type { Generated } from 'kysely';

/**
 * Bookings of every kind (table reservation, guest list, event ticket). The booking engine owns this
 * table; other modules read it (venue stats, draft refusal, table `is_taken`).
 */
export interface BookingsTable {
  id: string;
  operator_id: string;
  venue_id: string;
  /** `table`, `guestlist` or `event`. */
  kind: string;
  /** pending, pending_payment, approved, confirmed, checked_in, cancelled, rejected, expired, door_rejected, no_show */
  status: string;
  user_id: string | null;
  event_id: string | null;
  access_rule_id: string | null;
  /** Venue-local date and clock time. */
  booking_date: string;
  start_time: string | null;
  duration_minutes: number | null;
  /** UTC instants of the stay, for overlap queries. */
  starts_at: string | null;
  ends_at: string | null;
  guest_count: Generated<number>;
  guest_name: string | null;
  guest_email: string | null;
  guest_phone: string | null;
  total_pence: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** Tables held by a booking for its stay. */
export interface BookingTablesTable {
  booking_id: string;
  table_id: string;
  venue_id: string;
  starts_at: string;
  ends_at: string;
}

export interface BookingsTables {
  bookings: BookingsTable;
  booking_tables: BookingTablesTable;
}

/** Statuses that hold capacity and count as upcoming reservations. */
export const ACTIVE_BOOKING_STATUSES = ['pending', 'pending_payment', 'approved', 'confirmed', 'checked_in'] as const;
