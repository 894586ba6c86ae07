/**
 * `Idempotency-Key` on public creates: the first answer is kept by (scope, key) with a hash of the
 * request body, in the same transaction as what the request created, so a retry after a lost response
 * gets that answer again and books nothing new, and the same key with another body is a 409. Keys are
 * compared only within their scope (route and venue); answers are kept for 24 hours.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../../../db/connect.js';
import { isUniqueViolation } from '../../../db/errors.js';
import type { Database } from '../../../db/schema.js';
import { kyselyOf, lockKey, withTransaction, type Conn } from '../../../db/transaction.js';
import { conflict } from '../../../platform/errors.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const requestHash = (body: unknown) => createHash('sha256').update(canonical(body)).digest('hex');

export const IDEMPOTENCY_MISMATCH = 'This Idempotency-Key was used with a different request';

async function storedAnswer<T>(conn: Conn, scope: string, key: string, hash: string, now: Date): Promise<T | undefined> {
  const row = await kyselyOf(conn)
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'response'])
    .where('scope', '=', scope)
    .where('key', '=', key)
    .where('created_at', '>', new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString())
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.request_hash !== hash) throw conflict(IDEMPOTENCY_MISMATCH);
  return JSON.parse(row.response) as T;
}

export interface IdempotentRequest {
  scope: string;
  key: string | undefined;
  body: unknown;
  now: Date;
}

/**
 * Runs `create` in a transaction, once per (scope, key): a stored answer is returned instead (409 when
 * the body differs). Without a key it simply runs `create` in a transaction. Two concurrent requests
 * with one key: the second waits on the first (SQLite: one writer; PostgreSQL: an advisory lock on the
 * key) and then gets its answer.
 */
export async function idempotent<T>(db: Db, request: IdempotentRequest, create: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  if (request.key === undefined) return withTransaction(db, create);
  return answeredOnce(db, request, () => withTransaction(db, (trx) => idempotentIn(db, trx, request, () => create(trx))));
}

/**
 * The answer kept for the request's key, if there is one (a 409 when it was given for another body):
 * read before any transaction, so a retry costs no write.
 */
export async function keptAnswer<T>(db: Db, request: IdempotentRequest): Promise<T | undefined> {
  if (request.key === undefined) return undefined;
  return storedAnswer<T>(db, request.scope, request.key, requestHash(request.body), request.now);
}

/**
 * `write` runs `idempotentIn` in its transaction (its own, or a group commit's savepoint), after the kept
 * answer was looked for. PostgreSQL: when a concurrent request with the same key committed first, its
 * insert of the key fails; the winner's answer is the answer.
 */
export async function answeredOnce<T>(db: Db, request: IdempotentRequest, write: () => Promise<T>): Promise<T> {
  const earlier = await keptAnswer<T>(db, request);
  if (earlier !== undefined) return earlier;
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const winner = await keptAnswer<T>(db, request);
    if (winner === undefined) throw error;
    return winner;
  }
}

/**
 * Inside a transaction: the answer kept for the key if a concurrent request stored one meanwhile, else
 * `create`'s, kept under the key in the same transaction. Without a key, `create` alone.
 */
export async function idempotentIn<T>(db: Db, trx: Kysely<Database>, request: IdempotentRequest, create: () => Promise<T>): Promise<T> {
  const { scope, key, now } = request;
  if (key === undefined) return create();
  const hash = requestHash(request.body);
  // PostgreSQL: a concurrent request with this key waits here until the first commits.
  await lockKey(db, trx, `idempotency:${scope}:${key}`);
  const raced = await storedAnswer<T>(trx, scope, key, hash, now);
  if (raced !== undefined) return raced;
  const answer = await create();
  // An expired answer under this key is replaced (after `create`, which may refuse before it writes anything).
  await trx.deleteFrom('idempotency_keys').where('scope', '=', scope).where('key', '=', key).execute();
  await trx
    .insertInto('idempotency_keys')
    .values({ scope, key, request_hash: hash, status_code: 200, response: JSON.stringify(answer), created_at: now.toISOString() })
    .execute();
  return answer;
}

/** Forgets answers older than the TTL (run by the booking engine's periodic job). */
export async function pruneIdempotencyKeys(db: Conn, now: Date): Promise<void> {
  await kyselyOf(db)
    .deleteFrom('idempotency_keys')
    .where('created_at', '<=', new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString())
    .execute();
}
