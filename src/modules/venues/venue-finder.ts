/**
 * The venue an operator route names, from memory: every authenticated request under
 * /api/my-venues/:venueId reads its venue (is it the caller's account's?), and floor screens poll all
 * evening. The row is kept per venue in a venue cache of configuration scope: any write to the venue's
 * row marks it changed before the write returns (other instances learn of it through the change feed),
 * so an edit, a status change or a deletion is seen by the very next request. Frozen: it is shared.
 */
import type { ChangeFeed } from '../../db/change-feed.js';
import type { Db } from '../../db/connect.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { VenueCache } from '../../platform/venue-cache.js';
import { kyselyOf } from '../../db/transaction.js';

/** How long a venue's row may be served without a change (a safety net behind the change feed). */
const VENUE_ROW_TTL_MS = 30_000;

export function venueFinder(db: Db, changes: ChangeFeed, clock: Clock) {
  const rows = new VenueCache<VenueRow | undefined>(changes, clock, { ttlMs: VENUE_ROW_TTL_MS, maxEntries: 5_000, scope: 'configuration' });
  /** The venue if it belongs to the account; undefined for another account's or none. */
  return async (operatorId: string, venueId: string): Promise<VenueRow | undefined> => {
    const row = await rows.get(venueId, 'row', async () => {
      const found = await kyselyOf(db).selectFrom('venues').selectAll().where('id', '=', venueId).executeTakeFirst();
      return found && Object.freeze(found);
    });
    return row?.operator_id === operatorId ? row : undefined;
  };
}
