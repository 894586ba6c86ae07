/**
 * The waitlist module (its table: waitlist_entries): the walk-in list (quoted waits from the floor,
 * notify, seat from the list as a walk-in booking) and the online list for full dates (offers of freed
 * slots, one at a time, for a limited time; accept books through the public path). Bookings are made
 * only through the bookings module's services, handed over by the composition root. docs/waitlist.md.
 */
import { createOnlineWaitlist } from './online.service.js';
import type { WaitlistDeps } from './waitlist-deps.js';
import { createWalkIns } from './walk-ins.service.js';

export { waitlistRoutes } from './waitlist.routes.js';
export { waitlistPublicRoutes } from './waitlist.public-routes.js';
export type { WaitlistDeps } from './waitlist-deps.js';

export function createWaitlistModule(deps: WaitlistDeps) {
  return { walkIns: createWalkIns(deps), online: createOnlineWaitlist(deps) };
}
