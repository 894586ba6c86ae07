/**
 * What the venues module needs to know about a venue's bookings: whether it has upcoming reservations
 * (going back to draft) and the figures of the stats pages. The bookings module provides them; the
 * composition root hands them over, so venues never imports bookings.
 */
import type { Conn } from '../../db/transaction.js';

export interface VenueBookingFigures {
  byStatus: { status: string; count: number }[];
  todayCount: number;
  uniqueGuests: number;
  chart: { booking_date: string; status: string; count: number }[];
}

export interface VenueBookingFacts {
  /** Whether the venue has a booking with an active status on `today` or later (inside `db`'s transaction). */
  hasUpcomingBookings(db: Conn, venueId: string, today: string): Promise<boolean>;
  venueBookingFigures(db: Conn, venueId: string, window: { today: string; chartFrom: string }): Promise<VenueBookingFigures>;
  /** Distinct guests of the venues, over every date or within each range's dates. */
  distinctGuests(
    db: Conn,
    operatorId: string,
    venueIds: readonly string[],
    ranges?: readonly { venueIds: readonly string[]; fromDate: string; toDate: string }[],
  ): Promise<number>;
}
