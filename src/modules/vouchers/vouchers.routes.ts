/** Gift vouchers for staff (spec: Vouchers), under /api/my-venues/:venueId, gated by the `vouchers` permission. */
import { authOf, venueOf, type GuardFactory } from '../../platform/auth-guard.js';
import { errorResponses, SuccessBody, VenueParams } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import {
  IssueBody,
  IssueResult,
  LookupQuery,
  LookupResult,
  RedeemBody,
  RedeemResult,
  RefundResult,
  VoucherIntentBody,
  VoucherIntentResult,
  VoucherList,
  VoucherListQuery,
  VoucherParams,
  VoucherSettingsBody,
  VoucherSettingsResult,
} from './vouchers.schemas.js';
import type { VouchersService } from './vouchers.service.js';

const REDEEM_RULES =
  'A voucher of this venue or of one of its sister venues is redeemable while active, not refunded, not fully redeemed and ' +
  'not past its `expires_at` (venue-local). Failures are not HTTP errors: `success: false` with `reason` `not_found`, ' +
  '`wrong_venue`, `refunded`, `already_redeemed`, `expired` or (extension) `insufficient_balance`.';

export const vouchersRoutes: RoutePlugin<{ guard: GuardFactory; vouchers: VouchersService }> = async (app, { guard, vouchers }) => {
  const tags = ['vouchers'];
  const security = [{ bearer: [] }];
  const read = guard({ permission: 'vouchers:read', venueParam: 'venueId' });
  const write = guard({ permission: 'vouchers:write', venueParam: 'venueId' });
  const base = '/api/my-venues/:venueId';

  app.get(
    `${base}/voucher-settings`,
    {
      schema: {
        summary: "The venue's gift-voucher settings, merged with the defaults",
        tags,
        security,
        params: VenueParams,
        response: { 200: VoucherSettingsResult, ...errorResponses(401, 403, 404) },
      },
      onRequest: read,
    },
    async (request) => vouchers.settings(venueOf(request)),
  );

  app.put(
    `${base}/voucher-settings`,
    {
      schema: {
        summary: "Set the venue's gift-voucher settings",
        description:
          'Upsert: fields left out keep their value. `min_amount_pence` must not exceed `max_amount_pence`, nor `min_qty` `max_qty`; ' +
          'turned on, `fixed_amounts` or `allow_custom` must offer something to buy. `enabled` is what the vouchers widget needs to be ' +
          'switched on, and what the public voucher and combo configs report.',
        tags,
        security,
        params: VenueParams,
        body: VoucherSettingsBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => {
      await vouchers.updateSettings(venueOf(request), request.body);
      return { success: true };
    },
  );

  app.get(
    `${base}/vouchers`,
    {
      schema: {
        summary: "The venue's and its sister venues' vouchers, newest first",
        description: 'Offset paging (`limit` default 50, at most 200; `offset`). A venue-scoped role sees the sister venues in its scope.',
        tags,
        security,
        params: VenueParams,
        querystring: VoucherListQuery,
        response: { 200: VoucherList, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: read,
    },
    async (request) => vouchers.list(authOf(request), venueOf(request), request.query),
  );

  app.post(
    `${base}/voucher-intent`,
    {
      schema: {
        summary: 'Create a payment intent for a voucher sold by staff',
        description:
          'Pay it, then issue the voucher with `POST …/vouchers` `{ mode: "paid", payment_intent_id }`; each intent issues one voucher.',
        tags,
        security,
        params: VenueParams,
        body: VoucherIntentBody,
        response: { 200: VoucherIntentResult, ...errorResponses(400, 401, 403, 404, 502, 503) },
      },
      onRequest: write,
    },
    async (request) => vouchers.voucherIntent(venueOf(request), request.body.amount_pence),
  );

  app.post(
    `${base}/vouchers`,
    {
      schema: {
        summary: 'Issue a comp or paid voucher',
        description:
          '`mode: "paid"` needs the `payment_intent_id` of this venue’s voucher-intent, succeeded, of exactly `amount_pence`, and not used ' +
          'before (409); any other mode is `comp`. Expires after the settings’ `expiration_months` (venue-local date). With ' +
          '`recipient_email` the voucher is mailed from the venue (`emailed`).',
        tags,
        security,
        params: VenueParams,
        body: IssueBody,
        response: { 200: IssueResult, ...errorResponses(400, 401, 402, 403, 404, 409, 502, 503) },
      },
      onRequest: write,
    },
    async (request) => vouchers.issue(authOf(request), venueOf(request), request.body),
  );

  app.get(
    `${base}/vouchers/lookup`,
    {
      schema: {
        summary: 'Look a voucher up by its code',
        description: `Rate limited per client address (429 with \`Retry-After\`). ${REDEEM_RULES} Extension: \`redemptions\`, the voucher’s history.`,
        tags,
        security,
        params: VenueParams,
        querystring: LookupQuery,
        response: { 200: LookupResult, ...errorResponses(400, 401, 403, 404, 429) },
      },
      // Counted before the query is read, and only for callers the guard let through.
      onRequest: [read, async (request) => vouchers.countLookup(request.ip)],
    },
    async (request) => vouchers.lookup(authOf(request), venueOf(request), request.query.code),
  );

  app.post(
    `${base}/vouchers/redeem`,
    {
      schema: {
        summary: 'Redeem a voucher',
        description:
          `${REDEEM_RULES} Extension: \`amount_pence\` spends part of the balance (the rest stays on the voucher); without it the ` +
          'whole balance is spent. Concurrent redemptions never spend more than the balance. The note and who redeemed are kept. ' +
          'Rate limited per client address like the look-up (`voucher_redeem`, 429 with `Retry-After`).',
        tags,
        security,
        params: VenueParams,
        body: RedeemBody,
        response: { 200: RedeemResult, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
      // Counted before the body is read, and only for callers the guard let through.
      onRequest: [write, async (request) => vouchers.countRedeem(request.ip)],
    },
    async (request) => vouchers.redeem(authOf(request), venueOf(request), request.body),
  );

  app.post(
    `${base}/vouchers/:id/refund`,
    {
      schema: {
        summary: 'Refund a paid voucher',
        description:
          'Extension. Refunds what is left on a paid voucher of this venue to the payer through the payment provider; the voucher ' +
          'becomes `refunded`. Comp vouchers, vouchers already refunded and vouchers with nothing left: 409.',
        tags,
        security,
        params: VoucherParams,
        response: { 200: RefundResult, ...errorResponses(401, 403, 404, 409, 502, 503) },
      },
      onRequest: write,
    },
    async (request) => vouchers.refund(authOf(request), venueOf(request), request.params.id),
  );
};
