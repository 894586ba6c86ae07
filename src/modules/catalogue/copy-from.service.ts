/**
 * copy-from: every scope of every module in one registry, and the request rules around it: the scope
 * must be known, the source must be another venue the caller can reach (404 otherwise, as for any venue
 * outside the account or the role's scope), and the copy runs in one transaction.
 */
import type { AppContext } from '../../context.js';
import { lockKey, withTransaction } from '../../db/transaction.js';
import type { AuthInfo } from '../../platform/auth-guard.js';
import type { CopyScope } from '../../platform/copy-scopes.js';
import { badRequest } from '../../platform/errors.js';
import { availabilityCopyScopes } from '../availability/availability.copy.js';
import { tablesCopyScopes } from '../tables/tables.copy.js';
import type { CopyBody } from './catalogue.schemas.js';
import { createCatalogueCopyScopes } from './catalogue.copy.js';

export function copyScopeRegistry(ctx: Pick<AppContext, 'db'>): Map<string, CopyScope> {
  const scopes = [...createCatalogueCopyScopes(ctx.db.engine), ...availabilityCopyScopes, ...tablesCopyScopes];
  return new Map(scopes.map((scope) => [scope.name, scope]));
}

export function createCopyFromService(ctx: AppContext) {
  const registry = copyScopeRegistry(ctx);

  return {
    scopes: () => [...registry.keys()],

    async copyFrom(auth: AuthInfo, targetVenueId: string, body: CopyBody): Promise<number> {
      const scope = registry.get(body.scope);
      if (!scope) throw badRequest(`scope must be one of: ${[...registry.keys()].join(', ')}`);
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
