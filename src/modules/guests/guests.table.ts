/**
 * The guest CRM's tables (migration 0010): who is in each operator's roster (and at which venues), the
 * normalised search terms that serve roster search from an index, guest tags per scope, walk-in records
 * and the CRM's own activity items (tag changes, walk-ins).
 */

/** One guest in one operator's roster: they have a booking, ticket, voucher, walk-in record or tag there. */
export interface GuestRosterTable {
  operator_id: string;
  user_id: string;
  /** ISO instants of the first and latest roster event (booking, voucher, tag…). */
  first_seen_at: string;
  last_seen_at: string;
  /**
   * The phone the guest last gave this operator (a booking's or walk-in record's); the CRM shows this,
   * never the platform record's phone (what a guest gives one operator is not another's to read).
   */
  phone: string | null;
}

/** The venues of the operator a roster guest is related to (one row per venue). */
export interface GuestRosterVenuesTable {
  operator_id: string;
  user_id: string;
  venue_id: string;
  first_seen_at: string;
  last_seen_at: string;
}

/**
 * Normalised prefixes targets for roster search: the whole name, each name word, the email, its domain
 * and the phone's digits (see search-terms.ts). Primary key (operator_id, term, user_id): a search is a
 * range scan `term >= q and term < q || U+FFFF` of that index (byte order: `collate "C"` on PostgreSQL).
 */
export interface GuestSearchTermsTable {
  operator_id: string;
  term: string;
  user_id: string;
}

/** A guest tag at one scope: `venue_id` '' is the operator-wide (global) set, else that venue's set. */
export interface GuestTagsTable {
  operator_id: string;
  user_id: string;
  venue_id: string;
  tag: string;
  created_at: string;
}

/** A walk-in guest record (a `guest` user with a synthesised email) and the operator that created it. */
export interface GuestWalkInsTable {
  user_id: string;
  operator_id: string;
  venue_id: string;
  created_by: string | null;
  created_at: string;
}

/** The CRM's own activity items (bookings and vouchers are read from their modules). */
export interface GuestActivityTable {
  id: string;
  operator_id: string;
  user_id: string;
  venue_id: string | null;
  /** `tags_changed` or `walk_in`. */
  kind: string;
  /** JSON object. */
  detail: string;
  at: string;
}

/** The erasure ledger: a guest erased from an operator (re-applied when an older backup is restored). */
export interface GuestErasuresTable {
  operator_id: string;
  user_id: string;
  erased_at: string;
}

export interface GuestsTables {
  guest_erasures: GuestErasuresTable;
  guest_roster: GuestRosterTable;
  guest_roster_venues: GuestRosterVenuesTable;
  guest_search_terms: GuestSearchTermsTable;
  guest_tags: GuestTagsTable;
  guest_walk_ins: GuestWalkInsTable;
  guest_activity: GuestActivityTable;
}
