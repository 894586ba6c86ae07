/**
 * Booking as a guest: POST /api/public/venues/:venueId/book (no cache, rate-limited, bot-checked for
 * callers who are not signed in, `Idempotency-Key` honoured) and /book/finalize. The service is
 * book.service.ts (finalize: deposits.ts).
 */
import { Type } from 'typebox';
import type { AuthInfo } from '../../../platform/auth-guard.js';
import { errorResponses } from '../../../platform/http.js';
import type { RoutePlugin } from '../../../platform/module.js';
import { idempotencyKeyOf } from '../../../platform/idempotency-key.js';
import { checkDate, noStore, tags } from './public-routes.helpers.js';
import { BookAnswer, BookBody, FinalizeAnswer, Id, VenueParams } from './public.schemas.js';
import type { PublicBookings } from './public.service.js';

export const bookRoutes: RoutePlugin<{
  bookings: Pick<PublicBookings, 'countAttempt' | 'book' | 'finalize'>;
  loadAuth: (request: never) => Promise<AuthInfo | undefined>;
}> = async (app, { bookings, loadAuth }) => {
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
          '`amount_pence` (the deposit) with `requires_payment`; on a 409 for a taken slot, `alternatives` ' +
          '(`{ times: [{ time, access_rule_id }], dates }`: the nearest bookable times that date and the next dates with room). ' +
          'A slot the cached picture already shows taken is refused before any transaction; bookings of one venue arriving ' +
          'together are written in one transaction, each re-checked and answered alone.',
        tags,
        params: VenueParams,
        body: BookBody,
        response: { 200: BookAnswer, ...errorResponses(400, 402, 403, 404, 409, 429, 502, 503) },
      },
      // A drop is paced against the other tenants (platform/fair-share.ts).
      config: { fairShare: 'venueId' },
      // Every attempt counts, malformed ones included, before its body is even parsed.
      onRequest: [noStore, async (request) => bookings.countAttempt(request.ip)],
    },
    async (request) => {
      checkDate(request.body.date);
      const key = idempotencyKeyOf(request.headers);
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
};
