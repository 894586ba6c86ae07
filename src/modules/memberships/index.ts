/**
 * The memberships module: the tiers an operator account sells to guests, guests' memberships and their
 * purchases (docs/memberships.md). The composition root hands its `fulfil` to the payments module's
 * `membership` fulfilment, its `perkTags` to admission facts, its `ticketDiscountPct` to ticket sales and
 * its `crmMembership` to the guest CRM; no other module reads its tables.
 */
export { membershipsRoutes } from './memberships.routes.js';
export { createMembershipsService } from './memberships.service.js';
export { createMembershipFulfiller } from './fulfilment.js';
