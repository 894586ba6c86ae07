/**
 * The audit log as operators read it: their account's entries, newest first, narrowed to the venues
 * their role reaches (account-level entries, with no venue, are included), filtered and paged.
 */
import type { Db } from '../../db/connect.js';
import type { AuthInfo } from '../../platform/auth-guard.js';
import { badRequest, forbidden, notFound } from '../../platform/errors.js';
import { cursorPage, offsetPage, pageRequest } from '../../platform/paging.js';
import { auditPage, auditTotal, type AuditFilter } from './audit.repository.js';
import type { AuditEntry, AuditQuery } from './audit.schemas.js';
import type { AuditLogTable } from './audit.table.js';

export interface AuditDeps {
  db: Db;
  /** Names of the account's venues (the venues module's, given by the composition root). */
  venueNames(operatorId: string, venueIds: string[]): Promise<{ id: string; name: string }[]>;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** An ISO instant for a query bound: a date is the start of that UTC day (`to`: of the next day). */
function instantOf(value: string, field: 'from' | 'to'): string {
  const date = new Date(DATE_ONLY.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime()) || (DATE_ONLY.test(value) && date.toISOString().slice(0, 10) !== value))
    throw badRequest(`${field} is not a valid date`);
  if (field === 'to' && DATE_ONLY.test(value)) date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString();
}

const parsed = (json: string | null): Record<string, unknown> | null =>
  json === null ? null : (JSON.parse(json) as Record<string, unknown>);

export function createAuditService(deps: AuditDeps) {
  const { db } = deps;

  function toEntry(row: AuditLogTable, names: Map<string, string>): AuditEntry {
    return {
      id: row.id,
      at: row.created_at,
      venue_id: row.venue_id,
      venue_name: row.venue_id === null ? null : (names.get(row.venue_id) ?? null),
      actor: { type: row.actor_type, user_id: row.actor_user_id, name: row.actor_name, email: row.actor_email },
      action: row.action,
      entity_type: row.entity_type,
      entity_id: row.entity_id,
      before: parsed(row.before_json),
      after: parsed(row.after_json),
      request_id: row.request_id,
      ip: row.ip,
    };
  }

  async function entries(operatorId: string, rows: AuditLogTable[]): Promise<AuditEntry[]> {
    const venueIds = [...new Set(rows.flatMap((row) => (row.venue_id === null ? [] : [row.venue_id])))];
    const names = new Map((await deps.venueNames(operatorId, venueIds)).map((venue) => [venue.id, venue.name]));
    return rows.map((row) => toEntry(row, names));
  }

  return {
    async list(auth: AuthInfo, query: AuditQuery) {
      if (!auth.operatorId) throw forbidden();
      if (query.venue_id !== undefined && auth.venueScope && !auth.venueScope.includes(query.venue_id)) throw notFound('Venue');
      const from = query.from === undefined ? undefined : instantOf(query.from, 'from');
      const to = query.to === undefined ? undefined : instantOf(query.to, 'to');
      if (from !== undefined && to !== undefined && from >= to) throw badRequest('from must be before to');
      const filter: AuditFilter = {
        operatorId: auth.operatorId,
        venueScope: auth.isOwner ? null : auth.venueScope,
        venueId: query.venue_id,
        actorUserId: query.actor_user_id,
        actionPrefix: query.action,
        entityType: query.entity_type,
        entityId: query.entity_id,
        from,
        to,
      };
      const page = pageRequest(query, 2);
      if (page.mode === 'offset') {
        const [rows, total] = await Promise.all([
          auditPage(db, filter, { limit: page.limit, offset: page.offset }),
          auditTotal(db, filter),
        ]);
        return offsetPage(await entries(auth.operatorId, rows), total, page);
      }
      const rows = await auditPage(db, filter, { limit: page.limit + 1, after: page.after });
      const found = cursorPage(rows, page.limit, (row) => [row.created_at, row.id]);
      return { ...found, data: await entries(auth.operatorId, found.data) };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
