/**
 * Guests buying gift vouchers (spec: Public widget endpoints): create-intent (rate limited per client
 * address before the body is read, bot-checked, `Idempotency-Key` honoured) and finalize (idempotent).
 * The venue's public voucher-config is the venues module's, with its other widget configs.
 */
import { idempotencyKeyOf } from '../../platform/idempotency-key.js';
import { errorResponses } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import type { VoucherPurchases } from './purchases.service.js';
import { FinalizeBody, FinalizeResult, PurchaseBody, PurchaseIntent } from './vouchers.schemas.js';

export const voucherPurchaseRoutes: RoutePlugin<{ purchases: VoucherPurchases }> = async (app, { purchases }) => {
  const tags = ['public'];
  const noStore = async (_request: unknown, reply: { header(name: string, value: string): unknown }) => {
    reply.header('Cache-Control', 'no-store');
  };

  app.post(
    '/api/public/voucher-purchase/create-intent',
    {
      schema: {
        summary: 'Start buying gift vouchers: a payment intent for amount × quantity',
        description:
          'Within the venue’s voucher settings (on; a fixed amount or a custom one between the bounds; quantity between `min_qty` and ' +
          '`max_qty`). `delivery` `email` mails the vouchers to `recipient_email`; `purchaser` mails them to the purchaser. ' +
          'Pay with `client_secret`, then call finalize. An `Idempotency-Key` header makes a retry answer the same intent (the same ' +
          'key with another body: 409). Callers send `turnstile_token` when the bot check is on. Rate limited per client address.',
        tags,
        body: PurchaseBody,
        response: { 200: PurchaseIntent, ...errorResponses(400, 403, 404, 409, 429, 502, 503) },
      },
      onRequest: [noStore, async (request) => purchases.countAttempt(request.ip)],
    },
    async (request) => purchases.createIntent(request.body, { ip: request.ip, idempotencyKey: idempotencyKeyOf(request.headers) }),
  );

  app.post(
    '/api/public/voucher-purchase/finalize',
    {
      schema: {
        summary: 'Issue the vouchers of a paid purchase',
        description:
          'Re-reads the payment: once it succeeded the vouchers are issued and mailed, once (the provider’s `voucher_purchase` ' +
          'event does the same if it comes first); every call then answers the same vouchers. Unpaid: `success: false`, no vouchers.',
        tags,
        body: FinalizeBody,
        response: { 200: FinalizeResult, ...errorResponses(400, 404, 409, 502, 503) },
      },
      onRequest: noStore,
    },
    async (request) => purchases.finalize(request.body.intent_id),
  );
};
