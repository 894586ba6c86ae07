/**
 * A booking's money terms before the guest types anything (GET /api/public/venues/:venueId/booking-terms,
 * an extension): the deposit or card hold the rule's payment policy and price list ask for the party
 * (at the picked table when there is one), and what cancelling refunds until when, in words
 * (domain/deposit-terms.ts). Booking prices the same way (book.service.ts `depositOf`).
 */
import { depositTerms } from '../../../domain/deposit-terms.js';
import { PAYMENT_POLICY_DEFAULTS } from '../../../domain/payment-policy.js';
import { notFound } from '../../../platform/errors.js';
import { paymentPolicyTerms } from '../../profiles/index.js';
import { pricelistPrices } from '../../tables/index.js';
import type { PublicContext } from './public-context.js';

export interface TermsQuery {
  rule_id: string;
  date: string;
  time: string;
  party_size: number;
  table_id?: string;
}

export async function bookingTerms(ctx: PublicContext, venueId: string, query: TermsQuery) {
  const venue = await ctx.venueOrThrow(venueId);
  const { loaded } = await ctx.dayState(ctx.db, venue, query.date);
  const rule = loaded.rules.find((r) => r.id === query.rule_id && !r.app_opt_out);
  if (!rule) throw notFound('Access rule');
  const policy =
    (rule.payment_policy_id ? await paymentPolicyTerms(ctx.db, venue.id, rule.payment_policy_id) : null) ?? PAYMENT_POLICY_DEFAULTS;
  const list = rule.pricelist_id ? await pricelistPrices(ctx.db, venue.id, rule.pricelist_id) : null;
  const table = query.table_id ? loaded.floorplan.tables.find((t) => t.id === query.table_id) : undefined;
  const price = (table ? list?.byTable.get(table.id) : undefined) ?? list?.defaultPence ?? 0;
  return depositTerms({
    policy,
    pricePerGuestPence: price,
    minCovers: table ? table.min_covers : null,
    partySize: query.party_size,
    date: query.date,
    time: query.time,
    timezone: venue.timezone,
    now: ctx.clock.now(),
  });
}
