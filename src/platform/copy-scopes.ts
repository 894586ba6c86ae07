/**
 * copy-from (`POST /api/my-venues/:venueId/copy-from`) copies one settings scope from a source venue of
 * the caller's account to a target venue, overwriting the target's scope inside one transaction. Each
 * module that owns settings registers its scopes here (in the composition root); the copy-from module
 * serves the route.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export interface CopyRequest {
  trx: Kysely<Database>;
  operatorId: string;
  sourceVenueId: string;
  targetVenueId: string;
  now: Date;
}

export interface CopyScope {
  /** The `scope` value of the request, e.g. `shifts`. */
  name: string;
  /**
   * The permission key guarding the settings the scope overwrites, needed (as write) besides the route's
   * own `catalogue:write`: a role without `tables` cannot replace the floorplan through copy-from.
   */
  permission: string;
  /** Deletes the target's rows of the scope, copies the source's; returns the number of rows copied. */
  copy(request: CopyRequest): Promise<number>;
}

export class CopyScopes {
  private readonly scopes = new Map<string, CopyScope>();

  register(...scopes: CopyScope[]): void {
    for (const scope of scopes) {
      if (this.scopes.has(scope.name)) throw new Error(`copy-from scope "${scope.name}" is registered twice`);
      this.scopes.set(scope.name, scope);
    }
  }

  get(name: string): CopyScope | undefined {
    return this.scopes.get(name);
  }

  names(): string[] {
    return [...this.scopes.keys()];
  }
}
