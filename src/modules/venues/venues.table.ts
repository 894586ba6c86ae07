import type { Generated } from 'kysely';

export interface VenuesTable {
  id: string;
  operator_id: string;
  name: string;
  address: string;
  status: Generated<string>;
  app_listing_status: Generated<string>;
  venue_type: string | null;
  /** JSON text (array or string), only for restaurant/cafe. */
  food_types: string | null;
  phone: string | null;
  email: string | null;
  backdoor_capacity: number | null;
  queue_skip_price: number | null;
  surge_threshold: number | null;
  surge_price: number | null;
  last_entry_time: string | null;
  max_plus_ones: Generated<number>;
  members_only: Generated<number>;
  /** JSON text. */
  opening_hours: string | null;
  guest_list_enabled: Generated<number>;
  tables_enabled: Generated<number>;
  paid_guest_list_enabled: Generated<number>;
  booking_policy: string | null;
  default_booking_duration: Generated<number>;
  default_party_min: Generated<number>;
  default_party_max: Generated<number>;
  booking_cutoff_value: number | null;
  booking_cutoff_unit: string | null;
  booking_start_value: number | null;
  booking_start_unit: string | null;
  website: string | null;
  description: string | null;
  marketing_sender_name: string | null;
  marketing_reply_to: string | null;
  instagram_url: string | null;
  tiktok_url: string | null;
  twitter_url: string | null;
  logo_url: string | null;
  cover_image_url: string | null;
  /** IANA zone; dates and clock times of the venue are local to it. */
  timezone: Generated<string>;
  /** Minutes before a booking's time from which the door may check it in (security round 2). */
  check_in_window_minutes: Generated<number>;
  /** 1 once the venue has an access rule (discovery surfaces). */
  is_bookable: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** One row per direction: a link between A and B is stored as (A, B) and (B, A), so either side lists it. */
export interface VenueSistersTable {
  venue_id: string;
  sister_venue_id: string;
  created_at: string;
}

/** A venue's brand; absent until first saved (reads answer the defaults). */
export interface VenueBrandingTable {
  venue_id: string;
  theme: string;
  accent_color: string;
  bg_color: string;
  text_color: string;
  font_key: string;
  logo_url: string | null;
  created_at: string;
  updated_at: string;
}

/** One row per venue and widget type, created on first read; `public_id` names the embeddable widget. */
export interface WidgetSettingsTable {
  venue_id: string;
  widget_type: string;
  enabled: Generated<number>;
  public_id: string;
  logo_url: string | null;
  created_at: string;
  updated_at: string;
}

/** The widget theme shared by every widget type of a venue; absent until first saved. */
export interface WidgetThemesTable {
  venue_id: string;
  width: string;
  theme_mode: string;
  custom_css: string;
  show_map: number;
  show_about: number;
  show_tandc: number;
  show_info_card: number;
  show_contact: number;
  created_at: string;
  updated_at: string;
}

/**
 * Gift-voucher settings (spec "Voucher settings"). The vouchers module owns its routes; the venues
 * module reads `enabled` (vouchers widget rule) and the whole record for the public voucher-config.
 */
export interface VoucherSettingsTable {
  venue_id: string;
  enabled: Generated<number>;
  expiration_months: Generated<number>;
  min_amount_pence: Generated<number>;
  max_amount_pence: Generated<number>;
  /** JSON text: array of integer pence, or null for no preset amounts. */
  fixed_amounts: Generated<string | null>;
  allow_custom: Generated<number>;
  min_qty: Generated<number>;
  max_qty: Generated<number>;
  terms: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface VenuesTables {
  venues: VenuesTable;
  venue_sisters: VenueSistersTable;
  venue_branding: VenueBrandingTable;
  widget_settings: WidgetSettingsTable;
  widget_themes: WidgetThemesTable;
  voucher_settings: VoucherSettingsTable;
}
