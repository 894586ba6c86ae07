/**
 * Issuing vouchers, the one way every path makes them (comp, operator-paid, a guest's purchase): fresh
 * codes (a taken code is drawn again; the unique index decides), the expiry from the venue's terms at
 * the venue's local date, and the mail queued in the same transaction, so vouchers and their mail
 * commit together or not at all.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { afterCommit } from '../../db/transaction.js';
import { generateVoucherCode, voucherExpiry } from '../../domain/vouchers/index.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import { domainEvents } from '../../platform/domain-events.js';
import { newId } from '../../platform/ids.js';
import type { Mail } from '../../platform/mail/mail.js';
import { metrics } from '../../platform/metrics.js';
import { rosterVoucherGuests } from './guest-reads.js';
import { voucherEvent } from './voucher-events.js';
import { voucherMail } from './voucher-mail.js';
import { insertVoucher, type VoucherRow } from './vouchers.repository.js';

/** Draws per voucher before giving up: with 2^60 codes a second draw is already a curiosity. */
const CODE_ATTEMPTS = 5;

export interface IssueRequest {
  venue: VenueRow;
  count: number;
  amountPence: number;
  mode: 'comp' | 'paid';
  purchaseId: string | null;
  recipientName: string | null;
  recipientEmail: string | null;
  message: string | null;
  /** The venue's terms the vouchers are issued under. */
  expirationMonths: number;
  terms: string;
  issuedBy: string | null;
  /** The voucher mail (null: none): its address, whom it greets, and whom it names as the giver. */
  mail: { to: string; greet: string | null; fromName: string | null } | null;
}

export async function issueVouchers(trx: Kysely<Database>, mail: Mail, now: Date, request: IssueRequest): Promise<VoucherRow[]> {
  const { venue } = request;
  const expiry = voucherExpiry(now, venue.timezone, request.expirationMonths);
  const at = now.toISOString();
  const issued: VoucherRow[] = [];
  for (let seq = 0; seq < request.count; seq++) {
    const row: VoucherRow = {
      id: newId('vch'),
      operator_id: venue.operator_id,
      venue_id: venue.id,
      code: '',
      amount_pence: request.amountPence,
      remaining_pence: request.amountPence,
      status: 'active',
      mode: request.mode,
      purchase_id: request.purchaseId,
      purchase_seq: request.purchaseId ? seq : null,
      recipient_name: request.recipientName,
      recipient_email: request.recipientEmail,
      message: request.message,
      expires_at: expiry.expiresOn,
      valid_until: expiry.validUntil.toISOString(),
      emailed: request.mail ? 1 : 0,
      issued_by: request.issuedBy,
      refunded_pence: 0,
      refund_id: null,
      refunded_at: null,
      refunded_by: null,
      created_at: at,
      updated_at: at,
    };
    for (let attempt = 1; ; attempt++) {
      row.code = generateVoucherCode();
      if (await insertVoucher(trx, row)) break;
      if (attempt >= CODE_ATTEMPTS) throw new Error('could not draw an unused voucher code');
    }
    issued.push(row);
    await domainEvents.emit(trx, voucherEvent('voucher.issued', row, now));
  }
  // The recipient joins the operator's guest roster (CONTRACT §4: a voucher at one of its venues).
  await rosterVoucherGuests(trx, venue, [{ name: request.recipientName, email: request.recipientEmail }], now);
  if (request.mail) {
    await mail.queue(
      trx,
      voucherMail({
        to: request.mail.to,
        venue: { name: venue.name, email: venue.email },
        vouchers: issued,
        greet: request.mail.greet,
        fromName: request.mail.fromName,
        message: request.message,
        terms: request.terms,
      }),
    );
  }
  afterCommit(trx, () => metrics.vouchers('issued', issued.length));
  return issued;
}
