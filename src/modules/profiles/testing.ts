/**
 * Test support shared by the profiles and catalogue tests: calls under /api/my-venues/:venueId as one
 * user, and rows of the availability module's tables that refer to profiles, policies and bundles.
 */
import type { Kysely } from 'kysely';
import type { TestApp } from '../../../test/helpers/app.js';
import { newId } from '../../platform/ids.js';

type Headers = Record<string, string>;

export function venueApi(t: TestApp, headers: Headers, venueId: string) {
  const url = (path: string) => `/api/my-venues/${venueId}${path}`;
  return {
    get: (path: string) => t.app.inject({ method: 'GET', url: url(path), headers }),
    post: (path: string, payload?: object) => t.app.inject({ method: 'POST', url: url(path), headers, ...(payload ? { payload } : {}) }),
    put: (path: string, payload: object) => t.app.inject({ method: 'PUT', url: url(path), headers, payload }),
    patch: (path: string, payload: object) => t.app.inject({ method: 'PATCH', url: url(path), headers, payload }),
    del: (path: string) => t.app.inject({ method: 'DELETE', url: url(path), headers }),
  };
}

const loose = (t: TestApp) => t.db.kysely as unknown as Kysely<any>;

/** An access rule row (availability module's table) with the given references. */
export async function insertAccessRule(t: TestApp, venueId: string, fields: Record<string, unknown> = {}): Promise<string> {
  const id = newId('ar');
  const at = t.clock.now().toISOString();
  await loose(t)
    .insertInto('access_rules')
    .values({ id, venue_id: venueId, name: 'Rule', days_of_week: '["fri","sat"]', created_at: at, updated_at: at, ...fields })
    .execute();
  return id;
}

export async function insertShift(t: TestApp, venueId: string, fields: Record<string, unknown> = {}): Promise<string> {
  const id = newId('sh');
  const at = t.clock.now().toISOString();
  await loose(t)
    .insertInto('shifts')
    .values({ id, venue_id: venueId, name: 'Shift', days_of_week: '["fri"]', created_at: at, updated_at: at, ...fields })
    .execute();
  return id;
}

export async function readRow(t: TestApp, table: string, id: string): Promise<Record<string, any> | undefined> {
  return loose(t).selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countRows(t: TestApp, table: string, where: Record<string, unknown>): Promise<number> {
  let query = loose(t).selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
  for (const [column, value] of Object.entries(where)) query = query.where(column, '=', value);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}
