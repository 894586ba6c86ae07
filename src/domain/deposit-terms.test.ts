import { describe, expect, it } from 'vitest';
import { depositTerms, policyInWords, type TermsInput } from './deposit-terms.js';
import { PAYMENT_POLICY_DEFAULTS } from './payment-policy.js';

const base: TermsInput = {
  policy: { ...PAYMENT_POLICY_DEFAULTS, deposit_type: 'deposit', refund_type: 'full', cancel_type: 'cutoff', cancel_cutoff_value: 24 },
  pricePerGuestPence: 1000,
  minCovers: null,
  partySize: 4,
  date: '2026-06-17',
  time: '20:30',
  timezone: 'Europe/London',
  now: new Date('2026-06-15T09:00:00Z'),
};

describe('deposit terms in words', () => {
  it('says the amount, what it covers, and the refund cut-off on the venue clock', () => {
    expect(depositTerms(base)).toEqual({
      deposit_type: 'deposit',
      amount_pence: 4000,
      price_per_guest_pence: 1000,
      deposit: 'A deposit of £40 (£10 a guest × 4) is paid when you book, to hold your table; extras you add are paid with it.',
      cancellation:
        'You can cancel until Tuesday, 16 June 2026 at 20:30 (24 hours before), and you get a full refund; after that it cannot be cancelled.',
      cancellable: true,
      cancel_until: '2026-06-16T19:30:00.000Z',
    });
  });

  it('warns when this booking could never be cancelled once made (same day under a 24-hour cut-off)', () => {
    const terms = depositTerms({ ...base, date: '2026-06-15', now: new Date('2026-06-15T12:00:00Z') });
    expect(terms.cancellable).toBe(false);
    expect(terms.cancel_until).toBeNull();
    expect(terms.cancellation).toBe(
      'Bookings can be cancelled up to 24 hours before: this one could not be cancelled once made, and nothing would be refunded.',
    );
  });

  it.each([
    [{ cancel_type: 'never' as const }, 'Bookings cannot be cancelled once made.', false],
    [
      { cancel_type: 'anytime' as const, refund_type: 'partial' as const, refund_percent: 50 },
      'You can cancel at any time before your booking, and you get 50% back.',
      true,
    ],
    [
      { cancel_type: 'anytime' as const, refund_type: 'none' as const },
      'You can cancel at any time before your booking, and the deposit is not refunded.',
      true,
    ],
  ])('%o', (policy, words, cancellable) => {
    const terms = depositTerms({ ...base, policy: { ...base.policy, ...policy } });
    expect(terms.cancellation).toBe(words);
    expect(terms.cancellable).toBe(cancellable);
  });

  it('no deposit: nothing to pay, cancelling is free', () => {
    const terms = depositTerms({ ...base, policy: { ...PAYMENT_POLICY_DEFAULTS } });
    expect(terms).toMatchObject({
      deposit_type: 'none',
      amount_pence: 0,
      deposit: null,
      cancellation: 'You can cancel at any time before your booking.',
    });
  });

  it('a card hold, with a table’s minimum covers', () => {
    const terms = depositTerms({
      ...base,
      policy: { ...base.policy, deposit_type: 'hold' },
      minCovers: 5,
      partySize: 2,
      pricePerGuestPence: 2500,
    });
    expect(terms.amount_pence).toBe(12500);
    expect(terms.deposit).toMatch(/^Your card is authorised for £125 \(£25 a guest × 5\)/);
  });
});

describe('policyInWords: a policy as the guest reads it, before any booking', () => {
  it.each([
    [{}, null, 'You can cancel at any time before your booking.'],
    [
      {
        deposit_type: 'deposit',
        refund_type: 'partial',
        refund_percent: 50,
        cancel_type: 'cutoff',
        cancel_cutoff_value: 1,
        cancel_cutoff_unit: 'days',
      },
      'A deposit is paid when you book, to hold your table; extras you add are paid with it.',
      'You can cancel up to 1 day before your booking, and you get 50% back; after that it cannot be cancelled.',
    ],
    [
      { deposit_type: 'hold', refund_type: 'none', cancel_type: 'anytime' },
      "Your card is authorised when you book, to hold your table; nothing is taken unless the venue's policy charges it (for example if you do not come).",
      'You can cancel at any time before your booking, and the hold is not refunded.',
    ],
    [{ deposit_type: 'deposit', refund_type: 'full', cancel_type: 'never' }, expect.any(String), 'Bookings cannot be cancelled once made.'],
  ] as const)('%o', (policy, deposit, cancellation) => {
    expect(policyInWords({ ...PAYMENT_POLICY_DEFAULTS, ...policy })).toEqual({ deposit, cancellation });
  });
});
