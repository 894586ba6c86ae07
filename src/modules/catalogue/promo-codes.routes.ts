/**
 * Promo codes under /api/my-venues/:venueId/promo-codes (permission `catalogue`).
 */
import { Type, type TSchema } from 'typebox';
import { venueOf, type GuardFactory } from '../../platform/auth-guard.js';
import { CreatedBody, errorResponses, SuccessBody } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import { PromoBody, PromoCode, PromoUpdateBody, VenueIdParams, VenueItemParams } from './catalogue.schemas.js';
import type { PromoCodesService } from './promo-codes.service.js';

const list = <T extends TSchema>(row: T) => Type.Object({ data: Type.Array(row) });
const ok = { success: true } as const;

export const promoCodesRoutes: RoutePlugin<{ guard: GuardFactory; promos: PromoCodesService }> = async (app, { guard, promos }) => {
  const read = guard({ permission: 'catalogue:read', venueParam: 'venueId' });
  const write = guard({ permission: 'catalogue:write', venueParam: 'venueId' });
  const security = [{ bearer: [] }];
  const base = '/api/my-venues/:venueId';

  const tags = ['promo-codes'];
  app.get(
    `${base}/promo-codes`,
    {
      schema: {
        summary: "List the venue's promo codes",
        tags,
        security,
        params: VenueIdParams,
        response: { 200: list(PromoCode), ...errorResponses(401, 403, 404) },
      },
      onRequest: read,
    },
    async (request) => ({ data: await promos.list(venueOf(request).id) }),
  );
  app.post(
    `${base}/promo-codes`,
    {
      schema: {
        summary: 'Create a promo code (409 for a duplicate code)',
        tags,
        security,
        params: VenueIdParams,
        body: PromoBody,
        response: { 200: CreatedBody, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, id: await promos.create(venueOf(request).id, request.body) }),
  );
  app.put(
    `${base}/promo-codes/:id`,
    {
      schema: {
        summary: 'Update a promo code',
        tags,
        security,
        params: VenueItemParams,
        body: PromoUpdateBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: write,
    },
    async (request) => {
      await promos.update(venueOf(request).id, request.params.id, request.body);
      return ok;
    },
  );
  app.delete(
    `${base}/promo-codes/:id`,
    {
      schema: {
        summary: 'Delete a promo code',
        tags,
        security,
        params: VenueItemParams,
        response: { 200: SuccessBody, ...errorResponses(401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => {
      await promos.remove(venueOf(request).id, request.params.id);
      return ok;
    },
  );
  app.post(
    `${base}/promo-codes/:id/reset`,
    {
      schema: {
        summary: "Reset a promo code's redemption count",
        tags,
        security,
        params: VenueItemParams,
        description: 'Zeroes the redemption counter.',
        response: { 200: SuccessBody, ...errorResponses(401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => {
      await promos.reset(venueOf(request).id, request.params.id);
      return ok;
    },
  );
};
