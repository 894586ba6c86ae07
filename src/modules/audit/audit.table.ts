/** The audit log's table (migration 0023). */

/** One operator mutation: who (copied at the time), what, on which entity, the changed fields before and after. */
export interface AuditLogTable {
  id: string;
  operator_id: string;
  /** The venue the change belongs to; null for account-level changes (roles, users, account settings). */
  venue_id: string | null;
  /** `user` (a signed-in operator user), `guest` (a guest acting on their own booking or voucher), `system`. */
  actor_type: string;
  actor_user_id: string | null;
  actor_name: string | null;
  actor_email: string | null;
  /** `<entity>.<verb>`, e.g. `booking.cancelled`, `table.updated`. */
  action: string;
  entity_type: string;
  entity_id: string | null;
  /** JSON object of the changed fields' old values (secrets redacted); null for creations. */
  before_json: string | null;
  /** JSON object of the changed fields' new values (secrets redacted); null for deletions. */
  after_json: string | null;
  request_id: string | null;
  ip: string | null;
  created_at: string;
}

export interface AuditTables {
  audit_log: AuditLogTable;
}
