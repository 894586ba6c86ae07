/** TypeBox schemas of the events routes (spec: Event, Ticket type, Events, the event rows of the public widget endpoints). */
import { Type, type Static } from 'typebox';
import { ClockTime, DateString, Email, HttpUrl, IdText, ImageUrl, Nullable } from '../../platform/http.js';
import { PagedList, pagingQueryFields } from '../../platform/paging.js';

export const EVENT_STATUSES = ['draft', 'approved', 'cancelled', 'rejected', 'pending_venue_approval'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export const Attribution = Type.Object({ photographer: Type.String(), photographer_url: Type.String(), unsplash_url: Type.String() });

const Text = (max: number) => Type.String({ maxLength: max });
const Capacity = Type.Integer({ minimum: 0, maximum: 1_000_000 });

const editable = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  event_date: DateString,
  start_time: Type.Optional(Nullable(ClockTime)),
  end_time: Type.Optional(Nullable(ClockTime)),
  last_entry_time: Type.Optional(Nullable(ClockTime)),
  event_type: Type.Optional(Nullable(Text(100))),
  event_genre: Type.Optional(Nullable(Text(100))),
  description: Type.Optional(Nullable(Text(10_000))),
  guest_list_capacity: Type.Optional(Nullable(Capacity)),
  visibility: Type.Optional(Type.Literal('public', { description: 'Always `public`' })),
  event_mode: Type.Optional(Type.Literal('ticketed', { description: 'Always `ticketed`' })),
  image_url: Type.Optional(Nullable(Type.Union([Type.Literal(''), ImageUrl()]))),
  image_attribution: Type.Optional(
    Nullable(
      Type.Object(
        {
          photographer: Type.String({ maxLength: 200 }),
          photographer_url: HttpUrl(),
          unsplash_url: HttpUrl(),
        },
        { description: 'Extension: the stock photo credit `generate-image` answered; cleared when image_url changes without one' },
      ),
    ),
  ),
};

export const EventCreateBody = Type.Object({
  venue_id: IdText,
  ...editable,
  status: Type.Optional(
    Type.Union([Type.Literal('approved'), Type.Literal('draft'), Type.Literal('pending_venue_approval')], {
      description: '`approved` publishes at once (refused by a same-day approved or pending event); `draft` by default',
    }),
  ),
});
export type EventCreateBody = Static<typeof EventCreateBody>;

export const EventUpdateBody = Type.Object({
  ...editable,
  venue_id: Type.Optional(IdText),
  status: Type.Optional(
    Type.Union([Type.Literal('approved'), Type.Literal('draft'), Type.Literal('cancelled'), Type.Literal('rejected')], {
      description: 'Moves the status as `PATCH …/status` does, after the other fields',
    }),
  ),
  name: Type.Optional(editable.name),
  event_date: Type.Optional(editable.event_date),
});
export type EventUpdateBody = Static<typeof EventUpdateBody>;

export const EventStatusBody = Type.Object({
  status: Type.Union([Type.Literal('approved'), Type.Literal('draft'), Type.Literal('cancelled'), Type.Literal('rejected')]),
});

export const RejectBody = Type.Object({
  reason: Type.Optional(Type.String({ maxLength: 1000, description: 'Extension: mailed to the promoter who submitted the event' })),
});

export const EventParams = Type.Object({ id: Type.String() });
export const EventIdParams = Type.Object({ eventId: Type.String() });
export const TicketParams = Type.Object({ eventId: Type.String(), ticketId: Type.String() });
export const VenueEventsParams = Type.Object({ id: Type.String() });

export const EventListQuery = Type.Object({
  ...pagingQueryFields,
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, description: '1-based page: `offset = (page - 1) × limit`' })),
});
export type EventListQuery = Static<typeof EventListQuery>;

const eventFields = {
  id: Type.String(),
  venue_id: Type.String(),
  venue_name: Type.String(),
  name: Type.String(),
  event_date: Type.String(),
  start_time: Nullable(Type.String()),
  end_time: Nullable(Type.String()),
  last_entry_time: Nullable(Type.String()),
  event_type: Nullable(Type.String()),
  event_genre: Nullable(Type.String()),
  description: Nullable(Type.String()),
  guest_list_capacity: Nullable(Type.Integer()),
  committed_guests: Type.Integer(),
  status: Type.String(),
  visibility: Type.String(),
  event_mode: Type.String(),
  image_url: Nullable(Type.String()),
  image_attribution: Nullable(Attribution),
  app_listing_status: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
};
export const EventRecord = Type.Object(eventFields);
export type EventRecord = Static<typeof EventRecord>;
export const EventList = PagedList(EventRecord, 'Events by date, start time and id');
export const EventResult = Type.Object({ data: EventRecord });

export const EventCreated = Type.Object({ success: Type.Boolean(), id: Type.String(), cancelled_bookings: Type.Integer() });
export const StatusResult = Type.Object({ success: Type.Boolean(), status: Type.String(), cancelled_bookings: Type.Integer() });
export const TransitionResult = Type.Object({ success: Type.Boolean(), cancelled_bookings: Type.Integer() });
export const ListingResult = Type.Object({ app_listing_status: Type.String() });

export const ConflictQuery = Type.Object({
  venue_id: IdText,
  date: DateString,
  exclude_event_id: Type.Optional(IdText),
});
export const ConflictResult = Type.Object({
  has_event_conflict: Type.Boolean(),
  events: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), status: Type.String() })),
  affected_bookings: Type.Integer(),
  affected_guests: Type.Integer(),
});

export const StatsResult = Type.Object({
  capacity: Nullable(Type.Integer()),
  event_mode: Type.String(),
  total_bookings: Type.Integer(),
  active_bookings: Type.Integer(),
  approved: Type.Integer({ description: 'Approved or confirmed bookings' }),
  pending: Type.Integer({ description: 'Bookings awaiting the venue or payment' }),
  checked_in: Type.Integer(),
  cancelled: Type.Integer(),
  committed_guests: Type.Integer(),
  revenue: Type.Integer({ description: 'Pence taken for tickets, less refunds' }),
  timeline: Type.Array(Type.Object({ date: Type.String(), count: Type.Integer() })),
  recent: Type.Array(
    Type.Object({ id: Type.String(), status: Type.String(), guest_count: Type.Integer(), user_name: Nullable(Type.String()) }),
  ),
  tickets: Type.Array(
    Type.Object({ ticket_type_id: Type.String(), name: Type.String(), capacity: Nullable(Type.Integer()), sold: Type.Integer() }),
    { description: 'Extension: tickets held by active bookings per ticket type' },
  ),
});

export const DoorRow = Type.Object({
  id: Type.String(),
  status: Type.String(),
  guest_count: Type.Integer(),
  guest_name: Nullable(Type.String()),
  guest_email: Nullable(Type.String()),
  guest_phone: Nullable(Type.String()),
  ticket_type_id: Nullable(Type.String()),
  ticket_name: Nullable(Type.String()),
  quantity: Type.Integer(),
  total_pence: Type.Integer(),
  payment_status: Type.String(),
  checked_in_at: Nullable(Type.String()),
  created_at: Type.String(),
});
export const DoorList = Type.Object({ data: Type.Array(DoorRow) });

export const CancellationPreview = Type.Object({
  event_id: Type.String(),
  status: Type.String(),
  bookings: Type.Array(
    Type.Object({
      id: Type.String(),
      status: Type.String(),
      guest_count: Type.Integer(),
      guest_name: Nullable(Type.String()),
      guest_email: Nullable(Type.String()),
      ticket_name: Nullable(Type.String()),
      quantity: Type.Integer(),
      payment_status: Type.String(),
      paid_pence: Type.Integer({ description: 'What the guest paid (0 when nothing was taken)' }),
      refund_pence: Type.Integer({ description: 'What the cancellation would refund: the payment less refunds already made' }),
      outcome: Type.Union([Type.Literal('refund'), Type.Literal('release_payment'), Type.Literal('cancel')], {
        description: '`refund` (paid: refunded), `release_payment` (awaiting payment: the payment is called off), `cancel` (nothing taken)',
      }),
    }),
    { description: 'The bookings the cancellation would cancel, oldest first' },
  ),
  cancelled_bookings: Type.Integer({ description: 'How many bookings it would cancel' }),
  refunded_bookings: Type.Integer({ description: 'How many of them would be refunded' }),
  refund_pence: Type.Integer({ description: 'The total it would refund' }),
  kept_checked_in: Type.Integer({ description: 'Checked-in bookings, which a cancellation leaves as they are' }),
});

export const ImageBody = Type.Object({
  data: Type.String({ description: 'A base64 image data URL (PNG, JPEG, WebP or GIF), at most 2 MB' }),
});
export const ImageResult = Type.Object({ url: Type.String() });
export const GenerateImageBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  event_type: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
});
export const GenerateImageResult = Type.Object({ success: Type.Boolean(), url: Type.String(), attribution: Attribution });

/** Tickets of one type a single order may take unless the venue sets otherwise (security round 2). */
export const DEFAULT_MAX_PER_ORDER = 10;

export const TicketTypeBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  price_pence: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
  capacity: Type.Optional(Nullable(Capacity)),
  sort_order: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
  max_per_order: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 50,
      description: `Extension: the most tickets of this type one order may take (default ${DEFAULT_MAX_PER_ORDER})`,
    }),
  ),
  admission_rule_group_id: Type.Optional(Nullable(IdText)),
  ticket_profile_id: Type.Optional(Nullable(IdText)),
});
export type TicketTypeBody = Static<typeof TicketTypeBody>;
export const TicketTypeRecord = Type.Object({
  id: Type.String(),
  event_id: Type.String(),
  name: Type.String(),
  price_pence: Type.Integer(),
  capacity: Nullable(Type.Integer()),
  sort_order: Type.Integer(),
  max_per_order: Type.Integer({ description: 'Extension: the most tickets of this type one order may take' }),
  admission_rule_group_id: Nullable(Type.String()),
  ticket_profile_id: Nullable(Type.String()),
  sold: Type.Integer({ description: 'Extension: tickets held by active bookings' }),
});
export const TicketTypeList = Type.Object({ data: Type.Array(TicketTypeRecord) });

// Public (guest-facing)
export const PublicVenueParams = Type.Object({ venueId: Type.String() });
export const PublicEventParams = Type.Object({ eventId: Type.String() });

const publicEventFields = {
  id: Type.String(),
  name: Type.String(),
  event_date: Type.String(),
  start_time: Nullable(Type.String()),
  end_time: Nullable(Type.String()),
  last_entry_time: Nullable(Type.String()),
  event_type: Nullable(Type.String()),
  event_genre: Nullable(Type.String()),
  description: Nullable(Type.String()),
  image_url: Nullable(Type.String()),
  image_attribution: Nullable(Attribution),
};
export const EventsWidget = Type.Object({
  venue: Type.Object({ id: Type.String(), name: Type.String(), timezone: Type.String() }),
  events: Type.Array(Type.Object({ ...publicEventFields, from_price_pence: Nullable(Type.Integer()), sold_out: Type.Boolean() })),
});

export const PublicTicketType = Type.Object({
  id: Type.String(),
  name: Type.String(),
  price_pence: Type.Integer(),
  remaining: Nullable(Type.Integer({ description: 'Tickets left; null when unlimited or the ticket profile hides capacity' })),
  sold_out: Type.Boolean(),
  requires_confirmation: Type.Boolean(),
  max_per_order: Type.Integer({ description: 'Extension: the most tickets of this type one order may take' }),
});
export const BookingOptions = Type.Object({
  event: Type.Object({ ...publicEventFields, venue_id: Type.String(), venue_name: Type.String() }),
  ticket_types: Type.Array(
    Type.Object({
      ...PublicTicketType.properties,
      member_price_pence: Nullable(
        Type.Integer({
          description:
            'Extension: the signed-in guest’s member price (their running membership of the venue’s operator, docs/memberships.md); ' +
            'null for anyone else',
        }),
      ),
    }),
  ),
  bundles: Type.Array(Type.Unknown()),
  policy: Type.String({ description: 'The venue’s events booking policy text' }),
  publishable_key: Nullable(Type.String()),
});

export const CreateIntentBody = Type.Object({
  selection: Type.Object({
    kind: Type.Literal('ticket'),
    ticket_type_id: IdText,
    quantity: Type.Integer({ minimum: 1, maximum: 50 }),
    party_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
  }),
  guest_name: Type.String({ minLength: 1, maxLength: 200 }),
  guest_email: Email,
  turnstile_token: Type.Optional(Type.String({ maxLength: 4096 })),
});
export type CreateIntentBody = Static<typeof CreateIntentBody>;
export const CreateIntentResult = Type.Object({
  booking_id: Type.String(),
  status: Type.String(),
  free: Type.Optional(Type.Boolean()),
  requires_payment: Type.Optional(Type.Boolean()),
  requires_confirmation: Type.Optional(Type.Boolean()),
  payment_intent_id: Type.Optional(Type.String()),
  client_secret: Type.Optional(Type.String()),
  amount_pence: Type.Integer(),
});
export type CreateIntentResult = Static<typeof CreateIntentResult>;
export const FinalizeBody = Type.Object({ payment_intent_id: IdText });
export const FinalizeResult = Type.Object({
  success: Type.Boolean(),
  booking_id: Type.String(),
  status: Type.String(),
  payment_status: Type.String(),
});
