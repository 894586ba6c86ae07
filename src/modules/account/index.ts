/**
 * The account module: the guest's own account (docs/account.md): sign-in by a mailed one-time code
 * (its table `account_sign_in_codes`), the `/api/me/…` views of the guest's bookings, tickets, vouchers
 * and keys, the keys top-up, the data export and erasure, and contact preferences (`account_preferences`).
 */
export { accountRoutes } from './account.routes.js';
export { createAccountService } from './account.service.js';
export { createSignIn } from './sign-in.js';
