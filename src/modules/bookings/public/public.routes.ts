/**
 * The booking engine's guest-facing routes (spec: Public widget endpoints): a venue's
 * availability and floorplan (public, short edge cache), booking and finalize (no cache, rate-limited,
 * bot-checked for callers who are not signed in, `Idempotency-Key` honoured) and the booking's QR code.
 * The door's routes (door key, check-in, door reject) are in door.routes.ts.
 */
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { isCalendarDate } from '../../../domain/venue-time.js';
import type { AuthInfo } from '../../../platform/auth-guard.js';
import { badRequest } from '../../../platform/errors.js';
import { ClockTime, DateString, errorResponses, Nullable } from '../../../platform/http.js';
import type { RoutePlugin } from '../../../platform/module.js';
import { checkIdempotencyKey } from '../core/idempotency.js';
import type { PublicBookings } from './public.service.js';

const Id = Type.String({ minLength: 1, maxLength: 100 });
const VenueParams = Type.Object({ venueId: Id });
const PartySize = Type.Integer({ minimum: 1, maximum: 500 });
/**
 * Edge caching of availability and floorplans: one second, no serving stale. The server's own cache is
 * invalidated by every change, so the edge is what bounds how long a guest may see a taken slot as free.
 */
const AVAILABILITY_CACHE_SECONDS = 1;
const availabilityCache = (reply: { header(name: string, value: string): unknown }) =>
  reply.header('Cache-Control', `public, max-age=0, s-maxage=${AVAILABILITY_CACHE_SECONDS}`);

/**
 * The body of a (cached, shared, never mutated) answer, serialised by the route's response schema once
 * per answer object: a cache hit sends the same text again instead of serialising the same object.
 */
const serialised = new WeakMap<object, string>();
function serialisedOnce(reply: FastifyReply, answer: object): FastifyReply {
  let body = serialised.get(answer);
  if (body === undefined) {
    body = String(reply.serialize(answer));
    serialised.set(answer, body);
  }
  return reply.type('application/json; charset=utf-8').send(body);
}

const AvailabilityQuery = Type.Object({
  date: DateString,
  party_size: PartySize,
  type: Type.Optional(Type.Enum(['tables', 'guestlist'], { description: 'default `tables`' })),
});

const PublicRule = Type.Object({
  id: Type.String(),
  name: Type.String(),
  rule_type: Type.String(),
  table_assignment_mode: Type.String(),
  guest_pick_area_ids: Type.Array(Type.String()),
  display_title: Nullable(Type.String()),
  display_description: Nullable(Type.String()),
  display_image_url: Nullable(Type.String()),
  bundle_ids: Type.Array(Type.String()),
});

const Availability = Type.Object({
  venue: Type.Object({ id: Type.String(), name: Type.String(), timezone: Type.String() }),
  date: Type.String(),
  party_size: Type.Integer(),
  type: Type.String(),
  slots: Type.Array(Type.Object({ time: Type.String(), access_rule_id: Type.String(), available: Type.Boolean() })),
  party_too_large: Type.Boolean(),
  next_available_dates: Type.Array(Type.String()),
  rules: Type.Array(PublicRule, { description: 'the access rules offering slots on the date' }),
  bundle_ids: Type.Array(Type.String(), { description: 'bundles those rules offer' }),
});

const FloorplanQuery = Type.Object({ date: DateString, time: ClockTime, party_size: PartySize, rule_id: Type.Optional(Id) });
const Floorplan = Type.Object({
  floors: Type.Array(Type.Unknown()),
  tables: Type.Array(
    Type.Object({
      id: Type.String(),
      table_number: Type.String(),
      capacity: Type.Integer(),
      min_covers: Type.Integer(),
      table_type: Type.String(),
      seating_area_id: Nullable(Type.String()),
      floor_id: Nullable(Type.String()),
      available: Type.Boolean(),
    }),
  ),
});

const BookBody = Type.Object({
  access_rule_id: Id,
  rule_type: Type.Enum(['table', 'guestlist']),
  date: DateString,
  time: ClockTime,
  party_size: PartySize,
  bundle_selections: Type.Optional(
    Type.Array(Type.Object({ bundle_id: Id, quantity: Type.Integer({ minimum: 1, maximum: 100 }) }, { additionalProperties: false }), {
      maxItems: 20,
    }),
  ),
  guest_name: Type.String({ minLength: 1, maxLength: 200 }),
  guest_email: Type.String({ format: 'email', maxLength: 254 }),
  guest_phone: Type.Optional(Type.String({ maxLength: 40 })),
  turnstile_token: Type.Optional(Type.String({ maxLength: 4096 })),
  table_id: Type.Optional(Id),
});

const ManageUrl = Type.String({
  description: "extension: the guest's manage page (the booking mail's link): view, and cancel under the policy",
});
const BookAnswer = Type.Union([
  Type.Object({ ok: Type.Literal(true), booking_id: Type.String(), status: Type.String(), manage_url: ManageUrl }),
  Type.Object({
    requires_payment: Type.Literal(true),
    payment_client_secret: Type.String(),
    booking_id: Type.String(),
    payment_intent_id: Type.String(),
    amount_pence: Type.Integer({ description: 'extension: the deposit or card hold to pay' }),
    manage_url: ManageUrl,
  }),
]);

const FinalizeAnswer = Type.Object({ ok: Type.Boolean(), booking_id: Type.String(), status: Type.String() });
const Qr = Type.Object({
  qr_code: Type.String({ description: 'PNG data URL of the signed token' }),
  issued_at: Type.Number(),
  expires_in_ms: Type.Integer(),
  qr_token: Type.String({ description: 'the signed token the image encodes' }),
});

export const publicBookingRoutes: RoutePlugin<{
  bookings: PublicBookings;
  floors: (venueId: string) => Promise<unknown[]>;
  loadAuth: (request: never) => Promise<AuthInfo | undefined>;
}> = async (app, { bookings, floors, loadAuth }) => {
  const tags = ['public'];
  const noStore = async (_request: unknown, reply: { header(name: string, value: string): unknown }) => {
    reply.header('Cache-Control', 'no-store');
  };
  const checkDate = (date: string) => {
    if (!isCalendarDate(date)) throw badRequest('date must be a real calendar date');
  };

  app.get(
    '/api/public/venues/:venueId/availability',
    {
      schema: {
        summary: "A venue's bookable slots for a date and party size",
        description: 'Slots at the venue’s slot interval, each with its access rule and whether it can be booked; briefly edge-cached.',
        tags,
        params: VenueParams,
        querystring: AvailabilityQuery,
        response: { 200: Availability, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      checkDate(request.query.date);
      const answer = await bookings.availability(request.params.venueId, { ...request.query, type: request.query.type ?? 'tables' });
      availabilityCache(reply);
      return serialisedOnce(reply, answer);
    },
  );

  app.get(
    '/api/public/venues/:venueId/floorplan',
    {
      schema: {
        summary: "A venue's floors and tables, each with whether it is free for the stay asked about",
        tags,
        params: VenueParams,
        querystring: FloorplanQuery,
        response: { 200: Floorplan, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      checkDate(request.query.date);
      const answer = await bookings.floorplan(request.params.venueId, request.query, floors);
      availabilityCache(reply);
      return serialisedOnce(reply, answer);
    },
  );

  app.post(
    '/api/public/venues/:venueId/book',
    {
      schema: {
        summary: 'Book a slot',
        description:
          'Re-checks the slot and takes a table in one transaction. Without a deposit: `{ ok, booking_id, status }`. With one: ' +
          '`{ requires_payment, payment_client_secret, booking_id }`; the booking waits `pending_payment` for 10 minutes. ' +
          'At one venue a client address keeps at most 3 and an email at most 2 bookings awaiting payment: one more is 429 ' +
          '(`reason: unpaid_holds`, `Retry-After` until the oldest lapses). ' +
          'An `Idempotency-Key` header makes a retry return the first answer (the same key with another body: 409). ' +
          'Callers who are not signed in send `turnstile_token`. A `guestlist` rule takes a free place on the list only, within ' +
          'the list’s and the door’s capacity (409 when full); a list without free entry is 402: paid entry and queue skip are ' +
          'bought with keys through `guestlist-bookings`. Extensions: `manage_url` (the guest’s manage page) on both answers, ' +
          '`amount_pence` (the deposit) with `requires_payment`.',
        tags,
        params: VenueParams,
        body: BookBody,
        response: { 200: BookAnswer, ...errorResponses(400, 402, 403, 404, 409, 429, 502, 503) },
      },
      // Every attempt counts, malformed ones included, before its body is even parsed.
      onRequest: [noStore, async (request) => bookings.countAttempt(request.ip)],
    },
    async (request) => {
      checkDate(request.body.date);
      const key = checkIdempotencyKey(request.headers['idempotency-key'] as string | undefined);
      const auth = await loadAuth(request as never);
      return bookings.book(request.params.venueId, request.body, { ip: request.ip, idempotencyKey: key, userId: auth?.user.id ?? null });
    },
  );

  app.post(
    '/api/public/venues/:venueId/book/finalize',
    {
      schema: {
        summary: 'Confirm or release a booking awaiting payment, from its payment intent',
        description:
          'Re-reads the payment intent: paid (or held) → `confirmed`; not completed → released (`expired`). Idempotent. ' +
          'A payment that is not the booking’s own intent of its whole deposit in GBP confirms nothing: 409, the booking keeps waiting.',
        tags,
        params: VenueParams,
        body: Type.Object({ booking_id: Id }),
        response: { 200: FinalizeAnswer, ...errorResponses(400, 404, 409, 502, 503) },
      },
      onRequest: noStore,
    },
    async (request) => bookings.finalize(request.params.venueId, request.body.booking_id),
  );

  app.get(
    '/api/public/venues/:venueId/booking/:bookingId/qr',
    {
      schema: {
        summary: "A booking's QR code: a short-lived token signed with the venue's key",
        description: 'Refresh after `expires_in_ms`. Cancelled, rejected and expired bookings have none (404).',
        tags,
        params: Type.Object({ venueId: Id, bookingId: Id }),
        response: { 200: Qr, ...errorResponses(404) },
      },
      onRequest: noStore,
    },
    async (request) => bookings.qr(request.params.venueId, request.params.bookingId),
  );
};
