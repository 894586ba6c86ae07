/**
 * The venues module: an account's venues (details, status, app listing, stats, sister links, logo),
 * their branding and widgets (branding.routes.ts) and the public widget configs (venues.public-routes.ts).
 */
import { authOf, operatorIdOf, venueOf, type GuardFactory } from '../../platform/auth-guard.js';
import { errorResponses, SuccessBody, UploadBusy } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import {
  CreatedVenue,
  CreateVenueBody,
  GoLiveRefusal,
  ImageBody,
  ListingResult,
  LogoResult,
  OperatorStats,
  Readiness,
  SisterBody,
  SisterList,
  SisterParams,
  StatusBody,
  StatusResult,
  UpdateVenueBody,
  Venue,
  VenueIdParams,
  VenueList,
  VenueStats,
} from './venues.schemas.js';
import type { VenuesService } from './venues.service.js';

export const venuesRoutes: RoutePlugin<{ guard: GuardFactory; venues: VenuesService }> = async (app, { guard, venues }) => {
  const tags = ['venues'];
  const security = [{ bearer: [] }];
  const settingsRead = guard({ permission: 'venues.settings:read' });
  const settingsWrite = guard({ permission: 'venues.settings:write' });
  const venueSettingsRead = guard({ permission: 'venues.settings:read', venueParam: 'id' });
  const venueSettingsWrite = guard({ permission: 'venues.settings:write', venueParam: 'id' });
  const sistersRead = guard({ permission: 'venues.sisters:read', venueParam: 'id' });
  const sistersWrite = guard({ permission: 'venues.sisters:write', venueParam: 'id' });

  app.get(
    '/api/my-venues',
    {
      schema: { tags, security, summary: 'Venues the caller can reach', response: { 200: VenueList, ...errorResponses(401, 403) } },
      onRequest: settingsRead,
    },
    async (request) => ({ data: await venues.list(authOf(request)) }),
  );

  app.post(
    '/api/my-venues',
    {
      schema: {
        tags,
        security,
        summary: 'Create a venue (live, listing pending)',
        description: 'Roles limited to specific venues cannot create venues (403).',
        body: CreateVenueBody,
        response: { 200: CreatedVenue, ...errorResponses(400, 401, 403) },
      },
      onRequest: settingsWrite,
    },
    // 200 like every other create of the operator API (`{ success, id }` plus the initial states).
    async (request) => venues.create(authOf(request), request.body),
  );

  app.get(
    '/api/my-venues/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Read one venue',
        description:
          'Extension (the interface lists venues only as a whole): the venue with every field, as in the list. ' +
          '404 for a venue of another account or outside the role’s venue scope.',
        params: VenueIdParams,
        response: { 200: Venue, ...errorResponses(401, 403, 404) },
      },
      onRequest: venueSettingsRead,
    },
    async (request) => venues.read(venueOf(request)),
  );

  app.put(
    '/api/my-venues/:id',
    {
      schema: {
        summary: 'Update a venue (any subset of its fields)',
        tags,
        security,
        params: VenueIdParams,
        body: UpdateVenueBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: venueSettingsWrite,
    },
    async (request) => {
      await venues.update(venueOf(request), request.body);
      return { success: true };
    },
  );

  app.put(
    '/api/my-venues/:id/status',
    {
      schema: {
        tags,
        security,
        summary: 'Move a venue between draft and live',
        description:
          'Going live needs name, address, venue_type, phone, email, backdoor_capacity, last_entry_time and a logo: ' +
          'otherwise 400 `{ error, missing }` (`logo` for the logo). Back to draft is refused (409) while the venue has ' +
          'upcoming reservations (active bookings dated today or later, venue-local).',
        params: VenueIdParams,
        body: StatusBody,
        response: { 200: StatusResult, 400: GoLiveRefusal, ...errorResponses(401, 403, 404, 409) },
      },
      onRequest: venueSettingsWrite,
    },
    async (request) => venues.setStatus(venueOf(request), request.body.status as 'draft' | 'live'),
  );

  app.get(
    '/api/my-venues/:id/readiness',
    {
      schema: {
        tags,
        security,
        summary: 'What going live still needs',
        description:
          'Extension (operator portal): the venue’s `status` and the fields a go-live (`PUT /api/my-venues/:id/status`) would ' +
          'name as `missing` right now, in the same order and words, so the set-up checklist can show them without trying. ' +
          'A live venue reports what it would miss if it went back to draft and live again.',
        params: VenueIdParams,
        response: { 200: Readiness, ...errorResponses(401, 403, 404) },
      },
      onRequest: venueSettingsRead,
    },
    async (request) => venues.readiness(venueOf(request)),
  );

  app.post(
    '/api/my-venues/:id/request-listing',
    {
      schema: {
        tags,
        security,
        summary: 'Request an app listing (live venues only, else 409)',
        params: VenueIdParams,
        response: { 200: ListingResult, ...errorResponses(401, 403, 404, 409) },
      },
      onRequest: venueSettingsWrite,
    },
    async (request) => venues.requestListing(venueOf(request)),
  );

  app.post(
    '/api/my-venues/:id/withdraw-listing',
    {
      schema: {
        tags,
        security,
        summary: 'Withdraw a pending listing request (else 409)',
        params: VenueIdParams,
        response: { 200: ListingResult, ...errorResponses(401, 403, 404, 409) },
      },
      onRequest: venueSettingsWrite,
    },
    async (request) => venues.withdrawListing(venueOf(request)),
  );

  app.get(
    '/api/my-venues/:id/stats',
    {
      schema: {
        summary: "A venue's revenue, bookings and 14-day chart",
        tags,
        security,
        params: VenueIdParams,
        response: { 200: VenueStats, ...errorResponses(401, 403, 404) },
      },
      onRequest: guard({ permission: 'stats:read', venueParam: 'id' }),
    },
    async (request) => venues.stats(venueOf(request)),
  );

  app.get(
    '/api/my-stats',
    {
      schema: {
        tags,
        security,
        summary: 'Figures over the venues the caller can reach',
        description: '`partner` is always null: the product has no partner programme.',
        response: { 200: OperatorStats, ...errorResponses(401, 403) },
      },
      onRequest: guard({ permission: 'stats:read' }),
    },
    async (request) => venues.operatorStats({ ...authOf(request), operatorId: operatorIdOf(request) }),
  );

  app.get(
    '/api/my-venues/:id/sisters',
    {
      schema: {
        summary: "List a venue's sister venues",
        tags,
        security,
        params: VenueIdParams,
        response: { 200: SisterList, ...errorResponses(401, 403, 404) },
      },
      onRequest: sistersRead,
    },
    async (request) => ({ data: await venues.sisters(authOf(request), venueOf(request)) }),
  );

  app.post(
    '/api/my-venues/:id/sisters',
    {
      schema: {
        tags,
        security,
        summary: 'Link a sister venue (both directions)',
        description:
          'The sister must be a venue the caller can reach (404 otherwise) and not the venue itself (400). Linking twice is harmless.',
        params: VenueIdParams,
        body: SisterBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: sistersWrite,
    },
    async (request) => {
      await venues.addSister(authOf(request), venueOf(request), request.body.sister_venue_id);
      return { success: true };
    },
  );

  app.delete(
    '/api/my-venues/:id/sisters/:sisterId',
    {
      schema: {
        tags,
        security,
        summary: 'Unlink a sister venue (both directions)',
        params: SisterParams,
        response: { 200: SuccessBody, ...errorResponses(401, 403, 404) },
      },
      onRequest: sistersWrite,
    },
    async (request) => {
      await venues.removeSister(authOf(request), venueOf(request), request.params.sisterId);
      return { success: true };
    },
  );

  app.post(
    '/api/venues/:id/logo',
    {
      schema: {
        tags,
        security,
        summary: 'Upload the venue logo (max 500 KB)',
        params: VenueIdParams,
        body: ImageBody,
        response: { 200: LogoResult, ...errorResponses(400, 401, 403, 404), 503: UploadBusy },
      },
      onRequest: guard({ permission: 'venues.branding:write', venueParam: 'id' }),
    },
    async (request) => venues.uploadLogo(venueOf(request), request.body.data),
  );
};
