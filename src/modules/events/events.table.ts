import type { Generated } from 'kysely';

/**
 * Ticketed events of a venue. `committed_guests` is not stored: it is read from the event's bookings
 * (the bookings module's), so it can never disagree with them.
 */
export interface EventsTable {
  id: string;
  operator_id: string;
  /** Fixed once created. */
  venue_id: string;
  name: string;
  /** Venue-local date and clock times. */
  event_date: string;
  start_time: string | null;
  end_time: string | null;
  last_entry_time: string | null;
  event_type: string | null;
  event_genre: string | null;
  description: string | null;
  /** Guests the event admits in all (null: no limit beyond its ticket types'). */
  guest_list_capacity: number | null;
  /** `draft`, `approved`, `cancelled`, `rejected` or `pending_venue_approval`. */
  status: string;
  /** Always `public`. */
  visibility: Generated<string>;
  /** Always `ticketed`. */
  event_mode: Generated<string>;
  image_url: string | null;
  /** JSON `{ photographer, photographer_url, unsplash_url }` of a stock image, or null. */
  image_attribution: string | null;
  /** `none` or `pending` (further values are set by the platform's listing review). */
  app_listing_status: Generated<string>;
  status_changed_at: string | null;
  /** The promoter (user) who submitted the event; null for the venue's own events (column added by 0026_promoters). */
  promoter_id: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Ticket types of an event. `venue_id` and `event_id` are null only for rows other modules' tests stand
 * in (test/helpers/rows.ts); every ticket type the events module writes has both.
 */
export interface TicketTypesTable {
  id: string;
  event_id: string | null;
  venue_id: string | null;
  name: Generated<string>;
  price_pence: Generated<number>;
  /** Tickets of this type that can be sold (null: unlimited). */
  capacity: number | null;
  sort_order: Generated<number>;
  /** The most tickets of this type one order may take. */
  max_per_order: Generated<number>;
  /** Detached (set null) by the profiles module when the group or profile is deleted. */
  admission_rule_group_id: string | null;
  ticket_profile_id: string | null;
  created_at: Generated<string>;
  updated_at: Generated<string>;
}

/**
 * What an event booking bought: one row per booking (the booking itself is the bookings module's).
 * Tickets count against their type's capacity while their booking is active, so a released or
 * cancelled booking gives its tickets back without any counter to keep in step.
 */
export interface EventTicketsTable {
  booking_id: string;
  event_id: string;
  ticket_type_id: string;
  quantity: number;
  unit_price_pence: number;
  /** The signed door token the ticket mail's QR code encodes (valid until the day after the event). */
  qr_token: string;
  created_at: string;
}

export interface EventsTables {
  events: EventsTable;
  ticket_types: TicketTypesTable;
  event_tickets: EventTicketsTable;
}
