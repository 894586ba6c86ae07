import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, type TestApp } from '../../../test/helpers/app.js';
import { newId } from '../../platform/ids.js';
import { tablesTakenBetween } from '../bookings/index.js';
import { blockedTableIds, takenTableIds } from './occupancy.js';

let t: TestApp;
let operatorId: string;
let venueId: string;
let otherVenueId: string;
const tables: Record<string, string> = {};

async function insertTable(venue: string, number: string) {
  const id = newId('tbl');
  const at = t.clock.now().toISOString();
  await t.db.kysely
    .insertInto('venue_tables')
    .values({
      id,
      venue_id: venue,
      table_number: number,
      capacity: 4,
      min_covers: 1,
      status: 'active',
      table_type: 'standard',
      seating_area_id: null,
      floor_id: null,
      x: null,
      y: null,
      shape: null,
      size: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

async function insertBooking(venue: string, tableIds: string[], from: string, to: string, status = 'approved') {
  const id = newId('bkg');
  const at = t.clock.now().toISOString();
  await t.db.kysely
    .insertInto('bookings')
    .values({
      id,
      operator_id: operatorId,
      venue_id: venue,
      kind: 'table',
      status,
      user_id: null,
      event_id: null,
      access_rule_id: null,
      booking_date: from.slice(0, 10),
      start_time: null,
      duration_minutes: null,
      starts_at: from,
      ends_at: to,
      guest_name: null,
      guest_email: null,
      guest_phone: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  for (const tableId of tableIds)
    await t.db.kysely
      .insertInto('booking_tables')
      .values({ booking_id: id, table_id: tableId, venue_id: venue, starts_at: from, ends_at: to })
      .execute();
  return id;
}

async function insertBlock(venue: string, tableId: string, from: string, to: string) {
  const at = t.clock.now().toISOString();
  await t.db.kysely
    .insertInto('table_blocks')
    .values({
      id: newId('tblk'),
      venue_id: venue,
      table_id: tableId,
      blocked_from: from,
      blocked_to: to,
      reason: 'Venue Reserved',
      created_at: at,
      updated_at: at,
    })
    .execute();
}

const d = (iso: string) => new Date(iso);
const sorted = (set: Set<string>) => [...set].sort();
const ids = (...names: string[]) => names.map((name) => tables[name]).sort();

let pairBooking: string;

beforeAll(async () => {
  t = await createTestApp();
  operatorId = (await createOperator(t)).operatorId;
  venueId = await insertVenue(t, operatorId);
  otherVenueId = await insertVenue(t, operatorId);
  for (const name of ['a', 'b', 'c', 'd', 'e']) tables[name] = await insertTable(venueId, name);
  tables.elsewhere = await insertTable(otherVenueId, 'a');
  pairBooking = await insertBooking(venueId, [tables.a, tables.b], '2026-06-20T18:00:00.000Z', '2026-06-20T20:00:00.000Z');
  await insertBooking(venueId, [tables.c], '2026-06-20T18:00:00.000Z', '2026-06-20T20:00:00.000Z', 'checked_in');
  await insertBooking(venueId, [tables.d], '2026-06-20T18:00:00.000Z', '2026-06-20T20:00:00.000Z', 'no_show');
  await insertBooking(otherVenueId, [tables.elsewhere], '2026-06-20T18:00:00.000Z', '2026-06-20T20:00:00.000Z');
  await insertBlock(venueId, tables.e, '2026-06-20T19:00:00.000Z', '2026-06-20T21:00:00.000Z');
  await insertBlock(otherVenueId, tables.elsewhere, '2026-06-20T19:00:00.000Z', '2026-06-20T21:00:00.000Z');
});
afterAll(async () => t.close());

describe('takenTableIds', () => {
  it('finds tables of active bookings overlapping a half-open window, at this venue only', async () => {
    const k = t.db.kysely;
    expect(sorted(await takenTableIds(tablesTakenBetween, k, venueId, d('2026-06-20T19:00:00Z'), d('2026-06-20T19:30:00Z')))).toEqual(
      ids('a', 'b', 'c'),
    );
    expect(sorted(await takenTableIds(tablesTakenBetween, k, venueId, d('2026-06-20T20:00:00Z'), d('2026-06-20T22:00:00Z')))).toEqual([]);
    expect(sorted(await takenTableIds(tablesTakenBetween, k, venueId, d('2026-06-20T16:00:00Z'), d('2026-06-20T18:00:00Z')))).toEqual([]);
    expect(sorted(await takenTableIds(tablesTakenBetween, k, venueId, d('2026-06-20T16:00:00Z'), d('2026-06-20T18:00:01Z')))).toEqual(
      ids('a', 'b', 'c'),
    );
    expect(sorted(await takenTableIds(tablesTakenBetween, k, otherVenueId, d('2026-06-20T19:00:00Z'), d('2026-06-20T19:30:00Z')))).toEqual([
      tables.elsewhere,
    ]);
  });

  it('narrows to candidate tables and can ignore one booking', async () => {
    const k = t.db.kysely;
    const window = [d('2026-06-20T19:00:00Z'), d('2026-06-20T19:30:00Z')] as const;
    expect(sorted(await takenTableIds(tablesTakenBetween, k, venueId, ...window, { tableIds: [tables.b, tables.d, tables.e] }))).toEqual(
      ids('b'),
    );
    expect(sorted(await takenTableIds(tablesTakenBetween, k, venueId, ...window, { tableIds: [] }))).toEqual([]);
    expect(sorted(await takenTableIds(tablesTakenBetween, k, venueId, ...window, { excludeBookingId: pairBooking }))).toEqual(ids('c'));
    expect(sorted(await takenTableIds(tablesTakenBetween, k, venueId, ...window, { tableIds: [tables.elsewhere] }))).toEqual([]);
  });
});

describe('blockedTableIds', () => {
  it('finds tables with a block overlapping a half-open window, at this venue only', async () => {
    const k = t.db.kysely;
    expect(sorted(await blockedTableIds(k, venueId, d('2026-06-20T18:00:00Z'), d('2026-06-20T19:00:00Z')))).toEqual([]);
    expect(sorted(await blockedTableIds(k, venueId, d('2026-06-20T18:00:00Z'), d('2026-06-20T19:00:01Z')))).toEqual(ids('e'));
    expect(sorted(await blockedTableIds(k, venueId, d('2026-06-20T21:00:00Z'), d('2026-06-20T23:00:00Z')))).toEqual([]);
    expect(
      sorted(await blockedTableIds(k, venueId, d('2026-06-20T18:00:00Z'), d('2026-06-20T23:00:00Z'), { tableIds: [tables.a] })),
    ).toEqual([]);
    expect(sorted(await blockedTableIds(k, venueId, d('2026-06-20T18:00:00Z'), d('2026-06-20T23:00:00Z'), { tableIds: [] }))).toEqual([]);
    expect(sorted(await blockedTableIds(k, otherVenueId, d('2026-06-20T18:00:00Z'), d('2026-06-20T23:00:00Z')))).toEqual([
      tables.elsewhere,
    ]);
  });
});

describe('indexes the booking engine relies on', () => {
  /** The plan of a query as one text, on the test's engine (PostgreSQL told to avoid scans of these tiny tables). */
  async function plan(query: RawBuilder<unknown>): Promise<string> {
    if (t.db.engine === 'sqlite') {
      const rows = (await sql`explain query plan ${query}`.execute(t.db.kysely)).rows as { detail: string }[];
      return rows.map((row) => row.detail).join('\n');
    }
    return t.db.kysely.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const rows = (await sql`explain ${query}`.execute(trx)).rows as Record<string, string>[];
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  }

  /** blocked_to bounds the index range (not merely a filter applied to rows the index returned). */
  const RANGE_ON_BLOCKED_TO = /blocked_to>\?|Index Cond: .*blocked_to >/;

  it('blocks of a table, or of a venue, overlapping a range are found through a blocked_to-led index', async () => {
    const perTable = await plan(
      sql`select distinct table_id from table_blocks where table_id in (${tables.a}, ${tables.b}) and blocked_from < ${'2026-06-20T20:00:00.000Z'} and blocked_to > ${'2026-06-20T18:00:00.000Z'}`,
    );
    expect(perTable).toMatch(/table_blocks_table_window_idx/);
    expect(perTable).toMatch(RANGE_ON_BLOCKED_TO);
    const perVenue = await plan(
      sql`select distinct table_id from table_blocks where venue_id = ${venueId} and blocked_from < ${'2026-06-20T20:00:00.000Z'} and blocked_to > ${'2026-06-20T18:00:00.000Z'}`,
    );
    expect(perVenue).toMatch(/table_blocks_venue_window_idx/);
    expect(perVenue).toMatch(RANGE_ON_BLOCKED_TO);
  });

  it('bookings of a venue on a date are found through an index', async () => {
    const onDate = await plan(sql`select id from bookings where venue_id = ${venueId} and booking_date = ${'2026-06-20'}`);
    expect(onDate).toMatch(/bookings_venue_date_idx/);
  });
});
