/** Reading the audit log in tests: through the route, as a caller. */
import { expect } from 'vitest';
import type { TestApp } from '../../../test/helpers/app.js';

export async function auditLog(t: TestApp, headers: Record<string, string>, query = ''): Promise<any[]> {
  const res = await t.app.inject({ method: 'GET', url: `/api/my-operator/audit-log${query}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

/** The newest entry of `action` (the list is newest first); fails when there is none. */
export async function lastEntry(t: TestApp, headers: Record<string, string>, action: string): Promise<any> {
  const entries = await auditLog(t, headers, `?action=${encodeURIComponent(action)}`);
  const entry = entries.find((e) => e.action === action);
  expect(entry, `no ${action} entry; saw ${entries.map((e) => e.action).join(', ')}`).toBeDefined();
  return entry;
}
