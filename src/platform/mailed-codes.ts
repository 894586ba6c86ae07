/**
 * Six-digit codes mailed to prove an address (registration's verification, the guest account's sign-in,
 * promoter sign-up): made with a fresh salt, kept only as a salted hash, and matched against a guess with
 * every pending code's attempt claimed before it is compared, so concurrent guesses cannot go past a code's
 * cap; a matched code is used once (`useMailedCode`).
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../db/connect.js';
import type { Database } from '../db/schema.js';
import { withTransaction } from '../db/transaction.js';
import { randomToken } from './ids.js';

const codeHash = (salt: string, code: string) => createHash('sha256').update(`${salt}:${code}`).digest();

/** A new code (to mail) and what is stored of it. */
export function newMailedCode(): { code: string; code_salt: string; code_hash: string } {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const salt = randomToken(16);
  return { code, code_salt: salt, code_hash: codeHash(salt, code).toString('hex') };
}

/**
 * The first pending code the guess matches. `claimAttempt` spends one attempt of a code (a conditional
 * update) and answers whether it could; only codes whose attempt was claimed are compared.
 */
async function matchMailedCode<T extends { code_salt: string; code_hash: string }>(
  pending: readonly T[],
  guess: string,
  claimAttempt: (row: T) => Promise<boolean>,
): Promise<T | undefined> {
  let match: T | undefined;
  for (const row of pending) {
    if (!(await claimAttempt(row))) continue;
    if (timingSafeEqual(codeHash(row.code_salt, guess), Buffer.from(row.code_hash, 'hex'))) match ??= row;
  }
  return match;
}

/** What every table of pending mailed codes has: one row a code, by address. */
interface PendingCode {
  id: string;
  email: string;
  code_salt: string;
  code_hash: string;
  attempts: number;
  expires_at: string;
}

/**
 * The flow every mailed code shares, on the owning module's table of pending codes: the guess is matched
 * against the address's live codes (each attempt claimed first, `maxAttempts` a code), and the matched
 * code is used once: in one transaction, only the request whose delete removes that very row goes on,
 * clears the address's other codes and runs `use`. `undefined` when no code matched or a concurrent
 * request used it first: the caller answers "invalid or expired code".
 */
export async function useMailedCode<Row extends PendingCode, R>(
  db: Db,
  pending: { table: string; email: string; guess: string; now: Date; maxAttempts: number },
  use: (trx: Kysely<Database>, row: Row) => Promise<R>,
): Promise<R | undefined> {
  // The table is the caller's own (its module owns it); the columns used here are the ones every such table has.
  const codes = db.kysely as unknown as Kysely<{ codes: PendingCode }>;
  const table = pending.table as 'codes';
  const { email, maxAttempts } = pending;
  const live = (await codes
    .selectFrom(table)
    .selectAll()
    .where('email', '=', email)
    .where('expires_at', '>', pending.now.toISOString())
    .where('attempts', '<', maxAttempts)
    .orderBy('id')
    .execute()) as Row[];
  const match = await matchMailedCode(live, pending.guess, async (row) => {
    const attempt = await codes
      .updateTable(table)
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', row.id)
      .where('attempts', '<', maxAttempts)
      .executeTakeFirst();
    return Number(attempt.numUpdatedRows) === 1;
  });
  if (!match) return undefined;
  return withTransaction(db, async (trx) => {
    const own = trx as unknown as Kysely<{ codes: PendingCode }>;
    const used = await own.deleteFrom(table).where('id', '=', match.id).executeTakeFirst();
    if (Number(used.numDeletedRows) !== 1) return undefined;
    await own.deleteFrom(table).where('email', '=', email).execute();
    return use(trx, match as Row);
  });
}

/** An address keeps its newest `keep` pending codes (ids are sequential): older ones are deleted. */
export async function keepNewestMailedCodes(trx: Kysely<Database>, table: string, email: string, keep: number): Promise<void> {
  const codes = trx as unknown as Kysely<{ codes: PendingCode }>;
  const stale = await codes
    .selectFrom(table as 'codes')
    .select('id')
    .where('email', '=', email)
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(100)
    .execute();
  if (stale.length > 0)
    await codes
      .deleteFrom(table as 'codes')
      .where(
        'id',
        'in',
        stale.map((row) => row.id),
      )
      .execute();
}
