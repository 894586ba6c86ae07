import { describe, expect, it } from 'vitest';
import { voucherExpiry } from './expiry.js';

describe('voucherExpiry', () => {
  it.each([
    // Issued at noon UTC: the same local day in London.
    ['2026-06-15T12:00:00Z', 'Europe/London', 12, '2027-06-15', '2027-06-15T23:00:00.000Z'],
    // Late evening UTC is already tomorrow in Sydney: the venue's date counts.
    ['2026-06-15T20:00:00Z', 'Australia/Sydney', 1, '2026-07-16', '2026-07-16T14:00:00.000Z'],
    // Just after midnight in London during BST is still the previous day in UTC.
    ['2026-06-14T23:30:00Z', 'Europe/London', 6, '2026-12-15', '2026-12-16T00:00:00.000Z'],
    // A month after 31 January is the last day of February; leap years too.
    ['2027-01-31T12:00:00Z', 'Europe/London', 1, '2027-02-28', '2027-03-01T00:00:00.000Z'],
    ['2028-01-31T12:00:00Z', 'Europe/London', 1, '2028-02-29', '2028-03-01T00:00:00.000Z'],
    // The day after expiry starts in winter time although issued in summer.
    ['2026-07-10T09:00:00Z', 'Europe/London', 3, '2026-10-10', '2026-10-10T23:00:00.000Z'],
    ['2026-06-15T12:00:00Z', 'America/New_York', 120, '2036-06-15', '2036-06-16T04:00:00.000Z'],
  ])('issued %s in %s with %i months: until %s (valid before %s)', (issued, zone, months, expiresOn, validUntil) => {
    const expiry = voucherExpiry(new Date(issued), zone, months);
    expect(expiry.expiresOn).toBe(expiresOn);
    expect(expiry.validUntil.toISOString()).toBe(validUntil);
  });

  it('refuses a non-positive or fractional number of months', () => {
    for (const months of [0, -1, 1.5, Number.NaN]) expect(() => voucherExpiry(new Date(), 'Europe/London', months)).toThrow(RangeError);
  });
});
