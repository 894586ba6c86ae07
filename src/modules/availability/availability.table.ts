/** Availability tables (migration 0004). Booleans are 0/1 integers, id and day lists are JSON text. */

export interface TimePeriodsTable {
  id: string;
  venue_id: string;
  name: string;
  time_from: string;
  time_to: string;
  created_at: string;
  updated_at: string;
}

export interface ShiftsTable {
  id: string;
  venue_id: string;
  name: string;
  /** JSON array of `mon` … `sun`. */
  days_of_week: string;
  /** `default` (venue hours) or `custom` (time_period_id or time_from/time_to). */
  time_type: string;
  time_period_id: string | null;
  time_from: string | null;
  time_to: string | null;
  schedule_start: string | null;
  schedule_end: string | null;
  party_size_min: number | null;
  party_size_max: number | null;
  seating_area_ids: string;
  table_ids: string;
  /** `default` (venue default duration) or `custom` (duration_minutes). */
  duration_type: string;
  duration_minutes: number | null;
  /** A payment_policies row of the venue; the profiles module nulls it when the policy goes. */
  payment_policy_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface AccessRulesTable {
  id: string;
  venue_id: string;
  name: string;
  /** `table` or `guestlist`. */
  rule_type: string;
  days_of_week: string;
  time_from: string | null;
  time_to: string | null;
  app_opt_out: number;
  party_size_enabled: number;
  party_size_min: number | null;
  party_size_max: number | null;
  /** `auto` or `guest_pick`. */
  table_assignment_mode: string;
  guest_pick_area_ids: string;
  duration_enabled: number;
  duration_minutes: number | null;
  display_enabled: number;
  display_title: string | null;
  display_description: string | null;
  display_image_url: string | null;
  seating_enabled: number;
  seating_area_ids: string;
  table_ids: string;
  bundles_enabled: number;
  bundle_ids: string;
  booking_window_enabled: number;
  booking_cutoff_value: number | null;
  booking_cutoff_unit: string | null;
  booking_start_value: number | null;
  booking_start_unit: string | null;
  max_covers_enabled: number;
  max_covers: number | null;
  venue_access_enabled: number;
  venue_access_value: number | null;
  free_guest_list_enabled: number;
  free_guest_list_value: number | null;
  paid_guest_list_enabled: number;
  paid_guest_list_value: number | null;
  queue_skip_price_enabled: number;
  queue_skip_price_value: number | null;
  surge_threshold_enabled: number;
  surge_threshold_value: number | null;
  surge_price_enabled: number;
  surge_price_value: number | null;
  reservation_tags: string;
  pricelist_id: string | null;
  /** The profiles module nulls these three when it deletes the referenced row. */
  payment_policy_id: string | null;
  list_profile_id: string | null;
  table_profile_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface BlackoutsTable {
  id: string;
  venue_id: string;
  date_from: string;
  date_to: string;
  description: string | null;
  affects_guestlist: number;
  affects_events: number;
  affects_reservations: number;
  created_at: string;
  updated_at: string;
}

export interface AvailabilityTables {
  time_periods: TimePeriodsTable;
  shifts: ShiftsTable;
  access_rules: AccessRulesTable;
  blackouts: BlackoutsTable;
}

export const DAYS_OF_WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
