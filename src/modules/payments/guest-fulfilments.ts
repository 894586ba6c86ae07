/**
 * The fulfilments this module owns (decisions: payment webhook kinds): `keys_topup` (metadata `user_id`, `keys`) adds a
 * billing-ledger entry; `membership` (metadata `user_id`, `tier`) sets the guest's membership tier.
 * A `membership` session carrying `purchase_id` (and `tier_id`, `operator_id`) is the purchase of an
 * operator's membership tier (docs/memberships.md): it is handed to the memberships module's fulfiller
 * (`MembershipFulfiller`, given by the composition root), which starts or extends the guest's membership.
 * Each paid session is its own target. Metadata that cannot be acted on is logged and acknowledged: a
 * redelivery of the same event would not make it valid.
 */
import type { Logger } from 'pino';
import { setMembershipTier, userExists } from '../auth/index.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { CheckoutSessionObject, FulfilmentRegistry, FulfilmentResult } from './fulfilments.js';
import { addBillingEntry } from './keys.js';

const MAX_KEYS_PER_TOPUP = 1_000_000;

/** Fulfils the paid session of an operator tier's purchase in the webhook's transaction (the memberships module's). */
export type MembershipFulfiller = (trx: Kysely<Database>, session: CheckoutSessionObject) => Promise<FulfilmentResult | undefined>;

export function registerGuestFulfilments(
  registry: FulfilmentRegistry,
  log: Logger,
  now: () => Date,
  memberships: MembershipFulfiller | undefined,
): void {
  registry.register('keys_topup', {
    async completed(trx, session, event) {
      const { user_id: userId, keys: raw } = session.metadata;
      const keys = raw && /^\d+$/.test(raw) ? Number(raw) : NaN;
      if (!(keys >= 1 && keys <= MAX_KEYS_PER_TOPUP) || !userId || !(await userExists(trx, userId))) {
        log.warn({ eventId: event.id, sessionId: session.id, metadata: session.metadata }, 'keys_topup session with unusable metadata');
        return 'ignored';
      }
      await addBillingEntry(trx, { userId, type: 'topup', delta: keys, note: `Keys top-up (${session.id})`, at: now() });
    },
  });

  registry.register('membership', {
    async completed(trx, session, event) {
      if (session.metadata.purchase_id) {
        if (memberships) return memberships(trx, session);
        log.warn({ eventId: event.id, sessionId: session.id }, 'membership purchase session without a memberships module');
        return 'ignored';
      }
      const { user_id: userId } = session.metadata;
      const tier = session.metadata.tier?.trim();
      if (!tier || tier.length > 50 || !userId || !(await userExists(trx, userId))) {
        log.warn({ eventId: event.id, sessionId: session.id, metadata: session.metadata }, 'membership session with unusable metadata');
        return 'ignored';
      }
      await setMembershipTier(trx, userId, tier, now());
    },
  });
}
