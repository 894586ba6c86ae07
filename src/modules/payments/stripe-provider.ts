/**
 * The Stripe adapter: the PaymentProvider interface on the official SDK. Destination charges
 * (`transfer_data.destination` + `application_fee_amount`), card holds by `capture_method: manual`,
 * Connect Express accounts onboarded through account links, and transfers of money owed from charges
 * taken on the platform account. STRIPE_API_BASE points the SDK at another host (tests run against a
 * local recording server); every mutating call carries an idempotency key.
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import {
  CURRENCY,
  PaymentProviderError,
  type CheckoutSession,
  type ConnectedAccount,
  type IntentStatus,
  type PaymentIntent,
  type PaymentProvider,
  type RequestOptions,
} from './provider.js';

export interface StripeProviderOptions {
  secretKey: string;
  /** e.g. `http://127.0.0.1:12111`; unset: the SDK's own host. */
  apiBase?: string;
  /** Milliseconds per request; the SDK's default (80 s) would hold a guest's request far too long. */
  timeoutMs?: number;
  maxNetworkRetries?: number;
}

/** The SDK takes host, port and protocol separately; a path on the base is not supported by it. */
export function sdkHostOptions(apiBase: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? value : value.id;

function toIntent(pi: Stripe.PaymentIntent): PaymentIntent {
  const error = pi.last_payment_error;
  return {
    id: pi.id,
    client_secret: pi.client_secret,
    amount: pi.amount,
    currency: pi.currency,
    status: pi.status as IntentStatus,
    capture_method: pi.capture_method === 'automatic' ? 'automatic' : pi.capture_method === 'automatic_async' ? 'automatic' : 'manual',
    amount_capturable: pi.amount_capturable ?? 0,
    amount_received: pi.amount_received ?? 0,
    metadata: { ...(pi.metadata ?? {}) },
    destination: idOf(pi.transfer_data?.destination),
    application_fee_amount: pi.application_fee_amount ?? null,
    last_payment_error: error
      ? {
          type: error.type,
          code: error.code ?? null,
          decline_code: error.decline_code ?? null,
          message: error.message ?? 'The payment failed.',
        }
      : null,
    created: pi.created,
  };
}

function toSession(session: Stripe.Checkout.Session): CheckoutSession {
  return {
    id: session.id,
    object: 'checkout.session',
    url: session.url ?? null,
    status: (session.status ?? 'open') as CheckoutSession['status'],
    payment_status: session.payment_status,
    payment_intent: idOf(session.payment_intent),
    amount_total: session.amount_total ?? null,
    currency: session.currency ?? CURRENCY,
    metadata: { ...(session.metadata ?? {}) },
    expires_at: session.expires_at,
  };
}

function toAccount(account: Stripe.Account): ConnectedAccount {
  return {
    id: account.id,
    email: account.email ?? null,
    details_submitted: Boolean(account.details_submitted),
    charges_enabled: Boolean(account.charges_enabled),
    payouts_enabled: Boolean(account.payouts_enabled),
  };
}

const STATE_CODES = new Set([
  'payment_intent_unexpected_state',
  'charge_already_refunded',
  'charge_already_captured',
  'charge_expired_for_capture',
  'checkout_session_unexpected_state',
]);

/** Refusals about the amount a caller asked for: their message may be shown to that caller. */
const CALLER_CODES = new Set(['amount_too_small', 'amount_too_large']);
const REFUSED_MESSAGE = 'The payment provider refused the request.';

// The SDK is large: it is loaded when a Stripe provider is created, never under the simulated provider.
const requireCjs = createRequire(import.meta.url);
const sdk = (): typeof Stripe => requireCjs('stripe') as typeof Stripe;

/** Maps the SDK's errors onto the provider-neutral kinds. */
export function translateStripeError(error: unknown): PaymentProviderError {
  if (error instanceof PaymentProviderError) return error;
  const { errors } = sdk();
  if (error instanceof errors.StripeCardError) return new PaymentProviderError('card', error.message, error.code ?? 'card_declined');
  if (error instanceof errors.StripeInvalidRequestError) {
    const code = error.code ?? null;
    if (code === 'resource_missing' || error.statusCode === 404) return new PaymentProviderError('not_found', error.message, code);
    if (code && STATE_CODES.has(code)) return new PaymentProviderError('state', error.message, code);
    // Other refusals name our parameters, accounts and configuration: not for the guest who caused the call.
    return new PaymentProviderError(
      'invalid_request',
      error.message,
      code,
      code && CALLER_CODES.has(code) ? error.message : REFUSED_MESSAGE,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof errors.StripeError ? (error.code ?? null) : null;
  return new PaymentProviderError('unavailable', `Stripe request failed: ${message}`, code);
}

export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const StripeSdk = sdk();
  const stripe = new StripeSdk(options.secretKey, {
    ...sdkHostOptions(options.apiBase),
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    timeout: options.timeoutMs ?? 20_000,
    telemetry: false,
    appInfo: { name: 'Maitred' },
  });

  // Every POST carries a key: the caller's, or a fresh one so the SDK's own retries stay safe.
  const keyed = (requestOptions?: RequestOptions): Stripe.RequestOptions => ({
    idempotencyKey: requestOptions?.idempotencyKey ?? `maitred-${randomUUID()}`,
  });

  async function call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw translateStripeError(error);
    }
  }

  const destinationParams = (destination: string | null | undefined, fee: number | null | undefined) =>
    destination ? { transfer_data: { destination }, ...(fee !== null && fee !== undefined ? { application_fee_amount: fee } : {}) } : {};

  return {
    name: 'stripe',

    createPaymentIntent: (input, requestOptions) =>
      call(async () =>
        toIntent(
          await stripe.paymentIntents.create(
            {
              amount: input.amount,
              currency: CURRENCY,
              capture_method: input.captureMethod,
              metadata: input.metadata,
              automatic_payment_methods: { enabled: true },
              ...(input.description ? { description: input.description } : {}),
              ...destinationParams(input.destination, input.applicationFeeAmount),
            },
            keyed(requestOptions),
          ),
        ),
      ),

    retrievePaymentIntent: (id) => call(async () => toIntent(await stripe.paymentIntents.retrieve(id))),

    capturePaymentIntent: (id, input = {}, requestOptions) =>
      call(async () =>
        toIntent(
          await stripe.paymentIntents.capture(
            id,
            {
              ...(input.amountToCapture !== undefined ? { amount_to_capture: input.amountToCapture } : {}),
              ...(input.applicationFeeAmount !== undefined ? { application_fee_amount: input.applicationFeeAmount } : {}),
            },
            keyed(requestOptions),
          ),
        ),
      ),

    cancelPaymentIntent: (id, requestOptions) =>
      call(async () => toIntent(await stripe.paymentIntents.cancel(id, {}, keyed(requestOptions)))),

    createRefund: (input, requestOptions) =>
      call(async () => {
        const refund = await stripe.refunds.create(
          {
            payment_intent: input.paymentIntentId,
            ...(input.amount !== undefined ? { amount: input.amount } : {}),
            ...(input.reverseTransfer ? { reverse_transfer: true } : {}),
            ...(input.refundApplicationFee ? { refund_application_fee: true } : {}),
            ...(input.metadata ? { metadata: input.metadata } : {}),
          },
          keyed(requestOptions),
        );
        return {
          id: refund.id,
          payment_intent: idOf(refund.payment_intent) ?? input.paymentIntentId,
          amount: refund.amount,
          currency: refund.currency,
          status: refund.status ?? 'pending',
        };
      }),

    createCheckoutSession: (input, requestOptions) =>
      call(async () => {
        const paymentIntentData = {
          metadata: input.metadata,
          ...destinationParams(input.destination, input.applicationFeeAmount),
        };
        return toSession(
          await stripe.checkout.sessions.create(
            {
              mode: 'payment',
              line_items: [
                { quantity: 1, price_data: { currency: CURRENCY, unit_amount: input.amount, product_data: { name: input.name } } },
              ],
              metadata: input.metadata,
              payment_intent_data: paymentIntentData,
              success_url: input.successUrl,
              cancel_url: input.cancelUrl,
              ...(input.customerEmail ? { customer_email: input.customerEmail } : {}),
              ...(input.expiresAt !== undefined ? { expires_at: input.expiresAt } : {}),
            },
            keyed(requestOptions),
          ),
        );
      }),

    retrieveCheckoutSession: (id) => call(async () => toSession(await stripe.checkout.sessions.retrieve(id))),

    expireCheckoutSession: (id, requestOptions) =>
      call(async () => toSession(await stripe.checkout.sessions.expire(id, {}, keyed(requestOptions)))),

    createConnectedAccount: (input, requestOptions) =>
      call(async () =>
        toAccount(
          await stripe.accounts.create(
            {
              type: 'express',
              country: 'GB',
              default_currency: CURRENCY,
              capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
              metadata: input.metadata,
              ...(input.email ? { email: input.email } : {}),
              ...(input.businessName ? { business_profile: { name: input.businessName } } : {}),
            },
            keyed(requestOptions),
          ),
        ),
      ),

    retrieveConnectedAccount: (id) => call(async () => toAccount(await stripe.accounts.retrieve(id))),

    createAccountLink: (input) =>
      call(async () => {
        const link = await stripe.accountLinks.create(
          { account: input.account, refresh_url: input.refreshUrl, return_url: input.returnUrl, type: 'account_onboarding' },
          keyed(),
        );
        return { url: link.url, expires_at: link.expires_at };
      }),

    createTransfer: (input, requestOptions) =>
      call(async () => {
        const transfer = await stripe.transfers.create(
          { amount: input.amount, currency: CURRENCY, destination: input.destination, metadata: input.metadata },
          keyed(requestOptions),
        );
        return {
          id: transfer.id,
          amount: transfer.amount,
          currency: transfer.currency,
          destination: idOf(transfer.destination) ?? input.destination,
        };
      }),
  };
}
