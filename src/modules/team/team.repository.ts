/** Tenant-scoped look-ups of the team module's own tables; every query names the operator account. */
import { sql } from 'kysely';
import { kyselyOf, type Conn } from '../../db/transaction.js';
import type { RoleGrant } from '../../platform/auth-guard.js';
import { grantsFromRows } from '../../platform/permissions.js';

/** A role's stored grid and venue scope. */
export async function roleGrid(db: Conn, roleId: string) {
  const [grid, venues] = await Promise.all([
    kyselyOf(db).selectFrom('role_permissions').selectAll().where('role_id', '=', roleId).execute(),
    kyselyOf(db).selectFrom('role_venues').select('venue_id').where('role_id', '=', roleId).execute(),
  ]);
  return { grid, venueIds: venues.map((v) => v.venue_id) };
}

/**
 * What a role of the account grants (for the guard); undefined when it is not the account's role.
 * The guard asks when a session's version has moved or the session is new to the instance (it keeps the
 * answer per session: platform/session-cache.ts), so these reads are written as SQL (building and
 * compiling them with the query builder cost several times running them: docs/performance.md): the
 * role (all an Owner needs), then for a custom role its grid and venue scope in one statement. A change
 * to a role moves the version of its holders' sessions (migration 0028), so it applies to the next request.
 */
export async function roleGrant(db: Conn, operatorId: string, roleId: string): Promise<RoleGrant | undefined> {
  const k = kyselyOf(db);
  const roles = await sql<{ is_system: number }>`
    select is_system from roles where id = ${roleId} and operator_id = ${operatorId}`.execute(k);
  const role = roles.rows[0];
  if (!role) return undefined;
  if (role.is_system) return { isOwner: true, grants: new Map(), venueScope: null };
  const { rows } = await sql<{ part: 'grant' | 'venue'; name: string; can_read: number; can_write: number }>`
    select 'grant' as part, permission_key as name, can_read, can_write from role_permissions where role_id = ${roleId}
    union all
    select 'venue', venue_id, 0, 0 from role_venues where role_id = ${roleId}`.execute(k);
  const grid = rows.filter((row) => row.part === 'grant').map((row) => ({ ...row, permission_key: row.name }));
  const venueIds = rows.filter((row) => row.part === 'venue').map((row) => row.name);
  return { isOwner: false, grants: grantsFromRows(grid), venueScope: venueIds.length > 0 ? venueIds : null };
}

export function findOperator(db: Conn, operatorId: string) {
  return kyselyOf(db).selectFrom('operators').selectAll().where('id', '=', operatorId).executeTakeFirst();
}

export function findRole(db: Conn, operatorId: string, roleId: string) {
  return kyselyOf(db).selectFrom('roles').selectAll().where('id', '=', roleId).where('operator_id', '=', operatorId).executeTakeFirst();
}

/** The account's team members (user ids and labels), oldest first. */
export function listMembers(db: Conn, operatorId: string) {
  return kyselyOf(db)
    .selectFrom('members')
    .select(['id', 'user_id', 'role', 'created_at'])
    .where('operator_id', '=', operatorId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
