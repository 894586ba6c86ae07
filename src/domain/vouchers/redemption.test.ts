import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redemptionAmount, redemptionCheck, voucherStatus, type RedemptionAttempt, type VoucherState } from './redemption.js';

const NOW = new Date('2026-06-15T12:00:00Z');
const LATER = new Date('2027-06-16T00:00:00Z');
const voucher = (fields: Partial<VoucherState> = {}): VoucherState => ({
  venueId: 'ven_a',
  status: 'active',
  remainingPence: 5000,
  validUntil: LATER,
  ...fields,
});
const at = (fields: Partial<RedemptionAttempt> = {}): RedemptionAttempt => ({ venueId: 'ven_a', sisterVenueIds: [], now: NOW, ...fields });

describe('redemptionCheck', () => {
  it.each<[string, VoucherState | undefined, Partial<RedemptionAttempt>, string]>([
    ['an active voucher of the venue', voucher(), {}, 'ok'],
    ['part of its balance', voucher(), { amountPence: 4999 }, 'ok'],
    ['exactly its balance', voucher(), { amountPence: 5000 }, 'ok'],
    ['a voucher of a sister venue', voucher({ venueId: 'ven_b' }), { sisterVenueIds: ['ven_c', 'ven_b'] }, 'ok'],
    ['no voucher', undefined, {}, 'not_found'],
    ['a voucher of another venue', voucher({ venueId: 'ven_b' }), { sisterVenueIds: ['ven_c'] }, 'wrong_venue'],
    ['a refunded voucher', voucher({ status: 'refunded', remainingPence: 0 }), {}, 'refunded'],
    ['a redeemed voucher', voucher({ status: 'redeemed', remainingPence: 0 }), {}, 'already_redeemed'],
    ['an active voucher with nothing left', voucher({ remainingPence: 0 }), {}, 'already_redeemed'],
    ['a voucher at the instant it stops being valid', voucher({ validUntil: NOW }), {}, 'expired'],
    ['more than its balance', voucher({ remainingPence: 1000 }), { amountPence: 1001 }, 'insufficient_balance'],
    // The spec's order: venue, then refunded, then redeemed, then expired.
    ['a refunded voucher of another venue', voucher({ venueId: 'ven_b', status: 'refunded' }), {}, 'wrong_venue'],
    ['a refunded, expired voucher', voucher({ status: 'refunded', validUntil: NOW }), {}, 'refunded'],
    ['a redeemed, expired voucher', voucher({ status: 'redeemed', remainingPence: 0, validUntil: NOW }), {}, 'already_redeemed'],
    ['an expired voucher asked for more than its balance', voucher({ validUntil: NOW }), { amountPence: 9999 }, 'expired'],
  ])('%s: %s', (_label, state, attempt, reason) => {
    expect(redemptionCheck(state, at(attempt))).toBe(reason);
  });

  it('never allows taking the balance below zero, and ok always leaves a balance of zero or more', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: undefined }),
        (left, ask) => {
          const state = voucher({ remainingPence: left });
          const reason = redemptionCheck(state, at({ amountPence: ask }));
          if (reason === 'ok') {
            const taken = redemptionAmount(state, ask);
            expect(taken).toBeGreaterThan(0);
            expect(left - taken).toBeGreaterThanOrEqual(0);
          } else {
            expect(left === 0 || (ask !== undefined && ask > left)).toBe(true);
          }
        },
      ),
    );
  });
});

describe('voucherStatus', () => {
  it('reads the stored status, and expired for an active voucher past its date', () => {
    expect(voucherStatus(voucher(), NOW)).toBe('active');
    expect(voucherStatus(voucher(), LATER)).toBe('expired');
    expect(voucherStatus(voucher({ status: 'redeemed', remainingPence: 0 }), LATER)).toBe('redeemed');
    expect(voucherStatus(voucher({ status: 'refunded', remainingPence: 0 }), LATER)).toBe('refunded');
    expect(voucherStatus(voucher({ remainingPence: 0 }), NOW)).toBe('redeemed');
  });
});

describe('redemptionAmount', () => {
  it('is the amount asked for, else the whole balance', () => {
    expect(redemptionAmount({ remainingPence: 3000 }, 1200)).toBe(1200);
    expect(redemptionAmount({ remainingPence: 3000 })).toBe(3000);
  });
});
