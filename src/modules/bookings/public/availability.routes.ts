/**
 * A venue's availability and floorplan for guests (public, short edge cache): GET
 * /api/public/venues/:venueId/availability and /floorplan. The service is availability.service.ts.
 */
import type { FastifyReply } from 'fastify';
import { errorResponses } from '../../../platform/http.js';
import type { RoutePlugin } from '../../../platform/module.js';
import { checkDate, tags } from './public-routes.helpers.js';
import { Availability, AvailabilityQuery, BookingTerms, Floorplan, FloorplanQuery, TermsQuery, VenueParams } from './public.schemas.js';
import type { PublicBookings } from './public.service.js';

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

export const availabilityRoutes: RoutePlugin<{
  bookings: Pick<PublicBookings, 'availability' | 'floorplan' | 'terms'>;
  floors: (venueId: string) => Promise<unknown[]>;
}> = async (app, { bookings, floors }) => {
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

  app.get(
    '/api/public/venues/:venueId/booking-terms',
    {
      schema: {
        summary: 'What a booking would pay and what cancelling it refunds, in words, before the guest books',
        description:
          'Extension. The deposit or card hold the access rule’s payment policy and price list ask for the party (at `table_id` when ' +
          'given), what it covers, and the cancellation cut-off on the venue clock; `cancellable` is false when this booking could not ' +
          'be cancelled once made (e.g. a same-day booking under a 24-hour cut-off). Booking prices the same way and answers the lines.',
        tags,
        params: VenueParams,
        querystring: TermsQuery,
        response: { 200: BookingTerms, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      checkDate(request.query.date);
      return bookings.terms(request.params.venueId, request.query);
    },
  );
};
