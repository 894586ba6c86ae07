/**
 * Reads of the roster tables, always scoped by operator and, for a role limited to some venues, by those
 * venues (a guest is visible when related to at least one of them).
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import { kyselyOf, type Conn } from '../../db/transaction.js';
import { prefixEnd } from './search-terms.js';
import type { VenueFilter } from './sources.js';

/** Whose roster, seen from which venues (null: every venue of the operator). */
export interface GuestScope {
  operatorId: string;
  venueIds: VenueFilter;
}

/** `exists` a roster venue row of the guest in `venueIds` (the outer table's `user_id` column named by `userColumn`). */
function atVenues(
  scope: GuestScope,
  userColumn: 'guest_roster.user_id' | 'guest_search_terms.user_id',
  venueIds: readonly string[],
): Expression<SqlBool> {
  return sql<SqlBool>`exists (select 1 from guest_roster_venues v where v.operator_id = ${scope.operatorId} and v.user_id = ${sql.ref(userColumn)} and v.venue_id in (${sql.join(venueIds.length > 0 ? [...venueIds] : [''])}))`;
}

/** Whether the guest is in the operator's roster and related to one of the scope's venues. */
export async function inRoster(conn: Conn, scope: GuestScope, userId: string): Promise<boolean> {
  let query = kyselyOf(conn)
    .selectFrom('guest_roster')
    .select('guest_roster.user_id')
    .where('guest_roster.operator_id', '=', scope.operatorId)
    .where('guest_roster.user_id', '=', userId);
  if (scope.venueIds) query = query.where(atVenues(scope, 'guest_roster.user_id', scope.venueIds));
  return Boolean(await query.executeTakeFirst());
}

/**
 * Narrowing of the roster list: a tag (any case) at the operator-wide scope or at one of the scope's
 * venues, and a range of the latest roster event (ISO instants, as `last_seen_at` is stored).
 */
export interface RosterFilter {
  tag?: string;
  seenSince?: string;
  seenBefore?: string;
}

/** The roster in page order (latest seen first, then id), as an offset or keyset page of ids. */
function rosterQuery(conn: Conn, scope: GuestScope, filter: RosterFilter) {
  let query = kyselyOf(conn).selectFrom('guest_roster').where('guest_roster.operator_id', '=', scope.operatorId);
  if (scope.venueIds) query = query.where(atVenues(scope, 'guest_roster.user_id', scope.venueIds));
  if (filter.seenSince) query = query.where('guest_roster.last_seen_at', '>=', filter.seenSince);
  if (filter.seenBefore) query = query.where('guest_roster.last_seen_at', '<', filter.seenBefore);
  if (filter.tag) {
    const venues = scope.venueIds ? sql`and t.venue_id in (${sql.join(['', ...scope.venueIds])})` : sql``;
    query = query.where(
      sql<SqlBool>`exists (select 1 from guest_tags t where t.operator_id = ${scope.operatorId} and t.user_id = guest_roster.user_id and lower(t.tag) = lower(${filter.tag}) ${venues})`,
    );
  }
  return query;
}

export async function rosterPage(
  conn: Conn,
  scope: GuestScope,
  page: { limit: number; offset?: number; after?: { lastSeenAt: string; userId: string } | null },
  filter: RosterFilter = {},
): Promise<{ user_id: string; last_seen_at: string }[]> {
  let query = rosterQuery(conn, scope, filter).select(['guest_roster.user_id', 'guest_roster.last_seen_at']);
  if (page.after) {
    const { lastSeenAt, userId } = page.after;
    // The first condition is implied by the second; it lets SQLite's planner range-scan the index too.
    query = query
      .where('guest_roster.last_seen_at', '<=', lastSeenAt)
      .where((eb) =>
        eb.or([
          eb('guest_roster.last_seen_at', '<', lastSeenAt),
          eb.and([eb('guest_roster.last_seen_at', '=', lastSeenAt), eb('guest_roster.user_id', '<', userId)]),
        ]),
      );
  }
  query = query.orderBy('guest_roster.last_seen_at', 'desc').orderBy('guest_roster.user_id', 'desc').limit(page.limit);
  if (page.offset) query = query.offset(page.offset);
  return query.execute();
}

export async function rosterTotal(conn: Conn, scope: GuestScope, filter: RosterFilter = {}): Promise<number> {
  const row = await rosterQuery(conn, scope, filter)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** Search-term rows read per round trip: a guest has a handful of terms, so a round usually finds the whole page. */
const SEARCH_BATCH = 400;

/**
 * The search-term rows starting with `term`, in the primary key's order (term, user_id), after `after`:
 * a range scan of the primary key (operator_id, term, user_id) that stops at `limit` rows (no sort, no
 * grouping). `venueIds` narrows to the guests of those venues.
 */
export function searchTermQuery(
  conn: Conn,
  scope: GuestScope,
  term: string,
  limit: number,
  venueIds: VenueFilter,
  after?: { term: string; userId: string },
) {
  let query = kyselyOf(conn)
    .selectFrom('guest_search_terms')
    .select(['guest_search_terms.user_id', 'guest_search_terms.term'])
    .where('guest_search_terms.operator_id', '=', scope.operatorId)
    .where('guest_search_terms.term', '>=', after?.term ?? term)
    .where('guest_search_terms.term', '<', prefixEnd(term));
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('guest_search_terms.term', '>', after.term),
        eb.and([eb('guest_search_terms.term', '=', after.term), eb('guest_search_terms.user_id', '>', after.userId)]),
      ]),
    );
  }
  if (venueIds) query = query.where(atVenues(scope, 'guest_search_terms.user_id', venueIds));
  return query.orderBy('guest_search_terms.term').orderBy('guest_search_terms.user_id').limit(limit);
}

/**
 * Roster guests matching any of `terms` (a prefix of one of their search terms), at most `limit`, the
 * best (lowest) matching term first; `venueId` narrows to one venue's guests. Reads the index in order
 * until `limit` distinct guests are found.
 */
export async function searchRoster(
  conn: Conn,
  scope: GuestScope,
  terms: readonly string[],
  limit: number,
  venueId?: string,
): Promise<string[]> {
  const best = new Map<string, string>();
  const venues = venueId ? [venueId] : scope.venueIds;
  for (const term of terms) {
    const found = new Set<string>();
    let after: { term: string; userId: string } | undefined;
    for (;;) {
      const rows = await searchTermQuery(conn, scope, term, SEARCH_BATCH, venues, after).execute();
      for (const row of rows) {
        found.add(row.user_id);
        const known = best.get(row.user_id);
        if (known === undefined || row.term < known) best.set(row.user_id, row.term);
      }
      if (rows.length < SEARCH_BATCH || found.size >= limit) break;
      const last = rows[rows.length - 1];
      after = { term: last.term, userId: last.user_id };
    }
  }
  return [...best.entries()]
    .sort(([aId, aTerm], [bId, bTerm]) => (aTerm === bTerm ? (aId < bId ? -1 : 1) : aTerm < bTerm ? -1 : 1))
    .slice(0, limit)
    .map(([id]) => id);
}

/** Each guest's venue ids (within the scope), sorted. */
export async function rosterVenues(conn: Conn, scope: GuestScope, userIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (userIds.length === 0) return out;
  let query = kyselyOf(conn)
    .selectFrom('guest_roster_venues')
    .select(['user_id', 'venue_id'])
    .where('operator_id', '=', scope.operatorId)
    .where('user_id', 'in', [...new Set(userIds)]);
  if (scope.venueIds) query = query.where('venue_id', 'in', scope.venueIds.length > 0 ? [...scope.venueIds] : ['']);
  for (const row of await query.orderBy('user_id').orderBy('venue_id').execute()) {
    const list = out.get(row.user_id) ?? [];
    list.push(row.venue_id);
    out.set(row.user_id, list);
  }
  return out;
}

/** The roster membership itself (first and latest seen), for the export. */
export function membership(conn: Conn, operatorId: string, userId: string) {
  return kyselyOf(conn)
    .selectFrom('guest_roster')
    .select(['first_seen_at', 'last_seen_at'])
    .where('operator_id', '=', operatorId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Which of `userIds` are in the roster within the scope. */
export async function rosterMembers(conn: Conn, scope: GuestScope, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const members = new Set<string>();
  const ids = [...new Set(userIds)];
  for (let i = 0; i < ids.length; i += 500) {
    let query = kyselyOf(conn)
      .selectFrom('guest_roster')
      .select('guest_roster.user_id')
      .where('guest_roster.operator_id', '=', scope.operatorId)
      .where('guest_roster.user_id', 'in', ids.slice(i, i + 500));
    if (scope.venueIds) query = query.where(atVenues(scope, 'guest_roster.user_id', scope.venueIds));
    for (const row of await query.execute()) members.add(row.user_id);
  }
  return members;
}
