/**
 * Look-ups of venues for other modules (through this module's index): the guard's venue reach, the
 * account's venue ids and summaries, a venue's account, and the bookable flag that availability keeps
 * in step with the venue's access rules.
 */
import { kyselyOf, type Conn } from '../../db/transaction.js';

/** The venue when it belongs to the account. */
export function findVenue(db: Conn, operatorId: string, venueId: string) {
  return kyselyOf(db).selectFrom('venues').selectAll().where('id', '=', venueId).where('operator_id', '=', operatorId).executeTakeFirst();
}

/** The account's venue ids; with `within`, only those of them that are in it. */
export async function venueIdsOf(db: Conn, operatorId: string, within?: readonly string[]): Promise<string[]> {
  if (within && within.length === 0) return [];
  let query = kyselyOf(db).selectFrom('venues').select('id').where('operator_id', '=', operatorId);
  if (within) query = query.where('id', 'in', [...within]);
  return (await query.execute()).map((row) => row.id);
}

/** Id, name and status of these venues of the account, by name. */
export async function venueSummaries(db: Conn, operatorId: string, venueIds: readonly string[]) {
  if (venueIds.length === 0) return [];
  return kyselyOf(db)
    .selectFrom('venues')
    .select(['id', 'name', 'status'])
    .where('operator_id', '=', operatorId)
    .where('id', 'in', [...venueIds])
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/**
 * Venues by id across every operator, with what a guest's own account shows of them (name, address,
 * zone): the account module reads the venues of the guest's own bookings and vouchers with it.
 */
export async function guestVenueCards(db: Conn, venueIds: readonly string[]) {
  if (venueIds.length === 0) return [];
  return kyselyOf(db)
    .selectFrom('venues')
    .select(['id', 'operator_id', 'name', 'address', 'timezone'])
    .where('id', 'in', [...new Set(venueIds)])
    .execute();
}

/** The venues named, of the account, with their time zones (the reservation floor's venue switcher): by name and id. */
export async function venueZones(db: Conn, operatorId: string, venueIds: readonly string[]) {
  if (venueIds.length === 0) return [];
  return kyselyOf(db)
    .selectFrom('venues')
    .select(['id', 'name', 'status', 'timezone'])
    .where('operator_id', '=', operatorId)
    .where('id', 'in', [...venueIds])
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** The account a venue belongs to. */
export async function operatorOfVenue(db: Conn, venueId: string): Promise<string | undefined> {
  return (await kyselyOf(db).selectFrom('venues').select('operator_id').where('id', '=', venueId).executeTakeFirst())?.operator_id;
}

/** Sets whether the venue shows as bookable on discovery surfaces; writes only on a change. */
export async function setBookable(db: Conn, venueId: string, bookable: boolean, now: string): Promise<void> {
  const flag = bookable ? 1 : 0;
  await kyselyOf(db)
    .updateTable('venues')
    .set({ is_bookable: flag, updated_at: now })
    .where('id', '=', venueId)
    .where('is_bookable', '!=', flag)
    .execute();
}

/** A venue the public may see (live), by id alone: public widget routes. */
export async function liveVenue(db: Conn, venueId: string) {
  const venue = await kyselyOf(db).selectFrom('venues').selectAll().where('id', '=', venueId).executeTakeFirst();
  return venue && venue.status === 'live' ? venue : undefined;
}
