import { Type, type Static } from 'typebox';
import { ClockTime, DateString, ImageUrl, Nullable, Toggle } from '../../platform/http.js';
import { DAYS_OF_WEEK } from './availability.table.js';

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Id = Type.String({ minLength: 1, maxLength: 100 });
const IdList = Type.Array(Id, { maxItems: 500 });
const DayOfWeek = Type.Enum([...DAYS_OF_WEEK], { description: 'lower-case three-letter day: mon … sun' });
const Minutes = Type.Integer({ minimum: 1, maximum: 24 * 60 });
const PartySize = Type.Integer({ minimum: 1, maximum: 10_000 });
const WindowUnit = Type.Enum(['minutes', 'hours', 'days', 'weeks', 'months']);
const Amount = Type.Number({ minimum: 0 });
const Text = (maxLength: number) => Type.String({ maxLength });

export const AvailabilityParams = Type.Object({ venueId: Type.String(), id: Type.String() });

// ---- time periods ----

export const TimePeriodBody = Type.Object({ name: Name, time_from: ClockTime, time_to: ClockTime });
export const TimePeriodUpdateBody = Type.Partial(TimePeriodBody);
export type TimePeriodBody = Static<typeof TimePeriodUpdateBody>;

export const TimePeriod = Type.Object({ id: Type.String(), name: Type.String(), time_from: Type.String(), time_to: Type.String() });

// ---- shifts ----

const shiftFields = {
  name: Name,
  days_of_week: Type.Array(DayOfWeek, { minItems: 1, maxItems: 7 }),
  time_type: Type.Optional(
    Type.Enum(['default', 'custom'], { description: '`default` uses the venue hours; `custom` the period or time_from/time_to' }),
  ),
  time_period_id: Type.Optional(Nullable(Id)),
  time_from: Type.Optional(Nullable(ClockTime)),
  time_to: Type.Optional(Nullable(ClockTime)),
  schedule_start: Type.Optional(Nullable(DateString)),
  schedule_end: Type.Optional(Nullable(DateString)),
  party_size_min: Type.Optional(Nullable(PartySize)),
  party_size_max: Type.Optional(Nullable(PartySize)),
  seating_area_ids: Type.Optional(IdList),
  table_ids: Type.Optional(IdList),
  duration_type: Type.Optional(
    Type.Enum(['default', 'custom'], { description: '`default` uses the venue default; `custom` duration_minutes' }),
  ),
  duration_minutes: Type.Optional(Nullable(Minutes)),
  payment_policy_id: Type.Optional(Nullable(Id)),
};

export const ShiftBody = Type.Object(shiftFields);
/** PUT re-sends the field set; days_of_week, which has no default, keeps its value when omitted. */
export const ShiftUpdateBody = Type.Object({ ...shiftFields, days_of_week: Type.Optional(shiftFields.days_of_week) });
export type ShiftUpdateBody = Static<typeof ShiftUpdateBody>;

export const Shift = Type.Object({
  id: Type.String(),
  name: Type.String(),
  days_of_week: Type.Array(Type.String()),
  time_type: Type.String(),
  time_period_id: Nullable(Type.String()),
  time_from: Nullable(Type.String()),
  time_to: Nullable(Type.String()),
  schedule_start: Nullable(Type.String()),
  schedule_end: Nullable(Type.String()),
  party_size_min: Nullable(Type.Integer()),
  party_size_max: Nullable(Type.Integer()),
  seating_area_ids: Type.Array(Type.String()),
  table_ids: Type.Array(Type.String()),
  duration_type: Type.String(),
  duration_minutes: Nullable(Type.Integer()),
  payment_policy_id: Nullable(Type.String()),
});

// ---- access rules ----

/** The door-pricing features: each `<name>_enabled` toggle pairs with a `<name>_value`. */
export const DOOR_PRICING = [
  'venue_access',
  'free_guest_list',
  'paid_guest_list',
  'queue_skip_price',
  'surge_threshold',
  'surge_price',
] as const;

export const ACCESS_RULE_TOGGLES = [
  'app_opt_out',
  'party_size_enabled',
  'duration_enabled',
  'display_enabled',
  'seating_enabled',
  'bundles_enabled',
  'booking_window_enabled',
  'max_covers_enabled',
  ...DOOR_PRICING.map((name) => `${name}_enabled` as const),
] as const;

export const ACCESS_RULE_LISTS = [
  'days_of_week',
  'guest_pick_area_ids',
  'seating_area_ids',
  'table_ids',
  'bundle_ids',
  'reservation_tags',
] as const;

export const AccessRuleBody = Type.Object({
  // base
  name: Name,
  rule_type: Type.Optional(Type.Enum(['table', 'guestlist'])),
  days_of_week: Type.Optional(Type.Array(DayOfWeek, { maxItems: 7 })),
  time_from: Type.Optional(Nullable(ClockTime)),
  time_to: Type.Optional(Nullable(ClockTime)),
  app_opt_out: Type.Optional(Toggle),
  // party size
  party_size_enabled: Type.Optional(Toggle),
  party_size_min: Type.Optional(Nullable(PartySize)),
  party_size_max: Type.Optional(Nullable(PartySize)),
  // table assignment
  table_assignment_mode: Type.Optional(Type.Enum(['auto', 'guest_pick'])),
  guest_pick_area_ids: Type.Optional(IdList),
  // duration
  duration_enabled: Type.Optional(Toggle),
  duration_minutes: Type.Optional(Nullable(Minutes)),
  // display
  display_enabled: Type.Optional(Toggle),
  display_title: Type.Optional(Nullable(Text(200))),
  display_description: Type.Optional(Nullable(Text(5000))),
  display_image_url: Type.Optional(Nullable(Type.Union([Type.Literal(''), ImageUrl()]))),
  // seating
  seating_enabled: Type.Optional(Toggle),
  seating_area_ids: Type.Optional(IdList),
  table_ids: Type.Optional(IdList),
  // bundles
  bundles_enabled: Type.Optional(Toggle),
  bundle_ids: Type.Optional(IdList),
  // booking window
  booking_window_enabled: Type.Optional(Toggle),
  booking_cutoff_value: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100_000 }))),
  booking_cutoff_unit: Type.Optional(Nullable(WindowUnit)),
  booking_start_value: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100_000 }))),
  booking_start_unit: Type.Optional(Nullable(WindowUnit)),
  // covers
  max_covers_enabled: Type.Optional(Toggle),
  max_covers: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100_000 }))),
  // door pricing
  venue_access_enabled: Type.Optional(Toggle),
  venue_access_value: Type.Optional(Nullable(Amount)),
  free_guest_list_enabled: Type.Optional(Toggle),
  free_guest_list_value: Type.Optional(Nullable(Amount)),
  paid_guest_list_enabled: Type.Optional(Toggle),
  paid_guest_list_value: Type.Optional(Nullable(Amount)),
  queue_skip_price_enabled: Type.Optional(Toggle),
  queue_skip_price_value: Type.Optional(Nullable(Amount)),
  surge_threshold_enabled: Type.Optional(Toggle),
  surge_threshold_value: Type.Optional(Nullable(Amount)),
  surge_price_enabled: Type.Optional(Toggle),
  surge_price_value: Type.Optional(Nullable(Amount)),
  // references
  reservation_tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 })),
  pricelist_id: Type.Optional(Nullable(Id)),
  payment_policy_id: Type.Optional(Nullable(Id)),
  list_profile_id: Type.Optional(Nullable(Id)),
  table_profile_id: Type.Optional(Nullable(Id)),
});
export type AccessRuleBody = Static<typeof AccessRuleBody>;

export const AccessRule = Type.Object({
  id: Type.String(),
  name: Type.String(),
  rule_type: Type.String(),
  days_of_week: Type.Array(Type.String()),
  time_from: Nullable(Type.String()),
  time_to: Nullable(Type.String()),
  app_opt_out: Type.Boolean(),
  party_size_enabled: Type.Boolean(),
  party_size_min: Nullable(Type.Integer()),
  party_size_max: Nullable(Type.Integer()),
  table_assignment_mode: Type.String(),
  guest_pick_area_ids: Type.Array(Type.String()),
  duration_enabled: Type.Boolean(),
  duration_minutes: Nullable(Type.Integer()),
  display_enabled: Type.Boolean(),
  display_title: Nullable(Type.String()),
  display_description: Nullable(Type.String()),
  display_image_url: Nullable(Type.String()),
  seating_enabled: Type.Boolean(),
  seating_area_ids: Type.Array(Type.String()),
  table_ids: Type.Array(Type.String()),
  bundles_enabled: Type.Boolean(),
  bundle_ids: Type.Array(Type.String()),
  booking_window_enabled: Type.Boolean(),
  booking_cutoff_value: Nullable(Type.Integer()),
  booking_cutoff_unit: Nullable(Type.String()),
  booking_start_value: Nullable(Type.Integer()),
  booking_start_unit: Nullable(Type.String()),
  max_covers_enabled: Type.Boolean(),
  max_covers: Nullable(Type.Integer()),
  venue_access_enabled: Type.Boolean(),
  venue_access_value: Nullable(Type.Number()),
  free_guest_list_enabled: Type.Boolean(),
  free_guest_list_value: Nullable(Type.Number()),
  paid_guest_list_enabled: Type.Boolean(),
  paid_guest_list_value: Nullable(Type.Number()),
  queue_skip_price_enabled: Type.Boolean(),
  queue_skip_price_value: Nullable(Type.Number()),
  surge_threshold_enabled: Type.Boolean(),
  surge_threshold_value: Nullable(Type.Number()),
  surge_price_enabled: Type.Boolean(),
  surge_price_value: Nullable(Type.Number()),
  reservation_tags: Type.Array(Type.String()),
  pricelist_id: Nullable(Type.String()),
  payment_policy_id: Nullable(Type.String()),
  list_profile_id: Nullable(Type.String()),
  table_profile_id: Nullable(Type.String()),
});

export const ImageBody = Type.Object({ data: Type.String() });
export const ImageResult = Type.Object({ success: Type.Boolean(), url: Type.String() });

// ---- blackouts ----

export const BlackoutBody = Type.Object({
  date_from: DateString,
  date_to: DateString,
  description: Type.Optional(Nullable(Text(2000))),
  affects_guestlist: Type.Optional(Toggle),
  affects_events: Type.Optional(Toggle),
  affects_reservations: Type.Optional(Toggle),
});
export type BlackoutBody = Static<typeof BlackoutBody>;

export const Blackout = Type.Object({
  id: Type.String(),
  date_from: Type.String(),
  date_to: Type.String(),
  description: Nullable(Type.String()),
  affects_guestlist: Type.Boolean(),
  affects_events: Type.Boolean(),
  affects_reservations: Type.Boolean(),
});
