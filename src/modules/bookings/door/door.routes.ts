/**
 * The door (CONTRACT §5, extensions): the venue's public key for checking QR tokens offline, check-in
 * by a QR token, and turning a guest away (by booking id or QR token), with an optional refund.
 */
import { Type } from 'typebox';
import type { GuardFactory } from '../../../platform/auth-guard.js';
import { authOf, venueOf } from '../../../platform/auth-guard.js';
import { badRequest } from '../../../platform/errors.js';
import { errorResponses, Nullable } from '../../../platform/http.js';
import type { RoutePlugin } from '../../../platform/module.js';
import { BookingChanged, DoorRejectBody, Force } from '../staff/bookings.schemas.js';
import type { DoorService } from './door.service.js';
import type { StaffService } from '../staff/staff.service.js';

const VenueParams = Type.Object({ venueId: Type.String({ minLength: 1, maxLength: 100 }) });

export const doorRoutes: RoutePlugin<{ guard: GuardFactory; door: DoorService; staff: StaffService }> = async (
  app,
  { guard, door, staff },
) => {
  app.get(
    '/api/my-venues/:venueId/door-key',
    {
      schema: {
        summary: "The venue's public key for checking booking QR tokens offline",
        description: 'Ed25519: `public_key` is the raw 32-byte key (base64url), `public_key_pem` the SPKI PEM.',
        tags: ['bookings'],
        security: [{ bearer: [] }],
        params: VenueParams,
        response: {
          200: Type.Object({ algorithm: Type.Literal('Ed25519'), public_key: Type.String(), public_key_pem: Type.String() }),
          ...errorResponses(401, 403, 404),
        },
      },
      onRequest: guard({ permission: 'bookings:read', venueParam: 'venueId' }),
    },
    async (request) => door.doorKey(venueOf(request).id),
  );

  app.post(
    '/api/check-in',
    {
      schema: {
        summary: 'Check a guest in by the token of their QR code',
        description:
          'Expired or forged tokens are refused (400); a booking that cannot be checked in is 409 naming its status. ' +
          'Check-in is allowed on the booking’s service date from the venue’s `check_in_window_minutes` (default 120) before its ' +
          'time until its end (for a booking without an end, 06:00 the next morning): otherwise 409 naming the booking’s date and ' +
          'time, with `reason` (`too_early` or `too_late`), `booking_date`, `start_time`, `opens_at` and `closes_at`. ' +
          'Extension: `force: true` checks in outside the window, recorded in the history. A second scan is 409 ' +
          '"Already checked in at HH:MM" (`reason: already_checked_in`, `checked_in_at`).',
        tags: ['bookings'],
        security: [{ bearer: [] }],
        body: Type.Object({ qr_token: Type.String({ minLength: 1, maxLength: 1024 }), force: Type.Optional(Force) }),
        response: {
          200: Type.Object({
            success: Type.Boolean(),
            booking_id: Type.String(),
            status: Type.String(),
            guest_name: Nullable(Type.String()),
            guest_count: Type.Integer(),
          }),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
      onRequest: guard({ permission: 'bookings:write' }),
    },
    async (request) => door.checkIn(authOf(request), request.body.qr_token, request.body.force === true),
  );

  app.post(
    '/api/door-reject',
    {
      schema: {
        summary: 'Turn a guest away at the door',
        description:
          'Extension (staff reservation floor). Body `{ booking_id | qr_token, reason?, refund? }`: exactly one of `booking_id` and ' +
          '`qr_token` (checked like check-in: expired or forged tokens are refused, 400). The booking becomes `door_rejected` and ' +
          'its tables are freed; with `refund: true` a paid deposit or captured hold is refunded and a card hold released first. ' +
          '409 (naming `status`) when the booking cannot be turned away (cancelled, expired, already rejected…).',
        tags: ['bookings'],
        security: [{ bearer: [] }],
        body: DoorRejectBody,
        response: { 200: BookingChanged, ...errorResponses(400, 401, 403, 404, 409, 502, 503) },
      },
      onRequest: guard({ permission: 'bookings:write' }),
    },
    async (request) => {
      const { booking_id, qr_token, reason, refund } = request.body;
      if ((booking_id === undefined) === (qr_token === undefined)) throw badRequest('Send exactly one of booking_id and qr_token');
      const auth = authOf(request);
      const id = booking_id ?? (await door.bookingOfToken(auth, qr_token!));
      return staff.doorReject(auth, id, { reason, refund });
    },
  );
};
