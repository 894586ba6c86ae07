/**
 * The payment provider as the product needs it: payment intents (with card holds by manual capture),
 * refunds, checkout sessions, Connect-style connected accounts with hosted onboarding, and transfers.
 * Two implementations: the simulated provider (state in our database) and the Stripe adapter. The
 * shapes follow the provider's objects so a provider event's `data.object` maps onto them directly.
 */

export type ProviderName = 'simulated' | 'stripe';

/** Money is integer pence; the product only takes GBP. */
export const CURRENCY = 'gbp';

export type IntentStatus =
  'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'requires_capture' | 'canceled' | 'succeeded';

export type CaptureMethod = 'automatic' | 'manual';

export interface PaymentErrorDetail {
  type: string;
  code: string | null;
  decline_code: string | null;
  message: string;
}

export interface PaymentIntent {
  id: string;
  client_secret: string | null;
  amount: number;
  currency: string;
  status: IntentStatus;
  capture_method: CaptureMethod;
  /** Authorised and not yet captured (card holds). */
  amount_capturable: number;
  amount_received: number;
  metadata: Record<string, string>;
  /** Connected account of a destination charge, else null (a charge on the platform account). */
  destination: string | null;
  application_fee_amount: number | null;
  last_payment_error: PaymentErrorDetail | null;
  /** Unix seconds. */
  created: number;
}

export interface Refund {
  id: string;
  payment_intent: string;
  amount: number;
  currency: string;
  status: string;
}

export type CheckoutSessionStatus = 'open' | 'complete' | 'expired';

export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  url: string | null;
  status: CheckoutSessionStatus;
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  payment_intent: string | null;
  amount_total: number | null;
  currency: string;
  metadata: Record<string, string>;
  /** Unix seconds. */
  expires_at: number;
}

export interface ConnectedAccount {
  id: string;
  email: string | null;
  details_submitted: boolean;
  charges_enabled: boolean;
  payouts_enabled: boolean;
}

export interface AccountLink {
  url: string;
  /** Unix seconds. */
  expires_at: number;
}

export interface Transfer {
  id: string;
  amount: number;
  currency: string;
  destination: string;
}

export interface RequestOptions {
  /** Sent as the provider's idempotency key: a retried request returns the first result. */
  idempotencyKey?: string;
}

export interface CreateIntentInput {
  amount: number;
  metadata: Record<string, string>;
  captureMethod: CaptureMethod;
  destination?: string | null;
  applicationFeeAmount?: number | null;
  description?: string;
}

export interface CaptureInput {
  /** Defaults to everything authorised. */
  amountToCapture?: number;
  applicationFeeAmount?: number;
}

export interface CreateRefundInput {
  paymentIntentId: string;
  /** Defaults to everything not yet refunded. */
  amount?: number;
  /** Destination charges: pull the refund back from the connected account. */
  reverseTransfer?: boolean;
  /** Destination charges: give back the platform fee in proportion. */
  refundApplicationFee?: boolean;
  metadata?: Record<string, string>;
}

export interface CreateCheckoutSessionInput {
  amount: number;
  /** Line item name shown to the payer. */
  name: string;
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
  destination?: string | null;
  applicationFeeAmount?: number | null;
  customerEmail?: string | null;
  /** Unix seconds; between 30 minutes and 24 hours ahead (the provider's limits). Default 24 hours. */
  expiresAt?: number;
}

export interface CreateAccountInput {
  email?: string | null;
  businessName?: string | null;
  metadata: Record<string, string>;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  createPaymentIntent(input: CreateIntentInput, options?: RequestOptions): Promise<PaymentIntent>;
  retrievePaymentIntent(id: string): Promise<PaymentIntent>;
  capturePaymentIntent(id: string, input?: CaptureInput, options?: RequestOptions): Promise<PaymentIntent>;
  cancelPaymentIntent(id: string, options?: RequestOptions): Promise<PaymentIntent>;
  createRefund(input: CreateRefundInput, options?: RequestOptions): Promise<Refund>;
  createCheckoutSession(input: CreateCheckoutSessionInput, options?: RequestOptions): Promise<CheckoutSession>;
  retrieveCheckoutSession(id: string): Promise<CheckoutSession>;
  expireCheckoutSession(id: string, options?: RequestOptions): Promise<CheckoutSession>;
  createConnectedAccount(input: CreateAccountInput, options?: RequestOptions): Promise<ConnectedAccount>;
  retrieveConnectedAccount(id: string): Promise<ConnectedAccount>;
  createAccountLink(input: { account: string; returnUrl: string; refreshUrl: string }): Promise<AccountLink>;
  createTransfer(
    input: { amount: number; destination: string; metadata: Record<string, string> },
    options?: RequestOptions,
  ): Promise<Transfer>;
}

/**
 * What can go wrong at the provider, independent of which one:
 * `card` declined; `state` the object is not in a state that allows it (capturing a cancelled hold);
 * `not_found`; `invalid_request` a parameter the provider refuses; `unavailable` the provider failed.
 */
export type ProviderErrorKind = 'card' | 'state' | 'not_found' | 'invalid_request' | 'unavailable';

export class PaymentProviderError extends Error {
  /** What a client may be told (a 400's message); the full `message` is for logs. */
  readonly publicMessage: string;

  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly code: string | null = null,
    publicMessage?: string,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
    this.publicMessage = publicMessage ?? message;
  }
}

/** Platform fee in pence on an amount (PLATFORM_FEE_PERCENT), rounded half up. */
export function platformFee(amountPence: number, feePercent: number): number {
  return Math.round((amountPence * feePercent) / 100);
}

/** A share of a fee in proportion to part of an amount (partial capture, partial refund). */
export function proportionalFee(fee: number, part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.round((fee * part) / whole);
}
