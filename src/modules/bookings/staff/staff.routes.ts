/**
 * The staff reservation floor (decisions: the staff reservation floor; CONTRACT §5, an extension beyond
 * the spec), gated by the `bookings` permission: the venue bookings list, and `/api/bookings/:id…`,
 * which reach a booking through its venue (404 when the caller cannot). Every change answers
 * `{ success: true, booking }` with the booking as it now is, and is written to its history.
 */
import type { FastifyRequest } from 'fastify';
import type { GuardFactory } from '../../../platform/auth-guard.js';
import { authOf, venueOf } from '../../../platform/auth-guard.js';
import { errorResponses } from '../../../platform/http.js';
import type { RoutePlugin } from '../../../platform/module.js';
import {
  AssignTablesBody,
  BookingChanged,
  BookingDetail,
  BookingList,
  BookingListQuery,
  BookingParams,
  CancelBody,
  CaptureBody,
  DetailsBody,
  DurationBody,
  HoldRequestBody,
  HoldRequested,
  LifecycleBody,
  LockBody,
  MoveBody,
  StatusBody,
  VenueBookingsParams,
} from './bookings.schemas.js';
import type { StaffService } from './staff.service.js';

/** Routes whose body may be left out: no body reads as `{}`. */
const optionalBody = async (request: FastifyRequest) => {
  request.body ??= {};
};

const CHANGED = { 200: BookingChanged, ...errorResponses(400, 401, 403, 404, 409) };

export const staffRoutes: RoutePlugin<{ guard: GuardFactory; staff: StaffService }> = async (app, { guard, staff }) => {
  const read = guard({ permission: 'bookings:read' });
  const write = guard({ permission: 'bookings:write' });
  const common = { tags: ['bookings'], security: [{ bearer: [] }] };

  app.get(
    '/api/my-venues/:venueId/bookings',
    {
      schema: {
        summary: 'List the venue’s bookings',
        description:
          'Extension (staff reservation floor). Sorted by `booking_date`, `start_time` (bookings without one first) and `id`. ' +
          'Filters: `date` (one venue-local day), `from`/`to` (inclusive day range), `status` (one status or a comma-separated list), ' +
          '`q` (part of the guest’s name, email or phone, case-insensitive). ' +
          'Offset paging by default (`limit` default 50, at most 200; `offset`): `{ data, total, limit, offset, has_more }`. ' +
          'With `paging=cursor` (then the returned `cursor`): `{ data, limit, has_more, cursor }`, `cursor` null on the last page.',
        ...common,
        params: VenueBookingsParams,
        querystring: BookingListQuery,
        response: { 200: BookingList, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: guard({ permission: 'bookings:read', venueParam: 'venueId' }),
    },
    async (request) => staff.list(venueOf(request), request.query),
  );

  app.get(
    '/api/bookings/:id',
    {
      schema: {
        summary: 'A booking with its tables, payment and history',
        ...common,
        params: BookingParams,
        response: { 200: BookingDetail, ...errorResponses(401, 403, 404) },
      },
      onRequest: read,
    },
    async (request) => staff.get(authOf(request), request.params.id),
  );

  const statusMoves = [
    ['approve', 'Approve a booking', 'From `pending` to `approved`.', staff.approve],
    ['reject', 'Reject a booking', 'From `pending` or `approved`; its tables are freed (kept on record for `unreject`).', staff.reject],
    [
      'unreject',
      'Return a rejected booking to pending',
      'From `rejected` only. The booking takes its tables back: 409 when another booking has taken them since (unassign or assign others first).',
      staff.unreject,
    ],
  ] as const;
  for (const [path, summary, description, move] of statusMoves) {
    app.post(
      `/api/bookings/:id/${path}`,
      {
        schema: {
          summary,
          description: `Extension (staff reservation floor). ${description} A move the status table does not allow is a 409 naming the current \`status\`.`,
          ...common,
          params: BookingParams,
          response: CHANGED,
        },
        onRequest: write,
      },
      async (request) => move(authOf(request), request.params.id),
    );
  }

  app.post(
    '/api/bookings/:id/staff-cancel',
    {
      schema: {
        summary: 'Cancel a booking as the venue',
        description:
          'Extension (staff reservation floor). Body (optional): `{ reason?, refund? }`. With `refund: true` a paid deposit or captured ' +
          'hold is refunded (what is not refunded yet) and a card hold is released, before the booking is cancelled; without it the ' +
          'money is left as it is. The guest is mailed a cancellation notice (with the reason) when the booking has an email. ' +
          'Its tables are freed. 409 (naming `status`) when the booking cannot be cancelled.',
        ...common,
        params: BookingParams,
        body: CancelBody,
        response: { ...CHANGED, ...errorResponses(402, 502, 503) },
      },
      onRequest: write,
      preValidation: optionalBody,
    },
    async (request) => staff.cancel(authOf(request), request.params.id, request.body),
  );

  app.patch(
    '/api/bookings/:id/status',
    {
      schema: {
        summary: 'Move a booking to another status',
        description:
          'Extension (staff reservation floor). Body `{ status, force? }`: `pending`, `approved`, `confirmed`, `checked_in`, `cancelled`, ' +
          '`rejected` or `no_show`, as the status table allows (409 naming the current `status` otherwise). `cancelled` is a staff ' +
          'cancel without refund (the guest is mailed). A booking leaving the active statuses frees its tables. ' +
          '`checked_in` only on the booking’s service date, from the venue’s `check_in_window_minutes` before its time until its end ' +
          '(409 naming the booking’s date and time, `reason` `too_early` or `too_late`); a booking already checked in is 409 ' +
          '"Already checked in at HH:MM" (`reason: already_checked_in`). `no_show` only once the booking’s time has passed (409, ' +
          '`reason: too_early`). `force: true` overrides both time rules and is recorded in the history. A no-show is undone by ' +
          'sending the status it replaced, until 06:00 the morning after its date (or its end, when later); other moves from ' +
          '`no_show` are 409 (`reason` `no_show_undo` or `service_day_over`, with `previous_status`).',
        ...common,
        params: BookingParams,
        body: StatusBody,
        response: CHANGED,
      },
      onRequest: write,
    },
    async (request) => staff.setStatus(authOf(request), request.params.id, request.body.status, request.body.force === true),
  );

  app.patch(
    '/api/bookings/:id/details',
    {
      schema: {
        summary: 'Change a booking’s guest details, party size or notes',
        description:
          'Extension (staff reservation floor). Body: any of `guest_name` (not blank), `guest_email`, `guest_phone`, `notes` ' +
          '(null or blank clears them) and `guest_count`. Raising `guest_count` beyond what the booking’s tables seat is a 409: ' +
          'assign bigger tables first.',
        ...common,
        params: BookingParams,
        body: DetailsBody,
        response: CHANGED,
      },
      onRequest: write,
    },
    async (request) => staff.updateDetails(authOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/bookings/:id/lock',
    {
      schema: {
        summary: 'Lock or unlock a booking’s tables',
        description:
          'Extension (staff reservation floor). Body `{ locked }`: a locked booking keeps its tables through auto-assign and the smart-table pass.',
        ...common,
        params: BookingParams,
        body: LockBody,
        response: CHANGED,
      },
      onRequest: write,
    },
    async (request) => staff.setLock(authOf(request), request.params.id, Boolean(request.body.locked)),
  );

  app.post(
    '/api/bookings/:id/lifecycle',
    {
      schema: {
        summary: 'Record or clear a step of the guests’ visit',
        description:
          'Extension (staff reservation floor). Body `{ flag, value }`, flag `arrived`, `late` (the guests said they are running late), `seated`, `mains`, `dessert`, `bill` or `left`: ' +
          '`value: true` records the time now in the booking’s `lifecycle` (a flag already set keeps its first time), `false` clears it.',
        ...common,
        params: BookingParams,
        body: LifecycleBody,
        response: CHANGED,
      },
      onRequest: write,
    },
    async (request) => staff.setLifecycle(authOf(request), request.params.id, request.body.flag, Boolean(request.body.value)),
  );

  app.post(
    '/api/bookings/:id/duration',
    {
      schema: {
        summary: 'Change how long a booking holds its tables',
        description:
          'Extension (staff reservation floor). Body `{ duration_minutes }` (15 to 1440), from the same start. The tables are held ' +
          'again for the new stay: 409 when another booking or a block holds one of them in it, or when the booking is not active ' +
          'or its table was closed.',
        ...common,
        params: BookingParams,
        body: DurationBody,
        response: CHANGED,
      },
      onRequest: write,
    },
    async (request) => staff.setDuration(authOf(request), request.params.id, request.body.duration_minutes),
  );

  app.post(
    '/api/bookings/:id/close',
    {
      schema: {
        summary: 'Close a booking’s table now',
        description:
          'Extension (staff reservation floor). The guests have left: `closed_at` is now, `ends_at` becomes now (if the stay had not ended) ' +
          'and the tables are free from now on. The status is unchanged. 409 when the booking is not active, has not started, or was closed.',
        ...common,
        params: BookingParams,
        response: CHANGED,
      },
      onRequest: write,
    },
    async (request) => staff.close(authOf(request), request.params.id),
  );

  app.post(
    '/api/bookings/:id/assign-table',
    {
      schema: {
        summary: 'Seat a booking at other tables',
        description:
          'Extension (staff reservation floor). Body `{ table_ids }` replaces the booking’s tables; each is a `tbl_…` id or the ' +
          'table’s number as printed on the floor (`6`). Each must be a table of the ' +
          'booking’s venue (404 otherwise) and active; together they must seat the party; and they must be free and unblocked for ' +
          'the stay (409 naming the tables otherwise). The booking must be active, timed and not closed.',
        ...common,
        params: BookingParams,
        body: AssignTablesBody,
        response: CHANGED,
      },
      onRequest: write,
    },
    async (request) => staff.assignTables(authOf(request), request.params.id, request.body.table_ids),
  );

  app.post(
    '/api/bookings/:id/move',
    {
      schema: {
        summary: 'Move a booking to another time, and tables',
        description:
          'Extension (staff reservation floor: drag a booking along the grid). Body `{ time, date?, table_ids? }`: the booking ' +
          'starts at `time` (venue-local, 24-hour) on `date` (its own date when omitted; a time after midnight belongs to the ' +
          'date given, as when a booking is made) and keeps its length. `table_ids` seats it at those tables for the new time ' +
          '(a combination moves together: name all its tables), its own tables when omitted, none when empty (the unassigned ' +
          'strip). Tables are checked as for `assign-table` (404 for a table of another venue, 409 naming the tables when ' +
          'inactive, too small, taken or blocked). The booking must be active, timed and not closed (409). Staff may move ' +
          'it outside the access rule’s hours; the guest is not mailed. Recorded in the history as `move` with `from` and `to`.',
        ...common,
        params: BookingParams,
        body: MoveBody,
        response: CHANGED,
      },
      onRequest: write,
    },
    async (request) => staff.move(authOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/bookings/:id/unassign-table',
    {
      schema: {
        summary: 'Take a booking off its tables',
        description:
          'Extension (staff reservation floor). The booking keeps its time without a table; its tables are free. For active or rejected bookings.',
        ...common,
        params: BookingParams,
        response: CHANGED,
      },
      onRequest: write,
    },
    async (request) => staff.unassignTables(authOf(request), request.params.id),
  );

  app.post(
    '/api/bookings/:id/auto-assign',
    {
      schema: {
        summary: 'Seat a booking at the best free tables',
        description:
          'Extension (staff reservation floor). The smallest free table or combination that seats the party for its stay and ' +
          'leaves the evening least broken up (its own tables count as free; blocks are respected). Nothing changes when its ' +
          'tables are already the best. 409 when its tables are locked, it is not active, or nothing free seats the party.',
        ...common,
        params: BookingParams,
        response: CHANGED,
      },
      onRequest: write,
    },
    async (request) => staff.autoAssign(authOf(request), request.params.id),
  );

  app.post(
    '/api/bookings/:id/hold/capture',
    {
      schema: {
        summary: 'Capture a booking’s card hold',
        description:
          'Extension (staff reservation floor). Body (optional) `{ amount_pence? }`: part of the hold, all of it when omitted. ' +
          '`payment_status` becomes `captured` with `captured_pence`. Idempotent: capturing a captured hold answers the same. ' +
          '409 when the hold was released or there is no authorised hold.',
        ...common,
        params: BookingParams,
        body: CaptureBody,
        response: { ...CHANGED, ...errorResponses(402, 502, 503) },
      },
      onRequest: write,
      preValidation: optionalBody,
    },
    async (request) => staff.captureHold(authOf(request), request.params.id, request.body.amount_pence),
  );

  app.post(
    '/api/bookings/:id/hold/release',
    {
      schema: {
        summary: 'Release a booking’s card hold',
        description:
          'Extension (staff reservation floor). `payment_status` becomes `released`. Idempotent: releasing a released hold answers ' +
          'the same. 409 when the hold was captured or there is no hold.',
        ...common,
        params: BookingParams,
        response: { ...CHANGED, ...errorResponses(502, 503) },
      },
      onRequest: write,
    },
    async (request) => staff.releaseHold(authOf(request), request.params.id),
  );

  app.post(
    '/api/bookings/:id/hold/request',
    {
      schema: {
        summary: 'Ask the guest for a card hold',
        description:
          'Extension (staff reservation floor). Body (optional) `{ amount_pence? }` (at least 50; the booking’s deposit amount when ' +
          'omitted). Creates a manual-capture payment intent for the booking and answers `{ payment_client_secret, payment_intent_id }` ' +
          'for the payment widget; the booking’s `payment_status` is `requires_payment` until the card is authorised (`held`). A ' +
          'repeat while the guest has not given a card answers the same intent (a new one if the amount changed). 409 when the ' +
          'booking already holds or took money, or is not active.',
        ...common,
        params: BookingParams,
        body: HoldRequestBody,
        response: { 200: HoldRequested, ...errorResponses(400, 401, 403, 404, 409, 502, 503) },
      },
      onRequest: write,
      preValidation: optionalBody,
    },
    async (request) => staff.requestHold(authOf(request), request.params.id, request.body.amount_pence),
  );
};
