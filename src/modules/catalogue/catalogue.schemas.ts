/** Request and response schemas of bundles, promo codes, tags and copy-from. */
import { Type, type Static } from 'typebox';
import { ImageUrl as ImageAddress, Nullable, Toggle } from '../../platform/http.js';

const Name = Type.String({ minLength: 1, maxLength: 200 });

export const VenueIdParams = Type.Object({ venueId: Type.String() });
export const VenueItemParams = Type.Object({ venueId: Type.String(), id: Type.String() });
export const BundleItemParams = Type.Object({ venueId: Type.String(), id: Type.String(), itemId: Type.String() });

// Bundles
export const APPLICABLE_PROFILES = ['tables', 'events'] as const;
const ApplicableProfiles = Type.Array(Type.Union(APPLICABLE_PROFILES.map((p) => Type.Literal(p))), {
  minItems: 1,
  maxItems: 2,
  uniqueItems: true,
});

export const BundleBody = Type.Object({
  name: Name,
  applicable_profiles: Type.Optional(Nullable(ApplicableProfiles)),
});
export type BundleBody = Static<typeof BundleBody>;
export const BundleUpdateBody = Type.Partial(BundleBody);
export type BundleUpdateBody = Static<typeof BundleUpdateBody>;

const Price = Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'pence' });
const MaxQty = Nullable(Type.Integer({ minimum: 1, maximum: 10_000 }));
// An http(s) or site-relative URL (what the image upload stores); '' or null clears it. Other schemes
// (javascript:, data:) would end up in the widget's markup.
const ImageUrl = Nullable(Type.Union([Type.Literal(''), ImageAddress()]));

export const ItemBody = Type.Object({
  name: Name,
  price: Price,
  max_qty: Type.Optional(MaxQty),
  image_url: Type.Optional(ImageUrl),
});
export type ItemBody = Static<typeof ItemBody>;
export const ItemUpdateBody = Type.Partial(ItemBody);
export type ItemUpdateBody = Static<typeof ItemUpdateBody>;

export const BundleItem = Type.Object({
  id: Type.String(),
  bundle_id: Type.String(),
  name: Type.String(),
  price: Type.Integer(),
  max_qty: Nullable(Type.Integer()),
  image_url: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const Bundle = Type.Object({
  id: Type.String(),
  name: Type.String(),
  applicable_profiles: Type.Array(Type.String()),
  items: Type.Array(BundleItem),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const ImageBody = Type.Object({ data: Type.String() });
export const ImageResult = Type.Object({ success: Type.Boolean(), url: Type.String() });

// Promo codes
const Code = Type.String({ minLength: 1, maxLength: 60 });
const DiscountPct = Type.Number({ minimum: 0, maximum: 100 });
const MaxUses = Nullable(Type.Integer({ minimum: 1, maximum: 10_000_000 }));
const ExpiresAt = Nullable(Type.String({ maxLength: 40, description: 'ISO 8601 timestamp with a time and an offset or Z' }));

export const PromoBody = Type.Object({
  name: Name,
  code: Code,
  discount_pct: DiscountPct,
  max_uses: Type.Optional(MaxUses),
  expires_at: Type.Optional(ExpiresAt),
});
export type PromoBody = Static<typeof PromoBody>;
export const PromoUpdateBody = Type.Partial(PromoBody);
export type PromoUpdateBody = Static<typeof PromoUpdateBody>;

export const PromoCode = Type.Object({
  id: Type.String(),
  name: Type.String(),
  code: Type.String(),
  discount_pct: Type.Number(),
  max_uses: Nullable(Type.Integer()),
  uses: Type.Integer({ description: 'redemptions so far; reset zeroes it' }),
  expires_at: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

// Tags
export const TAG_KINDS = ['guest', 'reservation'] as const;
export type TagKind = (typeof TAG_KINDS)[number];
const Kind = Type.Union(TAG_KINDS.map((k) => Type.Literal(k)));
const Label = Type.String({ minLength: 1, maxLength: 60 });

export const KindQuery = Type.Object({ kind: Type.Optional(Kind) });
export const TagBody = Type.Object({ kind: Kind, category: Label, label: Label });
export type TagBody = Static<typeof TagBody>;

const flagFields = {
  allow_guest_select: Type.Optional(Toggle),
  show_on_slip: Type.Optional(Toggle),
  show_in_summary: Type.Optional(Toggle),
};
export const CategoryBody = Type.Object({ kind: Kind, name: Label, ...flagFields });
export type CategoryBody = Static<typeof CategoryBody>;

const Scope = Type.Union([Type.Literal('platform'), Type.Literal('account'), Type.Literal('venue')], {
  description: 'platform: a read-only default; account: managed under /api/my/tags and /api/my/tag-categories; venue: the venue’s own',
});
export const CatalogueCategory = Type.Object({
  kind: Type.String(),
  name: Type.String(),
  is_default: Type.Boolean({ description: 'a platform default category' }),
  scope: Scope,
  allow_guest_select: Type.Boolean(),
  show_on_slip: Type.Boolean(),
  show_in_summary: Type.Boolean(),
  tags: Type.Array(Type.Object({ label: Type.String(), is_default: Type.Boolean(), scope: Scope })),
});
export const TagCatalogue = Type.Object({ data: Type.Array(CatalogueCategory) });

// copy-from
