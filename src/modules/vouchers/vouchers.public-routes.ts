/**
 * Guests buying gift vouchers (spec: Public widget endpoints): create-intent (rate limited per client
 * address before the body is read, bot-checked, `Idempotency-Key` honoured) and finalize (idempotent).
 * The venue's public voucher-config is the venues module's, with its other widget configs.
 */
import { badRequest } from '../../platform/errors.js';
import { errorResponses } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import type { VoucherPurchases } from './purchases.service.js';
import { FinalizeBody, FinalizeResult, PurchaseBody, PurchaseIntent } from './vouchers.schemas.js';

const IDEMPOTENCY_KEY_MAX = 255;

/** The `Idempotency-Key` header: 1 to 255 visible ASCII characters, or none. */
function idempotencyKey(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const key = typeof value === 'string' ? value.trim() : '';
  if (!key || key.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(key)) {
    throw badRequest(`Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters`);
  }
  return key;
}

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
    async (request) =>
      purchases.createIntent(request.body, { ip: request.ip, idempotencyKey: idempotencyKey(request.headers['idempotency-key']) }),
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
