/**
 * Bundles and their items under /api/my-venues/:venueId/bundles (permission `catalogue`).
 */
import { Type, type TSchema } from 'typebox';
import { venueOf, type GuardFactory } from '../../platform/auth-guard.js';
import { CreatedBody, errorResponses, SuccessBody, UploadBusy } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import type { BundlesService } from './bundles.service.js';
import {
  Bundle,
  BundleBody,
  BundleItemParams,
  BundleUpdateBody,
  ImageBody,
  ImageResult,
  ItemBody,
  ItemUpdateBody,
  VenueIdParams,
  VenueItemParams,
} from './catalogue.schemas.js';

const list = <T extends TSchema>(row: T) => Type.Object({ data: Type.Array(row) });
const ok = { success: true } as const;

export const bundlesRoutes: RoutePlugin<{ guard: GuardFactory; bundles: BundlesService }> = async (app, { guard, bundles }) => {
  const read = guard({ permission: 'catalogue:read', venueParam: 'venueId' });
  const write = guard({ permission: 'catalogue:write', venueParam: 'venueId' });
  const security = [{ bearer: [] }];
  const base = '/api/my-venues/:venueId';

  const tags = ['bundles'];
  app.get(
    `${base}/bundles`,
    {
      schema: {
        summary: "List the venue's bundles with their items",
        tags,
        security,
        params: VenueIdParams,
        response: { 200: list(Bundle), ...errorResponses(401, 403, 404) },
      },
      onRequest: read,
    },
    async (request) => ({ data: await bundles.list(venueOf(request).id) }),
  );
  app.post(
    `${base}/bundles`,
    {
      schema: {
        summary: 'Create a bundle',
        tags,
        security,
        params: VenueIdParams,
        body: BundleBody,
        response: { 200: CreatedBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, id: await bundles.create(venueOf(request).id, request.body) }),
  );
  app.put(
    `${base}/bundles/:id`,
    {
      schema: {
        summary: 'Update a bundle',
        tags,
        security,
        params: VenueItemParams,
        body: BundleUpdateBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => {
      await bundles.update(venueOf(request).id, request.params.id, request.body);
      return ok;
    },
  );
  app.delete(
    `${base}/bundles/:id`,
    {
      schema: {
        summary: 'Delete a bundle and its items',
        tags,
        security,
        params: VenueItemParams,
        description: 'Removes the bundle with its items, and takes it off the access rules and profiles that offered it.',
        response: { 200: SuccessBody, ...errorResponses(401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => {
      await bundles.remove(venueOf(request).id, request.params.id);
      return ok;
    },
  );
  app.post(
    `${base}/bundles/:id/items`,
    {
      schema: {
        summary: 'Add an item to a bundle',
        tags,
        security,
        params: VenueItemParams,
        body: ItemBody,
        response: { 200: CreatedBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => ({ success: true, id: await bundles.createItem(venueOf(request).id, request.params.id, request.body) }),
  );
  app.put(
    `${base}/bundles/:id/items/:itemId`,
    {
      schema: {
        summary: 'Update a bundle item',
        tags,
        security,
        params: BundleItemParams,
        body: ItemUpdateBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => {
      await bundles.updateItem(venueOf(request).id, request.params.id, request.params.itemId, request.body);
      return ok;
    },
  );
  app.delete(
    `${base}/bundles/:id/items/:itemId`,
    {
      schema: {
        summary: 'Delete a bundle item',
        tags,
        security,
        params: BundleItemParams,
        response: { 200: SuccessBody, ...errorResponses(401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => {
      await bundles.removeItem(venueOf(request).id, request.params.id, request.params.itemId);
      return ok;
    },
  );
  app.post(
    `${base}/bundles/:id/items/:itemId/image`,
    {
      schema: {
        summary: "Upload a bundle item's image (max 2 MB)",
        tags,
        security,
        params: BundleItemParams,
        body: ImageBody,
        description: 'Base64 data URL of a PNG, JPEG, WebP or GIF image, at most 2 MB; stored as the item’s image_url.',
        response: { 200: ImageResult, ...errorResponses(400, 401, 403, 404), 503: UploadBusy },
      },
      onRequest: write,
    },
    async (request) => ({
      success: true,
      url: await bundles.setItemImage(venueOf(request).id, request.params.id, request.params.itemId, request.body.data),
    }),
  );
};
