/**
 * The catalogue module: bundles and their items, promo codes (race-safe redemption) and the guest and
 * reservation tag catalogue (platform defaults, account-wide and venue custom tags).
 */
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../platform/clock.js';
import type { CopyScopes } from '../../platform/copy-scopes.js';
import type { References } from '../../platform/references.js';
import type { Uploads } from '../../platform/uploads.js';
import { createBundlesService } from './bundles.service.js';
import { createCatalogueCopyScopes } from './catalogue.copy.js';
import { registerCatalogueReferences } from './catalogue.references.js';
import type { CatalogueServices } from './catalogue.routes.js';
import { createPromoCodesService } from './promo-codes.service.js';
import { createTagsService } from './tags.service.js';

export { catalogueRoutes, type CatalogueServices } from './catalogue.routes.js';
export { bundlePrices, bundlesNamed } from './catalogue.read.js';
export { bundlesPublicRoutes } from './bundles.public-routes.js';
export { redeemPromoCode } from './promo-codes.service.js';

export function createCatalogueModule(deps: {
  db: Db;
  clock: Clock;
  uploads: Pick<Uploads, 'saveImage'>;
  references: References;
  copyScopes: CopyScopes;
}): CatalogueServices {
  registerCatalogueReferences(deps.references);
  deps.copyScopes.register(...createCatalogueCopyScopes(deps.references));
  return { bundles: createBundlesService(deps), promos: createPromoCodesService(deps), tags: createTagsService(deps) };
}
