/**
 * copy-from: every scope of every module in one registry, and the request rules around it: the scope
 * must be known, the caller's role must be allowed to write what the scope overwrites, the source must
 * be another venue the caller can reach (404 otherwise, as for any venue outside the account or the
 * role's scope), and the copy runs in one transaction, so a scope that fails leaves the target as it was.
 */
import type { AppContext } from '../../context.js';
import { lockKey, withTransaction } from '../../db/transaction.js';
import type { AuthInfo } from '../../platform/auth-guard.js';
import type { CopyScope } from '../../platform/copy-scopes.js';
import { badRequest, forbidden } from '../../platform/errors.js';
import { allows } from '../../platform/permissions.js';
import { availabilityCopyScopes } from '../availability/availability.copy.js';
import { tablesCopyScopes } from '../tables/tables.copy.js';
import type { CopyBody } from './catalogue.schemas.js';
import { createCatalogueCopyScopes } from './catalogue.copy.js';

/**
 * The permission that guards the settings each scope overwrites. The route needs `catalogue:write`
 * (copying is part of the catalogue); the scope's own module permission is needed as well, so that a
 * role without `tables` cannot replace the floorplan through copy-from.
 */
export const COPY_SCOPE_PERMISSIONS: Readonly<Record<string, string>> = {
  bundles: 'catalogue',
  'promo-codes': 'catalogue',
  'client-tags': 'catalogue',
  'reservation-tags': 'catalogue',
  'payment-policies': 'profiles',
  'access-profiles': 'profiles',
  'admission-rules': 'profiles',
  shifts: 'availability',
  'access-rules': 'availability',
  availability: 'availability',
  tables: 'tables',
  queue: 'venues.settings',
};

export function copyScopeRegistry(ctx: Pick<AppContext, 'db'>): Map<string, CopyScope> {
  const scopes = [...createCatalogueCopyScopes(ctx.db.engine), ...availabilityCopyScopes, ...tablesCopyScopes];
  return new Map(scopes.map((scope) => [scope.name, scope]));
}

/** `registry` is for tests that need a scope of their own (e.g. one that fails half-way). */
export function createCopyFromService(ctx: AppContext, registry: Map<string, CopyScope> = copyScopeRegistry(ctx)) {
  return {
    scopes: () => [...registry.keys()],

    async copyFrom(auth: AuthInfo, targetVenueId: string, body: CopyBody): Promise<number> {
      const scope = registry.get(body.scope);
      if (!scope) throw badRequest(`scope must be one of: ${[...registry.keys()].join(', ')}`);
      // A scope without an entry is owner-only rather than guarded by catalogue alone.
      const permission = COPY_SCOPE_PERMISSIONS[scope.name];
      if (!(permission ? allows(auth.grants, permission, 'write', auth.isOwner) : auth.isOwner)) {
        throw forbidden(`Copying ${scope.name} needs the ${permission ?? 'Owner'}${permission ? ':write permission' : ' role'}.`);
      }
      if (body.source_venue_id === targetVenueId) throw badRequest('source_venue_id must be another venue');
      await ctx.access.reachableVenue(auth, body.source_venue_id);
      return withTransaction(ctx.db, async (trx) => {
        // Two copies into one venue at once would interleave their deletes and inserts on PostgreSQL.
        await lockKey(ctx.db, trx, `copy-from:${targetVenueId}`);
        return scope.copy({ trx, operatorId: auth.operatorId!, sourceVenueId: body.source_venue_id, targetVenueId, now: ctx.clock.now() });
      });
    },
  };
}
