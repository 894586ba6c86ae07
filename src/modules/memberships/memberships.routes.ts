/**
 * Membership routes (docs/memberships.md): the operator's tiers under /api/my-operator/membership-tiers
 * (permission `catalogue`), a live venue's tiers on sale (public), and a signed-in guest's purchases and
 * memberships under /api/me/memberships (a guest session).
 */
import type { FastifyRequest } from 'fastify';
import { authOf, operatorIdOf, type GuardFactory } from '../../platform/auth-guard.js';
import { forbidden } from '../../platform/errors.js';
import { CreatedBody, errorResponses, SuccessBody } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import {
  DeleteResult,
  GuestMembershipList,
  PublicTierList,
  PublicTierParams,
  PurchaseBody,
  PurchaseResult,
  Tier,
  TierBody,
  TierList,
  TierParams,
  TierPatch,
} from './memberships.schemas.js';
import type { MembershipsService } from './memberships.service.js';

export const membershipsRoutes: RoutePlugin<{ guard: GuardFactory; memberships: MembershipsService }> = async (
  app,
  { guard, memberships },
) => {
  const read = guard({ permission: 'catalogue:read' });
  const write = guard({ permission: 'catalogue:write' });
  const security = [{ bearer: [] }];
  const tags = ['memberships'];
  const base = '/api/my-operator/membership-tiers';

  app.get(
    base,
    {
      schema: {
        summary: "List the account's membership tiers",
        description: 'Every tier of the operator account, archived ones included (`archived`), each with its running members.',
        tags,
        security,
        response: { 200: TierList, ...errorResponses(401, 403) },
      },
      onRequest: read,
    },
    async (request) => ({ data: await memberships.list(operatorIdOf(request)) }),
  );

  app.get(
    `${base}/:id`,
    {
      schema: {
        summary: 'Read a membership tier',
        tags,
        security,
        params: TierParams,
        response: { 200: Tier, ...errorResponses(401, 403, 404) },
      },
      onRequest: read,
    },
    async (request) => memberships.get(operatorIdOf(request), request.params.id),
  );

  app.post(
    base,
    {
      schema: {
        summary: 'Create a membership tier',
        description:
          'A tier guests buy through the provider: `price_pence` per `period` (`monthly`, `yearly`, or `days` with `period_days`), ' +
          '`perks` (admission-rule tags a member carries while the membership runs) and `ticket_discount_pct` (the member price: ' +
          'percent off every ticket type at the account’s venues). `active` (default true) puts it on sale.',
        tags,
        security,
        body: TierBody,
        response: { 200: CreatedBody, ...errorResponses(400, 401, 403) },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, id: await memberships.create(operatorIdOf(request), request.body) }),
  );

  app.patch(
    `${base}/:id`,
    {
      schema: {
        summary: 'Update a membership tier',
        description:
          'Changes apply to purchases from now on: a checkout already started pays for the price and period it showed. An ' +
          'archived tier is read-only (409).',
        tags,
        security,
        params: TierParams,
        body: TierPatch,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: write,
    },
    async (request) => {
      await memberships.update(operatorIdOf(request), request.params.id, request.body);
      return { success: true };
    },
  );

  app.delete(
    `${base}/:id`,
    {
      schema: {
        summary: 'Delete (or archive) a membership tier',
        description:
          'A tier nobody ever bought is deleted. One with members or purchases is archived instead (`archived: true`): taken off ' +
          'sale for good, kept for its members, whose memberships run to their expiry with its perks and member price.',
        tags,
        security,
        params: TierParams,
        response: { 200: DeleteResult, ...errorResponses(401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, ...(await memberships.remove(operatorIdOf(request), request.params.id)) }),
  );

  app.get(
    '/api/public/venues/:venueId/membership-tiers',
    {
      schema: {
        summary: "The membership tiers a venue's operator sells",
        description:
          'The active tiers of the live venue’s operator account (the venue group), cheapest first, and the venue’s `id` and ' +
          '`name`. 404 for a venue that is not live.',
        tags: ['public'],
        params: PublicTierParams,
        response: { 200: PublicTierList, ...errorResponses(404) },
      },
      onRequest: async (_request, reply) => {
        reply.header('Cache-Control', 'no-store');
      },
    },
    async (request) => memberships.publicTiers(request.params.venueId),
  );

  // Any session passes the hook (401 without one); the handler refuses a non-guest (403) after the body's
  // checks, so a malformed body is a 400 whoever sends it.
  const signedIn = guard({ role: 'any' });
  const guestOf = (request: FastifyRequest) => {
    const { user } = authOf(request);
    if (user.role !== 'guest') throw forbidden('Memberships are held by guest accounts');
    return user;
  };

  app.post(
    '/api/me/memberships',
    {
      schema: {
        summary: 'Buy or renew a membership (signed-in guest)',
        description:
          'Starts the provider’s hosted checkout for one period of the tier (`checkout_url`). When it is paid the `membership` ' +
          'fulfilment starts the guest’s membership of the tier’s operator, or extends a running one of the same tier from its ' +
          'expiry (`renewal`). Optional `venue_id` (a live venue of the tier’s operator) puts the guest on the operator’s guest ' +
          'list there; `return_path` (default `/account`) is where the checkout sends the guest back, with `membership=paid` or ' +
          '`membership=cancelled` and `purchase` added. 404 for a tier not on sale; 409 while another tier of the operator runs ' +
          'for the guest.',
        tags: ['memberships'],
        security,
        body: PurchaseBody,
        response: { 200: PurchaseResult, ...errorResponses(400, 401, 403, 404, 409, 502, 503) },
      },
      onRequest: signedIn,
    },
    async (request) => {
      const user = guestOf(request);
      return memberships.purchase({ id: user.id, email: user.email }, request.body);
    },
  );

  app.get(
    '/api/me/memberships',
    {
      schema: {
        summary: "The signed-in guest's memberships",
        description: 'One per operator account: its tier, start, expiry and whether it runs now (`active`), latest expiry first.',
        tags: ['memberships'],
        security,
        response: { 200: GuestMembershipList, ...errorResponses(401, 403) },
      },
      onRequest: signedIn,
    },
    async (request) => ({ data: await memberships.mine(guestOf(request).id) }),
  );
};
