/**
 * Direct row access for tests that check what a change did to other modules' rows (access rules that
 * refer to profiles, policies and bundles; the events module's ticket types) without going through those
 * modules' routes. Loosely typed on purpose: test infrastructure only, never product code.
 */
import { sql, type Kysely } from 'kysely';
import type { IdRemap } from '../../src/db/json.js';
import { insertVenueRow, type TestApp } from './app.js';

const loose = (t: TestApp) => t.db.kysely as unknown as Kysely<any>;

/** An access rule row (availability module's table) with the given references. */
export const insertAccessRule = (t: TestApp, venueId: string, fields: Record<string, unknown> = {}) =>
  insertVenueRow(t, 'access_rules', venueId, { name: 'Rule', days_of_week: '["fri","sat"]', ...fields }, 'ar');

export const insertShift = (t: TestApp, venueId: string, fields: Record<string, unknown> = {}) =>
  insertVenueRow(t, 'shifts', venueId, { name: 'Shift', days_of_week: '["fri"]', ...fields }, 'sh');

export async function readRow(t: TestApp, table: string, id: string): Promise<Record<string, any> | undefined> {
  return loose(t).selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countRows(t: TestApp, table: string, where: Record<string, unknown>): Promise<number> {
  let query = loose(t)
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'));
  for (const [column, value] of Object.entries(where)) query = query.where(column, '=', value);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A booking's history as its actions and the statuses they led to, in the order written. */
export async function historyOf(t: TestApp, bookingId: string): Promise<{ action: string; to_status: string | null }[]> {
  return t.db.kysely
    .selectFrom('booking_history')
    .select(['action', 'to_status'])
    .where('booking_id', '=', bookingId)
    .orderBy('id')
    .execute();
}

async function tableExists(t: TestApp, table: string): Promise<boolean> {
  if (t.db.engine === 'postgres') {
    const { rows } = await sql<{ oid: string | null }>`select to_regclass(${table})::text as oid`.execute(t.db.kysely);
    return Boolean(rows[0]?.oid);
  }
  const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name = ${table}`.execute(
    t.db.kysely,
  );
  return rows.length > 0;
}

const standingIn = new WeakSet<object>();

/**
 * The events module will own ticket_types (which name a ticket profile and an admission group) and
 * register how they follow those rows; until it lands, tests stand in a minimal table with the two
 * reference columns and register its repointers the way the events module will (ids are global, and
 * ticket types have no venue_id).
 */
export async function standInTicketTypes(t: TestApp): Promise<void> {
  if (standingIn.has(t.ctx)) return;
  standingIn.add(t.ctx);
  if (!(await tableExists(t, 'ticket_types'))) {
    await loose(t)
      .schema.createTable('ticket_types')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('ticket_profile_id', 'text')
      .addColumn('admission_rule_group_id', 'text')
      .execute();
  }
  const repoint = (column: string) => async (db: unknown, _venueId: string, remap: IdRemap) => {
    const k = ('kysely' in (db as object) ? (db as { kysely: unknown }).kysely : db) as Kysely<any>;
    for (const [from, to] of remap)
      if (from !== to)
        await k
          .updateTable('ticket_types')
          .set({ [column]: to })
          .where(column, '=', from)
          .execute();
  };
  t.ctx.references.onRepoint('ticket_profile', repoint('ticket_profile_id'));
  t.ctx.references.onRepoint('admission_group', repoint('admission_rule_group_id'));
}

export async function insertTicketType(
  t: TestApp,
  fields: { ticket_profile_id?: string | null; admission_rule_group_id?: string | null },
): Promise<string> {
  await standInTicketTypes(t);
  const id = `tt_${Math.random().toString(36).slice(2)}`;
  await loose(t)
    .insertInto('ticket_types')
    .values({ id, ...fields })
    .execute();
  return id;
}
