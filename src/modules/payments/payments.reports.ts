/** Revenue read by the dashboard and venue stats, from the operator money ledger. */
import { kyselyOf, type Conn } from '../../db/transaction.js';

export interface RevenueQuery {
  operatorId: string;
  venueId?: string;
  /** Inclusive lower and exclusive upper bound, ISO 8601 instants. */
  from?: string;
  to?: string;
}

/** Net revenue in pence (guest payments less refunds) for an operator, optionally one venue and window. */
export async function revenuePence(db: Conn, query: RevenueQuery): Promise<number> {
  let select = kyselyOf(db)
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
