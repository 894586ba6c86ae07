/** Request and response schemas of the guest-list routes (spec: the guest-list rows of Public widget endpoints). */
import { Type } from 'typebox';
import { DateString, Nullable } from '../../../platform/http.js';
import { OPTION_KINDS } from './guestlist-terms.js';

const Id = Type.String({ minLength: 1, maxLength: 100 });

export const GuestlistParams = Type.Object({ venueId: Id });

export const GuestlistOptionsQuery = Type.Object({
  date: Type.Optional(DateString),
});

const Option = Type.Object({
  kind: Type.String({ description: '`free`, `paid` or `queue_skip`' }),
  price_pence: Type.Integer({ description: 'per person, surge included, before the guest’s discounts' }),
  promo_eligible: Type.Boolean({ description: 'whether a promo code may be applied (only to a price)' }),
  places: Nullable(Type.Integer({ description: 'the free list’s places (null: no limit)' })),
  available: Type.Boolean(),
});

const ListOptions = Type.Object({
  id: Type.String(),
  name: Type.String(),
  display_title: Nullable(Type.String()),
  display_description: Nullable(Type.String()),
  display_image_url: Nullable(Type.String()),
  list_profile_id: Nullable(Type.String()),
  available: Type.Boolean(),
  reason: Nullable(Type.String({ description: '`closed`, `blackout`, `cutoff`, `horizon` or `full`; null when available' })),
  arrival_time: Nullable(Type.String({ description: 'venue-local clock time from which guests on the list are admitted' })),
  party_size_min: Type.Integer(),
  party_size_max: Type.Integer({ description: 'for a guest without admission perks: 1 + max_plus_ones, within the list’s cap' }),
  max_plus_ones: Type.Integer({ description: 'the venue’s allowance; admission rules may raise it for a guest' }),
  committed_covers: Type.Integer(),
  max_covers: Nullable(Type.Integer()),
  remaining_capacity: Nullable(Type.Integer({ description: 'the list’s max covers and the venue’s door capacity; null: no limit' })),
  venue_access_pence: Nullable(Type.Integer({ description: 'the door price without the list, per person' })),
  surge: Nullable(Type.Object({ threshold: Type.Integer(), price_pence: Type.Integer(), active: Type.Boolean() })),
  options: Type.Array(Option),
});

export const GuestlistOptions = Type.Object({
  venue: Type.Object({ id: Type.String(), name: Type.String(), timezone: Type.String() }),
  date: Type.String(),
  pence_per_key: Type.Integer({ description: 'keys spent = ceil(price in pence after discounts / pence_per_key)' }),
  door_capacity: Nullable(Type.Integer()),
  rules: Type.Array(ListOptions),
});

export const GuestlistBookingBody = Type.Object({
  rule_id: Id,
  date: DateString,
  party_size: Type.Integer({ minimum: 1, maximum: 500, description: 'the guest and their plus-ones' }),
  option_kind: Type.Enum([...OPTION_KINDS]),
  promo_code: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
});

export const GuestlistBooked = Type.Object({
  success: Type.Boolean(),
  booking_id: Type.String(),
  status: Type.String({ description: '`approved` when auto-approved, else `pending`' }),
  keys_spent: Type.Integer(),
  auto_approved: Type.Boolean(),
});
