/** Shortcuts for the events tests: events, ticket types and ticket purchases through the API. */
import { expect } from 'vitest';
import { asSent, setupVenue, type TestApp } from '../../../test/helpers/app.js';
import { confirm } from '../payments/payments.test-helpers.js';

export const EVENT_DATE = '2026-07-10';

let counter = 0;
/** A distinct client address per purchase, so the per-address rate limit never gets in the way. */
export const nextIp = () => `10.${Math.floor(++counter / 250) % 250}.${counter % 250}.7`;

export function eventsApi(t: TestApp, headers: Record<string, string>) {
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  return {
    get: (path: string) => call('GET', `/api/my-events${path}`),
    post: (path: string, payload?: object) => call('POST', `/api/my-events${path}`, payload),
    put: (path: string, payload: object) => call('PUT', `/api/my-events${path}`, payload),
    patch: (path: string, payload: object) => call('PATCH', `/api/my-events${path}`, payload),
    del: (path: string) => call('DELETE', `/api/my-events${path}`),
    raw: call,
  };
}
export type EventsApi = ReturnType<typeof eventsApi>;

/** An operator with a live venue, and the events API as its Owner. */
export async function setupEvents(t: TestApp) {
  const setup = await setupVenue(t);
  return { ...setup, events: eventsApi(t, setup.op.headers) };
}

export async function createEvent(events: EventsApi, venueId: string, fields: Record<string, unknown> = {}): Promise<string> {
  const res = await events.post('', { venue_id: venueId, name: 'Club Night', event_date: EVENT_DATE, start_time: '21:00', ...fields });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id;
}

export async function addTicketType(events: EventsApi, eventId: string, fields: Record<string, unknown> = {}): Promise<string> {
  const res = await events.post(`/${eventId}/ticket-types`, { name: 'General admission', price_pence: 0, ...fields });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id;
}

/** An approved event with one ticket type. */
export async function onSale(t: TestApp, type: Record<string, unknown> = {}, event: Record<string, unknown> = {}) {
  const setup = await setupEvents(t);
  const eventId = await createEvent(setup.events, setup.venueId, { status: 'approved', ...event });
  const ticketTypeId = await addTicketType(setup.events, eventId, type);
  return { ...setup, eventId, ticketTypeId };
}

export function buy(
  t: TestApp,
  eventId: string,
  ticketTypeId: string,
  options: {
    quantity?: number;
    email?: string;
    ip?: string;
    key?: string;
    extra?: Record<string, unknown>;
    /** e.g. a signed-in guest's `authorization`. */
    headers?: Record<string, string>;
  } = {},
) {
  return t.app.inject({
    method: 'POST',
    url: `/api/public/events/${eventId}/create-intent`,
    remoteAddress: options.ip ?? nextIp(),
    headers: { ...options.headers, ...(options.key ? { 'idempotency-key': options.key } : {}) },
    payload: {
      selection: { kind: 'ticket', ticket_type_id: ticketTypeId, quantity: options.quantity ?? 1 },
      guest_name: 'Ada Guest',
      guest_email: options.email ?? 'ada@example.test',
      ...options.extra,
    },
  });
}

export const finalize = (t: TestApp, eventId: string, intentId: string) =>
  t.app.inject({ method: 'POST', url: `/api/public/events/${eventId}/finalize`, payload: { payment_intent_id: intentId } });

/** Buys paid tickets and pays with the simulated card; answers the create-intent body. */
export async function buyPaid(t: TestApp, eventId: string, ticketTypeId: string, quantity = 1, email = 'payer@example.test') {
  const res = await buy(t, eventId, ticketTypeId, { quantity, email });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  expect((await confirm(t, body.payment_intent_id, 'pm_card_visa')).statusCode).toBe(200);
  return body as { booking_id: string; payment_intent_id: string };
}

export const bookingRow = (t: TestApp, id: string) =>
  t.db.kysely.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** The mails to `to` in the outbox, as sent (a sale's ticket mail is rendered when sent: `asSent`). */
export const outboxTo = async (t: TestApp, to: string) =>
  asSent(t, await t.db.kysely.selectFrom('mail_outbox').selectAll().where('recipient', '=', to).orderBy('created_at').execute());
