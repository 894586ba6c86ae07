/**
 * Caps on unpaid public holds (security round 2, finding 7): a reservation awaiting payment keeps its
 * tickets or table for PAYMENT_WINDOW_MS, so a few anonymous requests could hold a whole event. At one
 * venue, a client address may keep at most UNPAID_HOLDS_PER_ADDRESS live unpaid holds and an email at
 * most UNPAID_HOLDS_PER_EMAIL; one more is 429 with `Retry-After` until the oldest of them lapses.
 * Counted per venue, so nobody can lock a guest's email out of every venue by holding in its name.
 *
 * The count and the insert that follows it run in the caller's transaction under one lock per venue
 * (PostgreSQL; SQLite has one writer), so concurrent requests cannot all slip under the cap. Callers
 * take this lock after their own (event or venue), always in that order.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../../../db/connect.js';
import type { Database } from '../../../db/schema.js';
import { lockKey } from '../../../db/transaction.js';
import { tooManyRequests } from '../../../platform/errors.js';

/** How long a public reservation awaiting payment keeps what it holds (was 15 minutes). */
export const PAYMENT_WINDOW_MS = 10 * 60_000;
export const UNPAID_HOLDS_PER_ADDRESS = 3;
export const UNPAID_HOLDS_PER_EMAIL = 2;

export interface HoldClaim {
  venueId: string;
  /** The client's address (the request's IP). */
  address: string;
  email: string;
  now: Date;
}

/** Refuses one more unpaid hold at the venue when the address or the email already has its share (429). */
export async function checkUnpaidHolds(db: Db, trx: Kysely<Database>, claim: HoldClaim): Promise<void> {
  await lockKey(db, trx, `unpaid-holds:${claim.venueId}`);
  const email = claim.email.trim().toLowerCase();
  const live = await trx
    .selectFrom('bookings')
    .select(['hold_address', 'guest_email', 'payment_expires_at'])
    .where('status', '=', 'pending_payment')
    .where('payment_expires_at', '>', claim.now.toISOString())
    .where('venue_id', '=', claim.venueId)
    .execute();
  const byAddress = live.filter((hold) => hold.hold_address === claim.address);
  const byEmail = live.filter((hold) => (hold.guest_email ?? '').trim().toLowerCase() === email);
  const over = [
    ...(byAddress.length >= UNPAID_HOLDS_PER_ADDRESS ? byAddress : []),
    ...(byEmail.length >= UNPAID_HOLDS_PER_EMAIL ? byEmail : []),
  ];
  if (over.length === 0) return;
  const lapses = Math.min(...over.map((hold) => Date.parse(hold.payment_expires_at!)));
  throw tooManyRequests((lapses - claim.now.getTime()) / 1000, {
    reason: 'unpaid_holds',
    detail: 'Too many reservations awaiting payment: pay for one or let it lapse first',
  });
}
