/**
 * The online waitlist's public routes: joining a venue's list for a date (rate limited like the public
 * booking route, bot-checked), and the guest's link: see the place, leave, accept an offer; docs/waitlist.md.
 */
import { errorResponses, SuccessBody } from '../../platform/http.js';
import type { RoutePlugin } from '../../platform/module.js';
import { BookAnswerSchema } from '../bookings/index.js';
import type { OnlineWaitlist } from './online.service.js';
import { AcceptBody, GuestEntry, JoinBody, Joined, PublicVenueParams, TokenBody, TokenQuery } from './waitlist.schemas.js';

export const waitlistPublicRoutes: RoutePlugin<{ online: OnlineWaitlist }> = async (app, { online }) => {
  const tags = ['public'];
  const noStore = async (_request: unknown, reply: { header(name: string, value: string): unknown }) => {
    reply.header('Cache-Control', 'no-store');
  };

  app.post(
    '/api/public/venues/:venueId/waitlist',
    {
      schema: {
        summary: 'Join the waitlist for a date',
        description:
          'Extension (waitlist). For a date that is full: the guest’s party, the window of start times they would take ' +
          '(`time_from`–`time_to`, inclusive, venue-local) and contact details. When a slot in the window frees up the first ' +
          'guest in line it fits is offered it for a limited time (mail, and a text message with a phone), then the next. ' +
          'The guest is mailed their link (`manage_url`) to see their place, leave, or accept. Counted against the public ' +
          'booking rate limit per client address; callers send `turnstile_token` when the bot check is on. 409 when the email ' +
          'already waits for that date; 404 for a venue that is not live.',
        tags,
        params: PublicVenueParams,
        body: JoinBody,
        response: { 200: Joined, ...errorResponses(400, 403, 404, 409, 429, 503) },
      },
      onRequest: [noStore, async (request) => online.countAttempt(request.ip)],
    },
    async (request) => online.join(request.params.venueId, request.body, request.ip),
  );

  app.get(
    '/api/public/waitlist',
    {
      schema: {
        summary: 'See a waitlist entry from its link',
        description:
          'Extension (waitlist). The entry the guest’s link names: status, place in line, and the open offer. 404 for a link that is not ours.',
        tags,
        querystring: TokenQuery,
        response: { 200: GuestEntry, ...errorResponses(400, 404) },
      },
      onRequest: noStore,
    },
    async (request) => online.view(request.query.token),
  );

  app.post(
    '/api/public/waitlist/leave',
    {
      schema: {
        summary: 'Leave the waitlist',
        description: 'Extension (waitlist). A waiting or offered entry becomes `left` (again: fine). 409 once it was booked or expired.',
        tags,
        body: TokenBody,
        response: { 200: SuccessBody, ...errorResponses(400, 404, 409) },
      },
      onRequest: noStore,
    },
    async (request) => online.leave(request.body.token),
  );

  app.post(
    '/api/public/waitlist/accept',
    {
      schema: {
        summary: 'Accept the table offered from the waitlist',
        description:
          'Extension (waitlist). Books the offered slot through the public booking path while the offer is open, answering as ' +
          '`POST /api/public/venues/:venueId/book` does: confirmed, or `requires_payment` when the rule asks a deposit (pay, then ' +
          '`book/finalize`). One of racing accepts books; the others are 409. 409 too when the offer expired, or the table went ' +
          'meanwhile (the entry then waits again in its place).',
        tags,
        body: AcceptBody,
        response: { 200: BookAnswerSchema, ...errorResponses(400, 403, 404, 409, 429, 502, 503) },
      },
      onRequest: [noStore, async (request) => online.countAttempt(request.ip)],
    },
    async (request) => online.accept(request.body.token, { ip: request.ip, turnstileToken: request.body.turnstile_token }),
  );
};
