/**
 * The simulated provider's hosted pages (checkout and Connect onboarding), standing in for the real
 * provider's. Server-rendered, no scripts; the shell is `../pages.ts`.
 */
import { escapeHtml, page } from '../pages.js';
import { accountStatus } from '../payouts.service.js';
import type { ConnectedAccount, PaymentErrorDetail } from '../provider.js';
import type { CheckoutPage } from './types.js';

const pounds = (pence: number) => `£${(pence / 100).toFixed(2)}`;

export function onboardingPage(account: ConnectedAccount): string {
  return page(
    'Payout onboarding (simulated)',
    `<h1>Payout onboarding</h1>
<p class="note">Simulated payment provider: this page stands in for the provider's hosted onboarding. No identity or bank details are collected.</p>
<p>Connected account <code>${escapeHtml(account.id)}</code>: <strong>${accountStatus(account)}</strong>.</p>
<form method="post"><input type="hidden" name="outcome" value="verified"><button type="submit">Finish onboarding</button></form>
<form method="post"><input type="hidden" name="outcome" value="pending"><button class="secondary" type="submit">Submit details, leave verification pending</button></form>`,
  );
}

export function checkoutPage(view: CheckoutPage, declined: PaymentErrorDetail | null = null): string {
  const { session } = view;
  const head = `<h1>${escapeHtml(view.name)}</h1>
<p class="note">Simulated payment provider: a test checkout. No card is charged.</p>
<p>Amount: <strong>${pounds(session.amount_total ?? 0)}</strong></p>`;
  if (session.status !== 'open') {
    return page(
      'Checkout (simulated)',
      `${head}\n<p>This checkout session is ${session.status === 'complete' ? 'already paid' : 'expired'}.</p>`,
    );
  }
  const error = declined ? `<p class="error">${escapeHtml(declined.message)}</p>` : '';
  return page(
    'Checkout (simulated)',
    `${head}
${error}
<form method="post"><input type="hidden" name="payment_method" value="pm_card_visa"><button type="submit">Pay with test card (succeeds)</button></form>
<form method="post"><input type="hidden" name="payment_method" value="pm_card_chargeDeclined"><button class="secondary" type="submit">Pay with a declined test card</button></form>
<p><a href="${escapeHtml(view.cancelUrl)}">Cancel and return</a></p>`,
  );
}
