/**
 * The profiles module: list, table, event and ticket profiles (one implementation), admission groups
 * and rules, booking and payment policies. Other modules' rows refer to its policies, groups and
 * profiles, and follow them through the reference registry.
 */
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../platform/clock.js';
import type { CopyScopes } from '../../platform/copy-scopes.js';
import type { References } from '../../platform/references.js';
import { createAdmissionService } from './admission.service.js';
import { createPoliciesService } from './policies.service.js';
import { createProfilesCopyScopes } from './profiles.copy.js';
import type { ProfilesServices } from './profiles.routes.js';
import { createProfilesService } from './profiles.service.js';
import { registerProfilesReferences } from './references.js';

export { profilesRoutes, type ProfilesServices } from './profiles.routes.js';
export { BOOKING_POLICY_KINDS } from './profiles.schemas.js';
export { paymentPolicyTerms } from './policies.read.js';
export { loadAdmissionRules } from './admission.service.js';
export { listProfiles, toProfile, type Profile } from './profiles.service.js';

export function createProfilesModule(deps: { db: Db; clock: Clock; references: References; copyScopes: CopyScopes }): ProfilesServices {
  registerProfilesReferences(deps.references);
  deps.copyScopes.register(...createProfilesCopyScopes(deps.references));
  return { profiles: createProfilesService(deps), admission: createAdmissionService(deps), policies: createPoliciesService(deps) };
}
