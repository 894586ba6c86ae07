/**
 * The availability module: a venue's time periods, shifts, access rules (with their image) and
 * blackouts. Its shifts and access rules refer to other modules' rows (tables, areas, price lists,
 * policies, bundles, profiles) and follow them through the reference registry.
 */
import type { Db } from '../../db/connect.js';
import type { Audit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { CopyScopes } from '../../platform/copy-scopes.js';
import type { References } from '../../platform/references.js';
import type { Uploads } from '../../platform/uploads.js';
import { createAccessRulesService } from './access-rules.service.js';
import { createAvailabilityCopyScopes } from './availability.copy.js';
import { registerAvailabilityReferences } from './availability.repository.js';
import type { AvailabilityServices } from './availability.routes.js';
import { createAvailabilityService } from './availability.service.js';

export { availabilityRoutes, type AvailabilityServices } from './availability.routes.js';
export { availabilityRecords, type AccessRuleRecord, type ShiftRecord } from './availability.read.js';

export function createAvailabilityModule(deps: {
  db: Db;
  clock: Clock;
  uploads: Pick<Uploads, 'saveImage'>;
  publicBaseUrl: string;
  references: References;
  copyScopes: CopyScopes;
  audit: Audit;
}): AvailabilityServices {
  registerAvailabilityReferences(deps.references);
  deps.copyScopes.register(...createAvailabilityCopyScopes(deps.references));
  return { availability: createAvailabilityService(deps), rules: createAccessRulesService(deps) };
}
