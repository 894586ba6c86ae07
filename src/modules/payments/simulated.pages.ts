/**
 * The small HTML pages behind the simulated provider's hosted flows (checkout and Connect onboarding)
 * and the pages the real provider's onboarding returns to. Server-rendered, no scripts.
 */
import type { CheckoutPage } from './simulated/index.js';
import type { ConnectedAccount, PaymentErrorDetail } from './provider.js';
import { accountStatus } from './payouts.service.js';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // No form-action: browsers apply it to the redirect after a submit, which goes to the success URL.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
};

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; background: #f5f5f4; color: #1c1917; margin: 0; }
main { max-width: 32rem; margin: 3rem auto; background: #fff; padding: 2rem; border-radius: 0.75rem; box-shadow: 0 1px 3px #0002; }
h1 { font-size: 1.4rem; margin-top: 0; }
.note { background: #fef3c7; padding: 0.75rem; border-radius: 0.5rem; font-size: 0.9rem; }
.error { background: #fee2e2; padding: 0.75rem; border-radius: 0.5rem; }
button { font: inherit; padding: 0.6rem 1.2rem; border-radius: 0.5rem; border: 0; background: #1c1917; color: #fff; cursor: pointer; margin: 0.25rem 0; }
button.secondary { background: #e7e5e4; color: #1c1917; }
code { font-size: 0.85rem; }
</style>
</head>
<body><main>
${body}
</main></body>
</html>
`;
}

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
    return page('Checkout (simulated)', `${head}\n<p>This checkout session is ${session.status === 'complete' ? 'already paid' : 'expired'}.</p>`);
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

export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}
