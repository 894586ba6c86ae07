/**
 * `ctx.payments`: the payments platform every money-taking module uses. It picks the provider from the
 * configuration (simulated by default, Stripe with a key, none → 503), and exposes taking money
 * (charges.ts), payouts, the fulfilment registry other modules register their `metadata.kind` into,
 * the inbound webhook, and the publishable key the widgets need.
 */
import type { Logger } from 'pino';
import type { Config, PaymentsProviderName } from '../../config/config.js';
import type { Db } from '../../db/connect.js';
import type { Clock } from '../../platform/clock.js';
import { notFound } from '../../platform/errors.js';
import { createCharges, toAppError, type Charges } from './charges.js';
import { FulfilmentRegistry } from './fulfilments.js';
import { registerGuestFulfilments, type MembershipFulfiller } from './guest-fulfilments.js';
import { keysBalance } from './keys.js';
import type { PayoutSummary } from './payments.reports.js';
import { createPayouts, type OperatorAccounts, type Payouts } from './payouts.service.js';
import { platformFee, type PaymentIntent, type PaymentProvider } from './provider.js';
import { signatureHeader } from './signature.js';
import { createSimulatedProvider, SIMULATED_PUBLISHABLE_KEY, type SimulatedEvent, type SimulatedProvider } from './simulated/index.js';
import { createStripeProvider } from './stripe-provider.js';
import { createCheckout, type CheckoutFlow, type CheckoutSpec, type GaveBack, type GiveBackRequest } from './checkout.js';
import { createIntentCancels, type IntentCancelRequest } from './intent-cancels.js';
import { ensureWebhookSecret } from './webhook-secret.js';
import { createWebhooks, type Webhooks } from './webhooks.js';

export interface Payments extends Charges {
  /** The configured provider name (`simulated`, `stripe`, `none`). */
  providerName: PaymentsProviderName;
  /** False for `none` and for `stripe` without a secret key: payment features answer 503. */
  configured: boolean;
  /** For the widgets: `pk_test_simulated`, STRIPE_PUBLISHABLE_KEY, or null when unconfigured. */
  publishableKey: string | null;
  feePercent: number;
  platformFee(amountPence: number): number;
  /** The raw provider (null when unconfigured); prefer the methods above, which keep the ledger. */
  provider: PaymentProvider | null;
  /** Present only under the simulated provider. */
  simulated: SimulatedProvider | null;
  /** The simulated card form (`POST /api/public/simulated-payments/:intentId/confirm`). */
  confirmSimulated(intentId: string, paymentMethod: string): Promise<PaymentIntent>;
  fulfilments: FulfilmentRegistry;
  webhooks: Webhooks;
  /** The inbound webhook's signing secret (configured, or the database's own). */
  webhookSecret(): Promise<string>;
  payouts: Payouts;
  /** The payout status the dashboard shows: `unconfigured` when payments are off, else the operator's cached status. */
  payoutSummary(operatorId: string): Promise<PayoutSummary>;
  /** A user's keys balance (the billing ledger's sum). */
  keysBalance(userId: string): Promise<number>;
  /**
   * Abandons an unpaid intent whose booking or purchase was released; a failure is logged and retried by
   * the sweep (`retryIntentCancels`). True when cancelled now.
   */
  cancelIntentOrRetry(request: IntentCancelRequest): Promise<boolean>;
  /** The sweep's part: retries the cancels that failed. */
  retryIntentCancels(limit?: number): Promise<number>;
  /** The payment lifecycle (ask, confirm, release) of one kind of thing a guest pays for (checkout.ts). */
  checkout<T>(spec: CheckoutSpec<T>): CheckoutFlow<T>;
  /** What a cancelled thing holds goes back: a hold or unpaid intent released, a payment refunded (checkout.ts). */
  giveBack(request: GiveBackRequest): Promise<GaveBack>;
}

/** The part of the configuration payments read: the provider, its keys, the webhook secret, the fee. */
export type PaymentsConfig = Pick<
  Config,
  'paymentsProvider' | 'stripe' | 'paymentWebhookSecret' | 'publicBaseUrl' | 'nodeEnv' | 'platformFeePercent'
>;

export function createPayments(deps: {
  config: PaymentsConfig;
  db: Db;
  clock: Clock;
  log: Logger;
  accounts: OperatorAccounts;
  /** The memberships module's fulfilment of an operator tier's purchase (the `membership` kind with `purchase_id`). */
  memberships?: MembershipFulfiller;
}): Payments {
  const { config, db, clock, log, accounts } = deps;
  const providerName = config.paymentsProvider;
  const stripeKey = config.stripe.secretKey;

  let secretPromise: Promise<string> | undefined;
  const webhookSecret = (): Promise<string> => {
    if (config.paymentWebhookSecret) return Promise.resolve(config.paymentWebhookSecret);
    secretPromise ??= ensureWebhookSecret(db, clock.now())
      .then((result) => result.secret)
      .catch((error) => {
        secretPromise = undefined;
        throw error;
      });
    return secretPromise;
  };

  // The simulated provider tells the platform about sessions and accounts the way the real one does:
  // a signed event through the same webhook processing (in-process; every instance shares the db).
  // A failure is rethrown so the provider keeps the event and delivers it again later.
  async function deliver(event: SimulatedEvent): Promise<void> {
    const raw = Buffer.from(JSON.stringify(event));
    const header = signatureHeader(raw, await webhookSecret(), Math.floor(clock.now().getTime() / 1000));
    try {
      await webhooks.receive(raw, header);
    } catch (error) {
      log.error({ err: error, eventId: event.id, type: event.type }, 'simulated provider event was not processed; it will be retried');
      throw error;
    }
  }

  const simulated =
    providerName === 'simulated' ? createSimulatedProvider({ db, clock, publicBaseUrl: config.publicBaseUrl, emit: deliver }) : null;
  const provider: PaymentProvider | null =
    simulated ??
    (providerName === 'stripe' && stripeKey ? createStripeProvider({ secretKey: stripeKey, apiBase: config.stripe.apiBase }) : null);

  if (simulated && config.nodeEnv === 'production') {
    log.warn('PAYMENTS_PROVIDER is simulated while NODE_ENV=production: no real money is taken');
  }
  if (providerName === 'stripe' && !stripeKey) log.warn('PAYMENTS_PROVIDER=stripe without STRIPE_SECRET_KEY: payment features answer 503');

  const payouts = createPayouts({ db, clock, log, provider, providerName, publicBaseUrl: config.publicBaseUrl, accounts });
  const charges = createCharges({
    db,
    clock,
    log,
    provider,
    feePercent: config.platformFeePercent,
    afterPlatformCharge: async (operatorId) => {
      await payouts.settle(operatorId);
    },
  });
  const intentCancels = createIntentCancels({ db, clock, log, cancelIntent: charges.cancelIntent });
  const fulfilments = new FulfilmentRegistry();
  registerGuestFulfilments(fulfilments, log, () => clock.now(), deps.memberships);
  const checkout = createCheckout({ db, log, charges, cancels: intentCancels, fulfilments });
  const webhooks = createWebhooks({
    db,
    clock,
    log,
    registry: fulfilments,
    secret: webhookSecret,
    hooks: { sessionSettled: charges.sessionSettled, accountUpdated: payouts.syncAccount },
  });

  return {
    ...charges,
    providerName,
    configured: provider !== null,
    publishableKey: simulated ? SIMULATED_PUBLISHABLE_KEY : provider ? (config.stripe.publishableKey ?? null) : null,
    feePercent: config.platformFeePercent,
    platformFee: (amountPence) => platformFee(amountPence, config.platformFeePercent),
    provider,
    simulated,
    async confirmSimulated(intentId, paymentMethod) {
      if (!simulated) throw notFound('Payment');
      try {
        return await charges.observeIntent(await simulated.confirmPaymentIntent(intentId, paymentMethod));
      } catch (error) {
        throw toAppError(error);
      }
    },
    fulfilments,
    webhooks,
    webhookSecret,
    cancelIntentOrRetry: intentCancels.cancelOrRetry,
    retryIntentCancels: intentCancels.retryDue,
    checkout: checkout.flow,
    giveBack: checkout.giveBack,
    payouts,
    async payoutSummary(operatorId) {
      if (!provider) return { provider: providerName, status: 'unconfigured', source: 'config' };
      return { provider: providerName, status: (await accounts.connectStatus(operatorId)) ?? 'not_started', source: 'cache' };
    },
    keysBalance: (userId) => keysBalance(db, userId),
  };
}
