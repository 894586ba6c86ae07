/** What the booking engine reads of a venue's payment policies: the terms of one, one query. */
import { CANCEL_TYPES, CUTOFF_UNITS, DEPOSIT_TYPES, REFUND_TYPES, type PaymentPolicyTerms } from '../../domain/payment-policy.js';
import { kyselyOf, type Conn } from '../../db/transaction.js';

const oneOf = <T extends string>(values: readonly T[], value: string, fallback: T): T =>
  (values as readonly string[]).includes(value) ? (value as T) : fallback;

/** The terms of the venue's payment policy `id`, or null when it is not the venue's. */
export async function paymentPolicyTerms(db: Conn, venueId: string, id: string): Promise<PaymentPolicyTerms | null> {
  const row = await kyselyOf(db)
    .selectFrom('payment_policies')
    .selectAll()
    .where('venue_id', '=', venueId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  return {
    deposit_type: oneOf(DEPOSIT_TYPES, row.deposit_type, 'none'),
    refund_type: oneOf(REFUND_TYPES, row.refund_type, 'none'),
    refund_percent: row.refund_percent,
    cancel_type: oneOf(CANCEL_TYPES, row.cancel_type, 'anytime'),
    cancel_cutoff_value: row.cancel_cutoff_value,
    cancel_cutoff_unit: oneOf(CUTOFF_UNITS, row.cancel_cutoff_unit, 'hours'),
  };
}
