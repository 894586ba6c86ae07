/**
 * Which roles a caller may act on. Nobody but an Owner hands out more than they hold (`exceedsCaller`,
 * `scopeWithinCaller` on what is granted); the same test applied to a role that already exists decides
 * who may edit or delete that role, and who may change, re-role or delete a user holding it: otherwise a
 * user manager limited to one venue could reset the password of a full-permission user and sign in as
 * them, or a role manager could empty or rename a role stronger than their own.
 */
import type { AuthInfo } from '../../platform/auth-guard.js';
import { exceedsCaller, scopeWithinCaller } from '../../platform/permissions.js';
import type { Conn } from '../../db/transaction.js';
import { findRole, roleGrid } from './team.repository.js';

type Caller = Pick<AuthInfo, 'isOwner' | 'grants' | 'venueScope'>;
type GridRow = { permission_key: string; can_read: number | boolean; can_write: number | boolean };

/** A role as far as authority goes: the Owner role, or a grid over a venue scope ([] = every venue). */
export interface RoleReach {
  isOwnerRole: boolean;
  grid: GridRow[];
  venueIds: string[];
}

/** What puts a role beyond the caller, as the end of a sentence ("it …"); undefined when it is not. */
export function beyondCaller(caller: Caller, role: RoleReach | undefined): string | undefined {
  if (caller.isOwner || !role) return undefined;
  if (role.isOwnerRole) return 'is the Owner role';
  const grant = exceedsCaller(caller, role.grid);
  if (grant) return `holds ${grant}, which your own role does not`;
  // A role that grants nothing lets its holder do nothing at any venue, so its reach is moot: a
  // venue-scoped manager may still set up the roles they create (which start out reaching every venue).
  // Once it grants something, every venue it reaches must be one of the caller's.
  const grantsAnything = role.grid.some((row) => row.can_read || row.can_write);
  if (grantsAnything && !scopeWithinCaller(caller, role.venueIds)) return 'reaches venues beyond your own';
  return undefined;
}

/**
 * The reach of a role of the account; undefined for no role or one that is not the account's. Such a
 * user holds no grant at all (the guard gives them none), so taking them over gains nothing: they are
 * as manageable as any weaker user. A role id cannot come to name another role later (ids are never
 * reused and roles never move between accounts), so this stays true.
 */
export async function roleReach(conn: Conn, operatorId: string, roleId: string | null | undefined): Promise<RoleReach | undefined> {
  if (!roleId) return undefined;
  const role = await findRole(conn, operatorId, roleId);
  if (!role) return undefined;
  if (role.is_system) return { isOwnerRole: true, grid: [], venueIds: [] };
  return { isOwnerRole: false, ...(await roleGrid(conn, role.id)) };
}
