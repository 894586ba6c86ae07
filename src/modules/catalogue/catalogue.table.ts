import type { Generated } from 'kysely';

export interface BundlesTable {
  id: string;
  venue_id: string;
  name: string;
  /** JSON array of `tables` / `events`. */
  applicable_profiles: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface BundleItemsTable {
  id: string;
  venue_id: string;
  bundle_id: string;
  name: string;
  /** Pence. */
  price: number;
  max_qty: number | null;
  image_url: string | null;
  created_at: string;
  updated_at: string;
}

export interface PromoCodesTable {
  id: string;
  venue_id: string;
  name: string;
  /** Upper-case, trimmed; unique per venue. */
  code: string;
  discount_pct: number;
  max_uses: number | null;
  /** Redemptions so far; the reset endpoint zeroes it. */
  uses: Generated<number>;
  /** ISO 8601 UTC instant (as toISOString), so string comparison orders it. */
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A venue's custom category (custom = 1), or its flags for a platform-default or account category (custom = 0). */
export interface TagCategoriesTable {
  id: string;
  venue_id: string;
  kind: string;
  name: string;
  custom: Generated<number>;
  /** 0/1; null on a flags-only row (custom = 0) means "as the level above". */
  allow_guest_select: number | null;
  show_on_slip: number | null;
  show_in_summary: number | null;
  created_at: string;
  updated_at: string;
}

export interface CustomTagsTable {
  id: string;
  venue_id: string;
  kind: string;
  category: string;
  label: string;
  created_at: string;
}

/** An account's custom category (custom = 1), or its flags for a platform-default category (custom = 0). */
export interface AccountTagCategoriesTable {
  id: string;
  operator_id: string;
  kind: string;
  name: string;
  custom: Generated<number>;
  /** 0/1; null on a flags-only row (custom = 0) means "as the level above". */
  allow_guest_select: number | null;
  show_on_slip: number | null;
  show_in_summary: number | null;
  created_at: string;
  updated_at: string;
}

/** An account-wide custom tag: every venue of the account sees it in its merged catalogue. */
export interface AccountTagsTable {
  id: string;
  operator_id: string;
  kind: string;
  category: string;
  label: string;
  created_at: string;
}

export interface CatalogueTables {
  bundles: BundlesTable;
  bundle_items: BundleItemsTable;
  promo_codes: PromoCodesTable;
  tag_categories: TagCategoriesTable;
  custom_tags: CustomTagsTable;
  account_tag_categories: AccountTagCategoriesTable;
  account_tags: AccountTagsTable;
}
