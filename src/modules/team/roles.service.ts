/**
 * Roles of an account: the system Owner role (every permission on every venue; only its name and
 * description change, and only by an Owner; never deleted) and custom roles with a permission grid and
 * a venue scope. A role beyond the caller's own is edited and deleted only by an Owner (authority.ts).
 */
import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { lockKey, withTransaction } from '../../db/transaction.js';
import type { Audit } from '../../platform/audit.js';
import type { AuthInfo } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { exceedsCaller, isPermissionKey, PERMISSION_KEYS, scopeWithinCaller } from '../../platform/permissions.js';
import { clearableText, requiredText } from '../../platform/text.js';
import { countClientUsers, countUsersByRole } from '../auth/index.js';
import { venueIdsOf } from '../venues/index.js';
import type { RolesTable } from './team.table.js';
import type { Role, RoleCreateBody, RoleUpdateBody } from './team.schemas.js';
import { beyondCaller, roleReach } from './authority.js';
import { findRole } from './team.repository.js';

/**
 * Taken by every write that changes a role or reads or changes which users hold it, so a delete cannot
 * race an assignment, nor a widening of the role a check that its holders are weaker than the caller.
 */
export const roleLockKey = (roleId: string) => `role:${roleId}`;
const roleNamesLockKey = (operatorId: string) => `role-names:${operatorId}`;

const catalogueOrder = new Map(PERMISSION_KEYS.map((key, index) => [key, index]));

type GridRow = { permission_key: string; can_read: number | boolean; can_write: number | boolean };

export function createRolesService(deps: { db: Db; clock: Clock; audit: Audit }) {
  const { db, clock, audit } = deps;
  /** A role as the audit log shows it: its grid as `key:read|write` and its venues, in a stable order. */
  const auditedRole = (role: { name: string; description: string | null }, grid?: GridRow[], venueIds?: string[]) => ({
    name: role.name,
    description: role.description,
    ...(grid && { permissions: grid.map((g) => `${g.permission_key}:${g.can_write ? 'write' : 'read'}`).sort() }),
    ...(venueIds && { venue_ids: [...venueIds].sort() }),
  });

  /** Roles of the account (one when `roleId` is given) with their grid, venue scope and user count. */
  async function load(operatorId: string, roleId?: string): Promise<Role[]> {
    let query = db.kysely.selectFrom('roles').selectAll().where('operator_id', '=', operatorId);
    if (roleId) query = query.where('id', '=', roleId);
    const roles = await query.orderBy('is_system', 'desc').orderBy('name').orderBy('id').execute();
    if (roles.length === 0) return [];
    const ids = roles.map((r) => r.id);
    const [grid, venues, counts] = await Promise.all([
      db.kysely.selectFrom('role_permissions').selectAll().where('role_id', 'in', ids).execute(),
      db.kysely.selectFrom('role_venues').selectAll().where('role_id', 'in', ids).orderBy('venue_id').execute(),
      countUsersByRole(db, operatorId, ids),
    ]);
    return roles.map((role) => toRole(role, grid, venues, counts));
  }

  function toRole(
    role: Selectable<RolesTable>,
    grid: { role_id: string; permission_key: string; can_read: number; can_write: number }[],
    venues: { role_id: string; venue_id: string }[],
    counts: Map<string, number>,
  ): Role {
    return {
      id: role.id,
      name: role.name,
      description: role.description,
      is_system: Boolean(role.is_system),
      // The Owner role holds everything whatever is stored; show that rather than an empty grid.
      permissions: role.is_system
        ? PERMISSION_KEYS.map((permission_key) => ({ permission_key, can_read: true, can_write: true }))
        : grid
            .filter((g) => g.role_id === role.id)
            .sort((a, b) => (catalogueOrder.get(a.permission_key) ?? 1e9) - (catalogueOrder.get(b.permission_key) ?? 1e9))
            .map((g) => ({
              permission_key: g.permission_key,
              can_read: Boolean(g.can_read || g.can_write),
              can_write: Boolean(g.can_write),
            })),
      venue_ids: venues.filter((v) => v.role_id === role.id).map((v) => v.venue_id),
      user_count: counts.get(role.id) ?? 0,
    };
  }

  /** Role names are unique within an account (any case), so a role reads unambiguously in the UI. */
  async function assertNameFree(trx: Kysely<Database>, operatorId: string, name: string, exceptRoleId?: string) {
    await lockKey(db, trx, roleNamesLockKey(operatorId));
    const roles = await trx.selectFrom('roles').select(['id', 'name']).where('operator_id', '=', operatorId).execute();
    if (roles.some((r) => r.id !== exceptRoleId && r.name.toLowerCase() === name.toLowerCase())) {
      throw conflict(`A role named "${name}" already exists`);
    }
  }

  function checkGrid(permissions: NonNullable<RoleUpdateBody['permissions']>) {
    const seen = new Set<string>();
    for (const { permission_key } of permissions) {
      if (!isPermissionKey(permission_key)) throw badRequest(`Unknown permission_key "${permission_key}"`);
      if (seen.has(permission_key)) throw badRequest(`permission_key "${permission_key}" is listed more than once`);
      seen.add(permission_key);
    }
    return permissions.map((p) => {
      const write = Boolean(p.can_write);
      return { permission_key: p.permission_key, can_read: write || Boolean(p.can_read) ? 1 : 0, can_write: write ? 1 : 0 };
    });
  }

  return {
    list: async (operatorId: string) => ({ data: await load(operatorId) }),

    async get(operatorId: string, roleId: string): Promise<Role> {
      const [role] = await load(operatorId, roleId);
      if (!role) throw notFound('Role');
      return role;
    },

    async create(operatorId: string, body: RoleCreateBody): Promise<string> {
      const name = requiredText(body.name, 'name');
      const id = newId('role');
      const at = clock.now().toISOString();
      await withTransaction(db, async (trx) => {
        await assertNameFree(trx, operatorId, name);
        await trx
          .insertInto('roles')
          .values({
            id,
            operator_id: operatorId,
            name,
            description: clearableText(body.description) ?? '',
            is_system: 0,
            created_at: at,
            updated_at: at,
          })
          .execute();
        await audit.record(trx, {
          action: 'role.created',
          entityType: 'role',
          entityId: id,
          after: auditedRole({ name, description: clearableText(body.description) ?? '' }),
        });
      });
      return id;
    },

    /**
     * Only an Owner edits a role beyond their own (the Owner role included: its name and description
     * too), and nobody leaves a role granting more, or reaching further, than they hold themself.
     */
    async update(caller: AuthInfo, operatorId: string, roleId: string, body: RoleUpdateBody): Promise<void> {
      const name = requiredText(body.name, 'name');
      const description = body.description === undefined ? undefined : (clearableText(body.description) ?? '');
      await withTransaction(db, async (trx) => {
        // Serialises with other edits of the role and with assignments of it, so the check below reads
        // what the write replaces (a concurrent Owner edit cannot widen it in between).
        await lockKey(db, trx, roleLockKey(roleId));
        const role = await findRole(trx, operatorId, roleId);
        if (!role) throw notFound('Role');
        const current = await roleReach(trx, operatorId, roleId);
        const beyond = beyondCaller(caller, current);
        if (beyond) throw forbidden(`Only an Owner can change this role: it ${beyond}`);
        if (role.is_system && (body.permissions !== undefined || body.venue_ids !== undefined)) {
          throw badRequest('The Owner role always holds every permission on every venue: only its name and description can change');
        }
        const grid = body.permissions === undefined ? undefined : checkGrid(body.permissions);
        if (body.venue_ids !== undefined) {
          const known = new Set(await venueIdsOf(trx, operatorId, body.venue_ids));
          const unknown = body.venue_ids.filter((id) => !known.has(id));
          if (unknown.length > 0) throw badRequest(`venue_ids are not venues of this account: ${unknown.join(', ')}`);
          if (!scopeWithinCaller(caller, body.venue_ids)) throw forbidden('A role cannot reach venues beyond your own');
        }
        const granted = grid && exceedsCaller(caller, grid);
        if (granted) throw forbidden(`You cannot grant ${granted}: your own role does not hold it`);
        // The role as it will be: a grid within the caller's must not keep reaching beyond their venues.
        if (
          !role.is_system &&
          current &&
          beyondCaller(caller, { isOwnerRole: false, grid: grid ?? current.grid, venueIds: body.venue_ids ?? current.venueIds })
        ) {
          throw forbidden('A role that grants anything cannot reach venues beyond your own: limit venue_ids to your venues');
        }
        await assertNameFree(trx, operatorId, name, roleId);
        await trx
          .updateTable('roles')
          .set({ name, description, updated_at: clock.now().toISOString() })
          .where('id', '=', roleId)
          .where('operator_id', '=', operatorId)
          .execute();
        if (grid) {
          await trx.deleteFrom('role_permissions').where('role_id', '=', roleId).execute();
          if (grid.length > 0)
            await trx
              .insertInto('role_permissions')
              .values(grid.map((g) => ({ role_id: roleId, ...g })))
              .execute();
        }
        if (body.venue_ids) {
          await trx.deleteFrom('role_venues').where('role_id', '=', roleId).execute();
          if (body.venue_ids.length > 0) {
            await trx
              .insertInto('role_venues')
              .values(body.venue_ids.map((venue_id) => ({ role_id: roleId, venue_id })))
              .execute();
          }
        }
        await audit.record(trx, {
          action: 'role.updated',
          entityType: 'role',
          entityId: roleId,
          before: auditedRole(role, current?.grid, current?.venueIds),
          after: auditedRole(
            { name, description: description ?? role.description },
            grid ?? current?.grid,
            body.venue_ids ?? current?.venueIds,
          ),
        });
      });
    },

    /** Only an Owner deletes a role beyond their own; the Owner role and roles still held stay. */
    async remove(caller: AuthInfo, operatorId: string, roleId: string): Promise<void> {
      await withTransaction(db, async (trx) => {
        await lockKey(db, trx, roleLockKey(roleId));
        const role = await findRole(trx, operatorId, roleId);
        if (!role) throw notFound('Role');
        const beyond = beyondCaller(caller, await roleReach(trx, operatorId, roleId));
        if (beyond) throw forbidden(`Only an Owner can delete this role: it ${beyond}`);
        if (role.is_system) throw badRequest('The Owner role cannot be deleted');
        if ((await countClientUsers(trx, operatorId, roleId)) > 0)
          throw conflict('This role is still assigned to users: give them another role first');
        await trx.deleteFrom('roles').where('id', '=', roleId).where('operator_id', '=', operatorId).execute();
        await audit.record(trx, { action: 'role.deleted', entityType: 'role', entityId: roleId, before: auditedRole(role) });
      });
    },
  };
}

export type RolesService = ReturnType<typeof createRolesService>;
