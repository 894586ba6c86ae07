/**
 * What every route of the tables module shares: the venue base path, the `tables` read and write
 * guards, the OpenAPI tag and security, the error sets and the plain success answer.
 */
import type { GuardFactory } from '../../platform/auth-guard.js';
import { errorResponses } from '../../platform/http.js';

export function tablesRouteKit(guard: GuardFactory) {
  return {
    base: '/api/my-venues/:venueId',
    read: guard({ permission: 'tables:read', venueParam: 'venueId' }),
    write: guard({ permission: 'tables:write', venueParam: 'venueId' }),
    common: { tags: ['tables'], security: [{ bearer: [] }] },
    readErrors: errorResponses(400, 401, 403, 404),
    writeErrors: errorResponses(400, 401, 403, 404, 409),
    ok: { success: true } as const,
  };
}
