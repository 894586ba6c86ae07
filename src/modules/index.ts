/** Every module of the product, registered explicitly in one place. */
import type { App } from '../app.js';
import type { AppContext } from '../context.js';
import { authRoutes } from './auth/auth.routes.js';
import { teamRoutes } from './team/team.routes.js';
import { venuesRoutes } from './venues/venues.routes.js';
import { paymentsRoutes } from './payments/payments.routes.js';
import { availabilityRoutes } from './availability/availability.routes.js';
import { tablesRoutes } from './tables/tables.routes.js';
import { profilesRoutes } from './profiles/profiles.routes.js';
import { catalogueRoutes } from './catalogue/catalogue.routes.js';

export async function registerModules(app: App, ctx: AppContext): Promise<void> {
  await app.register(authRoutes, { ctx });
  await app.register(teamRoutes, { ctx });
  await app.register(venuesRoutes, { ctx });
  await app.register(paymentsRoutes, { ctx });
  await app.register(availabilityRoutes, { ctx });
  await app.register(tablesRoutes, { ctx });
  await app.register(profilesRoutes, { ctx });
  await app.register(catalogueRoutes, { ctx });
}
