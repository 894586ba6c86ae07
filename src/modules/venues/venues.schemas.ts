import { Type, type Static } from 'typebox';
import { ClockTime, EMAIL_PATTERN, HttpUrl, IdText, Nullable, RequestId, Toggle } from '../../platform/http.js';
import { DEFAULT_CHECK_IN_WINDOW_MINUTES } from '../../domain/door-window.js';
import { BOOKING_POLICY_KINDS } from '../profiles/index.js';

// ---------------------------------------------------------------------------------------------------
// Venue fields
// ---------------------------------------------------------------------------------------------------

export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export const FOOD_VENUE_TYPES = ['restaurant', 'cafe'];
export const DURATION_UNITS = ['minutes', 'hours', 'days', 'weeks', 'months'];

const OpeningPeriod = Type.Object(
  { open: ClockTime, close: ClockTime },
  { additionalProperties: false, description: 'A close earlier than open runs past midnight (22:00–03:00).' },
);

const Day = Type.Optional(Type.Array(OpeningPeriod, { maxItems: 6 }));

/** `{ mon: [{ open, close }], … }`: a missing day or an empty list is closed. */
export const OpeningHours = Type.Object(
  { mon: Day, tue: Day, wed: Day, thu: Day, fri: Day, sat: Day, sun: Day },
  {
    additionalProperties: false,
    description:
      'Opening hours by day (`mon`…`sun`), each a list of `{ open, close }` clock times (HH:MM, venue-local). ' +
      'A missing day or an empty list means closed; a close earlier than the open runs past midnight; ' +
      'periods of one day must not overlap and open must differ from close.',
  },
);
export type OpeningHours = Static<typeof OpeningHours>;

const FoodTypeShapes = [
  Type.Array(Type.String({ minLength: 1, maxLength: 60 }), { maxItems: 30 }),
  Type.String({ maxLength: 500 }),
] as const;
const FoodTypes = Type.Union([...FoodTypeShapes]);
const Email = Type.String({ pattern: EMAIL_PATTERN, maxLength: 254, description: 'an email address' });
/** Optional text: `null` or an empty string clears it. */
const Text = (maxLength: number) => Nullable(Type.String({ maxLength }));
const ClearableUrl = Type.Union([HttpUrl(500), Type.Literal(''), Type.Null()]);
const ClearableEmail = Type.Union([Email, Type.Literal(''), Type.Null()]);
const Money = Nullable(Type.Number({ minimum: 0 }));

/** Every writable venue field except name and address; omitted fields keep their value. */
const writableFields = {
  venue_type: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 40,
        pattern: '^[a-z][a-z0-9_-]{0,39}$',
        description: 'a lower-case word such as bar, restaurant, cafe or club',
      }),
    ),
  ),
  food_types: Type.Optional(
    Type.Union([...FoodTypeShapes, Type.Null()], {
      description:
        'Array of strings or a string, stored and returned as sent; only for `restaurant` and `cafe` (400 otherwise). ' +
        '`null` or an empty string clears. Changing venue_type to another type clears it.',
    }),
  ),
  phone: Type.Optional(Text(40)),
  email: Type.Optional(ClearableEmail),
  backdoor_capacity: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100000 }))),
  queue_skip_price: Type.Optional(Money),
  surge_threshold: Type.Optional(Money),
  surge_price: Type.Optional(Money),
  last_entry_time: Type.Optional(Nullable(ClockTime)),
  max_plus_ones: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  members_only: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 })),
  opening_hours: Type.Optional(Nullable(OpeningHours)),
  guest_list_enabled: Type.Optional(Toggle),
  tables_enabled: Type.Optional(Toggle),
  paid_guest_list_enabled: Type.Optional(Toggle),
  // The spec calls it the "default booking policy id", and a venue's booking policies are its three named
  // texts (GET/PUT /booking-policies), so the id is one of their names. Not required to be non-empty:
  // a new venue has no texts yet, and a text can be cleared later anyway.
  booking_policy: Type.Optional(
    Nullable(
      Type.Enum([...BOOKING_POLICY_KINDS, ''], {
        description:
          'The default booking policy: `tables`, `guest_list` or `events` (the venue’s booking-policies texts); null or an empty string clears.',
      }),
    ),
  ),
  default_booking_duration: Type.Optional(Type.Integer({ minimum: 5, maximum: 1440 })),
  check_in_window_minutes: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 1440,
      description:
        `Extension: how many minutes before a booking’s time the door may check it in (default ${DEFAULT_CHECK_IN_WINDOW_MINUTES}). ` +
        'Check-in stays on the ' +
        'booking’s service date and ends with the booking; staff may override with `force: true`.',
    }),
  ),
  default_party_min: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  default_party_max: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'not below default_party_min' })),
  booking_cutoff_value: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100000 }))),
  booking_cutoff_unit: Type.Optional(Nullable(Type.Enum(DURATION_UNITS))),
  booking_start_value: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100000 }))),
  booking_start_unit: Type.Optional(Nullable(Type.Enum(DURATION_UNITS))),
  website: Type.Optional(ClearableUrl),
  description: Type.Optional(Text(5000)),
  marketing_sender_name: Type.Optional(Text(100)),
  marketing_reply_to: Type.Optional(ClearableEmail),
  instagram_url: Type.Optional(ClearableUrl),
  tiktok_url: Type.Optional(ClearableUrl),
  twitter_url: Type.Optional(ClearableUrl),
  timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone (extension); default Europe/London' })),
};

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'a name that is not blank' });
const Address = Type.String({ minLength: 1, maxLength: 500, pattern: '\\S', description: 'an address that is not blank' });

const READ_ONLY_NOTE =
  'status, app_listing_status, logo_url and cover_image_url are not written here (status, listing and upload routes); other unknown fields are ignored.';

export const CreateVenueBody = Type.Object({ ...writableFields, name: Name, address: Address }, { description: READ_ONLY_NOTE });
export type CreateVenueBody = Static<typeof CreateVenueBody>;

export const UpdateVenueBody = Type.Object(
  { ...writableFields, name: Type.Optional(Name), address: Type.Optional(Address) },
  { description: `Any subset of the venue fields; omitted fields keep their value. ${READ_ONLY_NOTE}` },
);
export type UpdateVenueBody = Static<typeof UpdateVenueBody>;

export const Venue = Type.Object({
  id: Type.String(),
  name: Type.String(),
  address: Type.String(),
  status: Type.String({ description: '`draft` or `live`' }),
  app_listing_status: Type.String({ description: '`none`, `pending` or `approved`' }),
  venue_type: Nullable(Type.String()),
  food_types: Nullable(FoodTypes),
  phone: Nullable(Type.String()),
  email: Nullable(Type.String()),
  backdoor_capacity: Nullable(Type.Integer()),
  queue_skip_price: Nullable(Type.Number()),
  surge_threshold: Nullable(Type.Number()),
  surge_price: Nullable(Type.Number()),
  last_entry_time: Nullable(Type.String()),
  max_plus_ones: Type.Integer(),
  members_only: Type.Integer(),
  opening_hours: Nullable(OpeningHours),
  guest_list_enabled: Type.Boolean(),
  tables_enabled: Type.Boolean(),
  paid_guest_list_enabled: Type.Boolean(),
  booking_policy: Nullable(Type.String()),
  default_booking_duration: Type.Integer(),
  check_in_window_minutes: Type.Integer({ description: 'minutes before a booking’s time from which it may be checked in' }),
  default_party_min: Type.Integer(),
  default_party_max: Type.Integer(),
  booking_cutoff_value: Nullable(Type.Integer()),
  booking_cutoff_unit: Nullable(Type.String()),
  booking_start_value: Nullable(Type.Integer()),
  booking_start_unit: Nullable(Type.String()),
  website: Nullable(Type.String()),
  description: Nullable(Type.String()),
  marketing_sender_name: Nullable(Type.String()),
  marketing_reply_to: Nullable(Type.String()),
  instagram_url: Nullable(Type.String()),
  tiktok_url: Nullable(Type.String()),
  twitter_url: Nullable(Type.String()),
  logo_url: Nullable(Type.String()),
  cover_image_url: Nullable(Type.String()),
  timezone: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type Venue = Static<typeof Venue>;

export const VenueList = Type.Object({ data: Type.Array(Venue) });

export const CreatedVenue = Type.Object({
  success: Type.Boolean(),
  id: Type.String(),
  status: Type.String(),
  app_listing_status: Type.String(),
});

export const VenueIdParams = Type.Object({ id: Type.String() });

export const StatusBody = Type.Object({ status: Type.Enum(['draft', 'live']) });
export const StatusResult = Type.Object({ success: Type.Boolean(), status: Type.String() });

/** Any 400 of the status route; a refused go-live also names the missing fields. */
export const GoLiveRefusal = Type.Object({
  error: Type.String(),
  request_id: RequestId,
  missing: Type.Optional(Type.Array(Type.String(), { description: 'fields a go-live still needs (`logo` for the logo)' })),
});

export const Readiness = Type.Object(
  {
    status: Type.String({ description: '`draft` or `live`' }),
    ready: Type.Boolean({ description: 'true when a go-live would be accepted now (nothing missing)' }),
    missing: Type.Array(Type.String(), {
      description: 'the fields a go-live still needs, as its 400 would name them (`logo` for the logo); empty when ready',
    }),
  },
  { description: 'What going live still needs, read without trying' },
);

export const ListingResult = Type.Object({ success: Type.Boolean(), app_listing_status: Type.String() });

// ---------------------------------------------------------------------------------------------------
// Stats
// ---------------------------------------------------------------------------------------------------

export const VenueStats = Type.Object({
  venue: Type.Object({ id: Type.String(), name: Type.String() }),
  revenue: Type.Object(
    { today: Type.Integer(), week: Type.Integer(), month: Type.Integer(), alltime: Type.Integer() },
    { description: 'Net revenue in pence since venue-local midnight, Monday, the 1st of the month, and ever' },
  ),
  bookings: Type.Object({
    pending: Type.Integer({ description: '`pending` and `pending_payment`' }),
    approved: Type.Integer({ description: '`approved`, `confirmed` and `checked_in`' }),
    cancelled: Type.Integer(),
    total: Type.Integer({ description: 'every booking of the venue, any status' }),
    today_count: Type.Integer({ description: 'active bookings dated today (venue-local)' }),
  }),
  unique_guests: Type.Integer({
    description: 'distinct guests (signed-in user, else email) with a booking not cancelled, rejected or expired',
  }),
  chart: Type.Array(Type.Object({ booking_date: Type.String(), status: Type.String(), count: Type.Integer() }), {
    description: 'bookings per date and status over the 14 days ending today (venue-local); empty combinations omitted',
  }),
});

export const OperatorStats = Type.Object({
  venues: Type.Integer({ description: 'venues the caller can reach' }),
  total_guests: Type.Integer({
    description: 'distinct guests (signed-in user, else email) with a booking not cancelled, rejected or expired',
  }),
  month_guests: Type.Integer({ description: 'the same for bookings dated in the current month (venue-local)' }),
  revenue: Type.Integer({ description: 'net revenue in pence this month (venue-local)' }),
  partner: Nullable(Type.Object({}, { additionalProperties: true })),
});

// ---------------------------------------------------------------------------------------------------
// Sisters and logo
// ---------------------------------------------------------------------------------------------------

export const SisterBody = Type.Object({ sister_venue_id: IdText });
export const SisterParams = Type.Object({ id: Type.String(), sisterId: Type.String() });
export const SisterVenue = Type.Object({
  id: Type.String(),
  name: Type.String(),
  address: Type.String(),
  status: Type.String(),
  venue_type: Nullable(Type.String()),
  logo_url: Nullable(Type.String()),
  linked_at: Type.String(),
});
export const SisterList = Type.Object({ data: Type.Array(SisterVenue) });

export const ImageBody = Type.Object({ data: Type.String({ description: 'base64 data URL of a PNG, JPEG, WebP or GIF image' }) });
export const LogoResult = Type.Object({ success: Type.Boolean(), logo_url: Type.String() });
