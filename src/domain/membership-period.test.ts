import { describe, expect, it } from 'vitest';
import { applyPaidPeriod, isActiveUntil, memberPrice, periodEnd } from './membership-period.js';

const at = (iso: string) => new Date(iso);

describe('periodEnd', () => {
  it('adds a calendar month, clamping to the end of a shorter month', () => {
    expect(periodEnd(at('2026-01-15T10:00:00.000Z'), { period: 'monthly', period_days: null }).toISOString()).toBe(
      '2026-02-15T10:00:00.000Z',
    );
    expect(periodEnd(at('2026-01-31T10:00:00.000Z'), { period: 'monthly', period_days: null }).toISOString()).toBe(
      '2026-02-28T10:00:00.000Z',
    );
    expect(periodEnd(at('2028-01-31T00:00:00.000Z'), { period: 'monthly', period_days: null }).toISOString()).toBe(
      '2028-02-29T00:00:00.000Z',
    );
    expect(periodEnd(at('2026-12-20T00:00:00.000Z'), { period: 'monthly', period_days: null }).toISOString()).toBe(
      '2027-01-20T00:00:00.000Z',
    );
  });

  it('adds a calendar year (29 February → 28 February)', () => {
    expect(periodEnd(at('2026-06-15T12:00:00.000Z'), { period: 'yearly', period_days: null }).toISOString()).toBe(
      '2027-06-15T12:00:00.000Z',
    );
    expect(periodEnd(at('2028-02-29T12:00:00.000Z'), { period: 'yearly', period_days: null }).toISOString()).toBe(
      '2029-02-28T12:00:00.000Z',
    );
  });

  it('adds whole days; a missing or invalid count counts as one day', () => {
    expect(periodEnd(at('2026-06-15T12:00:00.000Z'), { period: 'days', period_days: 30 }).toISOString()).toBe('2026-07-15T12:00:00.000Z');
    expect(periodEnd(at('2026-06-15T12:00:00.000Z'), { period: 'days', period_days: null }).toISOString()).toBe('2026-06-16T12:00:00.000Z');
    expect(periodEnd(at('2026-06-15T12:00:00.000Z'), { period: 'days', period_days: 0 }).toISOString()).toBe('2026-06-16T12:00:00.000Z');
  });
});

describe('applyPaidPeriod', () => {
  const now = at('2026-06-15T12:00:00.000Z');
  const monthly = { tier_id: 'mt_a', period: 'monthly' as const, period_days: null };

  it('starts a first membership now', () => {
    expect(applyPaidPeriod(undefined, monthly, now)).toEqual({
      started_at: '2026-06-15T12:00:00.000Z',
      expires_at: '2026-07-15T12:00:00.000Z',
      renewed: false,
    });
  });

  it('extends a running membership of the same tier from its expiry', () => {
    const current = { tier_id: 'mt_a', started_at: '2026-06-01T00:00:00.000Z', expires_at: '2026-07-01T00:00:00.000Z' };
    expect(applyPaidPeriod(current, monthly, now)).toEqual({
      started_at: '2026-06-01T00:00:00.000Z',
      expires_at: '2026-08-01T00:00:00.000Z',
      renewed: true,
    });
  });

  it('starts anew after a lapse, or for another tier', () => {
    const lapsed = { tier_id: 'mt_a', started_at: '2026-04-01T00:00:00.000Z', expires_at: '2026-05-01T00:00:00.000Z' };
    expect(applyPaidPeriod(lapsed, monthly, now).started_at).toBe(now.toISOString());
    const other = { tier_id: 'mt_b', started_at: '2026-06-01T00:00:00.000Z', expires_at: '2026-07-01T00:00:00.000Z' };
    expect(applyPaidPeriod(other, monthly, now)).toMatchObject({ started_at: now.toISOString(), renewed: false });
  });
});

describe('isActiveUntil and memberPrice', () => {
  it('is active strictly before the expiry', () => {
    expect(isActiveUntil('2026-06-15T12:00:00.001Z', at('2026-06-15T12:00:00.000Z'))).toBe(true);
    expect(isActiveUntil('2026-06-15T12:00:00.000Z', at('2026-06-15T12:00:00.000Z'))).toBe(false);
  });

  it('takes the percentage off, rounded, clamped to 0..100', () => {
    expect(memberPrice(2000, 25)).toBe(1500);
    expect(memberPrice(999, 10)).toBe(899);
    expect(memberPrice(2000, 150)).toBe(0);
    expect(memberPrice(2000, -5)).toBe(2000);
  });
});
