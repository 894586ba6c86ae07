/**
 * The one check before money confirms something (a deposit booking, tickets, vouchers), whether the
 * payment arrives as the provider's event (a checkout session) or is read back by a finalize call (a
 * payment intent): it must be the thing's own intent, in the platform's currency, of exactly its amount.
 * A payment for less, or another booking's payment, confirms nothing.
 */
import type { CheckoutSessionObject } from './fulfilments.js';
import { CURRENCY, type PaymentIntent } from './provider.js';

/** What does not match: `intent` (not the thing's own, or it has none), `currency`, `amount`. */
export type PaymentMismatch = 'intent' | 'currency' | 'amount';

export interface ExpectedPayment {
  /** The intent created for the thing; without one, no payment can be its own. */
  intentId: string | null | undefined;
  amountPence: number;
}

interface Paid {
  intentId: string | null;
  amountPence: number | null;
  /** Null only for a provider event that leaves it out (the contract's session shape does): GBP is implied. */
  currency: string | null;
}

function mismatchOf(paid: Paid, expected: ExpectedPayment): PaymentMismatch | undefined {
  if (!expected.intentId || paid.intentId !== expected.intentId) return 'intent';
  if (paid.currency !== null && paid.currency.toLowerCase() !== CURRENCY) return 'currency';
  if (paid.amountPence !== expected.amountPence) return 'amount';
  return undefined;
}

/** Why a paid checkout session cannot confirm `expected`, or undefined when it can. */
export const sessionMismatch = (session: CheckoutSessionObject, expected: ExpectedPayment): PaymentMismatch | undefined =>
  mismatchOf({ intentId: session.payment_intent, amountPence: session.amount_total, currency: session.currency }, expected);

/** Why a succeeded (or held) payment intent cannot confirm `expected`, or undefined when it can. */
export const intentMismatch = (intent: PaymentIntent, expected: ExpectedPayment): PaymentMismatch | undefined =>
  mismatchOf({ intentId: intent.id, amountPence: intent.amount, currency: intent.currency }, expected);

/** The one message of a finalize call whose payment does not match (409). */
export const PAYMENT_MISMATCH_MESSAGE = 'The payment does not match this booking or purchase';
