/**
 * Payment-policy maths: whether a booking needs a deposit or card hold, until when it may be cancelled,
 * how much of a payment is refunded, and the card-hold amount. Pure: the booking's venue-local date and
 * time, the venue's time zone and `now` are arguments.
 */
import { addDays, localToUtc } from './venue-time.js';

export const DEPOSIT_TYPES = ['none', 'deposit', 'hold'] as const;
export const REFUND_TYPES = ['none', 'full', 'partial'] as const;
export const CANCEL_TYPES = ['anytime', 'never', 'cutoff'] as const;
export const CUTOFF_UNITS = ['minutes', 'hours', 'days', 'weeks'] as const;

export type DepositType = (typeof DEPOSIT_TYPES)[number];
export type RefundType = (typeof REFUND_TYPES)[number];
export type CancelType = (typeof CANCEL_TYPES)[number];
export type CutoffUnit = (typeof CUTOFF_UNITS)[number];

export interface PaymentPolicyTerms {
  deposit_type: DepositType;
  refund_type: RefundType;
  refund_percent: number;
  cancel_type: CancelType;
  cancel_cutoff_value: number;
  cancel_cutoff_unit: CutoffUnit;
}

/** The spec's defaults and decisions: Payment policies. */
export const PAYMENT_POLICY_DEFAULTS: PaymentPolicyTerms = {
  deposit_type: 'none',
  refund_type: 'none',
  refund_percent: 100,
  cancel_type: 'anytime',
  cancel_cutoff_value: 24,
  cancel_cutoff_unit: 'hours',
};

/** Card holds below this cannot be authorised by the provider. */
export const MIN_HOLD_PENCE = 50;

export interface BookingStart {
  /** Venue-local `YYYY-MM-DD`. */
  date: string;
  /** Venue-local `HH:MM`. */
  time: string;
  /** The venue's IANA zone. */
  timezone: string;
}

export function depositRequirement(policy: Pick<PaymentPolicyTerms, 'deposit_type'>): {
  required: boolean;
  mode: 'deposit' | 'hold' | null;
} {
  if (policy.deposit_type === 'deposit' || policy.deposit_type === 'hold') return { required: true, mode: policy.deposit_type };
  return { required: false, mode: null };
}

/**
 * The last instant a `cutoff` policy lets the guest cancel: the booking's start moved back by the cutoff
 * in the venue's zone. Minutes and hours are elapsed time; days and weeks are calendar days, so a
 * "1 day" cutoff keeps the wall-clock time across a DST change, and a wall-clock time that falls in a
 * DST gap or repeated hour resolves as every venue-local time does (`localToUtc`: forward out of the gap,
 * the first of the repeated hour). Null for the other cancel types.
 */
export function cancellationDeadline(
  policy: Omit<PaymentPolicyTerms, 'deposit_type' | 'refund_type' | 'refund_percent'>,
  booking: BookingStart,
): Date | null {
  if (policy.cancel_type !== 'cutoff') return null;
  const value = Number.isFinite(policy.cancel_cutoff_value) ? Math.max(0, policy.cancel_cutoff_value) : 0;
  switch (policy.cancel_cutoff_unit) {
    case 'days':
    case 'weeks': {
      const days = Math.round(policy.cancel_cutoff_unit === 'weeks' ? value * 7 : value);
      return localToUtc(addDays(booking.date, -days), booking.time, booking.timezone);
    }
    case 'minutes':
    case 'hours': {
      const start = localToUtc(booking.date, booking.time, booking.timezone);
      return new Date(start.getTime() - value * (policy.cancel_cutoff_unit === 'hours' ? 3_600_000 : 60_000));
    }
    default:
      throw new RangeError(`Unknown cancel_cutoff_unit ${String(policy.cancel_cutoff_unit)}`);
  }
}

export type CancellationCheck =
  { allowed: true; deadline: Date | null } | { allowed: false; reason: 'never' | 'past_cutoff'; deadline: Date | null };

/** Cancelling exactly at the deadline instant is still allowed; one millisecond later is not. */
export function cancellationAllowed(policy: PaymentPolicyTerms, booking: BookingStart, now: Date): CancellationCheck {
  // An invalid `now` would compare false against the deadline and let a late cancellation through.
  if (!Number.isFinite(now.getTime())) throw new RangeError('now must be a valid date');
  if (policy.cancel_type === 'never') return { allowed: false, reason: 'never', deadline: null };
  const deadline = cancellationDeadline(policy, booking);
  if (deadline && now.getTime() > deadline.getTime()) return { allowed: false, reason: 'past_cutoff', deadline };
  return { allowed: true, deadline };
}

/** The refund of a paid amount; partial refunds round down to whole pence. */
export function refundDue(policy: Pick<PaymentPolicyTerms, 'refund_type' | 'refund_percent'>, paidPence: number): number {
  const paid = Number.isFinite(paidPence) ? Math.max(0, Math.floor(paidPence)) : 0;
  if (policy.refund_type === 'full') return paid;
  if (policy.refund_type === 'partial') {
    const percent = Number.isFinite(policy.refund_percent) ? Math.min(100, Math.max(0, policy.refund_percent)) : 0;
    return Math.floor((paid * percent) / 100);
  }
  return 0;
}

/** A guest's cancellation in one answer: refused (nothing refunded) or allowed with the refund due. */
export function cancellationOutcome(policy: PaymentPolicyTerms, booking: BookingStart, now: Date, paidPence: number) {
  const check = cancellationAllowed(policy, booking, now);
  return { ...check, refund_pence: check.allowed ? refundDue(policy, paidPence) : 0 };
}

/** Decisions, Payment policies: price × max(min covers, party size) plus bundles, at least 50 pence. */
export function holdAmount(input: { pricePence: number; minCovers: number | null; partySize: number; bundlesPence?: number }): number {
  const covers = Math.max(input.minCovers ?? 0, input.partySize);
  const amount = Math.max(0, input.pricePence) * covers + Math.max(0, input.bundlesPence ?? 0);
  return Math.max(MIN_HOLD_PENCE, Math.round(amount));
}
