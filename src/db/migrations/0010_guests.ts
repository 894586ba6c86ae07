/**
 * The guest CRM (guests module):
 * - guest_roster: one row per operator and guest who has a booking, ticket, voucher, walk-in record or tag
 *   at one of its venues (CONTRACT §4), with the first and latest time seen; guest_roster_venues: the
 *   venues of that relation.
 * - guest_search_terms: normalised prefixes targets (name, name words, email, email domain, phone digits)
 *   under primary key (operator_id, term, user_id), so roster search is an index range scan on both
 *   engines (byte order: `collate "C"` on PostgreSQL).
 * - guest_tags: tags per guest, operator-wide (`venue_id` '') or per venue.
 * - guest_walk_ins: walk-in guest records and the operator that created them.
 * - guest_activity: the CRM's own activity items (tag changes, walk-ins).
 * The roster is backfilled from existing bookings (with a user) and vouchers (recipient or purchaser email
 * of a guest user).
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

interface Seen {
  operator_id: string;
  user_id: string;
  venue_id: string;
  first: string;
  last: string;
}

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('guest_roster')
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('first_seen_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('guest_roster_pk', ['operator_id', 'user_id'])
    .execute();
  // The roster's page order (latest first) and cursor.
  await db.schema.createIndex('guest_roster_recent_idx').on('guest_roster').columns(['operator_id', 'last_seen_at', 'user_id']).execute();
  await db.schema.createIndex('guest_roster_user_idx').on('guest_roster').column('user_id').execute();

  await db.schema
    .createTable('guest_roster_venues')
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('venue_id', 'text', (c) => c.notNull().references('venues.id').onDelete('cascade'))
    .addColumn('first_seen_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('guest_roster_venues_pk', ['operator_id', 'user_id', 'venue_id'])
    .execute();
  await db.schema.createIndex('guest_roster_venues_venue_idx').on('guest_roster_venues').columns(['venue_id', 'user_id']).execute();

  await db.schema
    .createTable('guest_search_terms')
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('term', postgres ? sql`text collate "C"` : 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('guest_search_terms_pk', ['operator_id', 'term', 'user_id'])
    .execute();
  await db.schema.createIndex('guest_search_terms_user_idx').on('guest_search_terms').columns(['operator_id', 'user_id']).execute();

  await db.schema
    .createTable('guest_tags')
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // '' for the operator-wide (global) set, else the venue's id.
    .addColumn('venue_id', 'text', (c) => c.notNull())
    .addColumn('tag', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('guest_tags_pk', ['operator_id', 'user_id', 'venue_id', 'tag'])
    .execute();

  await db.schema
    .createTable('guest_walk_ins')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('venue_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('guest_activity')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('venue_id', 'text')
    // `tags_changed` or `walk_in`.
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('guest_activity_user_idx').on('guest_activity').columns(['operator_id', 'user_id', 'at']).execute();

  await backfill(db);
}

/** Roster rows from existing bookings and vouchers, with the search terms of their guests. */
async function backfill(db: Kysely<any>): Promise<void> {
  const fromBookings: Seen[] = await db
    .selectFrom('bookings')
    .innerJoin('users', 'users.id', 'bookings.user_id')
    .where('users.role', '=', 'guest')
    .select(['bookings.operator_id', 'bookings.user_id', 'bookings.venue_id'])
    .select((eb) => [eb.fn.min('bookings.created_at').as('first'), eb.fn.max('bookings.created_at').as('last')])
    .groupBy(['bookings.operator_id', 'bookings.user_id', 'bookings.venue_id'])
    .execute();
  const voucherEmails = (column: 'vouchers.recipient_email' | 'voucher_purchases.purchaser_email') =>
    db
      .selectFrom('vouchers')
      .leftJoin('voucher_purchases', 'voucher_purchases.id', 'vouchers.purchase_id')
      .innerJoin('users', (join) => join.on(sql`users.email`, '=', sql`lower(${sql.ref(column)})`))
      .where('users.role', '=', 'guest')
      .select(['vouchers.operator_id', 'users.id as user_id', 'vouchers.venue_id'])
      .select((eb) => [eb.fn.min('vouchers.created_at').as('first'), eb.fn.max('vouchers.created_at').as('last')])
      .groupBy(['vouchers.operator_id', 'users.id', 'vouchers.venue_id'])
      .execute() as Promise<Seen[]>;
  const seen = [
    ...fromBookings,
    ...(await voucherEmails('vouchers.recipient_email')),
    ...(await voucherEmails('voucher_purchases.purchaser_email')),
  ];
  const venues = new Map<string, Seen>();
  const roster = new Map<string, Seen>();
  for (const row of seen) {
    merge(venues, `${row.operator_id}|${row.user_id}|${row.venue_id}`, row);
    merge(roster, `${row.operator_id}|${row.user_id}`, row);
  }
  const rosterRows = [...roster.values()].map((r) => ({
    operator_id: r.operator_id,
    user_id: r.user_id,
    first_seen_at: r.first,
    last_seen_at: r.last,
  }));
  const venueRows = [...venues.values()].map((r) => ({
    operator_id: r.operator_id,
    user_id: r.user_id,
    venue_id: r.venue_id,
    first_seen_at: r.first,
    last_seen_at: r.last,
  }));
  for (const chunk of chunks(rosterRows)) await db.insertInto('guest_roster').values(chunk).execute();
  for (const chunk of chunks(venueRows)) await db.insertInto('guest_roster_venues').values(chunk).execute();
  const users = new Map<string, { name: string; email: string; phone: string | null }>();
  for (const ids of chunks([...new Set(rosterRows.map((r) => r.user_id))])) {
    const rows = await db.selectFrom('users').select(['id', 'name', 'email', 'phone']).where('id', 'in', ids).execute();
    for (const row of rows) users.set(row.id, row);
  }
  const terms = rosterRows.flatMap((r) => {
    const user = users.get(r.user_id);
    return user ? searchTermsOf(user).map((term) => ({ operator_id: r.operator_id, user_id: r.user_id, term })) : [];
  });
  for (const chunk of chunks(terms)) await db.insertInto('guest_search_terms').values(chunk).execute();
}

function merge(map: Map<string, Seen>, key: string, row: Seen): void {
  const known = map.get(key);
  if (!known) map.set(key, { ...row });
  else {
    if (row.first < known.first) known.first = row.first;
    if (row.last > known.last) known.last = row.last;
  }
}

/** Rows in batches small enough for SQLite's bound-parameter limit. */
function chunks<T>(rows: T[], size = 150): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['guest_activity', 'guest_walk_ins', 'guest_tags', 'guest_search_terms', 'guest_roster_venues', 'guest_roster']) {
    await db.schema.dropTable(table).execute();
  }
}

/**
 * The search terms of a guest, as src/modules/guests/search-terms.ts makes them when this migration was
 * written (a frozen copy: migrations never change, and db/ imports no module code).
 */
function searchTermsOf(fields: { name: string | null; email: string | null; phone: string | null }): string[] {
  const normalise = (value: string) =>
    value
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}@._+\- ]/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  const terms = new Set<string>();
  const name = normalise(fields.name ?? '');
  if (name) {
    terms.add(name);
    for (const word of name.split(' ')) if (word.length > 0) terms.add(word);
  }
  const email = normalise(fields.email ?? '').replace(/ /g, '');
  if (email) {
    terms.add(email);
    const at = email.indexOf('@');
    if (at >= 0 && at < email.length - 1) terms.add(email.slice(at + 1));
  }
  const digits = (fields.phone ?? '').replace(/\D/g, '');
  if (digits.length >= 2) {
    terms.add(digits);
    if (digits.startsWith('44') && digits.length > 4) terms.add(`0${digits.slice(2)}`);
  }
  return [...terms].filter((term) => term.length <= 200);
}
