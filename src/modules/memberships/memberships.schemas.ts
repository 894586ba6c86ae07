/** Request and response schemas of the memberships routes (docs/memberships.md). */
import { Type, type Static } from 'typebox';
import { IdText, Nullable, Toggle } from '../../platform/http.js';

export const MIN_PRICE_PENCE = 30;
export const MAX_PRICE_PENCE = 1_000_000;

const Period = Type.Union([Type.Literal('monthly'), Type.Literal('yearly'), Type.Literal('days')], {
  description: '`monthly` (one calendar month), `yearly` (one calendar year) or `days` (`period_days` days)',
});
const PeriodDays = Type.Integer({ minimum: 1, maximum: 3660, description: 'Days of a `days` period (required then; null otherwise)' });
const Perks = Type.Array(Type.String({ minLength: 1, maxLength: 50 }), {
  maxItems: 20,
  description:
    'Admission-rule tags a member carries while the membership runs (matched case-insensitively, like guest tags, by the ' +
    'admission rules of guest lists and ticket types at the operator’s venues)',
});
const DiscountPct = Type.Integer({
  minimum: 0,
  maximum: 100,
  description: 'Member price: percent off every ticket type at the operator’s venues (0: none)',
});

export const TierParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

export const TierBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    price_pence: Type.Integer({ minimum: MIN_PRICE_PENCE, maximum: MAX_PRICE_PENCE, description: 'Price of one period, in pence' }),
    period: Period,
    period_days: Type.Optional(Nullable(PeriodDays)),
    perks: Type.Optional(Perks),
    ticket_discount_pct: Type.Optional(DiscountPct),
    active: Type.Optional(Toggle),
  },
  { additionalProperties: false },
);
export type TierBody = Static<typeof TierBody>;

export const TierPatch = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    price_pence: Type.Optional(Type.Integer({ minimum: MIN_PRICE_PENCE, maximum: MAX_PRICE_PENCE })),
    period: Type.Optional(Period),
    period_days: Type.Optional(Nullable(PeriodDays)),
    perks: Type.Optional(Perks),
    ticket_discount_pct: Type.Optional(DiscountPct),
    active: Type.Optional(Toggle),
  },
  { additionalProperties: false },
);
export type TierPatch = Static<typeof TierPatch>;

const publicFields = {
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  price_pence: Type.Integer(),
  period: Type.String(),
  period_days: Nullable(Type.Integer()),
  perks: Type.Array(Type.String()),
  ticket_discount_pct: Type.Integer(),
};

export const Tier = Type.Object({
  ...publicFields,
  active: Type.Boolean({ description: 'On sale to guests' }),
  archived: Type.Boolean({ description: 'Deleted while it had members: kept for them, never on sale again, read-only' }),
  archived_at: Nullable(Type.String()),
  member_count: Type.Integer({ description: 'Guests whose membership of this tier runs now' }),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export const TierList = Type.Object({ data: Type.Array(Tier) });

export const DeleteResult = Type.Object({
  success: Type.Boolean(),
  archived: Type.Boolean({ description: 'true: the tier had members or purchases, so it was archived instead of deleted' }),
});

export const PublicTierParams = Type.Object({ venueId: Type.String({ maxLength: 100 }) });
export const PublicTier = Type.Object(publicFields);
export const PublicTierList = Type.Object({
  venue: Type.Object({ id: Type.String(), name: Type.String() }, { description: 'the live venue asked about (the guest buys through it)' }),
  data: Type.Array(PublicTier),
});

export const PurchaseBody = Type.Object(
  {
    tier_id: IdText,
    venue_id: Type.Optional(IdText),
    return_path: Type.Optional(
      Type.String({
        maxLength: 300,
        pattern: '^/(?![/\\\\])[^\\s]*$',
        description: 'a path on this site, starting with one /',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PurchaseBody = Static<typeof PurchaseBody>;

export const PurchaseResult = Type.Object({
  purchase_id: Type.String(),
  checkout_session_id: Type.String(),
  checkout_url: Type.String({ description: 'The provider’s hosted checkout page: send the guest there' }),
  amount_pence: Type.Integer(),
  renewal: Type.Boolean({ description: 'The guest’s membership of this tier runs now: paying extends it from its expiry' }),
});

export const GuestMembership = Type.Object({
  id: Type.String(),
  operator_id: Type.String(),
  operator_name: Type.String(),
  tier: PublicTier,
  started_at: Type.String(),
  expires_at: Type.String(),
  active: Type.Boolean(),
});
export const GuestMembershipList = Type.Object({ data: Type.Array(GuestMembership) });
export type GuestMembership = Static<typeof GuestMembership>;
