/** Schemas of the guest CRM routes (spec: Guest (roster), Guests (CRM)). */
import { Type, type Static } from 'typebox';
import { IdText, Nullable } from '../../platform/http.js';
import { PagedList, pagingQueryFields } from '../../platform/paging.js';

export const SEARCH_MIN = 2;
export const ROSTER_SEARCH_MAX = 50;
export const VENUE_SEARCH_MAX = 12;
export const TAGS_MAX = 50;
export const TAG_MAX_LENGTH = 50;

export const GuestParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

export const Guest = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    email: Type.String(),
    phone: Type.String({ description: "'' when unknown" }),
    membership_tier: Type.String({ description: "The guest's membership tier; '' without one" }),
    loyalty_points: Type.Integer({ description: '10 per visit plus 1 per whole £10 paid, at the caller’s venues' }),
    successful_visits: Type.Integer({ description: 'Bookings checked in at the caller’s venues' }),
    venue_ids: Type.String({ description: "Comma-separated ids of the caller's venues the guest is related to" }),
    profile_image_url: Nullable(Type.String()),
  },
  { description: 'A guest of the roster' },
);
export type GuestRow = Static<typeof Guest>;

export const RosterQuery = Type.Object({
  ...pagingQueryFields,
  tag: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: TAG_MAX_LENGTH,
      description: 'Extension: only guests with this tag (any case), operator-wide or at one of the caller’s venues',
    }),
  ),
  seen_since: Type.Optional(
    Type.String({
      format: 'date-time',
      maxLength: 40,
      description: 'Extension: only guests whose latest roster event is at or after this instant',
    }),
  ),
  seen_before: Type.Optional(
    Type.String({
      format: 'date-time',
      maxLength: 40,
      description: 'Extension: only guests whose latest roster event is before this instant',
    }),
  ),
});
export type RosterQuery = Static<typeof RosterQuery>;
export const Roster = PagedList(Guest, 'The roster: latest seen first (offset or cursor paging)');

const Q = (max: number) =>
  Type.Object({
    q: Type.String({
      minLength: SEARCH_MIN,
      maxLength: 200,
      description: `At least ${SEARCH_MIN} characters; a prefix of the name, a name word, the email or the phone. At most ${max} results.`,
    }),
  });
export const RosterSearchQuery = Q(ROSTER_SEARCH_MAX);
export const VenueSearchQuery = Q(VENUE_SEARCH_MAX);
export const GuestList = Type.Object({ data: Type.Array(Guest) });

export const VenueGuest = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  phone: Nullable(Type.String()),
  profile_image_url: Nullable(Type.String()),
});
export const VenueGuestList = Type.Object({ data: Type.Array(VenueGuest) });

export const GuestBooking = Type.Object({
  id: Type.String(),
  status: Type.String(),
  guest_count: Type.Integer(),
  booking_date: Type.String(),
  venue_name: Type.String(),
  user_name: Type.String(),
  venue_id: Type.String(),
  start_time: Nullable(Type.String()),
  kind: Type.String(),
  total_pence: Type.Integer(),
});
export const GuestBookings = Type.Object({ data: Type.Array(GuestBooking) });

export const GuestStats = Type.Object({
  loyalty_points: Type.Integer(),
  confirmed_visits: Type.Integer({ description: 'Bookings checked in' }),
  door_rejections: Type.Integer(),
  total_bookings: Type.Integer(),
  keys_spent: Type.Integer({ description: 'Keys spent on bookings at the caller’s venues, net of refunds' }),
  no_shows: Type.Integer(),
  cancellations: Type.Integer(),
  spend_pence: Type.Integer({ description: 'Money paid on bookings at the caller’s venues, net of refunds' }),
  last_visit_date: Nullable(Type.String()),
});

export const GuestScore = Type.Object({
  total: Type.Integer({ minimum: 0, maximum: 100 }),
  band: Type.String({ description: '`new`, `at_risk`, `regular` or `vip`' }),
  breakdown: Type.Object({
    visits: Type.Integer(),
    spend: Type.Integer(),
    recency: Type.Integer(),
    no_shows: Type.Integer(),
    door_rejections: Type.Integer(),
    cancellations: Type.Integer(),
  }),
  days_since_last_visit: Nullable(Type.Integer()),
});

export const GuestTags = Type.Object({
  global: Type.Array(Type.String()),
  per_venue: Type.Array(Type.Object({ venue_id: Type.String(), venue_name: Type.String(), tags: Type.Array(Type.String()) })),
});

export const GuestDetail = Type.Object({
  guest: Guest,
  bookings: Type.Array(GuestBooking, { description: 'The latest 20 bookings at the caller’s venues (all: /bookings)' }),
  stats: GuestStats,
  is_connection: Type.Boolean({ description: 'The guest has at least one connection in the operator’s guest network' }),
  connections: Type.Integer({ description: 'Extension: the number of those connections' }),
  tags: GuestTags,
  score: GuestScore,
  membership: Nullable(
    Type.Object(
      {
        tier_id: Type.String(),
        tier_name: Type.String(),
        started_at: Type.String(),
        expires_at: Type.String(),
        active: Type.Boolean({ description: 'The membership runs now (its perks and member price apply)' }),
      },
      {
        description:
          'Extension: the guest’s membership of this operator account (docs/memberships.md), running or lapsed; null without one. ' +
          'While it runs, `guest.membership_tier` is its tier’s name.',
      },
    ),
  ),
});

export const BillingEntry = Type.Object({
  id: Type.String(),
  type: Type.String(),
  delta: Type.Integer(),
  note: Nullable(Type.String()),
  booking_id: Nullable(Type.String()),
  created_at: Type.String(),
});
export const BillingList = Type.Object({ data: Type.Array(BillingEntry) });

export const ActivityItem = Type.Object({
  type: Type.String({
    description:
      '`booking_created`, `booking_<status>` (e.g. `booking_checked_in`, `booking_cancelled`), `booking_<action>`, `voucher`, `tags_changed` or `walk_in`',
  }),
  at: Type.String(),
  summary: Type.String(),
  venue_id: Nullable(Type.String()),
  venue_name: Nullable(Type.String()),
  booking_id: Nullable(Type.String()),
});
export const ActivityList = Type.Object({ data: Type.Array(ActivityItem) });

export const NetworkNode = Type.Object({
  id: Type.String(),
  name: Type.String(),
  degree: Type.Integer({ description: 'Edges of this node in the graph answered' }),
  followers: Type.Integer({ description: 'All of the guest’s connections in the operator’s network' }),
  verified: Type.Boolean({ description: 'The guest has a registered account (signed up with a password)' }),
  tier: Type.String({ description: "Membership tier; '' without one" }),
  centre: Type.Boolean(),
});
const Edge = Type.Object({ source: Type.String(), target: Type.String() });
export const EgoNetwork = Type.Object({ nodes: Type.Array(NetworkNode), edges: Type.Array(Edge), centre_id: Type.String() });
export const WholeNetwork = Type.Object({
  nodes: Type.Array(NetworkNode),
  edges: Type.Array(Edge),
  centre_id: Nullable(Type.String({ description: 'Extension: the most connected guest (marked `centre`)' })),
  truncated: Type.Boolean({ description: 'Extension: the graph was cut to its cap (docs/guests.md)' }),
});

export const TagsBody = Type.Object({
  scope: Type.Optional(Type.Union([Type.Literal('global'), Type.Literal('venue')], { description: 'Default `global`' })),
  venue_id: Type.Optional(IdText),
  tags: Type.Array(Type.String({ maxLength: TAG_MAX_LENGTH }), { maxItems: TAGS_MAX }),
});
export type TagsBody = Static<typeof TagsBody>;

export const WalkInBody = Type.Object({
  name: Type.String({ maxLength: 200 }),
  phone: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
});
export type WalkInBody = Static<typeof WalkInBody>;
export const WalkInResult = Type.Object({ id: Type.String(), name: Type.String(), email: Type.String(), phone: Nullable(Type.String()) });

const ExportBooking = Type.Object({
  id: Type.String(),
  venue_id: Type.String(),
  venue_name: Type.String(),
  kind: Type.String(),
  status: Type.String(),
  guest_count: Type.Integer(),
  booking_date: Type.String(),
  start_time: Nullable(Type.String()),
  guest_name: Nullable(Type.String()),
  guest_email: Nullable(Type.String()),
  guest_phone: Nullable(Type.String()),
  notes: Nullable(Type.String()),
  total_pence: Type.Integer(),
  paid_pence: Type.Integer(),
  created_at: Type.String(),
  checked_in_at: Nullable(Type.String()),
  cancelled_at: Nullable(Type.String()),
});
const ExportVoucher = Type.Object({
  id: Type.String(),
  venue_id: Type.String(),
  code: Type.String(),
  amount_pence: Type.Integer(),
  remaining_pence: Type.Integer(),
  status: Type.String(),
  mode: Type.String(),
  roles: Type.Array(Type.String()),
  recipient_name: Nullable(Type.String()),
  created_at: Type.String(),
});
export const GuestExport = Type.Object({
  exported_at: Type.String(),
  operator_id: Type.String(),
  guest: Type.Object({
    id: Type.String(),
    name: Type.String(),
    email: Type.String(),
    phone: Nullable(Type.String()),
    membership_tier: Nullable(Type.String()),
    profile_image_url: Nullable(Type.String()),
    walk_in: Type.Boolean(),
  }),
  roster: Type.Object({ first_seen_at: Type.String(), last_seen_at: Type.String(), venue_ids: Type.Array(Type.String()) }),
  tags: GuestTags,
  stats: GuestStats,
  score: GuestScore,
  bookings: Type.Array(ExportBooking),
  vouchers: Type.Array(ExportVoucher),
  billing: Type.Array(BillingEntry),
  activity: Type.Array(ActivityItem),
});

export const EraseResult = Type.Object({
  success: Type.Boolean(),
  bookings_anonymised: Type.Integer(),
  vouchers_anonymised: Type.Integer(),
  account_deleted: Type.Boolean({ description: 'A walk-in record this operator created is deleted; any other account is kept' }),
});
