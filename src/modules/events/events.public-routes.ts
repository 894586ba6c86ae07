/**
 * Guests and events (spec: Public widget endpoints, event rows): the what's-on listing, an event's
 * booking options, and buying tickets (create-intent: rate limited per client address before the body
 * is read, bot-checked, `Idempotency-Key` honoured; finalize: idempotent). The events-widget config is
 * the venues module's, with its other widget configs.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthInfo } from '../../platform/auth-guard.js';
import { publicCache } from '../../platform/cache.js';
import { errorResponses } from '../../platform/http.js';
import { idempotencyKeyOf } from '../../platform/idempotency-key.js';
import type { RoutePlugin } from '../../platform/module.js';
import {
  BookingOptions,
  CreateIntentBody,
  CreateIntentResult,
  EventsWidget,
  FinalizeBody,
  FinalizeResult,
  PublicEventParams,
  PublicVenueParams,
} from './events.schemas.js';
import type { TicketSales } from './ticket-sales.service.js';

const LISTING_CACHE_SECONDS = 30;

const noStore = async (_request: FastifyRequest, reply: FastifyReply) => {
  reply.header('Cache-Control', 'no-store');
};
/** Only a successful listing may sit in an edge cache; errors say `no-store`. */
const cacheListing = async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
  if (reply.statusCode === 200) publicCache(reply, LISTING_CACHE_SECONDS);
  else reply.header('Cache-Control', 'no-store');
  return payload;
};

export const eventsPublicRoutes: RoutePlugin<{
  sales: TicketSales;
  /** The caller's session, when a valid bearer token came with the request. */
  loadAuth: (request: FastifyRequest) => Promise<AuthInfo | undefined>;
}> = async (app, { sales, loadAuth }) => {
  const tags = ['public'];

  app.get(
    '/api/public/venues/:venueId/events-widget',
    {
      schema: {
        summary: "A venue's what's-on listing",
        description:
          'Approved public events of a live venue from today on (venue-local), by date and start time, each with its lowest ticket ' +
          'price on offer and whether every ticket type is sold out. Edge-cacheable for 30 seconds.',
        tags,
        params: PublicVenueParams,
        response: { 200: EventsWidget, ...errorResponses(404) },
      },
      onSend: cacheListing,
    },
    async (request) => sales.eventsWidget(request.params.venueId),
  );

  app.get(
    '/api/public/events/:eventId/booking-options',
    {
      schema: {
        summary: "An event's ticket types, bundles and booking policy",
        description:
          'Ticket types on offer (a ticket profile with visibility `hidden`/`private` keeps a type off sale) with `remaining` (null: ' +
          'unlimited, or hidden by the profile’s `show_capacity`), `sold_out`, and `requires_confirmation` (the venue approves ' +
          'purchases: profile visibility `approval`, or an admission group whose rules the guest may not meet); the venue’s ' +
          'bundles that apply to events; its events booking policy text. With a signed-in guest’s session (optional ' +
          '`Authorization: Bearer`), `member_price_pence` is their member price (a running membership of the venue’s operator).',
        tags,
        params: PublicEventParams,
        response: { 200: BookingOptions, ...errorResponses(404) },
      },
      onRequest: noStore,
    },
    async (request) => {
      const auth = await loadAuth(request);
      return sales.bookingOptions(request.params.eventId, auth?.user.role === 'guest' ? auth.user.id : null);
    },
  );

  app.post(
    '/api/public/events/:eventId/create-intent',
    {
      schema: {
        summary: 'Buy tickets for an event',
        description:
          '`selection.kind` `ticket`: `quantity` tickets of `ticket_type_id` (each admits one guest; `party_size`, if sent, must equal ' +
          '`quantity`). Free tickets: the booking is confirmed and the tickets mailed (`{ free: true, booking_id }`). Paid: the ' +
          'tickets are held for 10 minutes awaiting payment (`{ requires_payment: true, booking_id, payment_intent_id, client_secret }`; ' +
          'pay, then call finalize). An order takes at most the ticket type’s `max_per_order` (default 10; more is 400 naming it). ' +
          'At one venue a client address keeps at most 3 and an email at most 2 reservations awaiting payment: one more is 429 ' +
          '(`reason: unpaid_holds`, `Retry-After` until the oldest lapses). A purchase the venue must approve is held as a request (`{ requires_confirmation: true, booking_id }`, ' +
          'status `pending`, nothing charged). 409 when not enough tickets are left (ticket type or event capacity). An ' +
          '`Idempotency-Key` header makes a retry answer the same booking (the same key with another body: 409). Callers send ' +
          '`turnstile_token` when the bot check is on. Rate limited per client address (429). Admission rules (discount, ' +
          'auto-approval) and the member price (the more generous of the two applies) apply only to a signed-in guest (optional `Authorization: Bearer` of a guest session): `guest_email` is ' +
          'a contact address, never proof of identity, so an anonymous buyer is priced and approved as a first-time guest, ' +
          'whatever email they type (security round 2).',
        tags,
        params: PublicEventParams,
        body: CreateIntentBody,
        response: { 200: CreateIntentResult, ...errorResponses(400, 403, 404, 409, 429, 502, 503) },
      },
      // An on-sale is paced against the other tenants (platform/fair-share.ts).
      config: { fairShare: 'eventId' },
      onRequest: [noStore, async (request) => sales.countAttempt(request.ip)],
    },
    async (request) => {
      const auth = await loadAuth(request);
      return sales.createIntent(request.params.eventId, request.body, {
        ip: request.ip,
        idempotencyKey: idempotencyKeyOf(request.headers),
        guestId: auth?.user.role === 'guest' ? auth.user.id : null,
      });
    },
  );

  app.post(
    '/api/public/events/:eventId/finalize',
    {
      schema: {
        summary: 'Confirm a paid ticket booking',
        description:
          'Re-reads the payment intent: once it succeeded the booking is confirmed and the tickets mailed, once (the provider’s ' +
          '`event_booking` event does the same if it comes first); a canceled intent releases the tickets. Every call answers the ' +
          'booking as it then is (`success` once confirmed).',
        tags,
        params: PublicEventParams,
        body: FinalizeBody,
        response: { 200: FinalizeResult, ...errorResponses(400, 404, 409, 502, 503) },
      },
      onRequest: noStore,
    },
    async (request) => sales.finalize(request.params.eventId, request.body.payment_intent_id),
  );
};
