/**
 * The smart-table pass's preview for staff (an extension beyond the spec): what the daily pass would do
 * to one service date's table reservations, gated by the `tables` permission. The settings themselves
 * (`GET`/`PUT …/smart-tables`) are the tables module's.
 */
import { Type } from 'typebox';
import type { GuardFactory } from '../../../platform/auth-guard.js';
import { venueOf } from '../../../platform/auth-guard.js';
import { DateString, Nullable, VenueParams, errorResponses } from '../../../platform/http.js';
import type { RoutePlugin } from '../../../platform/module.js';
import type { SmartTablesService } from './smart-tables.service.js';

const PreviewQuery = Type.Object({ date: DateString });

const Seating = Type.Object({
  table_ids: Type.Array(Type.String()),
  table_numbers: Type.Array(Type.String()),
  capacity: Type.Integer({ description: 'Seats of these tables together' }),
});

const bookingFields = {
  booking_id: Type.String(),
  guest_name: Nullable(Type.String()),
  start_time: Nullable(Type.String({ description: 'Venue-local HH:MM' })),
  party_size: Type.Integer(),
};

const ShortGaps = Type.Object(
  {
    short_gaps: Type.Integer({ description: 'Free gaps between two holds on a table that are shorter than a default-length booking' }),
    short_gap_minutes: Type.Integer({ description: 'The minutes in those gaps: table time nobody can book' }),
  },
  { description: 'Over every table, for the service date’s holds as they are (`before`) or after the moves (`after`)' },
);

const Preview = Type.Object(
  {
    date: Type.String(),
    moves: Type.Array(Type.Object({ ...bookingFields, from: Seating, to: Seating })),
    blocked: Type.Array(
      Type.Object({
        ...bookingFields,
        tables: Seating,
        reason: Type.Enum(['locked', 'guest_pick', 'unplaced', 'size', 'already_best', 'no_better_table']),
      }),
    ),
    seats_freed: Type.Integer(),
    fragmentation: Type.Object({ before: ShortGaps, after: ShortGaps }),
  },
  { description: 'The plan: moves, the bookings that stay and why, seats freed, and short gaps before and after' },
);

export const smartTablesRoutes: RoutePlugin<{ guard: GuardFactory; smartTables: SmartTablesService }> = async (
  app,
  { guard, smartTables },
) => {
  app.get(
    '/api/my-venues/:venueId/smart-tables/preview',
    {
      schema: {
        summary: 'Preview the smart-table pass for a date',
        description:
          'Extension. What the daily smart-table pass would do, now, to the table reservations of the venue-local `date` that are ' +
          'active and not yet started or checked in. Changes nothing. `moves`: each booking it would move to a smaller seating ' +
          '(fewer seats, or as many on fewer tables), `from` and `to`, by start time. `blocked`: every other such booking and why ' +
          'it stays: `locked` (staff locked its tables), `guest_pick` (booked by a guest under a guest-pick rule, so the guest may ' +
          'have chosen the table), `unplaced` (no table, or one not on the floorplan), `size` (no permitted seating takes the party), ' +
          '`already_best`, `no_better_table` (a better one is held at that time). `seats_freed`: seats no longer held by a smaller ' +
          'party. `fragmentation`: the gaps between two holds on a table that are too short for a booking of the venue’s default ' +
          'length (table time nobody can book), how many and their minutes, before and after the moves. The pass itself runs daily ' +
          'at the venue-local `reassign_time` when `reassign_enabled` (`PUT …/smart-tables`), over today and the next six days.',
        tags: ['tables'],
        security: [{ bearer: [] }],
        params: VenueParams,
        querystring: PreviewQuery,
        response: { 200: Preview, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: guard({ permission: 'tables:read', venueParam: 'venueId' }),
    },
    async (request) => smartTables.preview(venueOf(request), request.query.date),
  );
};
