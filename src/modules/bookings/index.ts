/**
 * The bookings module owns bookings and what they hold (`bookings`, `booking_tables`, `booking_slots`,
 * `booking_history`, `idempotency_keys`, `venue_door_keys`): the booking engine's public flows, the
 * staff reservation floor, and the read functions other modules use (occupancy, the draft refusal,
 * stats).
 */
export { distinctGuests, hasUpcomingBookings, tablesTakenBetween, venueBookingFigures } from './core/bookings.repository.js';
export { createStaffService } from './staff/staff.service.js';
export { staffRoutes } from './staff/staff.routes.js';
export { createDoorKeys } from './core/door-keys.js';
export { createDoorService } from './door/door.service.js';
export { doorRoutes } from './door/door.routes.js';
export { createStaffBookings } from './staff/staff-create.service.js';
export { staffCreateRoutes } from './staff/staff-bookings.routes.js';
export { createPublicBookings } from './public/public.service.js';
export { publicBookingRoutes } from './public/public.routes.js';
export { createManageBookings } from './manage/manage.service.js';
export { manageBookingRoutes } from './manage/manage.routes.js';
export { createSmartTablesService } from './smart-tables/smart-tables.service.js';
export { smartTablesRoutes } from './smart-tables/smart-tables.routes.js';
export { seedDemoBookings, type SeedBooking } from './demo/demo-bookings.js';
export { createGuestlistBookings } from './guestlist/guestlist.service.js';
export { guestlistRoutes } from './guestlist/guestlist.routes.js';
export { anonymiseGuestBookings, coBookings, guestBookingActivity, guestBookingFigures, guestBookings } from './core/guest-reads.js';
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
} from './events/event-bookings.js';
export { checkIdempotencyKey, idempotent } from './core/idempotency.js';
export { checkUnpaidHolds, PAYMENT_WINDOW_MS } from './core/unpaid-holds.js';
