/**
 * Whether a voucher can be spent, here and now, and what a voucher's status reads as.
 *
 * The spec's order (Voucher status): the code exists, belongs to this venue (or one of its sister
 * venues), is not refunded, not redeemed, not expired. Our extension, partial redemption, adds one more:
 * the amount asked for must not exceed what is left (`insufficient_balance`). A voucher is valid until
 * `validUntil` (exclusive): the end of its expiry date in the issuing venue's time zone.
 */

/** What the database keeps: `active` (balance left), `redeemed` (nothing left) or `refunded`. */
export type StoredVoucherStatus = 'active' | 'redeemed' | 'refunded';

/** What a voucher reads as: the stored status, or `expired` for an active one past its date. */
export type VoucherStatus = StoredVoucherStatus | 'expired';

export type RedeemFailure = 'not_found' | 'wrong_venue' | 'refunded' | 'already_redeemed' | 'expired' | 'insufficient_balance';
export type RedeemReason = 'ok' | RedeemFailure;

export interface VoucherState {
  venueId: string;
  status: StoredVoucherStatus;
  remainingPence: number;
  validUntil: Date;
}

export interface RedemptionAttempt {
  /** The venue redeeming it. */
  venueId: string;
  /** Its sister venues, whose vouchers it also takes. */
  sisterVenueIds: readonly string[];
  now: Date;
  /** Part of the balance (partial redemption); undefined spends all that is left. */
  amountPence?: number;
}

export function voucherStatus(voucher: Pick<VoucherState, 'status' | 'remainingPence' | 'validUntil'>, now: Date): VoucherStatus {
  if (voucher.status === 'refunded') return 'refunded';
  if (voucher.status === 'redeemed' || voucher.remainingPence <= 0) return 'redeemed';
  return now.getTime() >= voucher.validUntil.getTime() ? 'expired' : 'active';
}

/** `ok`, or why the voucher cannot be redeemed (undefined voucher: no such code). */
export function redemptionCheck(voucher: VoucherState | undefined, attempt: RedemptionAttempt): RedeemReason {
  if (!voucher) return 'not_found';
  if (voucher.venueId !== attempt.venueId && !attempt.sisterVenueIds.includes(voucher.venueId)) return 'wrong_venue';
  const status = voucherStatus(voucher, attempt.now);
  if (status === 'refunded') return 'refunded';
  if (status === 'redeemed') return 'already_redeemed';
  if (status === 'expired') return 'expired';
  if (attempt.amountPence !== undefined && attempt.amountPence > voucher.remainingPence) return 'insufficient_balance';
  return 'ok';
}

/** What a redemption takes off the balance: the amount asked for, else everything left. */
export const redemptionAmount = (voucher: Pick<VoucherState, 'remainingPence'>, amountPence?: number) =>
  amountPence ?? voucher.remainingPence;
