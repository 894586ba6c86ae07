/**
 * Guest-list capacity (decisions: Guest list): the covers committed on a list for a date (its active
 * bookings, any source) against the list's max covers, and the guest-list covers of the venue's date
 * against its door capacity (`backdoor_capacity`). Callers hold the venue's booking lock
 * (`venue-bookings:<venue>`, taken by every booking create), so a check and the insert after it cannot
 * interleave with another create on any instance; SQLite's single writer does the same.
 */
import { kyselyOf, type Conn } from '../../../db/transaction.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import { conflict } from '../../../platform/errors.js';
import type { AccessRuleRecord } from '../../availability/index.js';
import { ACTIVE_BOOKING_STATUSES } from '../core/bookings.table.js';
import { termsOfRule, type ListTerms } from './guestlist-terms.js';

export interface CommittedCovers {
  /** On the list (rule) that date; 0 without a rule. */
  list: number;
  /** On every guest list of the venue that date. */
  door: number;
}

/** Active guest-list covers of a venue's date, in all and on one list, in one query. */
export async function committedCovers(conn: Conn, venueId: string, date: string, ruleId: string | null): Promise<CommittedCovers> {
  const rows = await kyselyOf(conn)
    .selectFrom('bookings')
    .select(['access_rule_id', (eb) => eb.fn.sum<number>('guest_count').as('covers')])
    .where('venue_id', '=', venueId)
    .where('booking_date', '=', date)
    .where('kind', '=', 'guestlist')
    .where('status', 'in', [...ACTIVE_BOOKING_STATUSES])
    .groupBy('access_rule_id')
    .execute();
  let door = 0;
  let list = 0;
  for (const row of rows) {
    const covers = Number(row.covers ?? 0);
    door += covers;
    if (ruleId !== null && row.access_rule_id === ruleId) list += covers;
  }
  return { list, door };
}

/** How many more covers the list takes that date (null: no limit): its max covers and the venue's door capacity. */
export function roomLeft(maxCovers: number | null, venue: Pick<VenueRow, 'backdoor_capacity'>, covers: CommittedCovers): number | null {
  const limits: number[] = [];
  if (maxCovers !== null) limits.push(maxCovers - covers.list);
  if (venue.backdoor_capacity !== null) limits.push(venue.backdoor_capacity - covers.door);
  return limits.length === 0 ? null : Math.max(0, Math.min(...limits));
}

/** 409 when `party` more covers would pass the list's max covers or the venue's door capacity. */
export function assertRoom(maxCovers: number | null, venue: Pick<VenueRow, 'backdoor_capacity'>, covers: CommittedCovers, party: number) {
  if (maxCovers !== null && covers.list + party > maxCovers) {
    throw conflict('The guest list is full for that date', { reason: 'max_covers', remaining: Math.max(0, maxCovers - covers.list) });
  }
  const door = venue.backdoor_capacity;
  if (door !== null && covers.door + party > door) {
    throw conflict('The venue’s door capacity is reached for that date', {
      reason: 'door_capacity',
      remaining: Math.max(0, door - covers.door),
    });
  }
}

/** 409 when `party` more covers would pass the free list's places (`places` null: no limit). */
export function assertFreePlaces(places: number | null, covers: CommittedCovers, party: number) {
  if (places !== null && covers.list + party > places) {
    throw conflict(`The free guest list has ${Math.max(0, places - covers.list)} places left for that date`, { reason: 'free_full' });
  }
}

/**
 * The staff guest-list create's check: the list's (when one is named) and the door's capacity for the
 * date, inside the create's transaction. Answers the list's terms (undefined without a rule).
 */
export async function checkGuestlistRoom(
  conn: Conn,
  venue: VenueRow,
  request: { date: string; rule: AccessRuleRecord | null; party: number },
): Promise<ListTerms | undefined> {
  const terms = request.rule ? await termsOfRule(conn, venue, request.rule) : undefined;
  const covers = await committedCovers(conn, venue.id, request.date, request.rule?.id ?? null);
  assertRoom(terms?.maxCovers ?? null, venue, covers, request.party);
  return terms;
}
