/**
 * Test support shared by the profiles and catalogue tests: rows of the availability module's tables
 * that refer to profiles, policies and bundles, and direct reads. (Calls under /api/my-venues/:venueId:
 * `venueApi` in test/helpers/app.ts.)
 */
import type { Kysely } from 'kysely';
import { insertVenueRow, type TestApp } from '../../../test/helpers/app.js';
import { tableExists } from './references.js';

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
  let query = loose(t).selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
  for (const [column, value] of Object.entries(where)) query = query.where(column, '=', value);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The events module owns ticket_types (which name a ticket profile and an admission group); until its
 * migration lands, tests stand in a minimal table with the two reference columns.
 */
export async function ensureTicketTypes(t: TestApp): Promise<void> {
  if (await tableExists(t.db.kysely, t.db.engine, 'ticket_types')) return;
  await loose(t)
    .schema.createTable('ticket_types')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ticket_profile_id', 'text')
    .addColumn('admission_rule_group_id', 'text')
    .execute();
}

export async function insertTicketType(t: TestApp, fields: { ticket_profile_id?: string | null; admission_rule_group_id?: string | null }): Promise<string> {
  await ensureTicketTypes(t);
  const id = `tt_${Math.random().toString(36).slice(2)}`;
  await loose(t).insertInto('ticket_types').values({ id, ...fields }).execute();
  return id;
}
