/** The webhooks module's tables (migration 0022_webhooks). */
export interface WebhookEndpointsTable {
  id: string;
  operator_id: string;
  url: string;
  description: string;
  /** JSON array of event types (platform/domain-events.ts). */
  events: string;
  /** JSON array of venue ids; empty: every venue of the account. */
  venue_ids: string;
  enabled: number;
  /** The signing secret, sealed by the secret box (context `webhook-endpoint:<id>`). */
  secret: string;
  /** The secret replaced by the last rotation, still signed with until `previous_secret_until`. */
  previous_secret: string | null;
  previous_secret_until: string | null;
  /** Failed attempts since the last success; the endpoint is disabled at WEBHOOK_DISABLE_AFTER_FAILURES. */
  consecutive_failures: number;
  /** When the current run of failures began (null after a success). */
  failing_since: string | null;
  disabled_at: string | null;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** One event for one endpoint: the outbox row, written in the transaction of the change. */
export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  operator_id: string;
  event_id: string;
  event_type: string;
  /** The JSON body sent (the same bytes on every attempt). */
  payload: string;
  /** `pending` (due at next_attempt_at, or claimed until then), `delivered`, `failed` (gave up). */
  status: string;
  /** Attempts of the current round (a manual redelivery starts a new round); the claim's version. */
  attempts: number;
  next_attempt_at: string;
  /** While an attempt runs: until when it is this instance's (a claim that lapses is taken again). */
  claimed_until: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempted_at: string;
  manual: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  /** The first WEBHOOK_RESPONSE_BODY_CHARS characters of the response body. */
  response_body: string | null;
}

export interface WebhooksTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
