/**
 * Keys a guest-list booking spends and gives back, on the guest's billing ledger (the payments
 * module's). A spend takes the guest's ledger lock (PostgreSQL: an advisory lock per guest, so two
 * instances cannot both read the same balance; SQLite: the one writer) and re-reads the balance inside
 * the booking's transaction: the balance never goes below zero and a booking spends once. A booking
 * that ends without the guest getting in (cancelled, rejected, turned away at the door) gives back what
 * it still holds, in the transaction of that status move: the move is conditional on the status read,
 * so of two concurrent ends only one refunds, and the amount is the booking's net on the ledger, so a
 * booking that comes back (unreject) and ends again refunds nothing more.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../../../db/connect.js';
import type { Database } from '../../../db/schema.js';
import { kyselyOf, lockKey, type Conn } from '../../../db/transaction.js';
import { paymentRequired } from '../../../platform/errors.js';
import { addBillingEntry, balanceWith, bookingKeysNet } from '../../payments/index.js';
import type { BookingRow } from './bookings.table.js';
import { recordHistory, type Actor } from './history.js';

/** Statuses after which a guest-list booking's keys go back to the guest (a no-show keeps them spent). */
const REFUNDING = new Set(['cancelled', 'rejected', 'door_rejected']);

export const ledgerLockKey = (userId: string) => `billing-ledger:${userId}`;

/** Spends `keys` of the guest's balance for a booking; 402 when the balance is short. */
export async function spendKeys(
  db: Db,
  trx: Kysely<Database>,
  spend: { userId: string; keys: number; bookingId: string; note: string; at: Date },
): Promise<void> {
  await lockKey(db, trx, ledgerLockKey(spend.userId));
  const balance = await balanceWith(trx, spend.userId);
  if (balance < spend.keys) {
    throw paymentRequired(`Not enough keys: this place costs ${spend.keys} and your balance is ${balance}. Top up your keys to book it.`, {
      keys_needed: spend.keys,
      keys_balance: balance,
    });
  }
  await addBillingEntry(trx, {
    userId: spend.userId,
    type: 'spend',
    delta: -spend.keys,
    note: spend.note,
    bookingId: spend.bookingId,
    at: spend.at,
  });
}

/**
 * Gives back the keys a guest-list booking still holds when it moves to a refunding status (called by
 * `changeStatus`, after its conditional update, in its transaction). Answers the keys refunded.
 */
export async function refundSpentKeys(conn: Conn, booking: BookingRow, change: { to: string; actor: Actor; now: Date }): Promise<number> {
  if (booking.kind !== 'guestlist' || !booking.user_id || !REFUNDING.has(change.to)) return 0;
  const k = kyselyOf(conn);
  const net = await bookingKeysNet(k, booking.user_id, booking.id);
  if (net >= 0) return 0;
  await addBillingEntry(k, {
    userId: booking.user_id,
    type: 'refund',
    delta: -net,
    note: `Guest list ${change.to.replace('_', ' ')}: keys returned`,
    bookingId: booking.id,
    at: change.now,
  });
  await recordHistory(conn, booking.id, change.actor, { action: 'keys_refund', detail: { keys: -net } }, change.now);
  return -net;
}
