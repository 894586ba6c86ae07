/**
 * Transactions that serialise conflicting writes on both engines, and the one handle type that
 * query functions take.
 *
 * SQLite: every transaction is BEGIN IMMEDIATE (see connect.ts), so writers never interleave.
 * PostgreSQL: callers take a transaction-scoped advisory lock on a key naming the contended thing
 * (a table slot, a ticket type, a voucher) with `lockKey`, then re-check and write; the lock is
 * released at commit or rollback. Prefer constraints and conditional updates where they suffice.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { markChanges, notificationPayload } from './change-feed.js';
import type { Db } from './connect.js';
import type { Database } from './schema.js';

/**
 * What a query function runs on: the database, or an open transaction of it (a Kysely transaction is
 * a `Kysely<Database>`). Functions that may run inside a caller's transaction take a `Conn`.
 */
export type Conn = Db | Kysely<Database>;

/** The Kysely handle of a Conn. */
export const kyselyOf = (conn: Conn): Kysely<Database> => ('kysely' in conn ? conn.kysely : conn);

/** Whether a Conn (the database, or a transaction of it) is PostgreSQL's. */
export const onPostgres = (conn: Conn): boolean => kyselyOf(conn).getExecutor().adapter instanceof PostgresAdapter;

// Hooks registered with afterCommit inside a withTransaction callback, keyed by its transaction.
const commitHooks = new WeakMap<Kysely<Database>, Array<() => void>>();

/**
 * Runs `fn` in a transaction. What it writes is recorded (db/change-feed.ts): on PostgreSQL the
 * venues touched are announced with `pg_notify` inside the transaction (delivered to every instance
 * only if it commits), and when it ends, committed or not, they are marked changed in this process.
 */
export async function withTransaction<T>(db: Db, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  const hooks: Array<() => void> = [];
  const trail = db.changes.trail();
  let result: T;
  try {
    result = await db.kysely.transaction().execute(async (trx) => {
      const tracked = trx.withPlugin(trail);
      commitHooks.set(tracked, hooks);
      const value = await fn(tracked);
      const written = trail.changes();
      if (written && db.changeChannel) await sql`select pg_notify(${db.changeChannel}, ${notificationPayload(written)})`.execute(trx);
      return value;
    });
  } finally {
    const written = trail.changes();
    if (written) markChanges(db.changes, written);
  }
  for (const hook of hooks) hook();
  return result;
}

/**
 * Runs `hook` once what `conn` wrote is committed: at once outside a transaction, after the commit of a
 * withTransaction transaction, never after a rollback. Answers false (and drops the hook) for a transaction
 * opened some other way, whose commit it cannot see: the caller then needs another trigger, such as a
 * poll. Hooks run synchronously after the commit and must not throw.
 */
export function afterCommit(conn: Conn, hook: () => void): boolean {
  const kysely = kyselyOf(conn);
  if (!kysely.isTransaction) {
    hook();
    return true;
  }
  const hooks = commitHooks.get(kysely);
  if (!hooks) return false;
  hooks.push(hook);
  return true;
}

/** Serialises transactions that name the same key until this transaction ends (no-op on SQLite). */
export async function lockKey(db: Db, trx: Kysely<Database>, key: string): Promise<void> {
  if (db.engine !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}

/**
 * Runs `fn` inside a savepoint of the transaction `trx`: if it throws, what it wrote is rolled back, the
 * afterCommit hooks it registered are dropped, and the error is rethrown; the transaction stays usable
 * (or, when even the rollback fails, a BrokenTransaction is thrown instead).
 */
export async function withSavepoint<T>(trx: Kysely<Database>, fn: () => Promise<T>): Promise<T> {
  const hooks = commitHooks.get(trx);
  const registered = hooks?.length ?? 0;
  await sql`savepoint job`.execute(trx);
  try {
    const value = await fn();
    await sql`release savepoint job`.execute(trx);
    return value;
  } catch (error) {
    hooks?.splice(registered);
    try {
      await sql`rollback to savepoint job`.execute(trx);
      await sql`release savepoint job`.execute(trx);
    } catch (rollbackError) {
      throw new BrokenTransaction(rollbackError);
    }
    throw error;
  }
}

/** A savepoint could not be rolled back: the transaction is unusable and must be abandoned as a whole. */
export class BrokenTransaction extends Error {
  constructor(cause: unknown) {
    super('the transaction could not be rolled back to its savepoint', { cause });
  }
}
