import type { Generated } from 'kysely';

export type UserRole = 'client' | 'guest' | 'promoter';

export interface UsersTable {
  id: string;
  /** `client` (operator staff), `guest` (consumer) or `promoter` (an organiser at venues that accepted them). */
  role: UserRole;
  /** The operator account a client user belongs to; null for guests and promoters. */
  operator_id: string | null;
  /** The account role (permission grid) of a client user. */
  role_id: string | null;
  name: string;
  /** Stored lower-cased; unique across the platform. */
  email: string;
  phone: string | null;
  password_hash: string | null;
  /** TOTP secrets, sealed (`v1:…`, platform/secret-box.ts); older rows may still hold plain text until sealed at start. */
  totp_secret: string | null;
  totp_pending_secret: string | null;
  totp_enabled: Generated<number>;
  /** The last TOTP time step accepted for this user: codes at or before it are refused (no replay). */
  totp_last_step: number | null;
  membership_tier: string | null;
  profile_image_url: string | null;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id: string;
  /** SHA-256 of the bearer token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  expires_at: string;
  last_seen_at: string;
  created_at: string;
  /**
   * Moved by the database (migration 0028's triggers) whenever what the session resolves to changes: the
   * user's role, account, account role, name or email, or their role's grant. Instances keep a session's
   * user and grant in memory only while this is unchanged.
   */
  auth_version: Generated<number>;
}

export interface TwoFactorChallengesTable {
  id: string;
  user_id: string;
  expires_at: string;
  attempts: Generated<number>;
  used_at: string | null;
  created_at: string;
}

/**
 * A guest registration waiting for its address to be proven (one per email; a new registration replaces
 * it). The code is kept only as SHA-256 of salt and code; the password only as its hash.
 */
export interface EmailVerificationsTable {
  /** Sequential: the order registrations of one email were made in. */
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

export interface AuthTables {
  users: UsersTable;
  sessions: SessionsTable;
  two_factor_challenges: TwoFactorChallengesTable;
  email_verifications: EmailVerificationsTable;
}
