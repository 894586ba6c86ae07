/**
 * Test support shared by the profiles and catalogue tests: rows of the availability module's tables
 * that refer to profiles, policies and bundles, and direct reads. (Calls under /api/my-venues/:venueId:
 * `venueApi` in test/helpers/app.ts.)
 */
import type { Kysely } from 'kysely';
import { insertVenueRow, type TestApp } from '../../../test/helpers/app.js';

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
