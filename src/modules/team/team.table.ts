import type { Generated } from 'kysely';

export interface OperatorsTable {
  id: string;
  name: string;
  company_name: string | null;
  company_reg: string | null;
  vat_number: string | null;
  status: Generated<string>;
  payment_connect_status: Generated<string>;
  primary_user_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface RolesTable {
  id: string;
  operator_id: string;
  name: string;
  description: Generated<string>;
  /** 1 for the account's Owner role: every permission, not deletable. */
  is_system: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface RolePermissionsTable {
  role_id: string;
  permission_key: string;
  can_read: number;
  can_write: number;
}

export interface RoleVenuesTable {
  role_id: string;
  venue_id: string;
}

export interface MembersTable {
  id: string;
  operator_id: string;
  user_id: string;
  role: Generated<string>;
  created_at: string;
  updated_at: string;
}

/** An emailed invitation to become a portal user of the account with a role (see invitations.service.ts). */
export interface InvitationsTable {
  id: string;
  operator_id: string;
  /** Normalised (lower case, trimmed). */
  email: string;
  name: string;
  role_id: string;
  /** The user who invited; null once their user is deleted. */
  invited_by: string | null;
  /** Hex SHA-256 of the token in the emailed link (the token itself is never stored). */
  token_hash: string;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
  /** The user the acceptance created. */
  user_id: string | null;
  created_at: string;
}

export interface TeamTables {
  operators: OperatorsTable;
  roles: RolesTable;
  role_permissions: RolePermissionsTable;
  role_venues: RoleVenuesTable;
  members: MembersTable;
  invitations: InvitationsTable;
}
