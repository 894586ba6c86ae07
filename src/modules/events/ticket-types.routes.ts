/** Ticket types of an event (spec: Events, ticket-types rows), gated by the `events` permission. */
import { authOf, type GuardFactory } from '../../platform/auth-guard.js';
import { CreatedBody, errorResponses, SuccessBody } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import { EventIdParams, TicketParams, TicketTypeBody, TicketTypeList } from './events.schemas.js';
import type { TicketTypesService } from './ticket-types.service.js';

const RULES =
  '`capacity` null means unlimited and cannot drop below the tickets sold; `ticket_profile_id` and `admission_rule_group_id` must ' +
  'name the event venue’s own ticket profile and admission group (400 otherwise). Extension: `max_per_order` (1–50, default 10) ' +
  'caps the tickets of the type one order may take.';

export const ticketTypesRoutes: RoutePlugin<{ guard: GuardFactory; ticketTypes: TicketTypesService }> = async (
  app,
  { guard, ticketTypes },
) => {
  const tags = ['events'];
  const security = [{ bearer: [] }];
  const base = '/api/my-events/:eventId/ticket-types';

  app.get(
    base,
    {
      schema: {
        summary: "An event's ticket types",
        description: 'By `sort_order`, then creation. `sold` (extension) counts tickets held by active bookings.',
        tags,
        security,
        params: EventIdParams,
        response: { 200: TicketTypeList, ...errorResponses(401, 403, 404) },
      },
      onRequest: guard({ permission: 'events:read' }),
    },
    async (request) => ticketTypes.list(authOf(request), request.params.eventId),
  );

  app.post(
    base,
    {
      schema: {
        summary: 'Add a ticket type to an event',
        description: RULES,
        tags,
        security,
        params: EventIdParams,
        body: TicketTypeBody,
        response: { 200: CreatedBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: guard({ permission: 'events:write' }),
    },
    async (request) => ticketTypes.create(authOf(request), request.params.eventId, request.body),
  );

  app.put(
    `${base}/:ticketId`,
    {
      schema: {
        summary: 'Update a ticket type',
        description: `Fields omitted are kept (but \`name\`, required). ${RULES}`,
        tags,
        security,
        params: TicketParams,
        body: TicketTypeBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: guard({ permission: 'events:write' }),
    },
    async (request) => ticketTypes.update(authOf(request), request.params.eventId, request.params.ticketId, request.body),
  );

  app.delete(
    `${base}/:ticketId`,
    {
      schema: {
        summary: 'Delete a ticket type',
        description: 'Refused (409) once tickets of the type were sold.',
        tags,
        security,
        params: TicketParams,
        response: { 200: SuccessBody, ...errorResponses(401, 403, 404, 409) },
      },
      onRequest: guard({ permission: 'events:write' }),
    },
    async (request) => ticketTypes.remove(authOf(request), request.params.eventId, request.params.ticketId),
  );
};
