/** The promoter ledger's refund arithmetic: the net share is always ⌊net amount × percent / 100⌋, 0 after a full refund. */
import { describe, expect, it } from 'vitest';
import { refundEntry, shareOf } from './promoter-ledger.js';

/** Applies refunds (each the booking's refunded total after it) to a sale and answers the rows written. */
function rows(amount: number, percent: number, totals: number[]) {
  const sale = { amount_pence: amount, share_percent: percent, share_pence: shareOf(amount, percent) };
  const recorded: { amount_pence: number; share_pence: number }[] = [];
  for (const total of totals) {
    const entry = refundEntry(sale, recorded, total);
    if (entry) recorded.push(entry);
  }
  return { sale, recorded };
}

describe('refundEntry', () => {
  it.each([
    { amount: 2500, percent: 20, totals: [2500], shares: [-500] },
    { amount: 999, percent: 33, totals: [749], shares: [-247] },
    { amount: 999, percent: 33, totals: [749, 999], shares: [-247, -82] },
    { amount: 1, percent: 50, totals: [1], shares: [0] },
    { amount: 3, percent: 50, totals: [1, 2, 3], shares: [0, -1, 0] },
    { amount: 1001, percent: 7, totals: [1, 500, 1001], shares: [0, -35, -35] },
    { amount: 1250, percent: 0, totals: [1250], shares: [0] },
    { amount: 1250, percent: 100, totals: [250, 1250], shares: [-250, -1000] },
  ])('$amount at $percent% refunded to $totals: shares $shares', ({ amount, percent, totals, shares }) => {
    const { sale, recorded } = rows(amount, percent, totals);
    expect(recorded.map((row) => row.share_pence)).toEqual(shares);
    const refunded = totals.at(-1)!;
    expect(sale.share_pence + recorded.reduce((sum, row) => sum + row.share_pence, 0)).toBe(shareOf(amount - refunded, percent));
    expect(-recorded.reduce((sum, row) => sum + row.amount_pence, 0)).toBe(refunded);
  });

  it('nets a full refund to exactly 0 for every amount and percent, however it is split', () => {
    for (let amount = 1; amount <= 300; amount += 7) {
      for (let percent = 0; percent <= 100; percent += 3) {
        const { sale, recorded } = rows(amount, percent, [Math.floor(amount / 3), Math.floor(amount / 2), amount]);
        expect(sale.share_pence + recorded.reduce((sum, row) => sum + row.share_pence, 0)).toBe(0);
        expect(sale.amount_pence + recorded.reduce((sum, row) => sum + row.amount_pence, 0)).toBe(0);
      }
    }
  });

  it('adds nothing for a refund already recorded, nothing refunded, or a total past the sale (capped)', () => {
    const sale = { amount_pence: 1000, share_percent: 10, share_pence: 100 };
    expect(refundEntry(sale, [], 0)).toBeUndefined();
    const first = refundEntry(sale, [], 400)!;
    expect(first).toEqual({ amount_pence: -400, share_pence: -40, refunded_total_pence: 400 });
    expect(refundEntry(sale, [first], 400)).toBeUndefined();
    expect(refundEntry(sale, [first], 300)).toBeUndefined();
    expect(refundEntry(sale, [first], 5000)).toEqual({ amount_pence: -600, share_pence: -60, refunded_total_pence: 1000 });
  });
});
