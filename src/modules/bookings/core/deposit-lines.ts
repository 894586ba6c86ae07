/**
 * The lines a booking's deposit or card hold is made of: the table's share, then each extra (bundle)
 * with its quantity, summing to `deposit_pence` — for the widget's pay step and the confirmation mail.
 * The table's share is what is left after the extras at today's bundle prices (booking priced them so).
 */
import type { Conn } from '../../../db/transaction.js';
import { bundlesNamed } from '../../catalogue/index.js';
import type { BookingRow } from './booking-store.js';

export interface DepositLine {
  label: string;
  amount_pence: number;
}

export async function depositLines(
  conn: Conn,
  booking: Pick<BookingRow, 'venue_id' | 'guest_count' | 'deposit_type' | 'deposit_pence' | 'bundle_selections'>,
): Promise<DepositLine[]> {
  if (booking.deposit_pence <= 0) return [];
  let selections: { bundle_id: string; quantity: number }[] = [];
  try {
    const parsed = JSON.parse(booking.bundle_selections ?? '[]') as unknown;
    if (Array.isArray(parsed)) selections = parsed as typeof selections;
  } catch {
    selections = [];
  }
  const named = await bundlesNamed(
    conn,
    booking.venue_id,
    selections.map((s) => s.bundle_id),
  );
  const extras = selections
    .filter((s) => named.has(s.bundle_id) && s.quantity > 0)
    .map((s) => {
      const bundle = named.get(s.bundle_id)!;
      return { label: s.quantity > 1 ? `${bundle.name} × ${s.quantity}` : bundle.name, amount_pence: bundle.price * s.quantity };
    });
  const extrasPence = extras.reduce((sum, line) => sum + line.amount_pence, 0);
  const table = booking.deposit_pence - extrasPence;
  const what = booking.deposit_type === 'hold' ? 'Card hold' : 'Deposit';
  const guests = `${booking.guest_count} ${booking.guest_count === 1 ? 'guest' : 'guests'}`;
  // Priced before a bundle's price changed: one honest line rather than lines that do not add up.
  if (table < 0) return [{ label: `${what} with extras`, amount_pence: booking.deposit_pence }];
  return [{ label: `${what} for the table (${guests})`, amount_pence: table }, ...extras];
}
