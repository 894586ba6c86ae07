/**
 * Revenue and payout summaries read by the dashboard and venue stats, from the operator money ledger
 * and the operator's cached payout status (kept in step by every payout status read).
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
export async function revenuePence(db: Db, query: RevenueQuery): Promise<number> {
  let select = db.kysely
    .selectFrom('payment_ledger')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_pence'), eb.lit(0)).as('total'))
    .where('operator_id', '=', query.operatorId)
    .where('type', 'in', ['charge', 'refund']);
  if (query.venueId) select = select.where('venue_id', '=', query.venueId);
  if (query.from) select = select.where('created_at', '>=', query.from);
  if (query.to) select = select.where('created_at', '<', query.to);
  const row = await select.executeTakeFirstOrThrow();
  return Number(row.total);
}

export interface PayoutSummary {
  provider: string;
  status: string;
  /** `cache`: the operator's cached payment_connect_status; `config`: payments are switched off. */
  source: string;
}

/**
 * `configured`: pass `ctx.payments.configured` so `stripe` without a secret key also reads
 * `unconfigured` (the provider name alone cannot tell).
 */
export async function payoutSummary(db: Db, operatorId: string, provider: string, configured = provider !== 'none'): Promise<PayoutSummary> {
  if (!configured) return { provider, status: 'unconfigured', source: 'config' };
  const row = await db.kysely.selectFrom('operators').select('payment_connect_status').where('id', '=', operatorId).executeTakeFirst();
  return { provider, status: row?.payment_connect_status ?? 'not_started', source: 'cache' };
}
