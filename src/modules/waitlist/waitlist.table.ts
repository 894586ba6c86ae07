import type { Generated } from 'kysely';

/** A party waiting at a venue (migration 0021; statuses in docs/waitlist.md). */
export interface WaitlistEntriesTable {
  id: string;
  venue_id: string;
  /** `walk_in` (at the door, now) or `online` (a full date, asked through the widget or the API). */
  kind: string;
  status: string;
  party_size: number;
  guest_name: string;
  guest_email: string | null;
  guest_phone: string | null;
  notes: string | null;
  /** Venue-local service date (a walk-in: the day it joined). */
  date: string;
  /** Online: the window of start times the guest accepts (venue-local HH:MM, inclusive). */
  time_from: string | null;
  time_to: string | null;
  /** Walk-in: the wait quoted when it joined, in minutes. */
  quoted_minutes: number | null;
  /** Online, while offered: the slot and when the offer lapses. */
  offer_time: string | null;
  offer_access_rule_id: string | null;
  offer_expires_at: string | null;
  offers_made: Generated<number>;
  notified_at: string | null;
  booking_id: string | null;
  status_changed_at: string;
  created_at: string;
  updated_at: string;
}

export interface WaitlistTables {
  waitlist_entries: WaitlistEntriesTable;
}
