/**
 * The guest CRM (spec: Guests (CRM; operator role)) under /api/my-guests, and the venue guest search and
 * walk-ins under /api/my-venues/:venueId/guests, gated by the `guests` permission. A guest outside the
 * caller's roster is a 404 on every /api/my-guests/:id route.
 */
import { authOf, venueOf, type GuardFactory } from '../../platform/auth-guard.js';
import { errorResponses, SuccessBody, VenueParams } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import {
  ActivityList,
  BillingList,
  EgoNetwork,
  EraseResult,
  GuestBookings,
  GuestDetail,
  GuestExport,
  GuestList,
  GuestParams,
  Roster,
  RosterQuery,
  RosterSearchQuery,
  TagsBody,
  VenueGuestList,
  VenueSearchQuery,
  WalkInBody,
  WalkInResult,
  WholeNetwork,
} from './guests.schemas.js';
import type { GuestsService } from './guests.service.js';

const ROSTER =
  'The roster: guests with a booking, ticket, voucher, walk-in record or tag at one of the caller’s venues (a role limited to some ' +
  'venues sees the guests of those). Figures count the caller’s venues only.';

export const guestsRoutes: RoutePlugin<{ guard: GuardFactory; guests: GuestsService }> = async (app, { guard, guests }) => {
  const tags = ['guests'];
  const security = [{ bearer: [] }];
  const read = guard({ permission: 'guests:read' });
  const write = guard({ permission: 'guests:write' });
  const guestRoute = (summary: string, description: string, response: object) => ({
    schema: { summary, description, tags, security, params: GuestParams, response: { 200: response, ...errorResponses(401, 403, 404) } },
    onRequest: read,
  });

  app.get(
    '/api/my-guests',
    {
      schema: {
        summary: "List the operator's guest roster",
        description: `${ROSTER} Latest seen first; offset paging, or cursor paging with \`paging=cursor\` then \`cursor\`. Extension: filters \`tag\`, \`seen_since\` and \`seen_before\` (the latest roster event).`,
        tags,
        security,
        querystring: RosterQuery,
        response: { 200: Roster, ...errorResponses(400, 401, 403) },
      },
      onRequest: read,
    },
    async (request) => guests.list(authOf(request), request.query),
  );

  app.get(
    '/api/my-guests/search',
    {
      schema: {
        summary: 'Search the roster by name, email or phone',
        description:
          'Prefix match of the whole name, a name word, the email, its domain or the phone digits (any case, accents ignored); at most 50.',
        tags,
        security,
        querystring: RosterSearchQuery,
        response: { 200: GuestList, ...errorResponses(400, 401, 403) },
      },
      onRequest: read,
    },
    async (request) => guests.search(authOf(request), request.query.q),
  );

  app.get(
    '/api/my-guests/network',
    {
      schema: {
        summary: "The roster's whole guest network",
        description:
          'Guests are connected when they booked together (same venue, date and start time) on at least 2 dates within a year. ' +
          'At most 300 nodes (the most connected); `truncated` says the graph was cut.',
        tags,
        security,
        response: { 200: WholeNetwork, ...errorResponses(401, 403) },
      },
      onRequest: read,
    },
    async (request) => guests.wholeNetwork(authOf(request)),
  );

  app.get(
    '/api/my-guests/:id',
    guestRoute('A guest of the roster, with bookings, stats, tags and score', ROSTER, GuestDetail),
    async (request) => guests.detail(authOf(request), request.params.id),
  );
  app.get(
    '/api/my-guests/:id/billing',
    guestRoute("The guest's keys ledger entries", 'Entries of the guest’s bookings at the caller’s venues, newest first.', BillingList),
    async (request) => guests.billing(authOf(request), request.params.id),
  );
  app.get(
    '/api/my-guests/:id/activity',
    guestRoute(
      "The guest's last 10 activity items",
      'Bookings (made, status changes), vouchers, tag changes and the walk-in record, newest first.',
      ActivityList,
    ),
    async (request) => guests.activity(authOf(request), request.params.id),
  );
  app.get(
    '/api/my-guests/:id/bookings',
    guestRoute("All of the guest's bookings at the caller's venues", 'Newest date first.', GuestBookings),
    async (request) => guests.bookings(authOf(request), request.params.id),
  );
  app.get(
    '/api/my-guests/:id/network',
    guestRoute(
      "The guest's one-hop network",
      'The guest (`centre`), their connections (at most 100) and the edges among them.',
      EgoNetwork,
    ),
    async (request) => guests.network(authOf(request), request.params.id),
  );
  app.get(
    '/api/my-guests/:id/export',
    guestRoute(
      'Export everything held on the guest',
      'Privacy (data access request): profile, roster membership, tags, stats, score, bookings, vouchers, keys ledger entries and all ' +
        'activity. Account-wide: 403 for a role limited to some venues (only the Owner or a role covering every venue may export).',
      GuestExport,
    ),
    async (request) => guests.exportGuest(authOf(request), request.params.id),
  );

  app.put(
    '/api/my-guests/:id/tags',
    {
      schema: {
        summary: "Replace the guest's tags at one scope",
        description:
          '`scope` `global` (default; operator-wide) or `venue` with `venue_id` (one of the caller’s venues). The set is replaced; tags are ' +
          'trimmed free text (at most 50 of 50 characters), duplicates in any case kept once. A venue tag adds the guest to that venue.',
        tags,
        security,
        params: GuestParams,
        body: TagsBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => {
      await guests.putTags(authOf(request), request.params.id, request.body);
      return { success: true };
    },
  );

  app.delete(
    '/api/my-guests/:id',
    {
      schema: {
        summary: 'Erase the guest from the roster',
        description:
          'Privacy (erasure request), operator-wide: personal fields on the operator’s bookings and vouchers are anonymised and bookings are ' +
          'unlinked from the account; tags, search terms, activity and membership are deleted; bookings and money records are kept. ' +
          'The guest’s own account is kept unless it is a walk-in record this operator created. Account-wide: 403 for a role limited ' +
          'to some venues (only the Owner or a role covering every venue may erase).',
        tags,
        security,
        params: GuestParams,
        response: { 200: EraseResult, ...errorResponses(401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => guests.erase(authOf(request), request.params.id),
  );

  app.get(
    '/api/my-venues/:venueId/guests/search',
    {
      schema: {
        summary: "Search the venue's guests",
        description: 'Guests related to this venue, matched as in the roster search; at most 12.',
        tags,
        security,
        params: VenueParams,
        querystring: VenueSearchQuery,
        response: { 200: VenueGuestList, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: guard({ permission: 'guests:read', venueParam: 'venueId' }),
    },
    async (request) => guests.venueSearch(authOf(request), venueOf(request), request.query.q),
  );

  app.post(
    '/api/my-venues/:venueId/guests/walk-in',
    {
      schema: {
        summary: 'Record a walk-in guest',
        description:
          'Creates a guest record without an account: its email is synthesised as `walkin+<id>@guests.invalid` (a reserved, undeliverable ' +
          'domain). Use the id as `user_id` for a staff booking. The guest joins the roster at this venue.',
        tags,
        security,
        params: VenueParams,
        body: WalkInBody,
        response: { 200: WalkInResult, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: guard({ permission: 'guests:write', venueParam: 'venueId' }),
    },
    async (request) => guests.walkIn(authOf(request), venueOf(request), request.body),
  );
};
