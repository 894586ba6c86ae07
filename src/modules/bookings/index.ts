/**
 * The bookings module owns bookings and what they hold (`bookings`, `booking_tables`, `booking_slots`,
 * `booking_history`, `idempotency_keys`, `venue_door_keys`): the booking engine's public flows, the
 * staff reservation floor, and the read functions other modules use (occupancy, the draft refusal,
 * stats).
 */
export { distinctGuests, hasUpcomingBookings, tablesTakenBetween, venueBookingFigures } from './bookings.repository.js';
export { createStaffService } from './staff.service.js';
export { staffRoutes } from './staff.routes.js';
export { createDoorKeys } from './door-keys.js';
export { createDoorService } from './door.service.js';
export { doorRoutes } from './door.routes.js';
export { createStaffBookings } from './staff-create.service.js';
export { staffCreateRoutes } from './staff-create.routes.js';
export { createPublicBookings } from './public.service.js';
export { publicBookingRoutes } from './public.routes.js';
export { createManageBookings } from './manage.service.js';
export { manageBookingRoutes } from './manage.routes.js';
export { createSmartTablesService } from './smart-tables.service.js';
export { smartTablesRoutes } from './smart-tables.routes.js';
export { seedDemoBookings, type SeedBooking } from './demo-bookings.js';
export { createGuestlistBookings } from './guestlist.service.js';
export { guestlistRoutes } from './guestlist.routes.js';
export { anonymiseGuestBookings, coBookings, guestBookingActivity, guestBookingFigures, guestBookings } from './guest-reads.js';
export {
  activeEventBookings,
  attachEventIntent,
  COMMITTED_STATUSES,
  createEventBookings,
  eventBooking,
  eventBookingByIntent,
  eventBookingStats,
  eventDoorList,
  eventFigures,
  guestVisits,
  insertEventBooking,
  venueDayReservations,
  type EventBookingRow,
  type EventBookings,
} from './event-bookings.js';
export { checkIdempotencyKey, idempotent } from './idempotency.js';
export { checkUnpaidHolds, PAYMENT_WINDOW_MS } from './unpaid-holds.js';
