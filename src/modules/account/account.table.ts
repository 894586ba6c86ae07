import type { Generated } from 'kysely';

/** A one-time sign-in code mailed to an address: only its salted SHA-256 is kept. */
export interface AccountSignInCodesTable {
  /** Sequential: the order codes of one address were asked for in. */
  id: string;
  email: string;
  code_salt: string;
  code_hash: string;
  /** Guesses spent on this code, counted before each comparison. */
  attempts: Generated<number>;
  expires_at: string;
  created_at: string;
}

/** A guest's contact preferences per channel (0/1); no row means the defaults. */
export interface AccountPreferencesTable {
  user_id: string;
  marketing_email: Generated<number>;
  marketing_sms: Generated<number>;
  reminders_email: Generated<number>;
  reminders_sms: Generated<number>;
  updated_at: string;
}

export interface AccountTables {
  account_sign_in_codes: AccountSignInCodesTable;
  account_preferences: AccountPreferencesTable;
}
