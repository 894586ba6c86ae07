/**
 * A booking's money terms in words, for the guest before they type anything (the widget's details
 * step) and for the mail: what the deposit or card hold comes to and covers, what cancelling refunds,
 * and until when cancelling is allowed — including a policy under which this booking could never be
 * cancelled once made (a same-day booking under a 24-hour cut-off). Pure: `now`, the zone and the
 * policy are arguments.
 */
import { cancellationDeadline, depositRequirement, holdAmount, type PaymentPolicyTerms } from './payment-policy.js';
import { peopleInstant } from './people-dates.js';

export const money = (pence: number) => `£${(pence / 100).toFixed(2).replace(/\.00$/, '')}`;

export interface TermsInput {
  policy: PaymentPolicyTerms;
  /** The price list's price per guest for the table (0 without one). */
  pricePerGuestPence: number;
  minCovers: number | null;
  partySize: number;
  date: string;
  time: string;
  timezone: string;
  now: Date;
}

export interface DepositTerms {
  deposit_type: 'none' | 'deposit' | 'hold';
  /** The deposit or hold for the table alone (extras are added to it). */
  amount_pence: number;
  price_per_guest_pence: number;
  /** What is paid and what it covers. */
  deposit: string | null;
  /** What cancelling refunds, and until when cancelling is allowed. */
  cancellation: string;
  /** False when this booking could not be cancelled once made. */
  cancellable: boolean;
  cancel_until: string | null;
}

const unitWords = (value: number, unit: string) => `${value} ${value === 1 ? unit.replace(/s$/, '') : unit}`;

/** What is paid when booking, with the amount in words when it is known (`£40 (£20 a guest × 2)`). */
function depositWords(mode: 'deposit' | 'hold' | null, amount: string): string | null {
  if (mode === 'deposit')
    return `A deposit${amount ? ` of ${amount}` : ''} is paid when you book, to hold your table; extras you add are paid with it.`;
  if (mode === 'hold')
    return `Your card is authorised${amount ? ` for ${amount}` : ''} when you book, to hold your table; nothing is taken unless the venue's policy charges it (for example if you do not come).`;
  return null;
}

/** What cancelling gives back, as the end of a sentence ('' when nothing was paid). */
function refundWords(policy: PaymentPolicyTerms, mode: 'deposit' | 'hold' | null): string {
  if (!mode) return '';
  if (policy.refund_type === 'none') return `the ${mode === 'hold' ? 'hold' : 'deposit'} is not refunded`;
  return policy.refund_type === 'full' ? 'you get a full refund' : `you get ${policy.refund_percent}% back`;
}

/**
 * A payment policy's terms in the words a guest reads (the booking-terms sentences without a booking's
 * date or price), for operators choosing a policy: `deposit` null when nothing is paid up front.
 */
export function policyInWords(policy: PaymentPolicyTerms): { deposit: string | null; cancellation: string } {
  const mode = depositRequirement(policy).mode;
  const refund = refundWords(policy, mode);
  const cancellation =
    policy.cancel_type === 'never'
      ? 'Bookings cannot be cancelled once made.'
      : policy.cancel_type === 'cutoff'
        ? `You can cancel up to ${unitWords(policy.cancel_cutoff_value, policy.cancel_cutoff_unit)} before your booking${refund ? `, and ${refund}` : ''}; after that it cannot be cancelled.`
        : `You can cancel at any time before your booking${refund ? `, and ${refund}` : ''}.`;
  return { deposit: depositWords(mode, ''), cancellation };
}

export function depositTerms(input: TermsInput): DepositTerms {
  const { policy } = input;
  const mode = depositRequirement(policy).mode;
  const amount = mode ? holdAmount({ pricePence: input.pricePerGuestPence, minCovers: input.minCovers, partySize: input.partySize }) : 0;
  const covers = Math.max(input.minCovers ?? 0, input.partySize);
  const each = input.pricePerGuestPence > 0 ? ` (${money(input.pricePerGuestPence)} a guest × ${covers})` : '';
  const deposit = depositWords(mode, amount ? `${money(amount)}${each}` : '');
  const deadline = cancellationDeadline(policy, { date: input.date, time: input.time, timezone: input.timezone });
  const refund = refundWords(policy, mode);
  let cancellation: string;
  let cancellable = true;
  if (policy.cancel_type === 'never') {
    cancellable = false;
    cancellation = 'Bookings cannot be cancelled once made.';
  } else if (deadline && input.now.getTime() > deadline.getTime()) {
    cancellable = false;
    cancellation = `Bookings can be cancelled up to ${unitWords(policy.cancel_cutoff_value, policy.cancel_cutoff_unit)} before: this one could not be cancelled once made${mode ? ', and nothing would be refunded' : ''}.`;
  } else if (deadline) {
    cancellation = `You can cancel until ${peopleInstant(deadline, input.timezone)} (${unitWords(policy.cancel_cutoff_value, policy.cancel_cutoff_unit)} before)${refund ? `, and ${refund}` : ''}; after that it cannot be cancelled.`;
  } else {
    cancellation = `You can cancel at any time before your booking${refund ? `, and ${refund}` : ''}.`;
  }
  return {
    deposit_type: mode ?? 'none',
    amount_pence: amount,
    price_per_guest_pence: mode ? input.pricePerGuestPence : 0,
    deposit,
    cancellation,
    cancellable,
    cancel_until: cancellable && deadline ? deadline.toISOString() : null,
  };
}
