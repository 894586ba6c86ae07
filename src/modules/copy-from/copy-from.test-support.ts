/**
 * Shared set-up of the copy-from tests: one app and operator per file, and two fresh venues of that
 * operator per test (`source` → `target`), with calls as the operator (`src`, `dst`).
 *
 * The fixtures are exported `let` bindings that `useTwoVenues()`'s hooks assign: ES module imports are
 * live, so a test file that imports `src` sees the venue of the test that is running.
 */
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import {
  createOperator,
  createTestApp,
  insertVenue,
  insertVenueRow,
  venueApi,
  type TestApp,
  type TestOperator,
  type VenueApi,
} from '../../../test/helpers/app.js';

export let t: TestApp;
export let op: TestOperator;
export let source: string;
export let target: string;
export let src: VenueApi;
export let dst: VenueApi;

/** Registers the hooks that create the app and operator (per file) and the two venues (per test). */
export function useTwoVenues(): void {
  beforeAll(async () => {
    t = await createTestApp();
    op = await createOperator(t);
  });
  afterAll(async () => t.close());

  // Each test copies between two fresh venues of the same operator.
  beforeEach(async () => {
    source = await insertVenue(t, op.operatorId, { name: 'Source' });
    target = await insertVenue(t, op.operatorId, { name: 'Target' });
    src = venueApi(t, op.headers, source);
    dst = venueApi(t, op.headers, target);
  });
}

export async function created(res: Promise<{ statusCode: number; body: string; json(): any }>): Promise<string> {
  const r = await res;
  expect(r.statusCode, r.body).toBe(200);
  return r.json().id;
}

export async function copy(scope: string, from = source, a = dst) {
  return a.post('/copy-from', { source_venue_id: from, scope });
}

export async function copied(scope: string): Promise<number> {
  const res = await copy(scope);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ success: true, copied: expect.any(Number) });
  return res.json().copied;
}

export const data = async (a: VenueApi, path: string) => (await a.get(path)).json().data as Record<string, any>[];
export const byName = <T extends { name?: unknown }>(rows: T[], name: string) => rows.find((row) => row.name === name);
export const insertNamed = (table: string, venueId: string, fields: Record<string, unknown>) =>
  insertVenueRow(t, table, venueId, fields, 'x');
