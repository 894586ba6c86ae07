/**
 * The promoter ledger's arithmetic and its refund rows (docs/promoters.md, Revenue share). A sale row
 * holds the booking's amount and the share at the agreement's percent of that moment, ⌊amount × percent
 * / 100⌋. Each refund of the booking adds a row with the refunded amount (negative) and what the share
 * loses, at the sale row's percent, such that the booking's net share is always ⌊net amount × percent /
 * 100⌋: a full refund nets the share to exactly 0, and partial refunds never drift by a penny.
 */
import { kyselyOf, type Conn } from '../../db/transaction.js';
import { newId } from '../../platform/ids.js';

/** The promoter's share of `amountPence` at a whole percent, rounded down. */
export const shareOf = (amountPence: number, percent: number) => Math.floor((amountPence * percent) / 100);

interface SaleEntry {
  amount_pence: number;
  share_percent: number;
  share_pence: number;
}

/**
 * The refund row that brings a booking's entries to `refundedTotal` refunded (what the booking has been
 * refunded in all), given its sale and the refund rows already recorded; undefined when nothing is new.
 * The refunded total is capped at the sale's amount.
 */
export function refundEntry(
  sale: SaleEntry,
  recorded: { amount_pence: number; share_pence: number }[],
  refundedTotal: number,
): { amount_pence: number; share_pence: number; refunded_total_pence: number } | undefined {
  const total = Math.min(Math.max(0, refundedTotal), sale.amount_pence);
  const refundedSoFar = -recorded.reduce((sum, row) => sum + row.amount_pence, 0);
  if (total <= refundedSoFar) return undefined;
  const shareSoFar = sale.share_pence + recorded.reduce((sum, row) => sum + row.share_pence, 0);
  return {
    amount_pence: -(total - refundedSoFar),
    share_pence: shareOf(sale.amount_pence - total, sale.share_percent) - shareSoFar,
    refunded_total_pence: total,
  };
}

/**
 * Records, on `conn` (the transaction that recorded the refund on the booking), the refund row of a
 * promoter's ticket booking: nothing when the booking has no sale row (not a promoter's event, never
 * confirmed) or nothing new was refunded. Keyed by the refunded total, so recording one refund twice adds
 * nothing. `refundedOf` reads what the booking has been refunded in all (the bookings module's record).
 */
export async function recordPromoterRefund(
  conn: Conn,
  bookingId: string,
  at: string,
  refundedOf: (conn: Conn, bookingId: string) => Promise<number>,
): Promise<void> {
  const k = kyselyOf(conn);
  const rows = await k
    .selectFrom('promoter_ledger')
    .select(['kind', 'promoter_id', 'venue_id', 'event_id', 'amount_pence', 'share_percent', 'share_pence'])
    .where('booking_id', '=', bookingId)
    .execute();
  const sale = rows.find((row) => row.kind === 'sale');
  if (!sale) return;
  const entry = refundEntry(
    sale,
    rows.filter((row) => row.kind === 'refund'),
    await refundedOf(conn, bookingId),
  );
  if (!entry) return;
  await k
    .insertInto('promoter_ledger')
    .values({
      id: newId('pld'),
      promoter_id: sale.promoter_id,
      venue_id: sale.venue_id,
      event_id: sale.event_id,
      booking_id: bookingId,
      kind: 'refund',
      share_percent: sale.share_percent,
      ...entry,
      created_at: at,
    })
    .onConflict((oc) => oc.columns(['booking_id', 'kind', 'refunded_total_pence']).doNothing())
    .execute();
}
