import type { Generated } from 'kysely';

export type ProfileFamily = 'list' | 'table' | 'event' | 'ticket';

/**
 * The four profile families share this table. Other modules null `admission_rule_group_id`,
 * `payment_policy_id` and `pricelist_id` when they delete what those point at; everything else of a
 * family lives in `settings` (JSON, validated per family; see profiles.families.ts).
 */
export interface ProfilesTable {
  id: string;
  venue_id: string;
  family: ProfileFamily;
  name: string;
  /** JSON object of the family's settings other than the reference columns. */
  settings: Generated<string>;
  admission_rule_group_id: string | null;
  payment_policy_id: string | null;
  pricelist_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface AdmissionGroupsTable {
  id: string;
  venue_id: string;
  name: string;
  sort_order: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface AdmissionRulesTable {
  id: string;
  venue_id: string;
  group_id: string;
  name: string;
  cond_tags_enabled: Generated<number>;
  /** JSON array of strings. */
  cond_tags: Generated<string>;
  cond_bookings_enabled: Generated<number>;
  cond_bookings_min: number | null;
  cond_connections_enabled: Generated<number>;
  cond_connections_min: number | null;
  act_discount_enabled: Generated<number>;
  act_discount_pct: number | null;
  act_autoapprove_enabled: Generated<number>;
  act_maxplus_enabled: Generated<number>;
  act_maxplus: number | null;
  created_at: string;
  updated_at: string;
}

/** One row per venue; '' means no policy text. */
export interface BookingPoliciesTable {
  venue_id: string;
  tables: Generated<string>;
  guest_list: Generated<string>;
  events: Generated<string>;
  updated_at: string;
}

export interface PaymentPoliciesTable {
  id: string;
  venue_id: string;
  name: string;
  deposit_type: Generated<string>;
  refund_type: Generated<string>;
  refund_percent: Generated<number>;
  cancel_type: Generated<string>;
  cancel_cutoff_value: Generated<number>;
  cancel_cutoff_unit: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface ProfilesTables {
  profiles: ProfilesTable;
  admission_groups: AdmissionGroupsTable;
  admission_rules: AdmissionRulesTable;
  booking_policies: BookingPoliciesTable;
  payment_policies: PaymentPoliciesTable;
}
