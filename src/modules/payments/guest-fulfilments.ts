/**
 * The fulfilments this module owns (decisions: payment webhook kinds): `keys_topup` (metadata `user_id`, `keys`) adds a
 * billing-ledger entry; `membership` (metadata `user_id`, `tier`) sets the guest's membership tier.
 * Both are the platform's own sales, so each paid session is its own target. Metadata that cannot be
 * acted on is logged and acknowledged: a redelivery of the same event would not make it valid.
 */
import type { Logger } from 'pino';
import { setMembershipTier, userExists } from '../auth/index.js';
import type { FulfilmentRegistry } from './fulfilments.js';
import { addBillingEntry } from './keys.js';

const MAX_KEYS_PER_TOPUP = 1_000_000;

export function registerGuestFulfilments(registry: FulfilmentRegistry, log: Logger, now: () => Date): void {
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
