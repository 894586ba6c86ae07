/** The audit module's queries: the one insert (handed to platform/audit.ts) and the account's list. */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Conn } from '../../db/transaction.js';
import { kyselyOf } from '../../db/transaction.js';
import type { AuditRow } from '../../platform/audit.js';

export async function insertAuditEntry(conn: Conn, row: AuditRow): Promise<void> {
  await kyselyOf(conn).insertInto('audit_log').values(row).execute();
}

export interface AuditFilter {
  operatorId: string;
  /** The venues the caller reaches (null: all); account-level entries (no venue) are always included. */
  venueScope: string[] | null;
  venueId?: string;
  actorUserId?: string;
  /** `booking` matches `booking` and `booking.*`; `booking.cancelled` only that action. */
  actionPrefix?: string;
  entityType?: string;
  entityId?: string;
  /** Inclusive lower and exclusive upper bounds on `created_at` (ISO instants). */
  from?: string;
  to?: string;
}

/** `like` with its wildcards escaped, the same on both engines. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function filtered(conn: Conn, filter: AuditFilter) {
  const { venueScope } = filter;
  return kyselyOf(conn)
    .selectFrom('audit_log')
    .where('operator_id', '=', filter.operatorId)
    .$if(venueScope !== null, (q) =>
      q.where((eb) =>
        venueScope!.length > 0 ? eb.or([eb('venue_id', 'is', null), eb('venue_id', 'in', venueScope!)]) : eb('venue_id', 'is', null),
      ),
    )
    .$if(filter.venueId !== undefined, (q) => q.where('venue_id', '=', filter.venueId!))
    .$if(filter.actorUserId !== undefined, (q) => q.where('actor_user_id', '=', filter.actorUserId!))
    .$if(filter.actionPrefix !== undefined, (q) =>
      q.where((eb) =>
        eb.or([
          eb('action', '=', filter.actionPrefix!),
          sql<SqlBool>`${sql.ref('action')} like ${`${escapeLike(filter.actionPrefix!)}.%`} escape '\\'`,
        ]),
      ),
    )
    .$if(filter.entityType !== undefined, (q) => q.where('entity_type', '=', filter.entityType!))
    .$if(filter.entityId !== undefined, (q) => q.where('entity_id', '=', filter.entityId!))
    .$if(filter.from !== undefined, (q) => q.where('created_at', '>=', filter.from!))
    .$if(filter.to !== undefined, (q) => q.where('created_at', '<', filter.to!));
}

/** Newest first: `created_at` then `id` descending (ids are sequential, so entries of one instant keep their order). */
const beforeKey = (after: readonly (string | number)[]): RawBuilder<SqlBool> =>
  sql<SqlBool>`(${sql.ref('created_at')} < ${after[0]} or (${sql.ref('created_at')} = ${after[0]} and ${sql.ref('id')} < ${after[1]}))`;

export async function auditPage(
  conn: Conn,
  filter: AuditFilter,
  page: { limit: number; offset?: number; after?: readonly (string | number)[] | null },
) {
  return filtered(conn, filter)
    .selectAll()
    .$if(page.after != null, (q) => q.where(beforeKey(page.after!)))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .$if(page.offset !== undefined && page.offset > 0, (q) => q.offset(page.offset!))
    .execute();
}

export async function auditTotal(conn: Conn, filter: AuditFilter): Promise<number> {
  const row = await filtered(conn, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
