/** The booking's QR code (GET /api/public/venues/:venueId/booking/:bookingId/qr): a token signed with the venue's door key. */
import { QR_TOKEN_TTL_MS, signQrToken } from '../../../domain/booking-tokens/index.js';
import { notFound } from '../../../platform/errors.js';
import { qrDataUrl } from '../../../platform/qr-image.js';
import { findBooking } from '../core/booking-store.js';
import type { PublicContext } from './public-context.js';

/** Statuses that get no QR code (decisions: a QR code for every booking not cancelled, rejected or expired). */
const NO_QR = new Set(['cancelled', 'rejected', 'expired']);

export async function qr(ctx: PublicContext, venueId: string, bookingId: string) {
  const venue = await ctx.venueOrThrow(venueId);
  const booking = await findBooking(ctx.db, bookingId);
  if (!booking || booking.venue_id !== venue.id || NO_QR.has(booking.status)) throw notFound('Booking');
  const key = await ctx.deps.doorKeys.keyOf(venue.id);
  const issuedAt = ctx.clock.now();
  const token = signQrToken({ bookingId: booking.id, venueId: venue.id, issuedAt, ttlMs: QR_TOKEN_TTL_MS }, key.privateKey);
  return { qr_code: await qrDataUrl(token), issued_at: issuedAt.getTime(), expires_in_ms: QR_TOKEN_TTL_MS, qr_token: token };
}
