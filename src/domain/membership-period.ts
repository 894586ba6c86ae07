/**
 * How long a paid membership runs (docs/memberships.md): a tier's period is one calendar month, one
 * calendar year, or a number of days. Instants are UTC; a month from the 31st ends on the last day of
 * the shorter month (31 January → 28/29 February), a year from 29 February on 28 February. A renewal
 * bought while the membership still runs extends it from its current expiry, so no paid day is lost;
 * one bought after it lapsed starts at the purchase. Pure: the caller passes the clock's instant.
 */

export type MembershipPeriod = 'monthly' | 'yearly' | 'days';

export interface PeriodOf {
  period: MembershipPeriod;
  /** The number of days of a `days` period (ignored otherwise). */
  period_days: number | null;
}

export const MAX_PERIOD_DAYS = 3660;

/** `months` calendar months after `from` (UTC), the day clamped to the end of a shorter month. */
function addMonths(from: Date, months: number): Date {
  const year = from.getUTCFullYear();
  const month = from.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(from.getUTCDate(), lastDay),
      from.getUTCHours(),
      from.getUTCMinutes(),
      from.getUTCSeconds(),
      from.getUTCMilliseconds(),
    ),
  );
}

/** The end of one period that starts at `from`. */
export function periodEnd(from: Date, tier: PeriodOf): Date {
  if (tier.period === 'monthly') return addMonths(from, 1);
  if (tier.period === 'yearly') return addMonths(from, 12);
  const days = tier.period_days !== null && Number.isInteger(tier.period_days) && tier.period_days >= 1 ? tier.period_days : 1;
  return new Date(from.getTime() + Math.min(days, MAX_PERIOD_DAYS) * 86_400_000);
}

export function isActiveUntil(expiresAt: string | Date, now: Date): boolean {
  return new Date(expiresAt).getTime() > now.getTime();
}

/**
 * What a paid period does to a guest's membership of an operator: started anew (none, lapsed, or another
 * tier: the new tier starts now) or extended from the current expiry (the same tier, still running).
 */
export function applyPaidPeriod(
  current: { tier_id: string; started_at: string; expires_at: string } | undefined,
  paid: PeriodOf & { tier_id: string },
  now: Date,
): { started_at: string; expires_at: string; renewed: boolean } {
  const running = current !== undefined && current.tier_id === paid.tier_id && isActiveUntil(current.expires_at, now);
  if (running)
    return { started_at: current.started_at, expires_at: periodEnd(new Date(current.expires_at), paid).toISOString(), renewed: true };
  return { started_at: now.toISOString(), expires_at: periodEnd(now, paid).toISOString(), renewed: false };
}

/** The member price of a ticket: `pct` percent off, rounded to the nearest penny (as admission discounts are). */
export function memberPrice(pricePence: number, pct: number): number {
  const clamped = Number.isFinite(pct) ? Math.min(100, Math.max(0, pct)) : 0;
  return Math.round((pricePence * (100 - clamped)) / 100);
}
