/**
 * The bookings module owns bookings and the tables they hold (`bookings`, `booking_tables`). Until the
 * booking engine lands here, it offers the read functions other modules need: venue stats, the
 * back-to-draft refusal and table occupancy.
 */
export { distinctGuests, hasUpcomingBookings, tablesTakenBetween, venueBookingFigures } from './bookings.repository.js';
