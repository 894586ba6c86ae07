/**
 * copy-from (`POST /api/my-venues/:venueId/copy-from`) copies one settings scope from a source venue of
 * the caller's account to a target venue, overwriting the target's scope inside one transaction. Each
 * module that owns a scope exports a CopyScope; the catalogue module's registry lists them all.
 */
import type { Tx } from '../db/transaction.js';

export interface CopyRequest {
  trx: Tx;
  operatorId: string;
  sourceVenueId: string;
  targetVenueId: string;
  now: Date;
}

export interface CopyScope {
  /** The `scope` value of the request, e.g. `shifts`. */
  name: string;
  /** Deletes the target's rows of the scope, copies the source's; returns the number of rows copied. */
  copy(request: CopyRequest): Promise<number>;
}
