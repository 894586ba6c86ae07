/**
 * Roster membership (CONTRACT §4): a guest belongs to an operator's roster once they have a booking,
 * ticket, voucher, walk-in record or tag at one of its venues. The modules that create those call
 * `joinRoster` in the same transaction; it upserts the membership (and its venue) and refreshes the
 * guest's search terms. Idempotent, and safe under concurrency on both engines (upserts on primary keys).
 */
import { sql, type DeleteQueryBuilder, type DeleteResult } from 'kysely';
import type { Database } from '../../db/schema.js';
import { kyselyOf, onPostgres, type Conn } from '../../db/transaction.js';
import { guestProfiles, type GuestRecord } from '../auth/index.js';
import { searchTermsOf } from './search-terms.js';

export interface RosterEntry {
  operatorId: string;
  venueId: string;
  userId: string | null;
  at: Date;
  /**
   * The phone the guest gave this operator with the thing that brings them in (a booking's, a walk-in's);
   * kept on the operator's roster entry (the latest given wins), never on the platform record.
   */
  phone?: string | null;
  /**
   * The guest record as the caller's transaction just wrote or read it (`guestRecordForEmail`), when it
   * has it: its search terms are then made without reading the record again.
   */
  guest?: GuestRecord;
}

/**
 * Upserts the guest into the operator's roster (membership row: operator, user, the venue added to its
 * venue set, first/last seen). Call it in the SAME transaction that creates the booking / ticket /
 * voucher / walk-in / tag. `userId` null, or not a guest user, → no-op.
 */
export async function joinRoster(conn: Conn, entry: RosterEntry): Promise<void> {
  await joinRosterMany(conn, [entry]);
}

type Member = { operator_id: string; user_id: string; first_seen_at: string; last_seen_at: string; phone: string | null };
type MemberVenue = Omit<Member, 'phone'> & { venue_id: string };

/** `a` with its span widened to cover `b`'s. */
const widened = <T extends { first_seen_at: string; last_seen_at: string }>(
  a: T,
  b: { first_seen_at: string; last_seen_at: string },
): T => ({
  ...a,
  first_seen_at: b.first_seen_at < a.first_seen_at ? b.first_seen_at : a.first_seen_at,
  last_seen_at: b.last_seen_at > a.last_seen_at ? b.last_seen_at : a.last_seen_at,
});

/**
 * `joinRoster` for several entries in one transaction (a group commit's batch of bookings), in three
 * statements whatever their number: the roster rows, their venues, and the search terms (plus a read of
 * the guest records the callers did not have); on PostgreSQL the first two are one. A guest given twice
 * is one row: the widest span, the latest phone given.
 */
export async function joinRosterMany(conn: Conn, entries: readonly RosterEntry[]): Promise<void> {
  const joining = entries.filter((entry): entry is RosterEntry & { userId: string } => entry.userId !== null);
  if (joining.length === 0) return;
  const known = (entry: RosterEntry) => (entry.guest?.id === entry.userId ? entry.guest : undefined);
  const unknown = joining.filter((entry) => !known(entry)).map((entry) => entry.userId);
  const records = new Map<string, { name: string; email: string; made?: true }>();
  for (const guest of unknown.length > 0 ? await guestProfiles(conn, unknown) : []) records.set(guest.id, guest);
  for (const entry of joining) {
    const guest = known(entry);
    if (guest) records.set(guest.id, guest);
  }
  const members = new Map<string, Member>();
  const venues = new Map<string, MemberVenue>();
  for (const entry of joining) {
    if (!records.has(entry.userId)) continue;
    const at = entry.at.toISOString();
    const seen = { operator_id: entry.operatorId, user_id: entry.userId, first_seen_at: at, last_seen_at: at };
    const phone = entry.phone?.trim() || null;
    const memberKey = `${entry.operatorId}\u0000${entry.userId}`;
    const member = members.get(memberKey);
    members.set(memberKey, member ? { ...widened(member, seen), phone: phone ?? member.phone } : { ...seen, phone });
    const venueKey = `${memberKey}\u0000${entry.venueId}`;
    const venue = venues.get(venueKey);
    venues.set(venueKey, venue ? widened(venue, seen) : { ...seen, venue_id: entry.venueId });
  }
  if (members.size === 0) return;
  const k = kyselyOf(conn);
  const joinVenues = <Q extends Pick<typeof k, 'insertInto'>>(db: Q) =>
    db
      .insertInto('guest_roster_venues')
      .values([...venues.values()])
      .onConflict((oc) => oc.columns(['operator_id', 'user_id', 'venue_id']).doUpdateSet(widenSeen('guest_roster_venues')));
  const join = <Q extends Pick<typeof k, 'insertInto'>>(db: Q) =>
    db
      .insertInto('guest_roster')
      .values([...members.values()])
      .onConflict((oc) =>
        oc.columns(['operator_id', 'user_id']).doUpdateSet({
          ...widenSeen('guest_roster'),
          phone: sql<string | null>`coalesce(excluded.phone, guest_roster.phone)`,
        }),
      )
      .returning(['operator_id', 'user_id', 'phone']);
  // PostgreSQL: the venues as a part of the roster's statement (one round trip; the venues' foreign key to
  // the roster row is checked when the statement ends). SQLite: the roster first, then its venues.
  let stored: { operator_id: string; user_id: string; phone: string | null }[];
  if (onPostgres(k)) {
    stored = await join(k.with('venues', (db) => joinVenues(db))).execute();
  } else {
    stored = await join(k).execute();
    await joinVenues(k).execute();
  }
  const byOperator = new Map<string, SearchTerms[]>();
  for (const member of stored) {
    const guests = byOperator.get(member.operator_id) ?? [];
    const record = records.get(member.user_id)!;
    guests.push({ userId: member.user_id, terms: searchTermsOf({ ...record, phone: member.phone }), made: record.made === true });
    byOperator.set(member.operator_id, guests);
  }
  for (const [operatorId, guests] of byOperator) await replaceSearchTerms(conn, operatorId, guests);
}

/**
 * The contact details the guest gave this operator (its roster entry), or undefined when the guest is not
 * in the operator's roster: what a staff booking of a known guest may copy (never the platform record's phone).
 */
export async function rosterContact(conn: Conn, operatorId: string, userId: string): Promise<{ phone: string | null } | undefined> {
  return kyselyOf(conn)
    .selectFrom('guest_roster')
    .select('phone')
    .where('operator_id', '=', operatorId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/**
 * Guest profiles as one operator may see them: the platform record's name and email, and the phone the
 * guest gave this operator (its roster entry's), never the phone given to another operator.
 */
export async function rosterProfiles(conn: Conn, operatorId: string, userIds: readonly string[]) {
  if (userIds.length === 0) return [];
  const [profiles, phones] = await Promise.all([
    guestProfiles(conn, userIds),
    kyselyOf(conn)
      .selectFrom('guest_roster')
      .select(['user_id', 'phone'])
      .where('operator_id', '=', operatorId)
      .where('user_id', 'in', [...new Set(userIds)])
      .execute(),
  ]);
  const phoneOf = new Map(phones.map((row) => [row.user_id, row.phone]));
  return profiles.map((profile) => ({ ...profile, phone: phoneOf.get(profile.id) ?? null }));
}

/** first_seen_at the earlier and last_seen_at the later of the stored and the new instant. */
function widenSeen(table: 'guest_roster' | 'guest_roster_venues') {
  return {
    first_seen_at: sql<string>`case when excluded.first_seen_at < ${sql.ref(`${table}.first_seen_at`)} then excluded.first_seen_at else ${sql.ref(`${table}.first_seen_at`)} end`,
    last_seen_at: sql<string>`case when excluded.last_seen_at > ${sql.ref(`${table}.last_seen_at`)} then excluded.last_seen_at else ${sql.ref(`${table}.last_seen_at`)} end`,
  };
}

/** A guest's search terms at an operator; `made`: the guest record is new in this transaction (it has none yet). */
type SearchTerms = { userId: string; terms: string[]; made: boolean };

/**
 * Replaces each guest's search terms at an operator by theirs: the stale ones deleted, the new ones inserted
 * (ignoring terms a concurrent writer added). A guest record made in this transaction has no terms to
 * delete (nothing names its fresh id), so a batch of first-time guests only inserts. On PostgreSQL that is
 * one statement (`WITH stale AS (DELETE …) INSERT …`: a round trip less on every booking); SQLite has no
 * writes inside WITH, and no round trips to save.
 */
async function replaceSearchTerms(conn: Conn, operatorId: string, guests: readonly SearchTerms[]): Promise<void> {
  const k = kyselyOf(conn);
  const rows = guests.flatMap(({ userId, terms }) => terms.map((term) => ({ operator_id: operatorId, user_id: userId, term })));
  const known = new Set(guests.filter((guest) => !guest.made).map((guest) => guest.userId));
  const kept = rows.filter((row) => known.has(row.user_id));
  const stale = (query: DeleteTerms): DeleteTerms => {
    const theirs = query.where('operator_id', '=', operatorId).where('user_id', 'in', [...known]);
    if (kept.length === 0) return theirs;
    return theirs.where(({ eb, refTuple, tuple }) =>
      eb(
        refTuple('user_id', 'term'),
        'not in',
        kept.map((row) => tuple(row.user_id, row.term)),
      ),
    );
  };
  const insert = (db: Pick<typeof k, 'insertInto'>) =>
    db
      .insertInto('guest_search_terms')
      .values(rows)
      .onConflict((oc) => oc.doNothing());
  if (rows.length > 0 && onPostgres(k)) {
    await (known.size > 0 ? insert(k.with('stale', (db) => stale(db.deleteFrom('guest_search_terms')))) : insert(k)).execute();
    return;
  }
  if (known.size > 0) await stale(k.deleteFrom('guest_search_terms')).execute();
  if (rows.length > 0) await insert(k).execute();
}

type DeleteTerms = DeleteQueryBuilder<Database, 'guest_search_terms', DeleteResult>;

/** Counts a guest's connections at an operator (the network relation, docs/guests.md). */
export type ConnectionCounter = (conn: Conn, operatorId: string, userId: string) => Promise<number>;

/**
 * What admission-rule conditions need about a guest at an operator: the guest's tags (global + that
 * venue's) and the number of the guest's connections (the network relation, see docs/guests.md). The
 * guests service binds `countConnections` (`GuestsService.admissionFacts`).
 */
export async function admissionFactsOf(
  conn: Conn,
  countConnections: ConnectionCounter,
  guest: { operatorId: string; venueId: string; userId: string },
): Promise<{ tags: string[]; connections: number }> {
  const { operatorId, venueId, userId } = guest;
  const rows = await kyselyOf(conn)
    .selectFrom('guest_tags')
    .select('tag')
    .where('operator_id', '=', operatorId)
    .where('user_id', '=', userId)
    .where('venue_id', 'in', ['', venueId])
    .execute();
  const tags = [...new Set(rows.map((row) => row.tag))].sort();
  return { tags, connections: await countConnections(conn, operatorId, userId) };
}
