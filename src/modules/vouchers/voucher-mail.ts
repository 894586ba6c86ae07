/**
 * The voucher mail: the venue's name as the sender (and its address as Reply-To), each code grouped as
 * it is typed at the till, its value and the last day it can be spent, the giver's message and the
 * venue's terms. Queued by the caller inside the transaction that issues the vouchers.
 */
import { peopleDate, peopleInstant } from '../../domain/people-dates.js';
import { formatVoucherCode } from '../../domain/vouchers/index.js';
import type { MailMessage } from '../../platform/mail/mail.js';
import { venueMessage } from '../../platform/mail/templates.js';

const money = (pence: number) => `£${(pence / 100).toFixed(2)}`;

export interface VoucherMailInput {
  to: string;
  venue: { name: string; email: string | null };
  vouchers: readonly { code: string; amount_pence: number; expires_at: string }[];
  /** Whom the mail greets by name. */
  greet: string | null;
  /** Who gave them, when someone else bought them for the recipient. */
  fromName: string | null;
  message: string | null;
  terms: string;
}

export function voucherMail(input: VoucherMailInput): MailMessage {
  const { venue, vouchers } = input;
  const several = vouchers.length > 1;
  const subject = several ? `${vouchers.length} gift vouchers for ${venue.name}` : `Your gift voucher for ${venue.name}`;
  const gift = several ? `${vouchers.length} gift vouchers` : 'a gift voucher';
  const paragraphs = [
    input.greet ? `Hello ${input.greet},` : 'Hello,',
    input.fromName ? `${input.fromName} has sent you ${gift} for ${venue.name}.` : `Here is ${gift} for ${venue.name}.`,
    ...(input.message ? [`“${input.message}”`] : []),
    `Show the code at ${venue.name} (or one of its sister venues) to spend it; it can be spent over several visits until it runs out.`,
    ...(input.terms ? [`Terms: ${input.terms}`] : []),
  ];
  const details = vouchers.flatMap((voucher, i) => {
    const label = several ? ` ${i + 1}` : '';
    return [
      { label: `Voucher code${label}`, value: formatVoucherCode(voucher.code) },
      { label: `Value${label}`, value: money(voucher.amount_pence) },
      { label: `Valid until${label}`, value: peopleDate(voucher.expires_at) },
    ];
  });
  return venueMessage({ to: input.to, subject, venue, content: { title: subject, paragraphs, details } });
}

export interface ReceiptMailInput {
  to: string;
  venue: { name: string; email: string | null; timezone: string };
  buyerName: string;
  recipient: { name: string | null; email: string };
  vouchers: readonly { amount_pence: number; expires_at: string }[];
  paidAt: Date;
}

/**
 * The buyer's receipt when the vouchers went to someone else: what was bought, what it cost, to whom it
 * was sent and until when it can be spent, without the codes (they are the recipient's).
 */
export function voucherReceiptMail(input: ReceiptMailInput): MailMessage {
  const { venue, vouchers } = input;
  const each = vouchers[0]?.amount_pence ?? 0;
  const total = vouchers.reduce((sum, v) => sum + v.amount_pence, 0);
  const subject = `Your receipt: gift ${vouchers.length > 1 ? 'vouchers' : 'voucher'} for ${venue.name}`;
  const to = input.recipient.name ? `${input.recipient.name} (${input.recipient.email})` : input.recipient.email;
  return venueMessage({
    to: input.to,
    subject,
    venue,
    content: {
      title: 'Thank you for your purchase',
      paragraphs: [`Hello ${input.buyerName},`, `We have sent your gift to ${to}. This is your receipt.`],
      details: [
        { label: 'Gift vouchers', value: `${vouchers.length} × ${money(each)}` },
        { label: 'Total paid', value: money(total) },
        { label: 'Paid on', value: peopleInstant(input.paidAt, venue.timezone) },
        { label: 'Sent to', value: to },
        ...(vouchers[0] ? [{ label: 'Valid until', value: peopleDate(vouchers[0].expires_at) }] : []),
      ],
    },
  });
}
