/**
 * The guest list's public routes (spec: the guest-list rows of Public widget endpoints; decisions:
 * Guest list): a venue's guest-list options (public, briefly edge-cached) and joining a list as a
 * signed-in guest with keys (rate-limited before anything else, `Idempotency-Key` honoured).
 */
import type { GuardFactory } from '../../../platform/auth-guard.js';
import { authOf } from '../../../platform/auth-guard.js';
import { forbidden } from '../../../platform/errors.js';
import { errorResponses } from '../../../platform/http.js';
import type { RoutePlugin } from '../../../platform/module.js';
import { GuestlistBooked, GuestlistBookingBody, GuestlistOptions, GuestlistOptionsQuery, GuestlistParams } from './guestlist.schemas.js';
import type { GuestlistBookings } from './guestlist.service.js';
import { idempotencyKeyOf } from '../../../platform/idempotency-key.js';

export const guestlistRoutes: RoutePlugin<{ guard: GuardFactory; guestlist: GuestlistBookings }> = async (app, { guard, guestlist }) => {
  const tags = ['public'];

  app.get(
    '/api/public/venues/:venueId/guestlist-options',
    {
      schema: {
        summary: "A venue's guest lists for a date: door pricing, surge, promo eligibility and room left",
        description:
          '`date` (venue-local) defaults to the venue’s today. For each guest-list access rule guests may book: whether it can be ' +
          'joined that date (`reason` otherwise), the arrival time, party bounds, covers committed and left (the list’s max covers ' +
          'and the venue’s door capacity), and the options `free`, `paid` and `queue_skip` with their price per person (the ' +
          'rule’s toggled values, else its list profile’s, else the venue’s defaults; surge pricing once the list reaches the ' +
          'surge threshold). Keys cost `pence_per_key` pence each. A draft or unknown venue is 404. Briefly edge-cached.',
        tags,
        params: GuestlistParams,
        querystring: GuestlistOptionsQuery,
        response: { 200: GuestlistOptions, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const answer = await guestlist.options(request.params.venueId, request.query.date);
      reply.header('Cache-Control', 'public, max-age=0, s-maxage=1');
      return answer;
    },
  );

  app.post(
    '/api/public/venues/:venueId/guestlist-bookings',
    {
      schema: {
        summary: 'Join a guest list as a signed-in guest, spending keys',
        description:
          'Needs a guest session (401 without one; 403 for an operator or staff session). Checks the rule (a guest-list rule of the ' +
          'venue, 404 otherwise), the date (days, shifts, blackouts, booking window: 400) and the party size (1 + plus-ones, ' +
          'which admission rules may raise: 400); applies the list profile’s admission rules (discount, auto-approval, ' +
          'plus-ones) and a `promo_code` (only on a paid option; unknown, expired or used-up codes are 400 and nothing is ' +
          'booked). Keys spent = ceil(price × party, less the discounts, in pence / 100), taken from the guest’s ledger ' +
          'atomically: 402 when the balance is short. 409 when the list, its free places or the door are full. `Idempotency-Key` makes a retry ' +
          'answer the first answer (another body with the same key: 409). Rate-limited with public booking (30 a minute per address).',
        tags,
        security: [{ bearer: [] }],
        params: GuestlistParams,
        body: GuestlistBookingBody,
        response: { 200: GuestlistBooked, ...errorResponses(400, 401, 402, 403, 404, 409, 429) },
      },
      // Every attempt counts, before the session is read or the body parsed; without a session: 401.
      onRequest: [async (request) => guestlist.countAttempt(request.ip), guard({ role: 'any' })],
      // A signed-in user who is not a guest: 403 once the body is parsed (so malformed bodies are the usual 400).
      preValidation: async (request) => {
        if (authOf(request).user.role !== 'guest') throw forbidden('Only a signed-in guest can join a guest list');
      },
    },
    async (request) => {
      const key = idempotencyKeyOf(request.headers);
      return guestlist.join(request.params.venueId, request.body, { userId: authOf(request).user.id, idempotencyKey: key });
    },
  );
};
