import type { Generated } from 'kysely';

/**
 * One row per venue and promoter: the agreement under which the promoter may submit events to the venue.
 * `status`: `pending` (asked for by the promoter, awaiting the venue), `active`, `declined` or `ended`.
 */
export interface PromoterAgreementsTable {
  id: string;
  operator_id: string;
  venue_id: string;
  /** The promoter's user id (role `promoter`). */
  promoter_id: string;
  status: string;
  /** `venue` (an invitation) or `promoter` (a self sign-up's request). */
  requested_by: string;
  /** The promoter's share of their events' ticket revenue, whole percent 0–100, set by the venue. */
  share_percent: Generated<number>;
  decided_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A venue's emailed invitation to become its promoter; only the SHA-256 of the token is kept. */
export interface PromoterInvitationsTable {
  id: string;
  operator_id: string;
  venue_id: string;
  email: string;
  name: string;
  share_percent: number;
  invited_by: string | null;
  token_hash: string;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
  user_id: string | null;
  created_at: string;
}

/** The promoter's share of each ticket sale of their events, at the agreement's percent when it was sold. */
export interface PromoterLedgerTable {
  id: string;
  promoter_id: string;
  venue_id: string;
  event_id: string;
  booking_id: string;
  /** `sale` (one per booking) or `refund` (one per refund of it: negative amount and share). */
  kind: string;
  amount_pence: number;
  share_percent: number;
  share_pence: number;
  /** 0 on a sale; on a refund, what the booking had been refunded in all with it (the refund's key). */
  refunded_total_pence: Generated<number>;
  created_at: string;
}

/** A self sign-up waiting for its address to be proven by the mailed code (nothing is created before). */
export interface PromoterSignUpsTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  code_salt: string;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: string;
  created_at: string;
}

export interface PromotersTables {
  promoter_agreements: PromoterAgreementsTable;
  promoter_invitations: PromoterInvitationsTable;
  promoter_ledger: PromoterLedgerTable;
  promoter_sign_ups: PromoterSignUpsTable;
}
