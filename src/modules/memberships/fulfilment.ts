/**
 * The `membership` fulfilment of a purchase (docs/memberships.md): handed to the payments module's
 * `membership` kind by the composition root, it runs in the webhook's transaction when the provider says
 * a purchase's checkout session is paid. The purchase is claimed once (`pending` → `fulfilled`), so a
 * replayed or second event extends nothing twice; the guest's membership of the operator starts, or a
 * running one of the same tier is extended from its expiry (domain/membership-period.ts).
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { applyPaidPeriod, type MembershipPeriod } from '../../domain/membership-period.js';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { lockKey } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/ids.js';
import { joinRoster } from '../guests/index.js';
import { membershipOf, purchaseById } from './memberships.repository.js';

/** The paid checkout session the `membership` fulfilment hands over (payments' `MembershipFulfiller`). */
interface PaidSession {
  id: string;
  amount_total: number | null;
  currency: string | null;
  metadata: Record<string, string>;
}

export function createMembershipFulfiller(deps: { db: Db; clock: Clock; log: Logger }) {
  const { db, clock, log } = deps;
  /** The guest's membership of the operator behind a running lock (PostgreSQL; SQLite has one writer). */
  const guestLock = (operatorId: string, userId: string) => `membership:${operatorId}:${userId}`;

  /**
   * A paid session of a purchase: the purchase claimed once (`pending` → `fulfilled`) and the guest's
   * membership started or extended (domain/membership-period.ts), in the webhook's transaction.
   * `ignored` when the session is not this purchase's payment of its amount in GBP.
   */
  async function fulfil(trx: Kysely<Database>, session: PaidSession): Promise<'ignored' | undefined> {
    const purchase = session.metadata.purchase_id ? await purchaseById(trx, session.metadata.purchase_id) : undefined;
    const matches =
      purchase !== undefined &&
      purchase.user_id !== null &&
      (purchase.checkout_session_id === null || purchase.checkout_session_id === session.id) &&
      session.amount_total === purchase.amount_pence &&
      (session.currency ?? 'gbp') === 'gbp' &&
      (!session.metadata.tier_id || session.metadata.tier_id === purchase.tier_id);
    if (!purchase || !matches) {
      log.warn({ sessionId: session.id, purchaseId: session.metadata.purchase_id }, 'membership session does not match its purchase');
      return 'ignored';
    }
    const userId = purchase.user_id!;
    const now = clock.now();
    await lockKey(db, trx, guestLock(purchase.operator_id, userId));
    const claimed = await trx
      .updateTable('membership_purchases')
      .set({ status: 'fulfilled', fulfilled_at: now.toISOString(), checkout_session_id: session.id, updated_at: now.toISOString() })
      .where('id', '=', purchase.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    // Fulfilled already (another event for the same purchase): the membership was extended once.
    if (Number(claimed.numUpdatedRows) === 0) return undefined;
    const current = await membershipOf(trx, purchase.operator_id, userId);
    const paid = { tier_id: purchase.tier_id, period: purchase.period as MembershipPeriod, period_days: purchase.period_days };
    const next = applyPaidPeriod(current, paid, now);
    const at = now.toISOString();
    if (current) {
      await trx
        .updateTable('guest_memberships')
        .set({ tier_id: purchase.tier_id, started_at: next.started_at, expires_at: next.expires_at, updated_at: at })
        .where('id', '=', current.id)
        .execute();
    } else {
      await trx
        .insertInto('guest_memberships')
        .values({
          id: newId('gms'),
          operator_id: purchase.operator_id,
          user_id: userId,
          tier_id: purchase.tier_id,
          started_at: next.started_at,
          expires_at: next.expires_at,
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
    await trx.updateTable('membership_purchases').set({ expires_at: next.expires_at }).where('id', '=', purchase.id).execute();
    if (purchase.venue_id) await joinRoster(trx, { operatorId: purchase.operator_id, venueId: purchase.venue_id, userId, at: now });
    return undefined;
  }

  return fulfil;
}
