/**
 * The bookings module owns bookings and what they hold (`bookings`, `booking_tables`, `booking_slots`,
 * `booking_history`, `idempotency_keys`, `venue_door_keys`): the booking engine's public flows, the
 * staff reservation floor, and the read functions other modules use (occupancy, the draft refusal,
 * stats).
 *
 * The code is one folder per flow (docs/ARCHITECTURE.md, Bookings): `core/` is the booking record and
 * the only code that writes it; `public/`, `guestlist/`, `staff/`, `door/`, `manage/`, `smart-tables/`,
 * `events/` and `demo/` each hold a flow's routes, schemas and service. `createBookingsModule` builds them
 * all from explicit deps, and `bookingsRoutes` registers their routes.
 */
import type { Conn } from '../../db/transaction.js';
import type { AuthInfo, GuardFactory, VenueRow } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import type { LiveChanges } from '../../platform/live-changes.js';
import type { RoutePlugin } from '../../platform/module.js';
import type { SecretBox } from '../../platform/secret-box.js';
import type { TextMessages } from '../../platform/sms/sms.js';
import { bookingMails, confirmationTemplate, CONFIRMATION_TEMPLATE } from './core/booking-mail.js';
import { createDoorKeys } from './core/door-keys.js';
import { doorRoutes } from './door/door.routes.js';
import { createDoorService } from './door/door.service.js';
import { createEventBookings } from './events/event-bookings.js';
import { guestlistRoutes } from './guestlist/guestlist.routes.js';
import { createGuestlistBookings, type GuestlistDeps } from './guestlist/guestlist.service.js';
import { manageBookingRoutes } from './manage/manage.routes.js';
import { createManageBookings, type ManageDeps } from './manage/manage.service.js';
import { publicBookingRoutes } from './public/public.routes.js';
import { remindersRoutes } from './reminders/reminders.routes.js';
import { createReminders } from './reminders/reminders.service.js';
import type { PublicDeps } from './public/public-context.js';
import { createPublicBookings } from './public/public.service.js';
import { smartTablesRoutes } from './smart-tables/smart-tables.routes.js';
import { createSmartTablesService, type SmartTablesDeps } from './smart-tables/smart-tables.service.js';
import { changesRoutes } from './staff/changes.routes.js';
import { floorVenuesRoutes, type FloorVenueRow } from './staff/floor-venues.routes.js';
import { staffCreateRoutes } from './staff/staff-bookings.routes.js';
import { createStaffBookings } from './staff/staff-create.service.js';
import { staffRoutes } from './staff/staff.routes.js';
import { venueFiguresRoutes } from './staff/venue-figures.js';
import { createStaffService, type StaffDeps } from './staff/staff.service.js';

export { distinctGuests, hasUpcomingBookings, tablesTakenBetween, venueBookingFigures } from './core/bookings.repository.js';
export { seedDemoBookings, type SeedBooking } from './demo/demo-bookings.js';
export {
  accountBookings,
  anonymiseGuestBookings,
  coBookings,
  guestBookingActivity,
  guestBookingFigures,
  guestBookings,
  type AccountBooking,
} from './core/guest-reads.js';
export {
  activeEventBookings,
  attachEventIntent,
  COMMITTED_STATUSES,
  eventBooking,
  eventBookingByIntent,
  eventBookingStats,
  eventCancellationPreview,
  eventDoorList,
  eventFigures,
  guestVisits,
  insertEventBooking,
  venueDayReservations,
  type EventBookingRow,
  type SoldEventBooking,
  type EventBookings,
} from './events/event-bookings.js';
export { answeredOnce, idempotentIn, type IdempotentRequest } from './core/idempotency.js';
export { checkUnpaidHolds, PAYMENT_WINDOW_MS } from './core/unpaid-holds.js';
export { payableBooking } from './core/booking-payment.js';
export { PENCE_PER_KEY } from './guestlist/guestlist-terms.js';
export { occupancyBetween } from './core/venue-config.js';
export { BookAnswer as BookAnswerSchema, type BookBody } from './public/public.schemas.js';
export type { BookAnswer, BookRequest } from './public/book.service.js';
export type { StaffTableBookingBody } from './staff/staff-create.service.js';

/** What the bookings module needs from the infrastructure and from the modules it does not own. */
export interface BookingsDeps extends Omit<PublicDeps, 'doorKeys'> {
  /** Keeps the venues' door keys and the manage-link secret (encrypted). */
  secrets: SecretBox;
  reachableVenue: StaffDeps['reachableVenue'];
  /** The booking's venue whatever its status (the manage link). */
  findVenue(conn: Conn, operatorId: string, venueId: string): Promise<VenueRow | undefined>;
  /** The venue's look for the manage page (the venues module's branding). */
  venueLook: ManageDeps['venueLook'];
  venueById: SmartTablesDeps['venueById'];
  admissionFacts: GuestlistDeps['admissionFacts'];
  /** Text messages (platform/sms): reminders, confirmations and cancellations by SMS. */
  sms: TextMessages;
  audit: StaffDeps['audit'];
}

/** Every bookings service, created once (the composition root calls this), with the deposit fulfilments registered. */
export function createBookingsModule(deps: BookingsDeps) {
  const { db, clock, log, payments, mail, rateLimits, publicBaseUrl, liveVenue } = deps;
  const doorKeys = createDoorKeys({ db, clock, secrets: deps.secrets });
  const mailing = { mail, doorKeys, publicBaseUrl, sms: deps.sms };
  // The public booking's confirmation is rendered when sent (core/booking-mail.ts).
  mail.template(CONFIRMATION_TEMPLATE, confirmationTemplate({ mails: bookingMails(mailing), findVenue: deps.findVenue }));
  const staff = createStaffService({ db, clock, log, payments, ...mailing, reachableVenue: deps.reachableVenue, audit: deps.audit });
  const smartTables = createSmartTablesService({ db, clock, log, venueById: deps.venueById });
  const door = createDoorService({ db, clock, doorKeys, reachableVenue: deps.reachableVenue });
  const staffBookings = createStaffBookings({ db, clock, ...mailing, audit: deps.audit });
  const guestlist = createGuestlistBookings({ db, clock, rateLimits, ...mailing, liveVenue, admissionFacts: deps.admissionFacts });
  const publicBookings = createPublicBookings({
    db,
    clock,
    log,
    payments,
    ...mailing,
    botCheck: deps.botCheck,
    rateLimits,
    liveVenue,
    answerCacheMs: deps.answerCacheMs,
  });
  publicBookings.registerFulfilments();
  const manage = createManageBookings({
    db,
    clock,
    log,
    payments,
    rateLimits,
    ...mailing,
    findVenue: deps.findVenue,
    venueLook: deps.venueLook,
  });
  const eventBookings = createEventBookings({ db, clock, log, payments, ...mailing });
  const reminders = createReminders({ db, clock, log, ...mailing, rateLimits, venueById: deps.venueById, manage });
  return { doorKeys, staff, smartTables, door, staffBookings, guestlist, publicBookings, manage, eventBookings, reminders };
}

export type BookingsModule = ReturnType<typeof createBookingsModule>;

/** Every bookings route, registered in one place and in this order (the OpenAPI document follows it). */
export const bookingsRoutes: RoutePlugin<{
  guard: GuardFactory;
  bookings: Omit<BookingsModule, 'doorKeys' | 'eventBookings'>;
  floors: (venueId: string) => Promise<unknown[]>;
  loadAuth: (request: never) => Promise<AuthInfo | undefined>;
  /** The live floor stream: who listens to which venue, and its keep-alive interval. */
  live: { changes: LiveChanges; pingMs: number };
  /** The floor's venue switcher: the venues the caller can reach, with their zones. */
  floorVenues: { clock: Clock; venues: (auth: AuthInfo) => Promise<FloorVenueRow[]> };
  /** The database the Numbers page's daily figures are read from. */
  db: Conn;
}> = async (app, { guard, bookings, floors, loadAuth, live, floorVenues, db }) => {
  await app.register(staffRoutes, { guard, staff: bookings.staff });
  await app.register(floorVenuesRoutes, { guard, ...floorVenues });
  await app.register(venueFiguresRoutes, { guard, db });
  await app.register(changesRoutes, { guard, live: live.changes, pingMs: live.pingMs });
  await app.register(staffCreateRoutes, { guard, create: bookings.staffBookings });
  await app.register(guestlistRoutes, { guard, guestlist: bookings.guestlist });
  await app.register(doorRoutes, { guard, door: bookings.door, staff: bookings.staff });
  await app.register(smartTablesRoutes, { guard, smartTables: bookings.smartTables });
  await app.register(publicBookingRoutes, { bookings: bookings.publicBookings, floors, loadAuth });
  await app.register(manageBookingRoutes, { manage: bookings.manage });
  await app.register(remindersRoutes, { guard, reminders: bookings.reminders });
};
