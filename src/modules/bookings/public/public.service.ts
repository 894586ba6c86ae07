/**
 * The guest-facing booking engine, one function per request: availability and the floorplan
 * (availability.service.ts), booking (book.service.ts), its deposit or card hold with payment, finalize and
 * release (deposits.ts), and the booking's QR code (qr.service.ts). They share the venue look-up and a
 * day's configuration and stays (public-context.ts).
 */
import { createAvailabilityAnswers } from './availability.service.js';
import { createBooker, type BookRequest } from './book.service.js';
import type { BookBody } from './public.schemas.js';
import { createDeposits } from './deposits.js';
import { publicContext, type PublicDeps } from './public-context.js';
import { qr } from './qr.service.js';
import { bookingTerms, type TermsQuery } from './terms.service.js';

export function createPublicBookings(deps: PublicDeps) {
  const ctx = publicContext(deps);
  const deposits = createDeposits({
    db: deps.db,
    clock: deps.clock,
    log: deps.log,
    payments: deps.payments,
    mails: ctx.mails,
    liveVenue: deps.liveVenue,
    venueOrThrow: ctx.venueOrThrow,
  });
  const { availability, floorplan } = createAvailabilityAnswers(ctx);
  const booker = createBooker(ctx, deposits, availability);
  const { finalize, expireUnpaid, registerFulfilments } = deposits;
  return {
    availability,
    floorplan,
    terms: (venueId: string, query: TermsQuery) => bookingTerms(ctx, venueId, query),
    /**
     * Counts a booking attempt from a client address (decisions: rate limits), 429 over the limit. The
     * route calls it before the body is parsed, so a burst of any kind is refused cheaply.
     */
    countAttempt: async (ip: string): Promise<void> => {
      await deps.rateLimits.hit('public_booking', ip);
    },
    book: (venueId: string, body: BookBody, request: BookRequest) => booker.book(venueId, body, request),
    finalize,
    qr: (venueId: string, bookingId: string) => qr(ctx, venueId, bookingId),
    expireUnpaid,
    registerFulfilments,
  };
}

export type PublicBookings = ReturnType<typeof createPublicBookings>;
