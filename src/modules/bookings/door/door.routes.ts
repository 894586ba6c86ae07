/**
 * The door (CONTRACT §5, extensions), one file per endpoint, registered here in this order: the venue's
 * public key for checking QR tokens offline (door-key.routes.ts), check-in by a QR token
 * (check-in.routes.ts), and turning a guest away (door-reject.routes.ts).
 */
import type { GuardFactory } from '../../../platform/auth-guard.js';
import type { RoutePlugin } from '../../../platform/module.js';
import type { StaffService } from '../staff/staff.service.js';
import { checkInRoutes } from './check-in.routes.js';
import { doorKeyRoutes } from './door-key.routes.js';
import { doorRejectRoutes } from './door-reject.routes.js';
import type { DoorService } from './door.service.js';

export const doorRoutes: RoutePlugin<{ guard: GuardFactory; door: DoorService; staff: StaffService }> = async (
  app,
  { guard, door, staff },
) => {
  await app.register(doorKeyRoutes, { guard, door });
  await app.register(checkInRoutes, { guard, door });
  await app.register(doorRejectRoutes, { guard, door, staff });
};
