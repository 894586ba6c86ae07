/**
 * The payments module: the payments platform every money-taking module uses (provider choice, charges
 * and the money ledger, payouts, the signed webhook with its fulfilment registry, guest keys and
 * memberships). Other modules take money only through `Payments`, never the raw provider.
 */
export { grantKeys } from './keys.js';
export { createPayments, type Payments } from './payments.js';
export { revenuePence } from './payments.reports.js';
export { paymentsRoutes } from './payments.routes.js';
