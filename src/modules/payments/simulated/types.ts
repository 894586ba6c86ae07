/**
 * The simulated provider as the platform sees it: the provider interface, plus what stands in for the
 * real provider's hosted pages and its test card form, and the redelivery of its events.
 */
import type { CheckoutSession, ConnectedAccount, PaymentErrorDetail, PaymentIntent, PaymentProvider } from '../provider.js';

export interface CheckoutPage {
  session: CheckoutSession;
  name: string;
  successUrl: string;
  cancelUrl: string;
}

export type OnboardingLinkView = { state: 'open'; account: ConnectedAccount } | { state: 'spent'; refreshUrl: string };
export type OnboardingOutcome = { state: 'done'; account: ConnectedAccount; returnUrl: string } | { state: 'spent'; refreshUrl: string };

export interface SimulatedProvider extends PaymentProvider {
  readonly name: 'simulated';
  /** What the payment form does with a test payment method (the widget's test card form). */
  confirmPaymentIntent(id: string, paymentMethod: string): Promise<PaymentIntent>;
  /** The hosted checkout page: the session and what the page shows. */
  checkoutPage(id: string): Promise<CheckoutPage>;
  /** Paying on the hosted checkout page. A declined card leaves the session open. */
  payCheckoutSession(id: string, paymentMethod: string): Promise<{ session: CheckoutSession; declined: PaymentErrorDetail | null }>;
  /** The hosted onboarding page of an account link: open, or spent (used or expired: go to its refresh URL). */
  onboardingLink(token: string): Promise<OnboardingLinkView>;
  /**
   * Finishing the hosted onboarding page through an unspent link: details are submitted; `verified`
   * enables charges and payouts, else what was enabled stays as it was. Spends the link.
   */
  completeOnboarding(token: string, verified: boolean): Promise<OnboardingOutcome>;
  /** Delivers the events that are due (new, or due for a retry); returns how many were accepted. */
  deliverDueEvents(): Promise<number>;
}
