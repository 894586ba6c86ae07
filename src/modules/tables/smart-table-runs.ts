/**
 * The daily smart-table pass's bookkeeping in this module's `smart_table_settings`: which venues have
 * the pass on, and the claim of one day's run. The bookings module runs the pass (it owns what bookings
 * hold); this module owns the settings row, so the pass reads and claims through these two functions.
 */
import { kyselyOf, type Conn } from '../../db/transaction.js';

export interface ReassignSchedule {
  venue_id: string;
  /** Venue-local `HH:MM`. */
  reassign_time: string;
  reassign_last_run: string | null;
}

/** Every venue with the pass on, by venue id. */
export async function reassignSchedules(db: Conn): Promise<ReassignSchedule[]> {
  return kyselyOf(db)
    .selectFrom('smart_table_settings')
    .select(['venue_id', 'reassign_time', 'reassign_last_run'])
    .where('reassign_enabled', '=', 1)
    .orderBy('venue_id')
    .execute();
}

/**
 * Claims the venue's run due at `runAt` by writing `reassign_last_run = now`, only if the pass is still
 * on and has not run since `runAt`. A conditional update: of several instances claiming the same run,
 * exactly one changes the row (PostgreSQL re-checks the condition once the first update commits; SQLite
 * has one writer), and only that one answers true.
 */
export async function claimReassignRun(db: Conn, venueId: string, runAt: Date, now: Date): Promise<boolean> {
  const result = await kyselyOf(db)
    .updateTable('smart_table_settings')
    .set({ reassign_last_run: now.toISOString() })
    .where('venue_id', '=', venueId)
    .where('reassign_enabled', '=', 1)
    .where((eb) => eb.or([eb('reassign_last_run', 'is', null), eb('reassign_last_run', '<', runAt.toISOString())]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
