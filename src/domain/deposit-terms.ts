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

export function depositTerms(input: TermsInput): DepositTerms {
  const { policy } = input;
  const mode = depositRequirement(policy).mode;
  const amount = mode ? holdAmount({ pricePence: input.pricePerGuestPence, minCovers: input.minCovers, partySize: input.partySize }) : 0;
  const covers = Math.max(input.minCovers ?? 0, input.partySize);
  const each = input.pricePerGuestPence > 0 ? ` (${money(input.pricePerGuestPence)} a guest × ${covers})` : '';
  const deposit =
    mode === 'deposit'
      ? `A deposit of ${money(amount)}${each} is paid when you book, to hold your table; extras you add are paid with it.`
      : mode === 'hold'
        ? `Your card is authorised for ${money(amount)}${each} when you book, to hold your table; nothing is taken unless the venue's policy charges it (for example if you do not come).`
        : null;
  const deadline = cancellationDeadline(policy, { date: input.date, time: input.time, timezone: input.timezone });
  const refund =
    !mode || policy.refund_type === 'none'
      ? mode
        ? `the ${mode === 'hold' ? 'hold' : 'deposit'} is not refunded`
        : ''
      : policy.refund_type === 'full'
        ? 'you get a full refund'
        : `you get ${policy.refund_percent}% back`;
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
