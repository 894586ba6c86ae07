/**
 * The guest CRM's bench case (`npm run bench`, docs/guests.md): one operator with 50,000 guests in its
 * roster, each with a booking at its venue (so every roster row carries real figures), inserted directly
 * with the rows the application leaves (the guest user, the booking, the roster membership and its venue,
 * the search terms); then the roster is paged as a client pages it, one request at a time: offset pages
 * (first, middle, last) and the whole cursor walk's pages, timed end to end over HTTP. Target: < 50 ms a
 * page on the bench machine. Its autocannon scenarios add the roster's first page, a deep offset page, a
 * cursor page and a search to the bench table.
 */
import { sql, type Insertable } from 'kysely';
import type { Db } from '../src/db/connect.js';
import type { UsersTable } from '../src/modules/auth/auth.table.js';
import type { BookingsTable } from '../src/modules/bookings/core/bookings.table.js';
import type { GuestRosterTable, GuestRosterVenuesTable, GuestSearchTermsTable } from '../src/modules/guests/guests.table.js';
import { chunked } from '../src/db/batch.js';
import { withTransaction } from '../src/db/transaction.js';
import { searchTermsOf } from '../src/modules/guests/search-terms.js';
import { newId } from '../src/platform/ids.js';
import type { Scenario } from './seed-venue.js';

export const ROSTER_GUESTS = 50_000;
const PAGE = 50;
const TARGET_MS = 50;
const FIRST = ['Amelia', 'Oliver', 'Priya', 'James', 'Sophie', 'Mohammed', 'Charlotte', 'Daniel', 'Isla', 'Arjun', 'Grace', 'Lucas'];
const LAST = ['Hughes', 'Bennett', 'Sharma', 'Okafor', 'Turner', 'Rahman', 'Evans', 'Kowalski', 'Campbell', 'Patel', 'Morgan', 'Silva'];

/** Inserts ROSTER_GUESTS guests, each with one past booking at `venueId`, into the operator's roster. */
export async function seedRoster(db: Db, operatorId: string, venueId: string, now: Date): Promise<{ ms: number }> {
  const started = Date.now();
  const users: Insertable<UsersTable>[] = [];
  const bookings: Insertable<BookingsTable>[] = [];
  const roster: Insertable<GuestRosterTable>[] = [];
  const venues: Insertable<GuestRosterVenuesTable>[] = [];
  const terms: Insertable<GuestSearchTermsTable>[] = [];
  for (let i = 0; i < ROSTER_GUESTS; i++) {
    const id = newId('usr');
    const name = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]} ${i}`;
    const email = `roster-${i}@bench.example.test`;
    const phone = `+44 7700 ${String(100000 + i).slice(-6)}`;
    // Seen once each, a minute apart going back: distinct, realistic `last_seen_at`s.
    const seen = new Date(now.getTime() - (ROSTER_GUESTS - i) * 60_000).toISOString();
    users.push({
      id,
      role: 'guest',
      name,
      email,
      phone,
      password_hash: null,
      operator_id: null,
      role_id: null,
      totp_secret: null,
      totp_pending_secret: null,
      membership_tier: null,
      profile_image_url: null,
      created_at: seen,
      updated_at: seen,
    });
    bookings.push({
      id: newId('bkg'),
      operator_id: operatorId,
      venue_id: venueId,
      kind: 'table',
      status: i % 5 === 0 ? 'cancelled' : 'checked_in',
      user_id: id,
      booking_date: seen.slice(0, 10),
      start_time: '19:00',
      guest_count: 2,
      guest_name: name,
      guest_email: email,
      guest_phone: phone,
      source: 'staff',
      created_at: seen,
      updated_at: seen,
    });
    roster.push({ operator_id: operatorId, user_id: id, first_seen_at: seen, last_seen_at: seen });
    venues.push({ operator_id: operatorId, user_id: id, venue_id: venueId, first_seen_at: seen, last_seen_at: seen });
    for (const term of searchTermsOf({ name, email, phone })) terms.push({ operator_id: operatorId, user_id: id, term });
  }
  await withTransaction(db, async (trx) => {
    for (const chunk of chunked(users, 200)) await trx.insertInto('users').values(chunk).execute();
    for (const chunk of chunked(bookings, 200)) await trx.insertInto('bookings').values(chunk).execute();
    for (const chunk of chunked(roster)) await trx.insertInto('guest_roster').values(chunk).execute();
    for (const chunk of chunked(venues)) await trx.insertInto('guest_roster_venues').values(chunk).execute();
    for (const chunk of chunked(terms)) await trx.insertInto('guest_search_terms').values(chunk).execute();
  });
  // Fresh statistics and visibility map, as autovacuum would soon have them (index-only scans need the latter).
  await sql.raw(db.engine === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db.kysely);
  return { ms: Date.now() - started };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

/**
 * Pages the roster over HTTP one request at a time and prints the time per page: 20 offset pages at the
 * start, middle and end, and the first 200 pages of the cursor walk (10,000 guests). Answers a cursor
 * into the middle for the cursor scenario.
 */
export async function timeRosterPages(base: string, token: string, seededMs: number): Promise<string> {
  const get = async (path: string) => {
    const started = performance.now();
    const res = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { data: unknown[]; total?: number; cursor?: string | null };
    if (!res.ok || body.data.length === 0) throw new Error(`${path}: ${res.status}`);
    return { ms: performance.now() - started, body };
  };
  const { body } = await get(`/api/my-guests?limit=${PAGE}`);
  const total = body.total ?? 0;
  const lines: string[] = [];
  const report = (name: string, times: number[]) => {
    const verdict = percentile(times, 0.95) < TARGET_MS ? 'within' : 'OVER';
    lines.push(
      `${name.padEnd(44)} median ${median(times).toFixed(1).padStart(6)} ms   p95 ${percentile(times, 0.95).toFixed(1).padStart(6)} ms   max ${Math.max(
        ...times,
      )
        .toFixed(1)
        .padStart(6)} ms   (${verdict} ${TARGET_MS} ms)`,
    );
  };
  for (const [name, start] of [
    ['offset pages at the start', 0],
    ['offset pages in the middle', Math.floor(total / 2)],
    ['offset pages at the end', total - 20 * PAGE],
  ] as const) {
    const times = [];
    for (let i = 0; i < 20; i++) times.push((await get(`/api/my-guests?limit=${PAGE}&offset=${start + i * PAGE}`)).ms);
    report(`${name} (${PAGE} rows)`, times);
  }
  const times: number[] = [];
  let cursor: string | null | undefined = null;
  let middleCursor = '';
  for (let i = 0; i < 200; i++) {
    const page = await get(`/api/my-guests?paging=cursor&limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`);
    times.push(page.ms);
    cursor = page.body.cursor;
    if (i === 99 && cursor) middleCursor = cursor;
    if (!cursor) break;
  }
  report(`cursor walk, ${times.length} pages (${PAGE} rows)`, times);
  const search = [];
  for (const q of ['amelia', 'priya sharma', 'roster-4', '07700 1', 'amelia okafor'])
    search.push((await get(`/api/my-guests/search?q=${encodeURIComponent(q)}`)).ms);
  report('search (5 queries, up to 50 rows)', search);
  console.log(`\nGuest roster: ${total} guests (seeded in ${seededMs} ms); one request at a time over HTTP:`);
  for (const line of lines) console.log(line);
  console.log('');
  return middleCursor;
}

/** The roster's autocannon scenarios (10 connections, as every scenario). */
export function rosterScenarios(token: string, middleCursor: string): Scenario[] {
  const opts = { headers: { authorization: `Bearer ${token}` } };
  return [
    { name: 'GET roster, first page (50 of 50k)', path: `/api/my-guests?limit=${PAGE}`, opts },
    { name: 'GET roster, offset 25,000', path: `/api/my-guests?limit=${PAGE}&offset=25000`, opts },
    { name: 'GET roster, cursor page (middle)', path: `/api/my-guests?paging=cursor&limit=${PAGE}&cursor=${middleCursor}`, opts },
    { name: 'GET roster search (prefix, 50 rows)', path: '/api/my-guests/search?q=amelia', opts },
  ];
}
