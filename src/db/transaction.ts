/**
 * Transactions that serialise conflicting writes on both engines, and the one handle type that
 * query functions take.
 *
 * SQLite: every transaction is BEGIN IMMEDIATE (see connect.ts), so writers never interleave.
 * PostgreSQL: callers take a transaction-scoped advisory lock on a key naming the contended thing
 * (a table slot, a ticket type, a voucher) with `lockKey`, then re-check and write; the lock is
 * released at commit or rollback. Prefer constraints and conditional updates where they suffice.
 */
import { sql, type Kysely } from 'kysely';
import type { Db } from './connect.js';
import type { Database } from './schema.js';

/**
 * What a query function runs on: the database, or an open transaction of it (a Kysely transaction is
 * a `Kysely<Database>`). Functions that may run inside a caller's transaction take a `Conn`.
 */
export type Conn = Db | Kysely<Database>;

/** The Kysely handle of a Conn. */
export const kyselyOf = (conn: Conn): Kysely<Database> => ('kysely' in conn ? conn.kysely : conn);

export async function withTransaction<T>(db: Db, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.kysely.transaction().execute(fn);
}

/** Serialises transactions that name the same key until this transaction ends (no-op on SQLite). */
export async function lockKey(db: Db, trx: Kysely<Database>, key: string): Promise<void> {
  if (db.engine !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}
