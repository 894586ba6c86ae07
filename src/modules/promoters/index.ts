/**
 * The promoters module: venue–promoter agreements, the venue's promoter invitations and the ledger of
 * promoters' shares (its tables), promoter sign-up, and the promoter's API over their own events (the
 * events module's organiser events). docs/promoters.md.
 */
export { promotersRoutes } from './promoters.routes.js';
export { activeAgreement, createPromotersService } from './promoters.service.js';
