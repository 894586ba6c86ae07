/** `POST /api/my-venues/:venueId/copy-from`: copy one settings scope from another venue of the account. */
import { authOf, venueOf, type GuardFactory } from '../../platform/auth-guard.js';
import { errorResponses, VenueParams } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import { CopyBody, CopyResult } from './copy-from.schemas.js';
import type { CopyFromService } from './copy-from.service.js';

export const copyFromRoutes: RoutePlugin<{ guard: GuardFactory; copies: CopyFromService }> = async (app, { guard, copies }) => {
  app.post(
    '/api/my-venues/:venueId/copy-from',
    {
      schema: {
        summary: "Copy one settings scope from another of the account's venues",
        tags: ['copy-from'],
        security: [{ bearer: [] }],
        params: VenueParams,
        body: CopyBody,
        description:
          `Overwrites this venue's settings of one scope with a copy of another venue's of the same account, in one transaction; ` +
          `answers the number of rows copied. Scopes (and the write permission each also needs besides catalogue): ` +
          `${copies
            .scopes()
            .map((scope) => `${scope.name} (${scope.permission})`)
            .join(', ')}. ` +
          '404 when the source is not a venue the caller can reach; 409 when a scope refuses (tables while the target’s tables hold upcoming reservations).',
        response: { 200: CopyResult, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: guard({ permission: 'catalogue:write', venueParam: 'venueId' }),
    },
    async (request) => ({ success: true, copied: await copies.copyFrom(authOf(request), venueOf(request).id, request.body) }),
  );
};
