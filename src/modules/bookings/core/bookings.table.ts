import type { ColumnType, Generated, Selectable } from 'kysely';

/**
 * Bookings of every kind (table reservation, guest list, event ticket). The booking engine owns this
 * table; other modules read it (venue stats, draft refusal, table `is_taken`).
 */
export interface BookingsTable {
  id: string;
  /** A short reference for people (6 characters, unique per venue and booking date); null on older bookings. */
  reference: ColumnType<string | null, string | null | undefined, string | null>;
  operator_id: string;
  venue_id: string;
  /** `table`, `guestlist` or `event`. */
  kind: string;
  /** pending, pending_payment, approved, confirmed, checked_in, cancelled, rejected, expired, door_rejected, no_show */
  status: string;
  user_id: string | null;
  event_id: string | null;
  access_rule_id: string | null;
  /** Venue-local date and clock time. */
  booking_date: string;
  start_time: string | null;
  duration_minutes: number | null;
  /** UTC instants of the stay, for overlap queries. */
  starts_at: string | null;
  ends_at: string | null;
  guest_count: Generated<number>;
  guest_name: string | null;
  guest_email: string | null;
  guest_phone: string | null;
  total_pence: Generated<number>;
  /** `table` or `guestlist` (the access rule's type); null for event bookings. */
  rule_type: string | null;
  /** `widget`, `staff` or `walk_in`. */
  source: Generated<string>;
  /** 1: the smart-table pass and auto-assign leave its tables alone. */
  table_locked: Generated<number>;
  /** When staff closed the table (the stay ended early); the slots after it are freed. */
  closed_at: string | null;
  /** JSON object: lifecycle flag → ISO time it was set. */
  lifecycle: Generated<string>;
  notes: string | null;
  /** JSON array of `{ bundle_id, quantity }`. */
  bundle_selections: Generated<string>;
  payment_policy_id: string | null;
  /** `none`, `deposit` or `hold`. */
  deposit_type: Generated<string>;
  deposit_pence: Generated<number>;
  payment_intent_id: string | null;
  /** `none`, `requires_payment`, `paid`, `held`, `captured`, `released`, `refunded`, `partially_refunded`. */
  payment_status: Generated<string>;
  captured_pence: Generated<number>;
  refunded_pence: Generated<number>;
  /** The client address of a public unpaid hold (holds are capped per address and per email). */
  hold_address: Generated<string | null>;
  /** A `pending_payment` booking is released (expired) after this instant. */
  payment_expires_at: string | null;
  status_changed_at: string | null;
  checked_in_at: string | null;
  cancelled_at: string | null;
  cancel_reason: string | null;
  /** When the guest confirmed the booking through a reminder's link (bookings/reminders); null until then. */
  guest_confirmed_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

/**
 * The database's guarantee against double booking: one row per table and 15-minute slot that an
 * active stay occupies, primary key (table_id, slot). Rows exist exactly while the booking is active.
 */
/** A booking as read from the database. */
export type BookingRow = Selectable<BookingsTable>;

export interface BookingSlotsTable {
  table_id: string;
  /** floor(epoch minutes / 15). */
  slot: number;
  booking_id: string;
  venue_id: string;
}

/** Every change to a booking: who (guest, staff user, system), what, when. */
export interface BookingHistoryTable {
  id: string;
  booking_id: string;
  at: string;
  actor_kind: 'guest' | 'staff' | 'system';
  actor_id: string | null;
  actor_name: string | null;
  action: string;
  from_status: string | null;
  to_status: string | null;
  /** JSON object. */
  detail: Generated<string>;
}

/** The first answer given to a public create, by scope (route and tenant) and `Idempotency-Key`. */
export interface IdempotencyKeysTable {
  scope: string;
  key: string;
  /** SHA-256 of the canonical request body: the same key with another body is a 409. */
  request_hash: string;
  status_code: number;
  /** JSON of the response body. */
  response: string;
  created_at: string;
}

/** Each venue's Ed25519 key pair for booking QR tokens; the private key is sealed (platform/secret-box.ts). */
export interface VenueDoorKeysTable {
  venue_id: string;
  public_key: string;
  private_key: string;
  created_at: string;
}

/** Tables held by a booking for its stay. */
export interface BookingTablesTable {
  booking_id: string;
  table_id: string;
  venue_id: string;
  starts_at: string;
  ends_at: string;
}

export interface BookingsTables {
  bookings: BookingsTable;
  booking_tables: BookingTablesTable;
  booking_slots: BookingSlotsTable;
  booking_history: BookingHistoryTable;
  idempotency_keys: IdempotencyKeysTable;
  venue_door_keys: VenueDoorKeysTable;
  reminder_settings: ReminderSettingsTable;
  booking_reminders: BookingRemindersTable;
}

/** A venue's reminder settings (bookings/reminders); no row: reminders off. */
export interface ReminderSettingsTable {
  venue_id: string;
  enabled: number;
  /** JSON array of minutes before the booking starts, e.g. [1440, 120]. */
  offsets: string;
  /** JSON array of `mail` and/or `sms`. */
  channels: string;
  /** Venue-local HH:MM; both null: no quiet hours. */
  quiet_start: string | null;
  quiet_end: string | null;
  /** `shift` (send when the quiet hours end, if still before the booking) or `skip`. */
  quiet_mode: string;
  updated_at: string;
}

/** One reminder of one booking: its primary key (booking, offset) makes it go out once. */
export interface BookingRemindersTable {
  booking_id: string;
  offset_minutes: number;
  /** `sent` or `skipped` (with `reason`). */
  status: string;
  reason: string | null;
  /** JSON array of the channels it went out on. */
  channels: string;
  created_at: string;
}

/** Statuses that hold capacity and count as upcoming reservations. */
export const ACTIVE_BOOKING_STATUSES = ['pending', 'pending_payment', 'approved', 'confirmed', 'checked_in'] as const;
