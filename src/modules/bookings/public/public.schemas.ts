/** TypeBox schemas of the public booking routes (availability, floorplan, book, finalize, QR). */
import { Type, type Static } from 'typebox';
import { ClockTime, DateString, Nullable } from '../../../platform/http.js';

export const Id = Type.String({ minLength: 1, maxLength: 100 });
export const VenueParams = Type.Object({ venueId: Id });
export const PartySize = Type.Integer({ minimum: 1, maximum: 500 });

export const AvailabilityQuery = Type.Object({
  date: DateString,
  party_size: PartySize,
  type: Type.Optional(Type.Enum(['tables', 'guestlist'], { description: 'default `tables`' })),
});

export const PublicRule = Type.Object({
  id: Type.String(),
  name: Type.String(),
  rule_type: Type.String(),
  table_assignment_mode: Type.String(),
  guest_pick_area_ids: Type.Array(Type.String()),
  display_title: Nullable(Type.String()),
  display_description: Nullable(Type.String()),
  display_image_url: Nullable(Type.String()),
  bundle_ids: Type.Array(Type.String()),
});

export const Availability = Type.Object({
  venue: Type.Object({ id: Type.String(), name: Type.String(), timezone: Type.String() }),
  date: Type.String(),
  party_size: Type.Integer(),
  type: Type.String(),
  slots: Type.Array(Type.Object({ time: Type.String(), access_rule_id: Type.String(), available: Type.Boolean() })),
  party_too_large: Type.Boolean(),
  next_available_dates: Type.Array(Type.String()),
  rules: Type.Array(PublicRule, { description: 'the access rules offering slots on the date' }),
  bundle_ids: Type.Array(Type.String(), { description: 'bundles those rules offer' }),
});

export const FloorplanQuery = Type.Object({ date: DateString, time: ClockTime, party_size: PartySize, rule_id: Type.Optional(Id) });
export const TermsQuery = Type.Object({
  rule_id: Id,
  date: DateString,
  time: ClockTime,
  party_size: PartySize,
  table_id: Type.Optional(Id),
});
export const BookingTerms = Type.Object(
  {
    deposit_type: Type.Union([Type.Literal('none'), Type.Literal('deposit'), Type.Literal('hold')]),
    amount_pence: Type.Integer({ description: 'the deposit or card hold for the table alone; extras are added to it' }),
    price_per_guest_pence: Type.Integer(),
    deposit: Nullable(Type.String({ description: 'what is paid and what it covers, in words' })),
    cancellation: Type.String({ description: 'what cancelling refunds and until when, in words (on the venue clock)' }),
    cancellable: Type.Boolean({ description: 'false when this booking could not be cancelled once made' }),
    cancel_until: Nullable(Type.String({ format: 'date-time' })),
  },
  { description: 'extension: a booking’s money terms before the guest books' },
);
export const Floorplan = Type.Object({
  floors: Type.Array(Type.Unknown()),
  tables: Type.Array(
    Type.Object({
      id: Type.String(),
      table_number: Type.String(),
      capacity: Type.Integer(),
      min_covers: Type.Integer(),
      table_type: Type.String(),
      seating_area_id: Nullable(Type.String()),
      floor_id: Nullable(Type.String()),
      available: Type.Boolean(),
    }),
  ),
});

export const BookBody = Type.Object({
  access_rule_id: Id,
  rule_type: Type.Enum(['table', 'guestlist']),
  date: DateString,
  time: ClockTime,
  party_size: PartySize,
  bundle_selections: Type.Optional(
    Type.Array(Type.Object({ bundle_id: Id, quantity: Type.Integer({ minimum: 1, maximum: 100 }) }, { additionalProperties: false }), {
      maxItems: 20,
    }),
  ),
  guest_name: Type.String({ minLength: 1, maxLength: 200 }),
  guest_email: Type.String({ format: 'email', maxLength: 254 }),
  guest_phone: Type.Optional(Type.String({ maxLength: 40 })),
  sms_consent: Type.Optional(
    Type.Boolean({
      description:
        'extension (docs/messages.md): the guest agrees to text messages about their bookings (reminders) from this operator; recorded per guest ' +
        'and operator. `true` needs `guest_phone` in international format (+44…); `false` withdraws an earlier consent.',
    }),
  ),
  turnstile_token: Type.Optional(Type.String({ maxLength: 4096 })),
  table_id: Type.Optional(Id),
});
export type BookBody = Static<typeof BookBody>;

export const ManageUrl = Type.String({
  description: "extension: the guest's manage page (the booking mail's link): view, and cancel under the policy",
});
const Breakdown = Type.Array(Type.Object({ label: Type.String(), amount_pence: Type.Integer() }), {
  description: 'extension: the lines the amount is made of (the table’s deposit or hold, then each extra)',
});

const Reference = Type.String({ description: 'extension: the short booking reference for people (unique per venue and date)' });

export const BookAnswer = Type.Union([
  Type.Object({ ok: Type.Literal(true), booking_id: Type.String(), reference: Reference, status: Type.String(), manage_url: ManageUrl }),
  Type.Object({
    requires_payment: Type.Literal(true),
    payment_client_secret: Type.String(),
    booking_id: Type.String(),
    reference: Reference,
    payment_intent_id: Type.String(),
    amount_pence: Type.Integer({ description: 'extension: the deposit or card hold to pay' }),
    breakdown: Breakdown,
    manage_url: ManageUrl,
  }),
]);

export const FinalizeAnswer = Type.Object({ ok: Type.Boolean(), booking_id: Type.String(), status: Type.String() });
export const Qr = Type.Object({
  qr_code: Type.String({ description: 'PNG data URL of the signed token' }),
  issued_at: Type.Number(),
  expires_in_ms: Type.Integer(),
  qr_token: Type.String({ description: 'the signed token the image encodes' }),
});
