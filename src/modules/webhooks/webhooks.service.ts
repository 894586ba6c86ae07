/**
 * Operators' webhook endpoints (docs/webhooks.md): register, list, change, delete, rotate the signing
 * secret, read the delivery log and redeliver. Scoped to the caller's account: another account's
 * endpoint or delivery is not found. The URL is checked (http(s), every address of its host public
 * unless WEBHOOKS_ALLOW_PRIVATE) when it is registered or changed, and again on each delivery.
 */
import type { Db } from '../../db/connect.js';
import { withTransaction } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { SecretBox } from '../../platform/secret-box.js';
import { secretContext, type WebhookDelivery } from './delivery.js';
import { newSigningSecret } from './signing.js';
import { refusedUrl } from './transport.js';
import type { EndpointCreateBody, EndpointUpdateBody } from './webhooks.schemas.js';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable } from './webhooks.table.js';

/** Endpoints one account may register. */
export const WEBHOOK_ENDPOINTS_MAX = 20;
/** How long deliveries are also signed with the secret a rotation replaced. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60_000;

export interface WebhooksDeps {
  db: Db;
  clock: Clock;
  secrets: SecretBox;
  delivery: WebhookDelivery;
  allowPrivate: boolean;
  /** The account's venue ids (venues), for the venue filter. */
  venueIds(operatorId: string): Promise<string[]>;
}

const parseList = (json: string): string[] => JSON.parse(json) as string[];

function toEndpoint(row: WebhookEndpointsTable) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: parseList(row.events),
    venue_ids: parseList(row.venue_ids),
    enabled: row.enabled === 1,
    consecutive_failures: row.consecutive_failures,
    disabled_at: row.disabled_at,
    disabled_reason: row.disabled_reason,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function toDelivery(row: WebhookDeliveriesTable, attempts: WebhookAttemptsTable[]) {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status as 'pending' | 'delivered' | 'failed',
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    created_at: row.created_at,
    delivered_at: row.delivered_at,
    payload: row.payload,
    attempts: attempts.map((a) => ({
      id: a.id,
      attempted_at: a.attempted_at,
      manual: a.manual === 1,
      status_code: a.status_code,
      duration_ms: a.duration_ms,
      error: a.error,
      response_body: a.response_body,
    })),
  };
}

export function createWebhooksService(deps: WebhooksDeps) {
  const { db, clock } = deps;

  async function checkUrl(url: string): Promise<void> {
    const refused = await refusedUrl(url, deps.allowPrivate);
    if (refused) throw badRequest(refused);
  }

  async function checkVenues(operatorId: string, venueIds: readonly string[] | undefined): Promise<void> {
    if (!venueIds || venueIds.length === 0) return;
    const own = new Set(await deps.venueIds(operatorId));
    const unknown = venueIds.find((id) => !own.has(id));
    if (unknown) throw badRequest(`venue_ids: ${unknown} is not a venue of this account`);
  }

  async function endpointOrThrow(operatorId: string, id: string): Promise<WebhookEndpointsTable> {
    const row = await db.kysely
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', id)
      .where('operator_id', '=', operatorId)
      .executeTakeFirst();
    if (!row) throw notFound('Webhook endpoint');
    return row;
  }

  async function deliveryViews(rows: WebhookDeliveriesTable[]) {
    if (rows.length === 0) return [];
    const attempts = await db.kysely
      .selectFrom('webhook_attempts')
      .selectAll()
      .where(
        'delivery_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('attempted_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((row) =>
      toDelivery(
        row,
        attempts.filter((a) => a.delivery_id === row.id),
      ),
    );
  }

  return {
    async list(operatorId: string) {
      const rows = await db.kysely
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('operator_id', '=', operatorId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return { data: rows.map(toEndpoint) };
    },

    async get(operatorId: string, id: string) {
      return toEndpoint(await endpointOrThrow(operatorId, id));
    },

    /** Registers an endpoint; answers its id and its signing secret (shown this once). */
    async create(operatorId: string, body: EndpointCreateBody): Promise<{ id: string; secret: string }> {
      await checkUrl(body.url);
      await checkVenues(operatorId, body.venue_ids);
      const id = newId('whe');
      const secret = newSigningSecret();
      const sealed = await deps.secrets.seal(secret, secretContext(id));
      const at = clock.now().toISOString();
      await withTransaction(db, async (trx) => {
        const { count } = await trx
          .selectFrom('webhook_endpoints')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('operator_id', '=', operatorId)
          .executeTakeFirstOrThrow();
        if (Number(count) >= WEBHOOK_ENDPOINTS_MAX)
          throw conflict(`An account can register at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints`);
        await trx
          .insertInto('webhook_endpoints')
          .values({
            id,
            operator_id: operatorId,
            url: body.url,
            description: body.description?.trim() ?? '',
            events: JSON.stringify(body.events),
            venue_ids: JSON.stringify(body.venue_ids ?? []),
            enabled: body.enabled === false ? 0 : 1,
            secret: sealed,
            previous_secret: null,
            previous_secret_until: null,
            consecutive_failures: 0,
            failing_since: null,
            disabled_at: body.enabled === false ? at : null,
            disabled_reason: null,
            created_at: at,
            updated_at: at,
          })
          .execute();
      });
      return { id, secret };
    },

    /** Changes the given fields; enabling an endpoint clears its failure count. */
    async update(operatorId: string, id: string, body: EndpointUpdateBody): Promise<void> {
      const row = await endpointOrThrow(operatorId, id);
      if (body.url !== undefined) await checkUrl(body.url);
      await checkVenues(operatorId, body.venue_ids);
      const at = clock.now().toISOString();
      const enabling = body.enabled === true && row.enabled === 0;
      const disabling = body.enabled === false && row.enabled === 1;
      await db.kysely
        .updateTable('webhook_endpoints')
        .set({
          ...(body.url !== undefined ? { url: body.url } : {}),
          ...(body.description !== undefined ? { description: body.description.trim() } : {}),
          ...(body.events !== undefined ? { events: JSON.stringify(body.events) } : {}),
          ...(body.venue_ids !== undefined ? { venue_ids: JSON.stringify(body.venue_ids) } : {}),
          ...(enabling ? { enabled: 1, disabled_at: null, disabled_reason: null, consecutive_failures: 0, failing_since: null } : {}),
          ...(disabling ? { enabled: 0, disabled_at: at, disabled_reason: null } : {}),
          updated_at: at,
        })
        .where('id', '=', id)
        .where('operator_id', '=', operatorId)
        .execute();
    },

    /** Deletes the endpoint with its delivery log. */
    async remove(operatorId: string, id: string): Promise<void> {
      const result = await db.kysely
        .deleteFrom('webhook_endpoints')
        .where('id', '=', id)
        .where('operator_id', '=', operatorId)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) !== 1) throw notFound('Webhook endpoint');
    },

    /** A new signing secret (shown this once); the old one still signs for PREVIOUS_SECRET_GRACE_MS. */
    async rotateSecret(operatorId: string, id: string) {
      const row = await endpointOrThrow(operatorId, id);
      const secret = newSigningSecret();
      const now = clock.now();
      const until = new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS).toISOString();
      await db.kysely
        .updateTable('webhook_endpoints')
        .set({
          secret: await deps.secrets.seal(secret, secretContext(id)),
          previous_secret: row.secret,
          previous_secret_until: until,
          updated_at: now.toISOString(),
        })
        .where('id', '=', id)
        .where('operator_id', '=', operatorId)
        .where('secret', '=', row.secret)
        .execute();
      return { secret, previous_secret_valid_until: until };
    },

    async deliveries(operatorId: string, id: string, query: { status?: 'pending' | 'delivered' | 'failed'; limit?: number }) {
      await endpointOrThrow(operatorId, id);
      let select = db.kysely.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', id);
      if (query.status) select = select.where('status', '=', query.status);
      const rows = await select
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(query.limit ?? 50)
        .execute();
      return { data: await deliveryViews(rows) };
    },

    /** Attempts the delivery again now, as a new round of retries (409 while disabled or while an attempt runs). */
    async redeliver(operatorId: string, id: string, deliveryId: string) {
      const endpoint = await endpointOrThrow(operatorId, id);
      const found = await db.kysely
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('id', '=', deliveryId)
        .where('endpoint_id', '=', id)
        .executeTakeFirst();
      if (!found) throw notFound('Delivery');
      if (endpoint.enabled !== 1) throw conflict('The endpoint is disabled: enable it before redelivering');
      const outcome = await deps.delivery.redeliver(deliveryId);
      if (!outcome) throw conflict('The delivery is being attempted right now');
      const row = await db.kysely.selectFrom('webhook_deliveries').selectAll().where('id', '=', deliveryId).executeTakeFirstOrThrow();
      const [delivery] = await deliveryViews([row]);
      return { success: true, delivery: delivery! };
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
