/**
 * Placeholder until the payments module lands: revenue and payout summaries read by the dashboard
 * and venue stats. The payments module replaces these with real ledger queries (same signatures).
 */
import type { Db } from '../../db/connect.js';

export interface RevenueQuery {
  operatorId: string;
  venueId?: string;
  /** Inclusive lower and exclusive upper bound, ISO 8601 instants. */
  from?: string;
  to?: string;
}

/** Net revenue in pence (guest payments less refunds) for an operator, optionally one venue and window. */
export async function revenuePence(_db: Db, _query: RevenueQuery): Promise<number> {
  return 0;
}

export interface PayoutSummary {
  provider: string;
  status: string;
  /** `cache`: the operator's cached payment_connect_status. */
  source: string;
}

export async function payoutSummary(db: Db, operatorId: string, provider: string): Promise<PayoutSummary> {
  const row = await db.kysely.selectFrom('operators').select('payment_connect_status').where('id', '=', operatorId).executeTakeFirst();
  return { provider, status: row?.payment_connect_status ?? 'not_started', source: 'cache' };
}
