/**
 * The webhooks module (its tables: webhook_endpoints, webhook_deliveries, webhook_attempts): operators'
 * endpoints, the outbox written from domain events in the transaction of each change, the delivery job
 * with retries, and the delivery log (docs/webhooks.md).
 */
import { createWebhookDelivery, type DeliveryDeps } from './delivery.js';
import { createWebhooksService, type WebhooksDeps } from './webhooks.service.js';

export { recordWebhookEvent } from './outbox.js';
export { webhooksRoutes } from './webhooks.routes.js';

/** The endpoints service and the delivery worker (`deliverDue`, run by a scheduler job on every instance). */
export function createWebhooksModule(deps: DeliveryDeps & Omit<WebhooksDeps, 'delivery'>) {
  const delivery = createWebhookDelivery(deps);
  return { webhooks: createWebhooksService({ ...deps, delivery }), delivery };
}
