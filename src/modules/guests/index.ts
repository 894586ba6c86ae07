/**
 * The guests module: each operator's guest roster (CRM), its search, tags, walk-ins, network and privacy
 * requests. Other modules call `joinRoster` in the transaction that relates a guest to a venue, and get
 * the service's `admissionFacts` (handed over by the composition root) for admission rules. It reads bookings, vouchers and the keys ledger only through
 * functions the composition root hands it (it never imports the bookings module).
 */
export { joinRoster, joinRosterMany, rosterContact } from './roster.js';
/** The rows the CRM reads from bookings (declared here, by the reader; bookings' guest-reads.ts answers them). */
export type { CrmBooking, CrmBookingEvent } from './sources.js';
export { guestsRoutes } from './guests.routes.js';
export { createGuestsService } from './guests.service.js';
