/** Tenant-scoped look-ups of the team module's own tables; every query names the operator account. */
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

/** What a role of the account grants (for the guard); undefined when it is not the account's role. */
export async function roleGrant(db: Conn, operatorId: string, roleId: string): Promise<RoleGrant | undefined> {
  const role = await findRole(db, operatorId, roleId);
  if (!role) return undefined;
  if (role.is_system) return { isOwner: true, grants: new Map(), venueScope: null };
  const { grid, venueIds } = await roleGrid(db, role.id);
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
