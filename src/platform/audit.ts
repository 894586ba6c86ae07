/**
 * The audit log's writer: `audit.record(trx, { action, entityType, entityId, venueId, before, after })`
 * inside the transaction of the change, so a change that rolls back leaves no entry and one that commits
 * always has one. The actor, the operator account, the request id and the client's address come from the
 * request context (platform/request-context.ts, filled in by the auth guard), so services need not pass
 * them; `before`/`after` are reduced to the changed fields, secrets redacted (domain/audit-diff.ts).
 *
 * The `audit_log` table belongs to the audit module; the composition root hands this writer the
 * module's insert function (`insert`).
 */
import type { Conn } from '../db/transaction.js';
import { auditDiff, type AuditRecord } from '../domain/audit-diff.js';
import type { Clock } from './clock.js';
import { sequentialId } from './ids.js';
import { currentRequestContext, SYSTEM_ACTOR, type Actor } from './request-context.js';

export interface AuditEvent {
  /** `<entity>.<verb>` in the past tense: `table.updated`, `booking.cancelled`, `voucher.redeemed`. */
  action: string;
  entityType: string;
  entityId: string | null;
  /** The venue the change belongs to; null or absent for account-level changes. */
  venueId?: string | null;
  /** The account; by default the caller's (the request context's). */
  operatorId?: string | null;
  /** The entity before (null or absent for a creation); compared with `after` field by field. */
  before?: AuditRecord | null;
  /** The entity after, or just the fields the change set (null or absent for a deletion). */
  after?: AuditRecord | null;
  /** More keys whose values are never stored (personal data, e.g. a guest's contact details): recorded as changed, `[redacted]`. */
  redact?: readonly string[];
  /** Who acted, when not the request's caller (a guest's manage link, the system). */
  actor?: Actor;
  /**
   * Record even when before and after hold the same values (an action with no field change, e.g. an
   * export). Otherwise an update that changes nothing is not recorded.
   */
  always?: boolean;
}

/** One row as the audit module stores it. */
export interface AuditRow {
  id: string;
  operator_id: string;
  venue_id: string | null;
  actor_type: string;
  actor_user_id: string | null;
  actor_name: string | null;
  actor_email: string | null;
  action: string;
  entity_type: string;
  entity_id: string | null;
  before_json: string | null;
  after_json: string | null;
  request_id: string | null;
  ip: string | null;
  created_at: string;
}

export interface Audit {
  /** Records one change on `conn` (the change's own transaction). Skipped without an operator account. */
  record(conn: Conn, event: AuditEvent): Promise<void>;
}

export function createAudit(deps: { clock: Clock; insert: (conn: Conn, row: AuditRow) => Promise<void> }): Audit {
  return {
    async record(conn, event) {
      const context = currentRequestContext();
      const operatorId = event.operatorId ?? context?.operatorId ?? null;
      if (!operatorId) return;
      const actor = event.actor ?? context?.actor ?? SYSTEM_ACTOR;
      const creation = event.before === undefined || event.before === null;
      const deletion = event.after === undefined || event.after === null;
      const diff = auditDiff(creation ? null : event.before, deletion ? null : event.after, event.redact);
      if (!diff && !event.always && !(creation && deletion)) return;
      await deps.insert(conn, {
        id: sequentialId('aud'),
        operator_id: operatorId,
        venue_id: event.venueId ?? null,
        actor_type: actor.type,
        actor_user_id: actor.userId,
        actor_name: actor.name,
        actor_email: actor.email,
        action: event.action,
        entity_type: event.entityType,
        entity_id: event.entityId,
        before_json: diff?.before ? JSON.stringify(diff.before) : null,
        after_json: diff?.after ? JSON.stringify(diff.after) : null,
        request_id: context?.requestId ?? null,
        ip: context?.ip ?? null,
        created_at: deps.clock.now().toISOString(),
      });
    },
  };
}
