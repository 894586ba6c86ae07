/**
 * The booking engine's guest-facing routes (spec: Public widget endpoints), one file per endpoint group:
 * availability and floorplan (availability.routes.ts), book and finalize (book.routes.ts) and the
 * booking's QR code (qr.routes.ts), registered here in that order. The door's routes (door key, check-in,
 * door reject) are in ../door/.
 */
import type { AuthInfo } from '../../../platform/auth-guard.js';
import type { RoutePlugin } from '../../../platform/module.js';
import { availabilityRoutes } from './availability.routes.js';
import { bookRoutes } from './book.routes.js';
import type { PublicBookings } from './public.service.js';
import { qrRoutes } from './qr.routes.js';

export const publicBookingRoutes: RoutePlugin<{
  bookings: PublicBookings;
  floors: (venueId: string) => Promise<unknown[]>;
  loadAuth: (request: never) => Promise<AuthInfo | undefined>;
}> = async (app, { bookings, floors, loadAuth }) => {
  await app.register(availabilityRoutes, { bookings, floors });
  await app.register(bookRoutes, { bookings, loadAuth });
  await app.register(qrRoutes, { bookings });
};
