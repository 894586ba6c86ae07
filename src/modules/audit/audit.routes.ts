import { authOf, type GuardFactory } from '../../platform/auth-guard.js';
import { errorResponses } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import { AuditList, AuditQuery } from './audit.schemas.js';
import type { AuditService } from './audit.service.js';

export const auditRoutes: RoutePlugin<{ guard: GuardFactory; audit: AuditService }> = async (app, { guard, audit }) => {
  app.get(
    '/api/my-operator/audit-log',
    {
      schema: {
        summary: "The account's audit log: who changed what, and when",
        description:
          'Extension. Operator mutations (venue settings, availability, tables, roles, users, bookings, refunds, vouchers, ' +
          'guest exports and erasures…), newest first, each with its actor as they were at the time and the changed fields ' +
          'before and after (secrets redacted). Entries of venues outside the role’s venue scope are left out; account-level ' +
          'entries (no venue) are included. Filters: `venue_id` (a venue the caller cannot reach is 404), `actor_user_id`, ' +
          '`action` (an action or its prefix, `booking` for every `booking.*`), `entity_type`, `entity_id`, `from`, `to`. ' +
          'Offset paging by default; `paging=cursor` for cursor paging (docs/audit-log.md).',
        tags: ['audit'],
        security: [{ bearer: [] }],
        querystring: AuditQuery,
        response: { 200: AuditList, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: guard({ permission: 'operators.audit:read' }),
    },
    async (request) => audit.list(authOf(request), request.query),
  );
};
