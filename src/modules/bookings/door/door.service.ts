/**
 * The door: the venue's public key for QR tokens, and check-in by a QR token. A token names its venue
 * and booking; it is verified with that venue's key (a venue the caller cannot reach is a 404 before
 * anything is checked), and an expired, forged or foreign token is refused.
 */
import { claimedQrVenue, verifyQrToken } from '../../../domain/booking-tokens/index.js';
import type { Db } from '../../../db/connect.js';
import { withTransaction } from '../../../db/transaction.js';
import type { AuthInfo, VenueRow } from '../../../platform/auth-guard.js';
import type { Clock } from '../../../platform/clock.js';
import { badRequest, notFound } from '../../../platform/errors.js';
import { bookingByReference, bookingOrThrow, changeStatus, findBooking } from '../core/booking-store.js';
import { addDays, localToday } from '../../../domain/venue-time.js';
import { checkInAllowed } from './door-timing.js';
import type { DoorKeys } from '../core/door-keys.js';
import { staffActor } from '../staff/staff.service.js';

const REFUSALS: Record<string, string> = {
  malformed: 'This is not a booking QR code',
  bad_signature: 'This QR code was not issued by this venue',
  expired: 'This QR code has expired: ask the guest to refresh it',
  not_yet_valid: 'This QR code is not valid yet: check the device clock',
};

export function createDoorService(deps: {
  db: Db;
  clock: Clock;
  doorKeys: DoorKeys;
  reachableVenue(auth: AuthInfo, venueId: string): Promise<VenueRow>;
}) {
  const { db, clock, doorKeys } = deps;

  /** The booking a QR token names, verified with its venue's key: the caller must reach that venue (404). */
  async function bookingOfToken(auth: AuthInfo, token: string): Promise<string> {
    return (await scanned(auth, token)).bookingId;
  }

  async function scanned(auth: AuthInfo, token: string): Promise<{ bookingId: string; venue: VenueRow }> {
    const venueId = claimedQrVenue(token);
    if (!venueId) throw badRequest(REFUSALS.malformed);
    const venue = await deps.reachableVenue(auth, venueId);
    const verified = verifyQrToken(token, (await doorKeys.keyOf(venue.id)).publicKey, clock.now());
    if (!verified.ok) throw badRequest(REFUSALS[verified.reason] ?? REFUSALS.malformed, { reason: verified.reason });
    const booking = await findBooking(db, verified.bookingId);
    if (booking?.venue_id !== venue.id) throw notFound('Booking');
    return { bookingId: booking.id, venue };
  }

  return {
    bookingOfToken,

    async doorKey(venueId: string) {
      const key = await doorKeys.keyOf(venueId);
      return { algorithm: 'Ed25519' as const, public_key: key.publicKey, public_key_pem: key.publicKeyPem };
    },

    /** Checks the booking in inside the venue's window (door-timing.ts), or outside it with `force`. */
    async checkIn(auth: AuthInfo, token: string, force = false) {
      const { bookingId, venue } = await scanned(auth, token);
      return checkInBooking(auth, venue, bookingId, force, 'qr');
    },

    /**
     * Checks in by the short reference a guest reads out (unique per venue and service date): today's
     * booking at the venue, else last night's (a service that runs past midnight). Then as by QR.
     */
    async checkInByReference(auth: AuthInfo, venueId: string, reference: string, force = false) {
      const venue = await deps.reachableVenue(auth, venueId);
      const today = localToday(clock.now(), venue.timezone);
      const wanted = reference
        .trim()
        .toUpperCase()
        .replace(/[^A-Z0-9]/g, '');
      const found = await bookingByReference(db, venue.id, wanted, [today, addDays(today, -1)]);
      if (!found) throw notFound('Booking');
      return checkInBooking(auth, venue, found.id, force, 'reference');
    },
  };

  async function checkInBooking(auth: AuthInfo, venue: VenueRow, bookingId: string, force: boolean, via: 'qr' | 'reference') {
    const now = clock.now();
    const done = await withTransaction(db, async (trx) => {
      const booking = await bookingOrThrow(trx, bookingId);
      const timing = checkInAllowed(booking, venue, now, force);
      return changeStatus(trx, booking, {
        to: 'checked_in',
        action: 'checked in',
        historyAction: 'check_in',
        actor: staffActor(auth),
        now,
        detail: { via, ...timing },
      });
    });
    return { success: true, booking_id: done.id, status: done.status, guest_name: done.guest_name, guest_count: done.guest_count };
  }
}

export type DoorService = ReturnType<typeof createDoorService>;
