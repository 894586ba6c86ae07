/**
 * For `maitred demo`: a comp voucher issued at a past time (so it can already have expired), written
 * directly because the API issues vouchers now. Everything else the demo shows of vouchers goes
 * through the API.
 */
import type { Db } from '../../db/connect.js';
import { generateVoucherCode, voucherExpiry } from '../../domain/vouchers/index.js';
import { newId } from '../../platform/ids.js';
import { insertVoucher } from './vouchers.repository.js';

export async function seedDemoVoucher(
  db: Db,
  venue: { id: string; operatorId: string; timezone: string },
  voucher: { issuedAt: Date; amountPence: number; expirationMonths: number; recipientName: string },
): Promise<void> {
  const expiry = voucherExpiry(voucher.issuedAt, venue.timezone, voucher.expirationMonths);
  const at = voucher.issuedAt.toISOString();
  let inserted = false;
  while (!inserted) {
    inserted = await insertVoucher(db, {
      id: newId('vch'),
      operator_id: venue.operatorId,
      venue_id: venue.id,
      code: generateVoucherCode(),
      amount_pence: voucher.amountPence,
      remaining_pence: voucher.amountPence,
      status: 'active',
      mode: 'comp',
      purchase_id: null,
      purchase_seq: null,
      recipient_name: voucher.recipientName,
      recipient_email: null,
      message: null,
      expires_at: expiry.expiresOn,
      valid_until: expiry.validUntil.toISOString(),
      emailed: 0,
      issued_by: null,
      refund_id: null,
      refunded_at: null,
      refunded_by: null,
      created_at: at,
      updated_at: at,
    });
  }
}
