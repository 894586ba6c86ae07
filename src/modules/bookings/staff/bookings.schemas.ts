/** The booking as staff see it (`GET /api/bookings/:id`, the venue bookings list) and shared pieces. */
import { Type, type Static } from 'typebox';
import { BOOKING_STATUSES } from '../../../domain/booking-status.js';
import { ClockTime, DateString, Email, IdText, Nullable, Toggle } from '../../../platform/http.js';
import { PagedList, pagingQueryFields } from '../../../platform/paging.js';

export const BookingStatusSchema = Type.Enum([...BOOKING_STATUSES]);

export const BookingParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const HistoryItem = Type.Object({
  at: Type.String(),
  actor: Type.Object({ kind: Type.String(), id: Nullable(Type.String()), name: Nullable(Type.String()) }),
  action: Type.String(),
  from_status: Nullable(Type.String()),
  to_status: Nullable(Type.String()),
  detail: Type.Record(Type.String(), Type.Unknown()),
});

/** A booking in the venue bookings list (the spec's list fields first). */
const summaryFields = {
  id: Type.String(),
  reference: Nullable(Type.String({ description: 'extension: the short reference the guest gives at the door' })),
  status: BookingStatusSchema,
  guest_count: Type.Integer(),
  booking_date: Type.String(),
  venue_name: Type.String(),
  user_name: Nullable(Type.String()),
  venue_id: Type.String(),
  kind: Type.String(),
  rule_type: Nullable(Type.String()),
  access_rule_id: Nullable(Type.String()),
  start_time: Nullable(Type.String()),
  duration_minutes: Nullable(Type.Integer()),
  starts_at: Nullable(Type.String()),
  ends_at: Nullable(Type.String()),
  guest_name: Nullable(Type.String()),
  guest_email: Nullable(Type.String()),
  guest_phone: Nullable(Type.String()),
  table_ids: Type.Array(Type.String()),
  table_locked: Type.Boolean(),
  source: Type.String(),
  deposit_type: Type.String(),
  deposit_pence: Type.Integer(),
  payment_status: Type.String(),
  captured_pence: Type.Integer(),
  refunded_pence: Type.Integer(),
  created_at: Type.String(),
  // What the reservation floor shows on a pill (extension): notes, the visit's steps (`late` among them),
  // and when the guests were checked in and their table closed.
  notes: Nullable(Type.String()),
  lifecycle: Type.Record(Type.String(), Type.String(), {
    description: 'flag → when it was set: arrived, late, seated, mains, dessert, bill, left',
  }),
  checked_in_at: Nullable(Type.String()),
  closed_at: Nullable(Type.String()),
  guest_confirmed_at: Nullable(
    Type.String({
      description: 'extension: when the guest confirmed through a reminder’s confirm link (docs/messages.md); null: not (yet)',
    }),
  ),
};
export const BookingSummary = Type.Object(summaryFields);
export type BookingSummary = Static<typeof BookingSummary>;

export const BookingDetail = Type.Object({
  ...summaryFields,
  bundle_selections: Type.Array(Type.Object({ bundle_id: Type.String(), quantity: Type.Integer() })),
  cancelled_at: Nullable(Type.String()),
  cancel_reason: Nullable(Type.String()),
  payment_expires_at: Nullable(Type.String()),
  history: Type.Array(HistoryItem),
});
export type BookingDetail = Static<typeof BookingDetail>;

/** Statuses staff may set with `PATCH /api/bookings/:id/status` (payment expiry and door rejection have their own paths). */
export const STAFF_SETTABLE_STATUSES = ['pending', 'approved', 'confirmed', 'checked_in', 'cancelled', 'rejected', 'no_show'] as const;
export type StaffSettableStatus = (typeof STAFF_SETTABLE_STATUSES)[number];

export const LIFECYCLE_FLAGS = ['arrived', 'late', 'seated', 'mains', 'dessert', 'bill', 'left'] as const;
export type LifecycleFlag = (typeof LIFECYCLE_FLAGS)[number];

export const VenueBookingsParams = Type.Object({ venueId: Type.String({ minLength: 1, maxLength: 100 }) });

export const BookingListQuery = Type.Object({
  date: Type.Optional(DateString),
  from: Type.Optional(DateString),
  to: Type.Optional(DateString),
  status: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'One status or a comma-separated list' })),
  q: Type.Optional(Type.String({ maxLength: 100, description: 'Part of the guest’s name, email or phone (case-insensitive)' })),
  ...pagingQueryFields,
});
export type BookingListQuery = Static<typeof BookingListQuery>;

export const BookingList = PagedList(
  BookingSummary,
  'Bookings by date, start time and id: offset paging `{ data, total, limit, offset, has_more }`, or with `paging=cursor` `{ data, limit, has_more, cursor }`',
);

/** What every booking change answers: the booking as it now is. */
export const BookingChanged = Type.Object(
  { success: Type.Boolean(), booking: BookingDetail },
  { description: 'Done: `{ success: true, booking }` with the booking as it now is (tables, payment, history)' },
);
export type BookingChanged = Static<typeof BookingChanged>;

/** Staff override of the door's timing (security round 2), recorded in the booking's history. */
export const Force = Type.Boolean({
  description:
    'Extension: `true` checks in outside the venue’s check-in window, or marks a no-show before the booking’s time; the history records it (`detail.forced`)',
});

export const StatusBody = Type.Object({ status: Type.Enum([...STAFF_SETTABLE_STATUSES]), force: Type.Optional(Force) });

export const CancelBody = Type.Object({
  reason: Type.Optional(Type.String({ maxLength: 500 })),
  refund: Type.Optional(Toggle),
});
export type CancelBody = Static<typeof CancelBody>;

export const DetailsBody = Type.Object({
  guest_name: Type.Optional(Type.String({ maxLength: 200 })),
  guest_email: Type.Optional(Nullable(Email)),
  guest_phone: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
  guest_count: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
});
export type DetailsBody = Static<typeof DetailsBody>;

export const LockBody = Type.Object({ locked: Toggle });

export const LifecycleBody = Type.Object({
  flag: Type.Enum([...LIFECYCLE_FLAGS]),
  value: Toggle,
});

export const DurationBody = Type.Object({ duration_minutes: Type.Integer({ minimum: 15, maximum: 1440 }) });

export const AssignTablesBody = Type.Object({ table_ids: Type.Array(IdText, { minItems: 1, maxItems: 20 }) });

export const MoveBody = Type.Object({
  date: Type.Optional(DateString),
  time: ClockTime,
  table_ids: Type.Optional(
    Type.Array(IdText, { maxItems: 20, description: 'The tables for the new time; its own tables when omitted; empty: no table' }),
  ),
});
export type MoveBody = Static<typeof MoveBody>;

export const CaptureBody = Type.Object({
  amount_pence: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100_000_000, description: 'Part of the hold to capture; all of it when omitted' }),
  ),
});

export const HoldRequestBody = Type.Object({
  amount_pence: Type.Optional(
    Type.Integer({ minimum: 50, maximum: 100_000_000, description: 'The hold amount; the booking’s deposit amount when omitted' }),
  ),
});

export const HoldRequested = Type.Object(
  { payment_client_secret: Type.String(), payment_intent_id: Type.String() },
  { description: 'The card hold to confirm with the payment widget' },
);

const StaffCreateStatus = Type.Enum(['pending', 'approved', 'confirmed', 'checked_in'] as const);

/** Who a staff booking is for: a known guest (`user_id`, e.g. a walk-in guest's id) or a name with contact details. */
const staffGuestFields = {
  user_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'A guest already on the operator’s roster (404 otherwise); the phone copied is the one given to this operator',
    }),
  ),
  guest_name: Type.Optional(Type.String({ maxLength: 200, description: 'Required unless `user_id` names a guest' })),
  guest_email: Type.Optional(Nullable(Email)),
  guest_phone: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
  notes: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  send_confirmation: Type.Optional(Type.Boolean({ description: 'Mail the guest a confirmation (default true when they have an email)' })),
};

export const StaffTableBookingBody = Type.Object({
  date: Type.Optional(DateString),
  time: Type.Optional(ClockTime),
  party_size: Type.Integer({ minimum: 1, maximum: 1000 }),
  duration_minutes: Type.Optional(Type.Integer({ minimum: 15, maximum: 1440 })),
  table_ids: Type.Optional(Type.Array(IdText, { maxItems: 20, description: 'Omitted: the best free tables; empty: no table yet' })),
  access_rule_id: Type.Optional(IdText),
  walk_in: Type.Optional(Type.Boolean({ description: 'A guest at the door now: date and time default to now, status to `checked_in`' })),
  status: Type.Optional(StaffCreateStatus),
  ...staffGuestFields,
});

export const StaffGuestlistBookingBody = Type.Object({
  date: DateString,
  time: Type.Optional(ClockTime),
  party_size: Type.Integer({ minimum: 1, maximum: 1000, description: 'The guest and their plus-ones' }),
  access_rule_id: Type.Optional(IdText),
  status: Type.Optional(StaffCreateStatus),
  ...staffGuestFields,
});

export const StaffCreated = Type.Object(
  { success: Type.Boolean(), id: Type.String(), booking: BookingDetail },
  { description: 'Created: `{ success: true, id, booking }`' },
);

export const DoorRejectBody = Type.Object({
  booking_id: Type.Optional(IdText),
  qr_token: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
  reason: Type.Optional(Type.String({ maxLength: 500 })),
  refund: Type.Optional(Toggle),
});
export type DoorRejectBody = Static<typeof DoorRejectBody>;
