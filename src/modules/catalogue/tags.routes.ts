/**
 * Guest and reservation tags (permission `catalogue`): the account-wide catalogue and custom tags under
 * /api/my, and each venue's merged catalogue and custom tags under /api/my-venues/:venueId.
 */
import { authOf, operatorIdOf, venueOf, type GuardFactory } from '../../platform/auth-guard.js';
import { errorResponses, SuccessBody } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import { CategoryBody, KindQuery, TagBody, TagCatalogue, VenueIdParams } from './catalogue.schemas.js';
import type { TagsService } from './tags.service.js';

const ok = { success: true } as const;

export const tagsRoutes: RoutePlugin<{ guard: GuardFactory; tags: TagsService }> = async (app, { guard, tags }) => {
  const read = guard({ permission: 'catalogue:read', venueParam: 'venueId' });
  const write = guard({ permission: 'catalogue:write', venueParam: 'venueId' });
  const security = [{ bearer: [] }];
  const base = '/api/my-venues/:venueId';

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
};
