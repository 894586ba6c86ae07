/**
 * Catalogue module routes (permission `catalogue`): bundles and their items, promo codes, guest and
 * reservation tags (venue catalogue and the account-wide defaults). catalogueRoutes is the module's one
 * route plugin; each resource's routes are in their own file, registered here in this order.
 */
import type { GuardFactory } from '../../platform/auth-guard.js';
import type { RoutePlugin } from '../../platform/module.js';
import { bundlesRoutes } from './bundles.routes.js';
import type { BundlesService } from './bundles.service.js';
import { promoCodesRoutes } from './promo-codes.routes.js';
import type { PromoCodesService } from './promo-codes.service.js';
import { tagsRoutes } from './tags.routes.js';
import type { TagsService } from './tags.service.js';

export interface CatalogueServices {
  bundles: BundlesService;
  promos: PromoCodesService;
  tags: TagsService;
}

export const catalogueRoutes: RoutePlugin<CatalogueServices & { guard: GuardFactory }> = async (app, { guard, bundles, promos, tags }) => {
  await app.register(bundlesRoutes, { guard, bundles });
  await app.register(promoCodesRoutes, { guard, promos });
  await app.register(tagsRoutes, { guard, tags });
};
