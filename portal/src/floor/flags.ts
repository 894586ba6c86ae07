/**
 * A booking's flags on the floor, as words: pure, over the few fields it reads (the pill shows them, the
 * screen reader reads them; test/portal/floor-flags.test.ts).
 */

/** The booking fields the flags read (a floor `Booking` has them all). */
export interface FlagFields {
  deposit_type: string;
  deposit_pence: number;
  captured_pence: number;
  payment_status: string;
  table_locked: boolean;
  guest_confirmed_at?: string | null;
  source: string;
  kind?: string | null;
}

/** Money, visit and handling flags, as words (the pill shows them, the screen reader reads them). */
export function flagsOf(booking: FlagFields, state: { late: boolean; arrived: boolean; closed: boolean }): string[] {
  const flags: string[] = [];
  if (state.closed) flags.push('Closed');
  else if (state.arrived) flags.push('Arrived');
  if (booking.deposit_type !== 'none' && booking.deposit_pence > 0) {
    const money = `£${(booking.deposit_pence / 100).toFixed(0)}`;
    const words: Record<string, string> = {
      held: `Hold ${money}`,
      paid: `Paid ${money}`,
      captured: `Captured £${(booking.captured_pence / 100).toFixed(0)}`,
      released: 'Hold released',
      refunded: 'Refunded',
      partially_refunded: 'Part refunded',
      requested: `Deposit requested ${money}`,
    };
    flags.push(words[booking.payment_status] ?? `Deposit ${money}`);
  }
  if (booking.table_locked) flags.push('Locked');
  if (booking.guest_confirmed_at) flags.push('Confirmed by guest');
  if (state.late) flags.push('Late');
  if (booking.source === 'widget') flags.push('Online');
  else if (booking.source === 'walk_in') flags.push('Walk-in');
  if (booking.kind && booking.kind !== 'table') flags.push(booking.kind.replace(/_/g, ' '));
  return flags;
}
