/** Turning a guest away at the door (by booking id or QR token), with an optional refund: POST /api/door-reject. */
import type { GuardFactory } from '../../../platform/auth-guard.js';
import { authOf } from '../../../platform/auth-guard.js';
import { badRequest } from '../../../platform/errors.js';
import { errorResponses } from '../../../platform/http.js';
import type { RoutePlugin } from '../../../platform/module.js';
import { BookingChanged, DoorRejectBody } from '../staff/bookings.schemas.js';
import type { StaffService } from '../staff/staff.service.js';
import type { DoorService } from './door.service.js';

export const doorRejectRoutes: RoutePlugin<{ guard: GuardFactory; door: DoorService; staff: StaffService }> = async (
  app,
  { guard, door, staff },
) => {
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
