/**
 * The vouchers module: gift vouchers (its tables: voucher_purchases, vouchers, voucher_redemptions):
 * issuing comp and paid vouchers, the list, look-up and race-safe (partial) redemption, refunds, and
 * guests' purchases with their `voucher_purchase` fulfilment. The settings are kept by the venues
 * module (its vouchers widget depends on them) and reached through `VoucherVenues`.
 */
import type { Logger } from 'pino';
import type { BotCheck } from '../../platform/bot-check.js';
import { createVoucherPurchases } from './purchases.service.js';
import { createVouchersService, type VouchersDeps } from './vouchers.service.js';

export { seedDemoVoucher } from './demo-seed.js';
export { anonymiseGuestVouchers, guestVouchers } from './guest-reads.js';
export { voucherPurchaseRoutes } from './vouchers.public-routes.js';
export { vouchersRoutes } from './vouchers.routes.js';

/** The module's services; registers the `voucher_purchase` fulfilment with the payments platform. */
export function createVouchersModule(deps: VouchersDeps & { botCheck: BotCheck; log: Logger }) {
  const purchases = createVoucherPurchases(deps);
  purchases.registerFulfilments();
  return { vouchers: createVouchersService(deps), purchases };
}
