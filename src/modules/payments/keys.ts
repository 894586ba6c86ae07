/**
 * Guests' keys (in-app credit), kept as the billing ledger: every grant, top-up, spend
 * or refund is an entry and the balance is their sum. The CLI's `guest create --keys N` grants them;
 * a paid `keys_topup` checkout session tops them up.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { userExists } from '../auth/index.js';

export type BillingEntryType = 'grant' | 'topup' | 'spend' | 'refund';

export interface BillingEntry {
  userId: string;
  type: BillingEntryType;
  /** Positive to credit, negative to spend. */
  delta: number;
  note?: string | null;
  bookingId?: string | null;
  at: Date;
}

/** Adds one entry with `executor` (the database or a transaction); returns its id. */
export async function addBillingEntry(executor: Kysely<Database>, entry: BillingEntry): Promise<string> {
  const id = newId('bil');
  await executor
    .insertInto('billing_ledger')
    .values({
      id,
      user_id: entry.userId,
      type: entry.type,
      delta: entry.delta,
      note: entry.note ?? null,
      booking_id: entry.bookingId ?? null,
      created_at: entry.at.toISOString(),
    })
    .execute();
  return id;
}

export async function balanceWith(executor: Kysely<Database>, userId: string): Promise<number> {
  const row = await executor
    .selectFrom('billing_ledger')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('delta'), eb.lit(0)).as('balance'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.balance);
}

/** Grants `keys` to a user (CLI, support). 400 for a non-positive or fractional number; 404 for no such user. */
export async function grantKeys(db: Db, userId: string, keys: number, now: Date, note?: string): Promise<void> {
  if (!Number.isInteger(keys) || keys < 1) throw badRequest('keys must be a positive whole number');
  if (!(await userExists(db, userId))) throw notFound('User');
  await addBillingEntry(db.kysely, { userId, type: 'grant', delta: keys, note: note ?? 'Keys granted', at: now });
}

export async function keysBalance(db: Db, userId: string): Promise<number> {
  return balanceWith(db.kysely, userId);
}

/** A user's keys ledger, newest first (the guest's own account shows it), at most `limit` entries. */
export async function keysLedger(db: Db, userId: string, limit: number) {
  return db.kysely
    .selectFrom('billing_ledger')
    .select(['id', 'type', 'delta', 'note', 'booking_id', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
