/** Request and response schemas of admission groups and rules, booking policies and payment policies. */
import { Type, type Static } from 'typebox';
import { CANCEL_TYPES, CUTOFF_UNITS, DEPOSIT_TYPES, REFUND_TYPES } from '../../domain/payment-policy.js';
import { Nullable, Toggle } from '../../platform/http.js';

const Name = Type.String({ minLength: 1, maxLength: 200 });
const literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)));

export const VenueIdParams = Type.Object({ venueId: Type.String() });
export const VenueItemParams = Type.Object({ venueId: Type.String(), id: Type.String() });
export const GroupParams = Type.Object({ venueId: Type.String(), gid: Type.String() });
export const RuleParams = Type.Object({ venueId: Type.String(), gid: Type.String(), id: Type.String() });

// Admission groups and rules
export const GroupBody = Type.Object({ name: Name, sort_order: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })) });
export type GroupBody = Static<typeof GroupBody>;
export const GroupUpdateBody = Type.Partial(GroupBody);
export type GroupUpdateBody = Static<typeof GroupUpdateBody>;

const ruleFields = {
  cond_tags_enabled: Type.Optional(Toggle),
  cond_tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 })),
  cond_bookings_enabled: Type.Optional(Toggle),
  cond_bookings_min: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1_000_000 }))),
  cond_connections_enabled: Type.Optional(Toggle),
  cond_connections_min: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1_000_000 }))),
  act_discount_enabled: Type.Optional(Toggle),
  act_discount_pct: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 100 }))),
  act_autoapprove_enabled: Type.Optional(Toggle),
  act_maxplus_enabled: Type.Optional(Toggle),
  act_maxplus: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100 }))),
};
export const RuleBody = Type.Object({ name: Name, ...ruleFields });
export type RuleBody = Static<typeof RuleBody>;
export const RuleUpdateBody = Type.Partial(RuleBody);
export type RuleUpdateBody = Static<typeof RuleUpdateBody>;

export const Rule = Type.Object({
  id: Type.String(),
  group_id: Type.String(),
  name: Type.String(),
  cond_tags_enabled: Type.Boolean(),
  cond_tags: Type.Array(Type.String()),
  cond_bookings_enabled: Type.Boolean(),
  cond_bookings_min: Nullable(Type.Integer()),
  cond_connections_enabled: Type.Boolean(),
  cond_connections_min: Nullable(Type.Integer()),
  act_discount_enabled: Type.Boolean(),
  act_discount_pct: Nullable(Type.Number()),
  act_autoapprove_enabled: Type.Boolean(),
  act_maxplus_enabled: Type.Boolean(),
  act_maxplus: Nullable(Type.Integer()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const Group = Type.Object({
  id: Type.String(),
  name: Type.String(),
  sort_order: Type.Integer(),
  rules: Type.Array(Rule),
  created_at: Type.String(),
  updated_at: Type.String(),
});

// Booking policies
/** A venue's booking policies, by name: a venue's `booking_policy` names its default among them. */
export const BOOKING_POLICY_KINDS = ['tables', 'guest_list', 'events'] as const;
const PolicyText = Type.String({ maxLength: 20_000 });
export const BookingPolicies = Type.Object({ tables: Type.String(), guest_list: Type.String(), events: Type.String() });
export const BookingPoliciesBody = Type.Object({
  tables: Type.Optional(PolicyText),
  guest_list: Type.Optional(PolicyText),
  events: Type.Optional(PolicyText),
});
export type BookingPoliciesBody = Static<typeof BookingPoliciesBody>;

// Payment policies
const policyFields = {
  deposit_type: Type.Optional(literals(DEPOSIT_TYPES)),
  refund_type: Type.Optional(literals(REFUND_TYPES)),
  refund_percent: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
  cancel_type: Type.Optional(literals(CANCEL_TYPES)),
  cancel_cutoff_value: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
  cancel_cutoff_unit: Type.Optional(literals(CUTOFF_UNITS)),
};
export const PaymentPolicyBody = Type.Object({ name: Name, ...policyFields });
export type PaymentPolicyBody = Static<typeof PaymentPolicyBody>;
export const PaymentPolicyUpdateBody = Type.Partial(PaymentPolicyBody);
export type PaymentPolicyUpdateBody = Static<typeof PaymentPolicyUpdateBody>;

export const PaymentPolicy = Type.Object({
  id: Type.String(),
  name: Type.String(),
  deposit_type: Type.String(),
  refund_type: Type.String(),
  refund_percent: Type.Integer(),
  cancel_type: Type.String(),
  cancel_cutoff_value: Type.Integer(),
  cancel_cutoff_unit: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
  guest_terms: Type.Object(
    {
      deposit: Nullable(Type.String({ description: 'what is paid when booking; null when nothing is' })),
      cancellation: Type.String({ description: 'what cancelling refunds and until when' }),
    },
    { description: 'extension: the terms in the words the booking-terms endpoint gives a guest, without a booking’s date or price' },
  ),
});
