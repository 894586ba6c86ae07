/**
 * Catalogue module routes (permission `catalogue`): bundles and their items, promo codes, guest and
 * reservation tags (venue catalogue and the account-wide defaults).
 */
import { Type, type TSchema } from 'typebox';
import { authOf, operatorIdOf, venueOf, type GuardFactory } from '../../platform/auth-guard.js';
import { CreatedBody, errorResponses, SuccessBody } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import type { BundlesService } from './bundles.service.js';
import {
  Bundle,
  BundleBody,
  BundleItemParams,
  BundleUpdateBody,
  CategoryBody,
  ImageBody,
  ImageResult,
  ItemBody,
  ItemUpdateBody,
  KindQuery,
  PromoBody,
  PromoCode,
  PromoUpdateBody,
  TagBody,
  TagCatalogue,
  VenueIdParams,
  VenueItemParams,
} from './catalogue.schemas.js';
import type { PromoCodesService } from './promo-codes.service.js';
import type { TagsService } from './tags.service.js';

const list = <T extends TSchema>(row: T) => Type.Object({ data: Type.Array(row) });
const ok = { success: true } as const;

export interface CatalogueServices {
  bundles: BundlesService;
  promos: PromoCodesService;
  tags: TagsService;
}

export const catalogueRoutes: RoutePlugin<CatalogueServices & { guard: GuardFactory }> = async (app, { guard, bundles, promos, tags }) => {
  const read = guard({ permission: 'catalogue:read', venueParam: 'venueId' });
  const write = guard({ permission: 'catalogue:write', venueParam: 'venueId' });
  const security = [{ bearer: [] }];
  const base = '/api/my-venues/:venueId';

  // Bundles
  {
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
          response: { 200: ImageResult, ...errorResponses(400, 401, 403, 404) },
        },
        onRequest: write,
      },
      async (request) => ({
        success: true,
        url: await bundles.setItemImage(venueOf(request).id, request.params.id, request.params.itemId, request.body.data),
      }),
    );
  }

  // Promo codes
  {
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
  }

  // Tags
  {
    const tagTags = ['tags'];
    app.get(
      '/api/my/tag-catalogue',
      {
        schema: {
          summary: 'The account-wide tag catalogue',
          tags: tagTags,
          security,
          querystring: KindQuery,
          description:
            'The account-wide tag catalogue every venue of the account starts from: the platform defaults with the account’s own categories, tags and flag settings; `kind` narrows to guest or reservation.',
          response: { 200: TagCatalogue, ...errorResponses(400, 401, 403) },
        },
        onRequest: guard({ permission: 'catalogue:read' }),
      },
      async (request) => ({ data: await tags.accountCatalogue(operatorIdOf(request), request.query.kind) }),
    );
    // Account-wide custom tags (an extension): like the venue routes below, for every venue of the account.
    // They change every venue, so a role limited to some venues gets 403.
    const accountWrite = guard({ permission: 'catalogue:write' });
    const accountNote = ' Reaches every venue of the account; needs catalogue:write on a role not limited to some venues (403 otherwise).';
    app.post(
      '/api/my/tags',
      {
        schema: {
          summary: 'Add an account-wide tag',
          tags: tagTags,
          security,
          body: TagBody,
          description: `Adds an account-wide tag to a platform-default or account category; 409 when the category already has it.${accountNote}`,
          response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 409) },
        },
        onRequest: accountWrite,
      },
      async (request) => {
        await tags.addAccountTag(authOf(request), request.body);
        return ok;
      },
    );
    app.delete(
      '/api/my/tags',
      {
        schema: {
          summary: 'Remove an account-wide tag',
          tags: tagTags,
          security,
          querystring: TagBody,
          description: `Removes an account-wide tag; platform defaults cannot be removed (400), unknown tags are 404.${accountNote}`,
          response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
        },
        onRequest: accountWrite,
      },
      async (request) => {
        await tags.removeAccountTag(authOf(request), request.query);
        return ok;
      },
    );
    app.post(
      '/api/my/tag-categories',
      {
        schema: {
          summary: 'Add an account-wide tag category',
          tags: tagTags,
          security,
          body: CategoryBody,
          description: `Adds an account-wide category (\`kind\`, \`name\`, optional flags); 409 when the name is taken by a default or account category.${accountNote}`,
          response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 409) },
        },
        onRequest: accountWrite,
      },
      async (request) => {
        await tags.addAccountCategory(authOf(request), request.body);
        return ok;
      },
    );
    app.patch(
      '/api/my/tag-categories',
      {
        schema: {
          summary: "Set the account's flags of a tag category",
          tags: tagTags,
          security,
          body: CategoryBody,
          description: `Sets the account’s flags of the category named by \`kind\` and \`name\` (a default or account one); venues’ own settings still win.${accountNote}`,
          response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
        },
        onRequest: accountWrite,
      },
      async (request) => {
        await tags.tuneAccountCategory(authOf(request), request.body);
        return ok;
      },
    );
    app.get(
      `${base}/tag-catalogue`,
      {
        schema: {
          summary: "The venue's merged tag catalogue",
          tags: tagTags,
          security,
          params: VenueIdParams,
          querystring: KindQuery,
          description:
            'The merged catalogue: platform defaults, the account’s and the venue’s custom categories and tags (each with its `scope`), and category flags (venue over account over platform); `kind` narrows to guest or reservation.',
          response: { 200: TagCatalogue, ...errorResponses(400, 401, 403, 404) },
        },
        onRequest: read,
      },
      async (request) => ({ data: await tags.venueCatalogue(venueOf(request).id, request.query.kind) }),
    );
    app.post(
      `${base}/tags`,
      {
        schema: {
          summary: 'Add a custom tag to the venue',
          tags: tagTags,
          security,
          params: VenueIdParams,
          body: TagBody,
          response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404, 409) },
        },
        onRequest: write,
      },
      async (request) => {
        await tags.addTag(venueOf(request).id, request.body);
        return ok;
      },
    );
    app.delete(
      `${base}/tags`,
      {
        schema: {
          summary: 'Remove a custom tag of the venue',
          tags: tagTags,
          security,
          params: VenueIdParams,
          querystring: TagBody,
          description: 'Removes a custom tag of the venue; platform defaults and account-wide tags cannot be removed here (400).',
          response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
        },
        onRequest: write,
      },
      async (request) => {
        await tags.removeTag(venueOf(request).id, request.query);
        return ok;
      },
    );
    app.post(
      `${base}/tag-categories`,
      {
        schema: {
          summary: 'Add a custom tag category to the venue',
          tags: tagTags,
          security,
          params: VenueIdParams,
          body: CategoryBody,
          response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404, 409) },
        },
        onRequest: write,
      },
      async (request) => {
        await tags.addCategory(venueOf(request).id, request.body);
        return ok;
      },
    );
    app.patch(
      `${base}/tag-categories`,
      {
        schema: {
          summary: "Set the venue's flags of a tag category",
          tags: tagTags,
          security,
          params: VenueIdParams,
          body: CategoryBody,
          description: 'Sets the flags of the category named by `kind` and `name` (a custom or a default one).',
          response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
        },
        onRequest: write,
      },
      async (request) => {
        await tags.tuneCategory(venueOf(request).id, request.body);
        return ok;
      },
    );
  }
};
