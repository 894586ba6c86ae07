/** Schemas of the webhooks routes (docs/webhooks.md). */
import { Type, type Static } from 'typebox';
import { DOMAIN_EVENT_TYPES } from '../../platform/domain-events.js';
import { HttpUrl, IdText, Nullable } from '../../platform/http.js';

const EventType = Type.Enum([...DOMAIN_EVENT_TYPES], { description: 'an event type of the catalogue (docs/webhooks.md)' });
const Events = Type.Array(EventType, { minItems: 1, maxItems: DOMAIN_EVENT_TYPES.length, uniqueItems: true });
const VenueIds = Type.Array(IdText, {
  maxItems: 200,
  uniqueItems: true,
  description: 'Only events of these venues (account-wide events, such as operator-wide guest tags, always); empty: every venue',
});

export const EndpointParams = Type.Object({ id: Type.String() });
export const DeliveryParams = Type.Object({ id: Type.String(), deliveryId: Type.String() });

export const EndpointCreateBody = Type.Object(
  {
    url: HttpUrl(2000),
    description: Type.Optional(Type.String({ maxLength: 200 })),
    events: Events,
    venue_ids: Type.Optional(VenueIds),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type EndpointCreateBody = Static<typeof EndpointCreateBody>;

export const EndpointUpdateBody = Type.Object(
  {
    url: Type.Optional(HttpUrl(2000)),
    description: Type.Optional(Type.String({ maxLength: 200 })),
    events: Type.Optional(Events),
    venue_ids: Type.Optional(VenueIds),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type EndpointUpdateBody = Static<typeof EndpointUpdateBody>;

export const Endpoint = Type.Object({
  id: Type.String(),
  url: Type.String(),
  description: Type.String(),
  events: Type.Array(Type.String()),
  venue_ids: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  consecutive_failures: Type.Integer({ description: 'Failed attempts since the last success' }),
  disabled_at: Nullable(Type.String()),
  disabled_reason: Nullable(
    Type.String({ description: 'Why Maitred disabled the endpoint (null when an operator did, or it is enabled)' }),
  ),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export const EndpointList = Type.Object({ data: Type.Array(Endpoint) });

export const SecretCreatedBody = Type.Object(
  { success: Type.Boolean(), id: Type.String(), secret: Type.String({ description: 'The signing secret, shown this once' }) },
  { description: 'Created: the id and the signing secret (shown only now)' },
);
export const SecretRotatedBody = Type.Object(
  {
    success: Type.Boolean(),
    secret: Type.String({ description: 'The new signing secret, shown this once' }),
    previous_secret_valid_until: Type.String({ description: 'Deliveries are also signed with the old secret until then' }),
  },
  { description: 'Rotated: the new signing secret (shown only now)' },
);

export const DeliveriesQuery = Type.Object(
  {
    status: Type.Optional(Type.Enum(['pending', 'delivered', 'failed'])),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Newest first; default 50, at most 100' })),
  },
  { additionalProperties: false },
);

const Attempt = Type.Object({
  id: Type.String(),
  attempted_at: Type.String(),
  manual: Type.Boolean({ description: 'A redelivery asked for by an operator' }),
  status_code: Nullable(Type.Integer({ description: 'The HTTP status answered; null when no answer came' })),
  duration_ms: Type.Integer(),
  error: Nullable(Type.String()),
  response_body: Nullable(Type.String({ description: 'The start of the answer (at most 1000 characters)' })),
});

export const Delivery = Type.Object({
  id: Type.String(),
  event_id: Type.String(),
  event_type: Type.String(),
  status: Type.Enum(['pending', 'delivered', 'failed']),
  next_attempt_at: Nullable(Type.String({ description: 'When the next automatic attempt is due (pending only)' })),
  last_status_code: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
  created_at: Type.String(),
  delivered_at: Nullable(Type.String()),
  payload: Type.String({ description: 'The JSON body sent (the same bytes on every attempt)' }),
  attempts: Type.Array(Attempt, { description: 'Every attempt, newest first' }),
});
export const DeliveryList = Type.Object({ data: Type.Array(Delivery) });
export const RedeliveredBody = Type.Object({ success: Type.Boolean(), delivery: Delivery });
