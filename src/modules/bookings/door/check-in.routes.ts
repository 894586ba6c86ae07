/**
 * Check-in by the token of a guest's QR code (POST /api/check-in) or by the short reference they read out
 * (POST /api/my-venues/:venueId/check-in/by-reference); door.service.ts, the window in door-timing.ts.
 */
import { Type } from 'typebox';
import type { GuardFactory } from '../../../platform/auth-guard.js';
import { authOf } from '../../../platform/auth-guard.js';
import { errorResponses, Nullable } from '../../../platform/http.js';
import type { RoutePlugin } from '../../../platform/module.js';
import { Force } from '../staff/bookings.schemas.js';
import type { DoorService } from './door.service.js';

const CheckedIn = Type.Object({
  success: Type.Boolean(),
  booking_id: Type.String(),
  status: Type.String(),
  guest_name: Nullable(Type.String()),
  guest_count: Type.Integer(),
});

export const checkInRoutes: RoutePlugin<{ guard: GuardFactory; door: DoorService }> = async (app, { guard, door }) => {
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
        response: { 200: CheckedIn, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: guard({ permission: 'bookings:write' }),
    },
    async (request) => door.checkIn(authOf(request), request.body.qr_token, request.body.force === true),
  );

  app.post(
    '/api/my-venues/:venueId/check-in/by-reference',
    {
      schema: {
        summary: 'Check a guest in by the short booking reference they read out',
        description:
          'Extension. The 6-character reference from the guest’s confirmation (case and spaces ignored), unique per venue and ' +
          'service date: today’s booking at the venue, else last night’s. Unknown: 404. Then exactly as a QR check-in (window, ' +
          '`force`, already checked in).',
        tags: ['bookings'],
        security: [{ bearer: [] }],
        params: Type.Object({ venueId: Type.String() }),
        body: Type.Object({ reference: Type.String({ minLength: 4, maxLength: 20 }), force: Type.Optional(Force) }),
        response: { 200: CheckedIn, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: guard({ permission: 'bookings:write', venueParam: 'venueId' }),
    },
    async (request) =>
      door.checkInByReference(authOf(request), request.params.venueId, request.body.reference, request.body.force === true),
  );
};
