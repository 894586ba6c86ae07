/**
 * The waitlist's operator routes, under `/api/my-venues/:venueId/waitlist` with the `bookings`
 * permission (read for the lists and the quote, write for the rest); docs/waitlist.md.
 */
import type { GuardFactory } from '../../platform/auth-guard.js';
import { authOf, venueOf } from '../../platform/auth-guard.js';
import { errorResponses } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import type { WalkIns } from './walk-ins.service.js';
import {
  EntryList,
  EntryParams,
  ListQuery,
  Notified,
  Quote,
  QuoteQuery,
  RemoveBody,
  SeatBody,
  Seated,
  VenueWaitlistParams,
  WalkInBody,
  WalkInCreated,
} from './waitlist.schemas.js';
import { SuccessBody } from '../../platform/http.js';

export const waitlistRoutes: RoutePlugin<{ guard: GuardFactory; walkIns: WalkIns }> = async (app, { guard, walkIns }) => {
  const read = guard({ permission: 'bookings:read', venueParam: 'venueId' });
  const write = guard({ permission: 'bookings:write', venueParam: 'venueId' });
  const tags = ['waitlist'];
  const security = [{ bearer: [] }];

  app.get(
    '/api/my-venues/:venueId/waitlist',
    {
      schema: {
        summary: 'List the waitlist of a day',
        description:
          'Extension (waitlist). The walk-in and online entries of `date` (venue-local, default today), in line order; `kind` ' +
          'keeps one list. Only the parties still in line unless `all`. Each open walk-in of today carries `estimated_minutes`, ' +
          'its wait from the floor now after the parties ahead of it; online entries carry their open `offer`.',
        tags,
        security,
        params: VenueWaitlistParams,
        querystring: ListQuery,
        response: { 200: EntryList, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: read,
    },
    async (request) => walkIns.list(venueOf(request), request.query),
  );

  app.get(
    '/api/my-venues/:venueId/waitlist/quote',
    {
      schema: {
        summary: 'Quote the wait for a walk-in party',
        description:
          'Extension (waitlist). The wait a party of `party_size` joining the walk-in list now would be quoted: the earliest a ' +
          'single active table that seats it is clear for the venue’s booking duration, after the bookings on the floor and the ' +
          'parties ahead in line, rounded up to 5 minutes. `fits: false` when no single table seats the party.',
        tags,
        security,
        params: VenueWaitlistParams,
        querystring: QuoteQuery,
        response: { 200: Quote, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: read,
    },
    async (request) => walkIns.quote(venueOf(request), request.query.party_size),
  );

  app.post(
    '/api/my-venues/:venueId/waitlist',
    {
      schema: {
        summary: 'Add a walk-in party to the waitlist',
        description:
          'Extension (waitlist). The party joins today’s walk-in list (`waiting`), quoted its wait (`quoted_minutes`; null when no table seats it).',
        tags,
        security,
        params: VenueWaitlistParams,
        body: WalkInBody,
        response: { 200: WalkInCreated, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: write,
    },
    async (request) => walkIns.add(venueOf(request), request.body),
  );

  app.post(
    '/api/my-venues/:venueId/waitlist/:id/notify',
    {
      schema: {
        summary: 'Tell a walk-in their table is ready',
        description:
          'Extension (waitlist). `waiting` or `notified` → `notified`: a text message when the entry has a phone (and text ' +
          'messages are set up), a mail when it has an email; `channels` says which (empty: tell them in person). 409 once the ' +
          'party has left the list; 400 for an online entry.',
        tags,
        security,
        params: EntryParams,
        response: { 200: Notified, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: write,
    },
    async (request) => walkIns.notify(venueOf(request), request.params.id),
  );

  app.post(
    '/api/my-venues/:venueId/waitlist/:id/seat',
    {
      schema: {
        summary: 'Seat a walk-in from the waitlist',
        description:
          'Extension (waitlist). Makes a walk-in booking for the party (checked in now), exactly like ' +
          '`POST /api/my-venues/:venueId/staff-bookings` with `walk_in: true` (`table_ids` omitted: the best free tables), and ' +
          'marks the entry `seated` with its `booking_id`. Racing seats of one entry make one booking; seating again answers ' +
          'the same booking. 409 when no table is free (the party keeps its place) or the entry has left the list.',
        tags,
        security,
        params: EntryParams,
        body: SeatBody,
        response: { 200: Seated, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: write,
    },
    async (request) => walkIns.seat(authOf(request), venueOf(request), request.params.id, request.body ?? {}),
  );

  app.post(
    '/api/my-venues/:venueId/waitlist/:id/remove',
    {
      schema: {
        summary: 'Take an entry off the waitlist',
        description:
          'Extension (waitlist). A waiting (or notified, or offered) entry becomes `removed`; with `no_show: true` a walk-in ' +
          'becomes `no_show`. 409 once it has left the list.',
        tags,
        security,
        params: EntryParams,
        body: RemoveBody,
        response: { 200: SuccessBody, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: write,
    },
    async (request) => walkIns.remove(venueOf(request), request.params.id, request.body?.no_show === true),
  );
};
