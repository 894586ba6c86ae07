/**
 * Staff creating bookings (CONTRACT §5, an extension): a table booking or walk-in, and a guest-list
 * place, at a venue the caller reaches with `bookings` write. `Idempotency-Key` honoured, as on the
 * public booking route.
 */
import type { GuardFactory } from '../../../platform/auth-guard.js';
import { authOf, venueOf } from '../../../platform/auth-guard.js';
import { errorResponses } from '../../../platform/http.js';
import type { RoutePlugin } from '../../../platform/module.js';
import { StaffCreated, StaffGuestlistBookingBody, StaffTableBookingBody, VenueBookingsParams } from './bookings.schemas.js';
import { idempotencyKeyOf } from '../../../platform/idempotency-key.js';
import type { StaffBookings } from './staff-create.service.js';

export const staffCreateRoutes: RoutePlugin<{ guard: GuardFactory; create: StaffBookings }> = async (app, { guard, create }) => {
  const write = guard({ permission: 'bookings:write', venueParam: 'venueId' });
  const common = { tags: ['bookings'], security: [{ bearer: [] }], params: VenueBookingsParams };

  app.post(
    '/api/my-venues/:venueId/staff-bookings',
    {
      schema: {
        summary: 'Book a table for a guest, or seat a walk-in',
        description:
          'Extension (staff reservation floor). The guest is `user_id` (a guest already on the operator’s roster, e.g. from ' +
          '`guests/walk-in`; 404 otherwise; the phone copied is the one given to this operator) or `guest_name` with ' +
          'optional `guest_email`/`guest_phone` (an email is matched to the venue’s guest records). `date` and `time` are venue-local ' +
          '(both default to now with `walk_in: true`). Staff book outside the access rules’ grid, but the tables must be active, seat ' +
          'the party and be free and unblocked for the stay: `table_ids` names them; omitted, the best free tables are chosen; empty, ' +
          'the booking has no table yet. The stay lasts `duration_minutes` (default: the venue’s, plus smart duration when on). Status ' +
          'defaults to `confirmed` (`checked_in` for a walk-in); a confirmed or approved booking with an email is mailed a ' +
          'confirmation unless `send_confirmation: false`. 409 when the tables are taken, blocked or too small.',
        ...common,
        body: StaffTableBookingBody,
        response: { 200: StaffCreated, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: write,
    },
    async (request) => create.createTableBooking(authOf(request), venueOf(request), request.body, idempotencyKeyOf(request.headers)),
  );

  app.post(
    '/api/my-venues/:venueId/staff-guestlist-bookings',
    {
      schema: {
        summary: 'Put a guest on the guest list',
        description:
          'Extension (staff reservation floor). `party_size` is the guest and their plus-ones; `access_rule_id` (a guest-list rule) ' +
          'files it under that list and gives its arrival time unless `time` is sent. No table is held. Status defaults to ' +
          '`approved`; the guest is mailed a confirmation when they have an email, unless `send_confirmation: false`.',
        ...common,
        body: StaffGuestlistBookingBody,
        response: { 200: StaffCreated, ...errorResponses(400, 401, 403, 404, 409) },
      },
      onRequest: write,
    },
    async (request) => create.createGuestlistBooking(authOf(request), venueOf(request), request.body, idempotencyKeyOf(request.headers)),
  );
};
