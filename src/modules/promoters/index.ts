/**
 * The promoters module: venue–promoter agreements, the venue's promoter invitations and the ledger of
 * promoters' shares (its tables), promoter sign-up proven by a mailed code, and the promoter's API over their own events (the
 * events module's organiser events). docs/promoters.md.
 */
export { promotersRoutes } from './promoters.routes.js';
export { activeAgreement, createPromotersService } from './promoters.service.js';
export { recordPromoterRefund } from './promoter-ledger.js';
