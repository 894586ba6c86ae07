/**
 * The availability engine's input and output. Input is plain, already-parsed data (arrays rather than
 * JSON text, booleans rather than 0/1, UTC instants as `Date`), named after the database columns so
 * a loader fills it with one query per table family and a field-by-field copy. Clock times are `HH:MM`
 * and dates `YYYY-MM-DD`, venue-local in `VenueConfig.timezone`.
 */

/** An amount of time with its unit (`minutes`, `hours`, `days`, `weeks`, `months`), as stored. */
export interface TimeAmount {
  value: number;
  unit: string;
}

/** A venue's opening hours as stored: per day (`mon` … `sun`), periods whose close may pass midnight. */
export type OpeningHours = Partial<Record<string, readonly { open: string; close: string }[]>>;

export interface VenueDefaults {
  /** `default_booking_duration`, minutes. */
  durationMinutes: number;
  partyMin: number;
  partyMax: number;
  /** Null when the venue has not set any: shifts on default times then cover the whole day. */
  openingHours: OpeningHours | null;
  /** `booking_cutoff_*`; null: a slot is bookable until it starts. */
  bookingCutoff: TimeAmount | null;
  /** `booking_start_*`; null: 90 days ahead. */
  bookingStart: TimeAmount | null;
}

export interface TimePeriod {
  id: string;
  timeFrom: string;
  timeTo: string;
}

export interface Shift {
  id: string;
  daysOfWeek: readonly string[];
  /** `default` follows the venue's opening hours; `custom` uses the period, else timeFrom/timeTo. */
  timeType: string;
  timePeriodId: string | null;
  timeFrom: string | null;
  timeTo: string | null;
  /** First and last service date the shift runs on, inclusive; null: unbounded. */
  scheduleStart: string | null;
  scheduleEnd: string | null;
  /** Null falls back to the venue default. */
  partySizeMin: number | null;
  partySizeMax: number | null;
  /** Both empty: every table. */
  seatingAreaIds: readonly string[];
  tableIds: readonly string[];
  /** `default` (venue duration) or `custom` (durationMinutes). */
  durationType: string;
  durationMinutes: number | null;
}

/** The engine's part of an access rule: the values of a toggle apply only while it is on. */
export interface AccessRule {
  id: string;
  /** `table` or `guestlist`. */
  ruleType: string;
  daysOfWeek: readonly string[];
  /** Both null: the rule follows the shifts' windows. */
  timeFrom: string | null;
  timeTo: string | null;
  partySizeEnabled: boolean;
  partySizeMin: number | null;
  partySizeMax: number | null;
  durationEnabled: boolean;
  durationMinutes: number | null;
  seatingEnabled: boolean;
  seatingAreaIds: readonly string[];
  tableIds: readonly string[];
  bundlesEnabled: boolean;
  bundleIds: readonly string[];
  bookingWindowEnabled: boolean;
  bookingCutoff: TimeAmount | null;
  bookingStart: TimeAmount | null;
  maxCoversEnabled: boolean;
  maxCovers: number | null;
}

export interface Table {
  id: string;
  /** Maximum covers. */
  capacity: number;
  /** Only `active` tables are offered. */
  status: string;
  seatingAreaId: string | null;
}

export interface Combination {
  id: string;
  tableIds: readonly string[];
  /** `combined_capacity`. */
  capacity: number;
}

export interface Blackout {
  id: string;
  /** Inclusive service dates. */
  dateFrom: string;
  dateTo: string;
  affectsReservations: boolean;
  affectsGuestlist: boolean;
}

/** A table block, half-open [fromUtc, toUtc). */
export interface TableBlock {
  tableId: string;
  fromUtc: Date;
  toUtc: Date;
}

export interface VenueConfig {
  /** IANA zone of the venue. */
  timezone: string;
  defaults: VenueDefaults;
  timePeriods: readonly TimePeriod[];
  /** None at all: one implicit shift on every day, on the venue's hours and defaults. */
  shifts: readonly Shift[];
  /** In the order slots of the same time are listed. */
  accessRules: readonly AccessRule[];
  tables: readonly Table[];
  combinations: readonly Combination[];
  blackouts: readonly Blackout[];
  blocks: readonly TableBlock[];
  /** Smart-table `duration_enabled`. */
  smartDuration: boolean;
  /** Minutes between slots; 15 unless given. */
  slotIntervalMinutes?: number;
}

/** One active booking's stay, half-open [startsAt, endsAt). Guest-list stays hold no tables. */
export interface Stay {
  bookingId: string;
  tableIds: readonly string[];
  startsAt: Date;
  endsAt: Date;
  covers: number;
  accessRuleId: string | null;
}

/**
 * Active stays (statuses that hold capacity) overlapping the service days asked about. One service day
 * D reaches from D 00:00 to D+2 00:00 venue-local (windows may pass midnight), so a loader selects
 * stays with `starts_at < (last day + 2) 00:00` and `ends_at > first day 00:00`. Extra stays are harmless.
 */
export type Occupancy = readonly Stay[];

export type BookingType = 'tables' | 'guestlist';

/** Why a slot cannot be booked; the first failing check in this order wins. */
export const SLOT_REASONS = ['closed', 'blackout', 'cutoff', 'horizon', 'party_size', 'max_covers', 'no_table'] as const;
export type SlotReason = (typeof SLOT_REASONS)[number];

export interface Slot {
  /** Venue-local clock time; after midnight it still belongs to the asked service date. */
  time: string;
  access_rule_id: string;
  available: boolean;
  reason?: SlotReason;
  /** The stay the party would have, UTC, half-open. */
  starts_at: Date;
  ends_at: Date;
}

export interface AvailabilityQuery {
  /** The service date, venue-local. */
  date: string;
  partySize: number;
  type: BookingType;
  now: Date;
}

export interface AvailabilityResult {
  date: string;
  party_size: number;
  type: BookingType;
  /** By start, then by the rules' order in the config. */
  slots: Slot[];
  /** No slot of the day would take a party this large, however empty the venue. */
  party_too_large: boolean;
  /** Rules of the type that offer at least one slot on the date (available or not). */
  access_rule_ids: string[];
  /** Bundles of those rules whose bundles toggle is on, first mention first. */
  bundle_ids: string[];
}

/** A single table or a combination that can seat a party. */
export interface Candidate {
  kind: 'table' | 'combination';
  id: string;
  tableIds: readonly string[];
  capacity: number;
}
