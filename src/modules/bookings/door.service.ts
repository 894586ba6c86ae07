/**
 * The door: the venue's public key for QR tokens, and check-in by a QR token. A token names its venue
 * and booking; it is verified with that venue's key (a venue the caller cannot reach is a 404 before
 * anything is checked), and an expired, forged or foreign token is refused.
 */
import { verifyQrToken } from '../../domain/booking-tokens/index.js';
import type { Db } from '../../db/connect.js';
import { withTransaction } from '../../db/transaction.js';
import type { AuthInfo, VenueRow } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { bookingOrThrow, changeStatus } from './booking-store.js';
import type { DoorKeys } from './door-keys.js';
import { staffActor } from './staff.service.js';

const REFUSALS: Record<string, string> = {
  malformed: 'This is not a booking QR code',
  bad_signature: 'This QR code was not issued by this venue',
  expired: 'This QR code has expired: ask the guest to refresh it',
  not_yet_valid: 'This QR code is not valid yet: check the device clock',
};

/** The venue a token claims, read before its signature is checked (only to pick the key). */
function claimedVenue(token: string): string | undefined {
  const [, payload] = token.split('.');
  try {
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as { v?: unknown };
    return typeof claims.v === 'string' ? claims.v : undefined;
  } catch {
    return undefined;
  }
}

export function createDoorService(deps: {
  db: Db;
  clock: Clock;
  doorKeys: DoorKeys;
  reachableVenue(auth: AuthInfo, venueId: string): Promise<VenueRow>;
}) {
  const { db, clock, doorKeys } = deps;
  return {
    async doorKey(venueId: string) {
      const key = await doorKeys.keyOf(venueId);
      return { algorithm: 'Ed25519' as const, public_key: key.publicKey, public_key_pem: key.publicKeyPem };
    },

    async checkIn(auth: AuthInfo, token: string) {
      const venueId = claimedVenue(token);
      if (!venueId) throw badRequest(REFUSALS.malformed);
      const venue = await deps.reachableVenue(auth, venueId);
      const now = clock.now();
      const verified = verifyQrToken(token, (await doorKeys.keyOf(venue.id)).publicKey, now);
      if (!verified.ok) throw badRequest(REFUSALS[verified.reason] ?? REFUSALS.malformed, { reason: verified.reason });
      const booking = await bookingOrThrow(db, verified.bookingId);
      if (booking.venue_id !== venue.id) throw notFound('Booking');
      const done = await withTransaction(db, async (trx) =>
        changeStatus(trx, await bookingOrThrow(trx, booking.id), {
          to: 'checked_in',
          action: 'checked in',
          historyAction: 'check_in',
          actor: staffActor(auth),
          now,
          detail: { via: 'qr' },
        }),
      );
      return { success: true, booking_id: done.id, status: done.status, guest_name: done.guest_name, guest_count: done.guest_count };
    },
  };
}

export type DoorService = ReturnType<typeof createDoorService>;
