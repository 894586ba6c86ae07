/**
 * The simulated payment provider: the real provider's test mode, kept in our database (the `sim_*`
 * tables) so every payment flow runs end to end offline. It is the default provider in development and
 * tests. Like the real provider it refuses what the real one refuses (unknown ids, wrong states, amounts
 * below the minimum, destination accounts that cannot take charges, refunds beyond what was received,
 * an idempotency key reused for another request), honours idempotency keys, lets authorisations lapse
 * after seven days and checkout sessions at their expiry, and tells the platform about checkout sessions
 * and account changes through signed webhook events (`emit`).
 *
 * One file per concern, composed here: `idempotency.ts` (keys), `events.ts` (the durable event outbox
 * and its retries), `intents.ts` (intents, capture and release, refunds), `checkout.ts` (sessions and
 * the hosted checkout page), `accounts.ts` (connected accounts, single-use onboarding links,
 * transfers); `pages.ts` and `routes.ts` are its hosted pages and routes.
 */
import type { Db } from '../../../db/connect.js';
import type { Clock } from '../../../platform/clock.js';
import { createAccounts } from './accounts.js';
import { createCheckout } from './checkout.js';
import { createEventOutbox, type EmitEvent } from './events.js';
import { createIdempotency } from './idempotency.js';
import { createIntents } from './intents.js';
import type { SimContext } from './rows.js';
import type { SimulatedProvider } from './types.js';

export type { SimulatedEvent } from './events.js';
export { simulatedRoutes } from './routes.js';
export type { SimulatedProvider } from './types.js';

export const SIMULATED_PUBLISHABLE_KEY = 'pk_test_simulated';

export interface SimulatedProviderOptions {
  db: Db;
  clock: Clock;
  /** Base of the hosted pages (checkout, onboarding) the simulated provider hands out. */
  publicBaseUrl: string;
  /** Delivers an event to the platform's webhook, signed like the real provider's; throws when it was not accepted. */
  emit: EmitEvent;
}

export function createSimulatedProvider(options: SimulatedProviderOptions): SimulatedProvider {
  const { db, clock, publicBaseUrl, emit } = options;
  const now = () => clock.now();
  const context: SimContext = { db, now, at: () => now().toISOString() };
  const idempotent = createIdempotency(context);
  const events = createEventOutbox(context, emit);
  const intents = createIntents(context, idempotent);
  return {
    name: 'simulated',
    ...intents.methods,
    ...createCheckout(context, { idempotent, events, intents, publicBaseUrl }),
    ...createAccounts(context, { idempotent, events, publicBaseUrl }),
    deliverDueEvents: events.deliverDueEvents,
  };
}
