/**
 * What the guest CRM reads from (and, for erasure, writes to) other modules, declared here and wired by
 * the composition root: the guests module never imports the bookings module (bookings imports
 * `joinRoster` from here), so these are plain functions handed in.
 */
import type { Conn } from '../../db/transaction.js';
import type { AuthInfo } from '../../platform/auth-guard.js';

/** `null` venue ids: every venue of the operator. */
export type VenueFilter = readonly string[] | null;

export interface CrmBooking {
  id: string;
  venue_id: string;
  kind: string;
  status: string;
  guest_count: number;
  booking_date: string;
  start_time: string | null;
  guest_name: string | null;
  guest_email: string | null;
  guest_phone: string | null;
  notes: string | null;
  total_pence: number;
  paid_pence: number;
  created_at: string;
  checked_in_at: string | null;
  cancelled_at: string | null;
}

export interface CrmFigures {
  total_bookings: number;
  visits: number;
  no_shows: number;
  cancellations: number;
  door_rejections: number;
  spend_pence: number;
  last_visit_date: string | null;
}

export interface CrmBookingEvent {
  booking_id: string;
  venue_id: string;
  booking_date: string;
  action: string;
  to_status: string | null;
  at: string;
}

export interface CrmVoucher {
  id: string;
  venue_id: string;
  code: string;
  amount_pence: number;
  remaining_pence: number;
  status: string;
  mode: string;
  roles: string[];
  recipient_name: string | null;
  created_at: string;
}

export interface CrmBillingEntry {
  id: string;
  type: string;
  delta: number;
  note: string | null;
  booking_id: string | null;
  created_at: string;
}

export interface CoBookingQuery {
  venueIds: VenueFilter;
  /** The pairs of these guests (`a` one of them, `b` anyone); without, each pair once (`a` < `b`). */
  userIds?: readonly string[];
  sinceDate: string;
  minDates: number;
  limit: number;
}

/** A guest's membership of the operator (the memberships module's), as the guest detail shows it. */
export interface CrmMembership {
  tier_id: string;
  tier_name: string;
  started_at: string;
  expires_at: string;
  active: boolean;
}

export interface GuestSources {
  /** The caller's venue ids (the account's, narrowed by the role's scope). */
  reachableVenueIds(auth: AuthInfo): Promise<string[]>;
  venueNames(operatorId: string, venueIds: readonly string[]): Promise<{ id: string; name: string }[]>;
  bookings(conn: Conn, operatorId: string, venueIds: VenueFilter, userId: string): Promise<CrmBooking[]>;
  figures(conn: Conn, operatorId: string, venueIds: VenueFilter, userIds: readonly string[]): Promise<Map<string, CrmFigures>>;
  bookingActivity(conn: Conn, operatorId: string, venueIds: VenueFilter, userId: string, limit: number): Promise<CrmBookingEvent[]>;
  coBookings(conn: Conn, operatorId: string, query: CoBookingQuery): Promise<{ a: string; b: string; dates: number }[]>;
  anonymiseBookings(conn: Conn, operatorId: string, userId: string, now: Date): Promise<number>;
  vouchers(conn: Conn, operatorId: string, venueIds: VenueFilter, email: string): Promise<CrmVoucher[]>;
  anonymiseVouchers(conn: Conn, operatorId: string, email: string, now: Date): Promise<number>;
  billing(conn: Conn, userId: string, bookingIds: readonly string[]): Promise<CrmBillingEntry[]>;
  membership(conn: Conn, operatorId: string, userId: string): Promise<CrmMembership | null>;
}
