/** Shorthand for the team tests: calls as one caller, and direct rows for fixtures the API does not create. */
import { randomBytes } from 'node:crypto';
import type { TestApp } from '../../../test/helpers/app.js';
import { base32 } from '../../platform/ids.js';

type Headers = Record<string, string>;

export function as(t: TestApp, headers: Headers = {}) {
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, extra: Headers = {}) =>
    t.app.inject({ method, url, headers: { ...headers, ...extra }, ...(payload === undefined ? {} : { payload: payload as object }) });
  return {
    get: (url: string, extra?: Headers) => call('GET', url, undefined, extra),
    post: (url: string, payload?: unknown) => call('POST', url, payload),
    put: (url: string, payload?: unknown) => call('PUT', url, payload),
    del: (url: string) => call('DELETE', url),
  };
}

/** A client user row without a password (cheap; for search fixtures that never sign in). */
export async function insertClientUserRow(t: TestApp, operatorId: string, name: string, email: string, roleId: string | null = null) {
  const id = `usr_${base32(randomBytes(16))}`;
  const at = t.clock.now().toISOString();
  await t.db.kysely
    .insertInto('users')
    .values({
      id,
      role: 'client',
      operator_id: operatorId,
      role_id: roleId,
      name,
      email: email.toLowerCase(),
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}
