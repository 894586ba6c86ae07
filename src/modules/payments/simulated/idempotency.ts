/**
 * Idempotency keys, kept as the real provider keeps them (`sim_idempotency_keys`): a repeated key
 * returns the object the first request made. Keys are global: a key reused for another operation or
 * with other parameters is refused, so a flow that would fail there fails here too.
 */
import { lockKey, withTransaction } from '../../../db/transaction.js';
import type { RequestOptions } from '../provider.js';
import { invalid, sha256, type Executor, type SimContext } from './rows.js';

/**
 * Runs a request under the caller's idempotency key, in one transaction: `create` makes the object and
 * returns its id (only for a new key), `load` reads what the key names.
 */
export type Idempotent = <T>(
  operation: string,
  params: unknown,
  options: RequestOptions | undefined,
  create: (trx: Executor) => Promise<string>,
  load: (trx: Executor, id: string) => Promise<T>,
) => Promise<T>;

/** JSON with object keys sorted, so the same parameters always hash alike. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function createIdempotency({ db, at }: SimContext): Idempotent {
  return async (operation, params, options, create, load) =>
    withTransaction(db, async (trx) => {
      const key = options?.idempotencyKey;
      const requestHash = sha256(stableJson(params));
      if (key) {
        // Two requests with one key: the second waits, then finds the first one's object.
        await lockKey(db, trx, `sim-idempotency:${key}`);
        const seen = await trx.selectFrom('sim_idempotency_keys').selectAll().where('key', '=', key).executeTakeFirst();
        if (seen) {
          if (seen.operation !== operation || seen.request_hash !== requestHash) {
            throw invalid(
              `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
              'idempotency_key_in_use',
            );
          }
          return load(trx, seen.object_id);
        }
      }
      const id = await create(trx);
      if (key) {
        await trx
          .insertInto('sim_idempotency_keys')
          .values({ key, operation, request_hash: requestHash, object_id: id, created_at: at() })
          .execute();
      }
      return load(trx, id);
    });
}
