/** The one mapping of voucher rows to what the API answers, with the status read at `now`. */
import { formatVoucherCode, voucherStatus } from '../../domain/vouchers/index.js';
import type { RedemptionRow, VoucherRow } from './vouchers.repository.js';

export const statusOf = (row: VoucherRow, now: Date) =>
  voucherStatus({ status: row.status, remainingPence: row.remaining_pence, validUntil: new Date(row.valid_until) }, now);

export function toVoucher(row: VoucherRow, venueName: string, now: Date) {
  return {
    id: row.id,
    code: row.code,
    display_code: formatVoucherCode(row.code),
    amount_pence: row.amount_pence,
    remaining_pence: row.remaining_pence,
    status: statusOf(row, now),
    expires_at: row.expires_at,
    venue_id: row.venue_id,
    venue_name: venueName,
    mode: row.mode,
    recipient_name: row.recipient_name,
    recipient_email: row.recipient_email,
    message: row.message,
    emailed: Boolean(row.emailed),
    refunded_pence: row.refunded_pence,
    created_at: row.created_at,
  };
}

export const toRedemption = (row: RedemptionRow) => ({
  amount_pence: row.amount_pence,
  note: row.note,
  venue_id: row.venue_id,
  redeemed_by: row.redeemed_by ? { id: row.redeemed_by, name: row.redeemed_by_name } : null,
  redeemed_at: row.redeemed_at,
});

/** What a guest's finalize shows of each voucher. */
export const toIssued = (row: VoucherRow) => ({
  code: row.code,
  display_code: formatVoucherCode(row.code),
  amount_pence: row.amount_pence,
  expires_at: row.expires_at,
});
