/** Gift vouchers' pure rules: codes, expiry, and whether a voucher can be redeemed. */
export { formatVoucherCode, generateVoucherCode, normaliseVoucherCode, VOUCHER_CODE_ALPHABET } from './codes.js';
export { voucherExpiry } from './expiry.js';
export { redemptionAmount, redemptionCheck, voucherStatus, type RedeemReason, type VoucherState } from './redemption.js';
