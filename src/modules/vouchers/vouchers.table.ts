import type { Generated } from 'kysely';

/** One voucher payment: an intent and what it buys (migration 0009). */
export interface VoucherPurchasesTable {
  id: string;
  operator_id: string;
  venue_id: string;
  /** `public` (the vouchers widget) or `operator` (voucher-intent, then a paid POST /vouchers). */
  source: 'public' | 'operator';
  /** The payment intent; null until the provider has made it. */
  intent_id: string | null;
  /** Per voucher. */
  amount_pence: number;
  quantity: number;
  /** `email` (mailed to the recipient), `purchaser` (mailed to the purchaser) or `none`. */
  delivery: string;
  recipient_name: string | null;
  recipient_email: string | null;
  purchaser_name: string | null;
  purchaser_email: string | null;
  message: string | null;
  /** The venue's terms when the intent was made: the vouchers are issued under them. */
  expiration_months: number;
  terms: Generated<string>;
  idempotency_key: string | null;
  /** SHA-256 of the request an `Idempotency-Key` was first used with. */
  request_hash: string | null;
  status: 'pending' | 'fulfilled';
  fulfilled_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface VouchersTable {
  id: string;
  operator_id: string;
  /** The issuing venue. */
  venue_id: string;
  /** 12 characters, plain and upper-case; unique. */
  code: string;
  amount_pence: number;
  /** What is left to spend (partial redemption); 0 once redeemed or refunded. */
  remaining_pence: number;
  /** `active`, `redeemed` or `refunded`; `expired` is read from `valid_until`. */
  status: 'active' | 'redeemed' | 'refunded';
  mode: 'comp' | 'paid';
  purchase_id: string | null;
  /** Its place among its purchase's vouchers (0-based): a purchase issues each once. */
  purchase_seq: number | null;
  recipient_name: string | null;
  recipient_email: string | null;
  message: string | null;
  /** The last day it can be spent, venue-local `YYYY-MM-DD`. */
  expires_at: string;
  /** ISO instant it stops being valid: the start of the day after `expires_at` in the venue's zone. */
  valid_until: string;
  emailed: Generated<number>;
  /** User id of the operator user who issued it (null for a guest's purchase). */
  issued_by: string | null;
  refunded_pence: Generated<number>;
  /** The provider's refund; null while a refund is being made. */
  refund_id: string | null;
  refunded_at: string | null;
  refunded_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface VoucherRedemptionsTable {
  id: string;
  voucher_id: string;
  /** Where it was spent. */
  venue_id: string;
  amount_pence: number;
  note: string | null;
  redeemed_by: string | null;
  redeemed_by_name: string | null;
  redeemed_at: string;
}

export interface VouchersTables {
  voucher_purchases: VoucherPurchasesTable;
  vouchers: VouchersTable;
  voucher_redemptions: VoucherRedemptionsTable;
}
