/**
 * Events for operators (spec: Events), gated by the `events` permission. Stats, the door list and the
 * conflict check also accept an organiser: any role granting `events:read` or `bookings:read`
 * (decisions: Events), or the promoter who submitted the event (docs/promoters.md). Ticket types are
 * ticket-types.routes.ts's.
 */
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { authOf, venueOf, type GuardFactory } from '../../platform/auth-guard.js';
import { errorResponses, SuccessBody, UploadBusy } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import type { EventImages } from './event-images.js';
import type { EventInsights } from './event-insights.js';
import type { EventStatusService } from './event-status.js';
import {
  CancellationPreview,
  ConflictQuery,
  ConflictResult,
  DoorList,
  EventCreateBody,
  EventCreated,
  EventList,
  EventListQuery,
  EventParams,
  EventResult,
  EventStatusBody,
  EventUpdateBody,
  GenerateImageBody,
  GenerateImageResult,
  ImageBody,
  ImageResult,
  ListingResult,
  RejectBody,
  StatsResult,
  StatusResult,
  TransitionResult,
  VenueEventsParams,
} from './events.schemas.js';
import type { EventsService } from './events.service.js';

/** Routes whose body may be left out: no body reads as `{}`. */
const emptyBody = async (request: FastifyRequest) => {
  request.body ??= {};
};

export interface EventsRouteServices {
  events: EventsService;
  status: EventStatusService;
  insights: EventInsights;
  images: EventImages;
}

const LIST_DESCRIPTION =
  'Offset paging (`limit`, `offset`, or the 1-based `page`: offset = (page − 1) × limit) answers `{ data, total, limit, offset, has_more }`; ' +
  '`paging=cursor` (then `cursor`) answers `{ data, limit, has_more, cursor }`. Ordered by date, start time and id.';

export const eventsRoutes: RoutePlugin<{ guard: GuardFactory } & EventsRouteServices> = async (app, services) => {
  const { guard, events, status, insights, images } = services;
  const tags = ['events'];
  const security = [{ bearer: [] }];
  const read = guard({ permission: 'events:read' });
  const write = guard({ permission: 'events:write' });
  const organiser = guard({ permission: ['events:read', 'bookings:read'], promoter: true });
  const base = '/api/my-events';

  app.get(
    base,
    {
      schema: {
        summary: "The caller's events across the venues their role reaches",
        description: LIST_DESCRIPTION,
        tags,
        security,
        querystring: EventListQuery,
        response: { 200: EventList, ...errorResponses(400, 401, 403) },
      },
      onRequest: read,
    },
    async (request) => events.listMine(authOf(request), request.query),
  );

  app.get(
    '/api/my-venues/:id/events',
    {
      schema: {
        summary: "A venue's events",
        description: LIST_DESCRIPTION,
        tags,
        security,
        params: VenueEventsParams,
        querystring: EventListQuery,
        response: { 200: EventList, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: guard({ permission: 'events:read', venueParam: 'id' }),
    },
    async (request) => events.listOfVenue(authOf(request), venueOf(request), request.query),
  );

  app.post(
    base,
    {
      schema: {
        summary: 'Create an event',
        description:
          '`venue_id`, `name` and `event_date` are required; `venue_id` is fixed afterwards. `status` `approved` publishes it at once, ' +
          'refused (409 `{ error, conflict: { event_id, name } }`) while another event of the venue is approved or pending on that date; ' +
          'otherwise the event is a `draft` (`pending_venue_approval` records a promoter’s submission). `cancelled_bookings` is always 0: ' +
          'creating an event never cancels the venue’s reservations (see conflict-check).',
        tags,
        security,
        body: EventCreateBody,
        response: { 200: EventCreated, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: write,
    },
    async (request) => events.create(authOf(request), request.body),
  );

  app.get(
    '/api/events/conflict-check',
    {
      schema: {
        summary: 'Check a venue date for other events and the reservations an event would affect',
        description:
          'Events approved or pending at the venue on the date (but `exclude_event_id`), and the venue’s active table and guest-list ' +
          'reservations that day (`affected_bookings`, `affected_guests`). Needs `events:read` or `bookings:read`; a promoter may ask ' +
          'about a venue with which they have an active agreement, and `events` then names only their own (docs/promoters.md).',
        tags,
        security,
        querystring: ConflictQuery,
        response: { 200: ConflictResult, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: organiser,
    },
    async (request) => events.conflictCheck(authOf(request), request.query),
  );

  app.post(
    `${base}/image`,
    {
      schema: {
        summary: 'Upload an event image (max 2 MB)',
        description:
          'Base64 data URL of a PNG, JPEG, WebP or GIF image in `data`, at most 2 MB. Answers its `url`, to set as the event’s `image_url`.',
        tags,
        security,
        body: ImageBody,
        response: { 200: ImageResult, ...errorResponses(400, 401, 403), 503: UploadBusy },
      },
      onRequest: write,
    },
    async (request) => images.upload(request.body.data),
  );

  app.post(
    `${base}/generate-image`,
    {
      schema: {
        summary: 'Find a stock photo for an event',
        description:
          'Searches the stock-photo service (Unsplash) for the event name and type. The photo is hot-linked, as the service requires: ' +
          '`url` is its address, to set as `image_url` with `attribution` as `image_attribution`. 503 when stock images are not ' +
          'configured, 502 when the service fails or times out, 404 when nothing matches.',
        tags,
        security,
        body: GenerateImageBody,
        response: { 200: GenerateImageResult, ...errorResponses(400, 401, 403, 404, 502, 503) },
      },
      onRequest: write,
    },
    async (request) => images.generate(request.body.name, request.body.event_type),
  );

  app.get(
    `${base}/:id`,
    {
      schema: {
        summary: 'Read an event (extension)',
        tags,
        security,
        params: EventParams,
        response: { 200: EventResult, ...errorResponses(401, 403, 404) },
      },
      onRequest: read,
    },
    async (request) => events.get(authOf(request), request.params.id),
  );

  app.put(
    `${base}/:id`,
    {
      schema: {
        summary: 'Update an event',
        description:
          'Fields sent are changed. The date and times are frozen while the event has active bookings; `guest_list_capacity` cannot ' +
          'drop below `committed_guests`; a new date of an approved or pending event must not clash (409 with `conflict`). ' +
          '`venue_id`, if sent, must be the event’s own (400). `status` moves the status as PATCH …/status does.',
        tags,
        security,
        params: EventParams,
        body: EventUpdateBody,
        response: {
          200: Type.Object({
            success: Type.Boolean(),
            status: Type.Optional(Type.String()),
            cancelled_bookings: Type.Optional(Type.Integer()),
          }),
          ...errorResponses(400, 401, 403, 404, 409, 502, 503),
        },
      },
      onRequest: write,
    },
    async (request) => {
      const auth = authOf(request);
      const done = await events.update(auth, request.params.id, request.body);
      return request.body.status ? status.set(auth, request.params.id, request.body.status) : done;
    },
  );

  app.patch(
    `${base}/:id/status`,
    {
      schema: {
        summary: "Set an event's status",
        description:
          '`approved`, `draft` and `rejected` are refused (409) while the event has active bookings (an approved event with committed ' +
          'guests never goes back to draft); `approved` is also refused by a same-day clash (409 with `conflict`). `cancelled` is never ' +
          'refused: every booking is cancelled and refunded through the payment provider, each guest mailed; `cancelled_bookings` says ' +
          'how many (repeating it finishes a cascade a provider failure interrupted).',
        tags,
        security,
        params: EventParams,
        body: EventStatusBody,
        response: { 200: StatusResult, ...errorResponses(400, 401, 403, 404, 409, 502, 503) },
      },
      onRequest: write,
    },
    async (request) => status.set(authOf(request), request.params.id, request.body.status),
  );

  app.post(
    `${base}/:id/approve`,
    {
      schema: {
        summary: 'Approve a submitted or rejected event',
        description:
          'From `pending_venue_approval` or `rejected` (409 otherwise, or on a same-day clash). `cancelled_bookings`: 0. ' +
          'A promoter’s event: the promoter is mailed (docs/promoters.md).',
        tags,
        security,
        params: EventParams,
        response: { 200: TransitionResult, ...errorResponses(401, 403, 404, 409, 502, 503) },
      },
      onRequest: write,
    },
    async (request) => status.approve(authOf(request), request.params.id),
  );

  app.post(
    `${base}/:id/reject`,
    {
      schema: {
        summary: 'Reject a submitted event',
        description:
          'From `pending_venue_approval` (409 otherwise); any bookings are cancelled and refunded (`cancelled_bookings`). ' +
          'Extension: an optional JSON body `{ reason }`; a promoter’s event: the promoter is mailed, with the reason (docs/promoters.md).',
        tags,
        security,
        params: EventParams,
        body: RejectBody,
        response: { 200: TransitionResult, ...errorResponses(400, 401, 403, 404, 409, 502, 503) },
      },
      onRequest: write,
      // The spec's call sends no body: it reads as `{}`.
      preValidation: emptyBody,
    },
    async (request) => status.reject(authOf(request), request.params.id, request.body?.reason),
  );

  app.post(
    `${base}/:id/request-listing`,
    {
      schema: {
        summary: 'Ask for the event to be listed in the app',
        description: 'Only an approved event (409 otherwise); its `app_listing_status` becomes `pending`.',
        tags,
        security,
        params: EventParams,
        response: { 200: ListingResult, ...errorResponses(401, 403, 404, 409) },
      },
      onRequest: write,
    },
    async (request) => events.requestListing(authOf(request), request.params.id),
  );

  app.post(
    `${base}/:id/withdraw-listing`,
    {
      schema: {
        summary: 'Withdraw a pending listing request',
        description: 'Only while the listing is `pending` (409 otherwise); it becomes `none`.',
        tags,
        security,
        params: EventParams,
        response: { 200: SuccessBody, ...errorResponses(401, 403, 404, 409) },
      },
      onRequest: write,
    },
    async (request) => events.withdrawListing(authOf(request), request.params.id),
  );

  app.delete(
    `${base}/:id`,
    {
      schema: {
        summary: 'Delete an unpublished event without bookings',
        description: 'Refused (409) for an event with any booking (cancel it instead) and for an approved one (set it to draft first).',
        tags,
        security,
        params: EventParams,
        response: { 200: SuccessBody, ...errorResponses(401, 403, 404, 409) },
      },
      onRequest: write,
    },
    async (request) => events.remove(authOf(request), request.params.id),
  );

  app.get(
    `${base}/:id/stats`,
    {
      schema: {
        summary: "An event's booking stats",
        description:
          '`approved` counts approved and confirmed bookings, `pending` those awaiting the venue or payment; `revenue` is pence taken less ' +
          'refunds; `timeline` counts bookings per (venue-local) day they were made; `recent` the latest 10. Needs `events:read` or `bookings:read`, ' +
          'or to be the promoter who submitted the event (docs/promoters.md).',
        tags,
        security,
        params: EventParams,
        response: { 200: StatsResult, ...errorResponses(401, 403, 404) },
      },
      onRequest: organiser,
    },
    async (request) => insights.stats(authOf(request), request.params.id),
  );

  app.get(
    `${base}/:id/cancellation-preview`,
    {
      schema: {
        summary: 'What cancelling the event would cancel and refund (extension)',
        description:
          'Read only: the bookings `PATCH …/status { status: cancelled }` would cancel now, each with what it would refund ' +
          '(a paid booking its payment less refunds already made; a reservation awaiting payment has its payment called off; a free one ' +
          'nothing), the totals, and how many checked-in bookings it would leave as they are.',
        tags,
        security,
        params: EventParams,
        response: { 200: CancellationPreview, ...errorResponses(401, 403, 404) },
      },
      onRequest: read,
    },
    async (request) => insights.cancellationPreview(authOf(request), request.params.id),
  );

  app.get(
    `${base}/:id/bookings`,
    {
      schema: {
        summary: "An event's door list",
        description:
          'Every booking of the event except those released unpaid, by guest name, with its tickets. Needs `events:read` or `bookings:read`, ' +
          'or to be the promoter who submitted the event (docs/promoters.md).',
        tags,
        security,
        params: EventParams,
        response: { 200: DoorList, ...errorResponses(401, 403, 404) },
      },
      onRequest: organiser,
    },
    async (request) => insights.doorList(authOf(request), request.params.id),
  );
};
