/**
 * copy-from: every scope of every module in one registry (each module registers its own in the
 * composition root), and the request rules around it: the scope must be known, the caller's role must be
 * allowed to write what the scope overwrites, the source must be another venue the caller can reach (404
 * otherwise, as for any venue outside the account or the role's scope), and the copy runs in one
 * transaction, so a scope that fails leaves the target as it was.
 */
import type { Db } from '../../db/connect.js';
import { lockKey, withTransaction } from '../../db/transaction.js';
import type { AuthInfo, Guard } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import type { CopyScopes } from '../../platform/copy-scopes.js';
import { badRequest, forbidden } from '../../platform/errors.js';
import { allows } from '../../platform/permissions.js';

export interface CopyBody {
  source_venue_id: string;
  scope: string;
}

export function createCopyFromService(deps: { db: Db; clock: Clock; access: Pick<Guard, 'reachableVenue'>; scopes: CopyScopes }) {
  const { db, clock, access, scopes } = deps;

  return {
    /** Each scope with the permission (write) it needs besides the route's own. */
    scopes: () => scopes.names().map((name) => ({ name, permission: scopes.get(name)!.permission })),

    async copyFrom(auth: AuthInfo, targetVenueId: string, body: CopyBody): Promise<number> {
      const scope = scopes.get(body.scope);
      if (!scope) throw badRequest(`scope must be one of: ${scopes.names().join(', ')}`);
      if (!allows(auth.grants, scope.permission, 'write', auth.isOwner)) {
        throw forbidden(`Copying ${scope.name} needs the ${scope.permission}:write permission.`);
      }
      if (body.source_venue_id === targetVenueId) throw badRequest('source_venue_id must be another venue');
      await access.reachableVenue(auth, body.source_venue_id);
      return withTransaction(db, async (trx) => {
        // Two copies into one venue at once would interleave their deletes and inserts on PostgreSQL.
        await lockKey(db, trx, `copy-from:${targetVenueId}`);
        return scope.copy({ trx, operatorId: auth.operatorId!, sourceVenueId: body.source_venue_id, targetVenueId, now: clock.now() });
      });
    },
  };
}

export type CopyFromService = ReturnType<typeof createCopyFromService>;
