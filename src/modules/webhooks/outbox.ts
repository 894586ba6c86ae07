/**
 * The outbox: the domain-event listener (registered by the composition root) writes one delivery row
 * per enabled endpoint of the account that subscribes to the event's type (and venue), on the
 * connection of the change, so a rolled-back change delivers nothing. The event id is shared by those
 * rows: receivers de-duplicate on it.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { kyselyOf, type Conn } from '../../db/transaction.js';
import type { DomainEvent } from '../../platform/domain-events.js';
import { newId, sequentialId } from '../../platform/ids.js';

const parseList = (json: string): string[] => JSON.parse(json) as string[];

/** The body every attempt sends (docs/webhooks.md, Payload). */
export function eventPayload(eventId: string, event: DomainEvent): string {
  return JSON.stringify({
    id: eventId,
    type: event.type,
    created: Math.floor(Date.parse(event.at) / 1000),
    operator_id: event.operatorId,
    venue_id: event.venueId,
    data: { object: event.data },
  });
}

type Endpoint = { id: string; events: string; venue_ids: string };

/**
 * The account's enabled endpoints as a transaction sees them, read once per transaction and account: a
 * group commit's batch emits an event per booking, and no transaction that emits events edits endpoints
 * (only the webhooks module does, in transactions of its own).
 */
const seenIn = new WeakMap<Kysely<Database>, Map<string, Promise<Endpoint[]>>>();

function enabledEndpoints(conn: Conn, operatorId: string): Promise<Endpoint[]> {
  const k = kyselyOf(conn);
  const read = () =>
    k
      .selectFrom('webhook_endpoints')
      .select(['id', 'events', 'venue_ids'])
      .where('operator_id', '=', operatorId)
      .where('enabled', '=', 1)
      .execute();
  if (!k.isTransaction) return read();
  let byAccount = seenIn.get(k);
  if (!byAccount) seenIn.set(k, (byAccount = new Map()));
  let endpoints = byAccount.get(operatorId);
  if (!endpoints) byAccount.set(operatorId, (endpoints = read()));
  return endpoints;
}

export async function recordWebhookEvent(conn: Conn, event: DomainEvent): Promise<void> {
  const k = kyselyOf(conn);
  const endpoints = await enabledEndpoints(conn, event.operatorId);
  const matching = endpoints.filter((endpoint) => {
    if (!parseList(endpoint.events).includes(event.type)) return false;
    const venues = parseList(endpoint.venue_ids);
    return venues.length === 0 || event.venueId === null || venues.includes(event.venueId);
  });
  if (matching.length === 0) return;
  const eventId = newId('evt');
  const payload = eventPayload(eventId, event);
  await k
    .insertInto('webhook_deliveries')
    .values(
      matching.map((endpoint) => ({
        id: sequentialId('whd'),
        endpoint_id: endpoint.id,
        operator_id: event.operatorId,
        event_id: eventId,
        event_type: event.type,
        payload,
        status: 'pending',
        attempts: 0,
        next_attempt_at: event.at,
        claimed_until: null,
        last_status_code: null,
        last_error: null,
        delivered_at: null,
        created_at: event.at,
        updated_at: event.at,
      })),
    )
    .execute();
}
