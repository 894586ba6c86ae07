import type { BaseConfig } from '../lib/config';

export interface BookingConfig extends BaseConfig {
  booking: {
    default_party_min: number;
    default_party_max: number;
    default_booking_duration: number;
    max_plus_ones: number;
    tables_enabled: boolean;
    guest_list_enabled: boolean;
  };
}

export interface Rule {
  id: string;
  name: string;
  rule_type: string;
  table_assignment_mode: string;
  display_title: string | null;
  display_description: string | null;
  bundle_ids: string[];
}

export interface Availability {
  date: string;
  party_size: number;
  slots: { time: string; access_rule_id: string; available: boolean }[];
  party_too_large: boolean;
  next_available_dates: string[];
  rules: Rule[];
}

export interface Slot {
  time: string;
  rule: Rule;
}

export interface GuestDetails {
  name: string;
  email: string;
  phone: string;
}

/** A booking awaiting payment or made: kept for the visit (and a reload) so finalize is never skipped. */
export interface PendingBooking {
  bookingId: string;
  intentId?: string;
  clientSecret?: string;
  status?: string;
  /** The deposit to pay, when one is asked. */
  amountPence?: number;
  /** What the amount is made of (the table's share, then each extra). */
  breakdown?: { label: string; amount_pence: number }[];
  /** The short reference for people (the door accepts it). */
  reference?: string;
  /** The guest's manage page (view; cancel under the policy). */
  manageUrl?: string;
  /**
   * Set once the card step succeeded: only then is finalize called (also after a reload), because
   * finalizing an intent that was never paid releases the booking.
   */
  paid?: boolean;
}
