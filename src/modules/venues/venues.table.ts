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
  /** 1 once the venue has an access rule (discovery surfaces). */
  is_bookable: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface VenuesTables {
  venues: VenuesTable;
}
