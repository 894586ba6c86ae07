/** The memberships module's tables (migration 0025). Instants are ISO 8601 UTC text, money integer pence. */

/** A tier an operator account sells to guests. */
export interface MembershipTiersTable {
  id: string;
  operator_id: string;
  name: string;
  description: string;
  price_pence: number;
  /** `monthly`, `yearly` or `days` (then `period_days`). */
  period: string;
  period_days: number | null;
  /** JSON array of the admission-rule tags a member carries while the membership runs. */
  perk_tags: string;
  /** Percent off every ticket type at the operator's venues for a member (0: none). */
  ticket_discount_pct: number;
  /** 0/1: on sale to guests. */
  active: number;
  /** Set instead of deleting a tier that has (or had) members; archived tiers are never on sale. */
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A guest's membership of an operator: one row per operator and guest, its expiry moved by renewals. */
export interface GuestMembershipsTable {
  id: string;
  operator_id: string;
  user_id: string;
  tier_id: string;
  started_at: string;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

/** One purchase (checkout session): `pending` until its paid event claims it (`fulfilled`), once. */
export interface MembershipPurchasesTable {
  id: string;
  operator_id: string;
  /** Null once the guest's account is deleted (the purchase is a money record and stays). */
  user_id: string | null;
  tier_id: string;
  /** The venue the guest bought through (their roster entry), when they named one. */
  venue_id: string | null;
  amount_pence: number;
  /** The tier's period when bought (an edit of the tier meanwhile does not change what was paid for). */
  period: string;
  period_days: number | null;
  checkout_session_id: string | null;
  status: string;
  fulfilled_at: string | null;
  /** The membership's expiry this purchase paid up to. */
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface MembershipsTables {
  membership_tiers: MembershipTiersTable;
  guest_memberships: GuestMembershipsTable;
  membership_purchases: MembershipPurchasesTable;
}
