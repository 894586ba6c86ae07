/** The webhooks routes: the account's endpoints, their secrets, delivery log and redelivery (docs/webhooks.md). */
import { operatorIdOf, type GuardFactory } from '../../platform/auth-guard.js';
import { errorResponses, SuccessBody } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import {
  DeliveriesQuery,
  DeliveryList,
  DeliveryParams,
  Endpoint,
  EndpointCreateBody,
  EndpointList,
  EndpointParams,
  EndpointUpdateBody,
  RedeliveredBody,
  SecretCreatedBody,
  SecretRotatedBody,
} from './webhooks.schemas.js';
import type { WebhooksService } from './webhooks.service.js';

const security = [{ bearer: [] }];
const tags = ['webhooks'];
const read = { permission: 'operators.settings:read' } as const;
const write = { permission: 'operators.settings:write' } as const;

export const webhooksRoutes: RoutePlugin<{ guard: GuardFactory; webhooks: WebhooksService }> = async (app, { guard, webhooks }) => {
  app.get(
    '/api/my-operator/webhooks',
    {
      schema: {
        summary: "List the account's webhook endpoints",
        tags,
        security,
        response: { 200: EndpointList, ...errorResponses(401, 403) },
      },
      onRequest: guard(read),
    },
    async (request) => webhooks.list(operatorIdOf(request)),
  );

  app.post(
    '/api/my-operator/webhooks',
    {
      schema: {
        summary: 'Register a webhook endpoint',
        description:
          'Extension (issue 30). `url` must be http(s) without credentials, and every address its host resolves to must be public ' +
          '(not private, loopback, link-local, CGNAT, multicast or reserved) unless the server runs with WEBHOOKS_ALLOW_PRIVATE (400). ' +
          '`events` from the catalogue; `venue_ids` (venues of the account, 400 otherwise) limits venue events to those venues. ' +
          'The answer carries the signing secret, shown only this once. At most 20 endpoints per account (409).',
        tags,
        security,
        body: EndpointCreateBody,
        response: { 200: SecretCreatedBody, ...errorResponses(400, 401, 403, 409) },
      },
      onRequest: guard(write),
    },
    async (request) => ({ success: true, ...(await webhooks.create(operatorIdOf(request), request.body)) }),
  );

  app.get(
    '/api/my-operator/webhooks/:id',
    {
      schema: {
        summary: 'A webhook endpoint',
        tags,
        security,
        params: EndpointParams,
        response: { 200: Endpoint, ...errorResponses(401, 403, 404) },
      },
      onRequest: guard(read),
    },
    async (request) => webhooks.get(operatorIdOf(request), request.params.id),
  );

  app.patch(
    '/api/my-operator/webhooks/:id',
    {
      schema: {
        summary: 'Change a webhook endpoint',
        description:
          'Omitted fields stay. A new `url` is checked as on registration. `enabled: true` on an endpoint disabled after failures ' +
          'clears its failure count; its failed deliveries can then be redelivered.',
        tags,
        security,
        params: EndpointParams,
        body: EndpointUpdateBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: guard(write),
    },
    async (request) => {
      await webhooks.update(operatorIdOf(request), request.params.id, request.body);
      return { success: true };
    },
  );

  app.delete(
    '/api/my-operator/webhooks/:id',
    {
      schema: {
        summary: 'Delete a webhook endpoint and its delivery log',
        tags,
        security,
        params: EndpointParams,
        response: { 200: SuccessBody, ...errorResponses(401, 403, 404) },
      },
      onRequest: guard(write),
    },
    async (request) => {
      await webhooks.remove(operatorIdOf(request), request.params.id);
      return { success: true };
    },
  );

  app.post(
    '/api/my-operator/webhooks/:id/rotate-secret',
    {
      schema: {
        summary: "Replace a webhook endpoint's signing secret",
        description: 'The new secret is shown only this once. For 24 hours deliveries carry two `v1` signatures, the new secret’s first.',
        tags,
        security,
        params: EndpointParams,
        response: { 200: SecretRotatedBody, ...errorResponses(401, 403, 404) },
      },
      onRequest: guard(write),
    },
    async (request) => ({ success: true, ...(await webhooks.rotateSecret(operatorIdOf(request), request.params.id)) }),
  );

  app.get(
    '/api/my-operator/webhooks/:id/deliveries',
    {
      schema: {
        summary: "A webhook endpoint's delivery log",
        description: 'Newest first, each with its attempts (status code, duration, error, the start of the answer).',
        tags,
        security,
        params: EndpointParams,
        querystring: DeliveriesQuery,
        response: { 200: DeliveryList, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: guard(read),
    },
    async (request) => webhooks.deliveries(operatorIdOf(request), request.params.id, request.query),
  );

  app.post(
    '/api/my-operator/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      schema: {
        summary: 'Redeliver an event to a webhook endpoint now',
        description:
          'Attempts the delivery at once (whatever its status) and answers it with the new attempt; a failure starts a new round of ' +
          'retries. 409 while the endpoint is disabled or an attempt is already running.',
        tags,
        security,
        params: DeliveryParams,
        response: { 200: RedeliveredBody, ...errorResponses(401, 403, 404, 409) },
      },
      onRequest: guard(write),
    },
    async (request) => webhooks.redeliver(operatorIdOf(request), request.params.id, request.params.deliveryId),
  );
};
