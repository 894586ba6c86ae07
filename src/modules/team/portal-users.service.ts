/**
 * Portal users: the account's client (operator staff) users, each holding exactly one role of the
 * account. Guards against privilege escalation and takeover: nobody but an Owner gives a role holding
 * more than their own (a grant they lack, a venue beyond theirs, the Owner role), nor changes, re-roles,
 * resets or deletes a user whose current role does (see authority.ts); the primary contact always keeps
 * the Owner role.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { lockKey, withTransaction, type Conn } from '../../db/transaction.js';
import type { Audit } from '../../platform/audit.js';
import type { AuthInfo } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { exceedsCaller, scopeWithinCaller } from '../../platform/permissions.js';
import { clearableText, requiredText } from '../../platform/text.js';
import {
  deleteClientUser,
  emailTaken,
  findClientUser,
  hashPassword,
  insertUser,
  listClientUsers,
  normaliseEmail,
  updateClientUser,
  type Sessions,
} from '../auth/index.js';
import type { PortalUserCreateBody, PortalUserUpdateBody } from './team.schemas.js';
import { beyondCaller, roleReach } from './authority.js';
import { findOperator, findRole, roleGrid } from './team.repository.js';
import { roleLockKey } from './roles.service.js';

const MIN_PASSWORD = 8;
export const EMAIL_TAKEN = 'An account with this email already exists';

/** Taken by every change or deletion of a portal user, so two of them never check and write interleaved. */
const portalUserLockKey = (userId: string) => `portal-user:${userId}`;

type Caller = AuthInfo & { operatorId: string };

/**
 * The role a user is to hold: a role of the account (else `missing`, a 400 by default), and only from an
 * Owner the Owner role or a role beyond the caller's own (403). Invitations check the same.
 */
export async function assignable(
  conn: Conn,
  caller: Caller,
  roleId: string,
  missing: () => Error = () => badRequest('role_id is not a role of this account'),
) {
  const role = await findRole(conn, caller.operatorId, roleId);
  if (!role) throw missing();
  if (role.is_system && !caller.isOwner) throw forbidden('Only an Owner can give someone the Owner role');
  if (!caller.isOwner) {
    const { grid, venueIds } = await roleGrid(conn, role.id);
    const beyond = exceedsCaller(caller, grid);
    if (beyond) throw forbidden(`You cannot assign a role holding ${beyond}: your own role does not hold it`);
    if (!scopeWithinCaller(caller, venueIds)) throw forbidden('You cannot assign a role that reaches venues beyond your own');
  }
  return role;
}

export function createPortalUsersService(deps: { db: Db; clock: Clock; sessions: Pick<Sessions, 'revokeAllForUser'>; audit: Audit }) {
  const { db, clock, sessions, audit } = deps;

  const assignableRole = (caller: Caller, roleId: string, conn: Conn = db) => assignable(conn, caller, roleId);

  /**
   * A user of the account that the caller may change or delete: 404 when not the account's portal
   * user, 403 when their current role is beyond the caller's own (only an Owner manages such a user).
   */
  async function manageableUser(caller: Caller, userId: string, conn: Conn = db) {
    const user = await findClientUser(conn, caller.operatorId, userId);
    if (!user) throw notFound('User');
    const beyond = beyondCaller(caller, await roleReach(conn, caller.operatorId, user.role_id));
    if (beyond) throw forbidden(`Only an Owner can change or delete this user: their role ${beyond}`);
    const operator = await findOperator(conn, caller.operatorId);
    return { user, isPrimary: operator?.primary_user_id === user.id };
  }

  /**
   * Inside a change's transaction: serialises it with other changes of the user and of the roles
   * involved (a concurrent promotion of the user or widening of their role must not slip between the
   * check and the write), then re-checks against what is now stored.
   */
  async function lockManageable(trx: Kysely<Database>, caller: Caller, userId: string, newRoleId?: string) {
    await lockKey(db, trx, portalUserLockKey(userId));
    const current = await findClientUser(trx, caller.operatorId, userId);
    // Role locks in one order everywhere, so two changes that swap roles cannot deadlock.
    const roleIds = [...new Set([current?.role_id, newRoleId].filter((id): id is string => Boolean(id)))].sort();
    for (const roleId of roleIds) await lockKey(db, trx, roleLockKey(roleId));
    return manageableUser(caller, userId, trx);
  }

  return {
    async list(operatorId: string) {
      const [operator, users, roles] = await Promise.all([
        findOperator(db, operatorId),
        listClientUsers(db, operatorId),
        db.kysely.selectFrom('roles').select(['id', 'name']).where('operator_id', '=', operatorId).execute(),
      ]);
      const roleNames = new Map(roles.map((role) => [role.id, role.name]));
      const data = users.map((user) => ({
        id: user.id,
        name: user.name,
        email: user.email,
        phone: user.phone,
        role_id: user.role_id,
        role_name: (user.role_id && roleNames.get(user.role_id)) ?? null,
        created_at: user.created_at,
        is_primary_contact: user.id === operator?.primary_user_id,
      }));
      // The primary contact heads the list; the rest stay in creation order (sort is stable).
      return { data: data.sort((a, b) => Number(b.is_primary_contact) - Number(a.is_primary_contact)) };
    },

    async create(caller: Caller, body: PortalUserCreateBody): Promise<string> {
      const name = requiredText(body.name, 'name');
      await assignableRole(caller, body.role_id);
      if (await emailTaken(db, body.email)) throw conflict(EMAIL_TAKEN);
      return withTransaction(db, async (trx) => {
        await lockKey(db, trx, roleLockKey(body.role_id));
        // Re-read inside the lock: the role may have been deleted since the check above.
        await assignableRole(caller, body.role_id, trx);
        const userId = await insertUser(
          trx,
          {
            role: 'client',
            name,
            email: body.email,
            password: body.password,
            phone: clearableText(body.phone) ?? null,
            operator_id: caller.operatorId,
            role_id: body.role_id,
          },
          clock.now(),
        );
        const at = clock.now().toISOString();
        await trx
          .insertInto('members')
          .values({ id: newId('mem'), operator_id: caller.operatorId, user_id: userId, role: 'member', created_at: at, updated_at: at })
          .execute();
        await audit.record(trx, {
          action: 'user.created',
          entityType: 'user',
          entityId: userId,
          after: {
            name,
            email: normaliseEmail(body.email),
            phone: clearableText(body.phone) ?? null,
            role_id: body.role_id,
            password: body.password,
          },
        });
        return userId;
      });
    },

    async update(caller: Caller, userId: string, body: PortalUserUpdateBody): Promise<void> {
      const target = await manageableUser(caller, userId);
      const name = body.name === undefined ? undefined : requiredText(body.name, 'name');
      const email = body.email === undefined ? undefined : normaliseEmail(body.email);
      if (email !== undefined && email !== target.user.email && (await emailTaken(db, email, userId))) throw conflict(EMAIL_TAKEN);
      const password = body.password ?? '';
      if (password !== '' && password.length < MIN_PASSWORD) throw badRequest(`password must be at least ${MIN_PASSWORD} characters`);
      if (body.role_id !== undefined) {
        const role = await assignableRole(caller, body.role_id);
        if (target.isPrimary && !role.is_system) throw badRequest('The primary contact must keep the Owner role');
      }
      const password_hash = password === '' ? undefined : await hashPassword(password);

      await withTransaction(db, async (trx) => {
        await lockManageable(trx, caller, userId, body.role_id);
        if (body.role_id !== undefined) await assignableRole(caller, body.role_id, trx);
        // A concurrent sign-up with the same email loses or wins on the unique index (409 either way).
        await updateClientUser(
          trx,
          caller.operatorId,
          userId,
          { name, email, phone: clearableText(body.phone), role_id: body.role_id, password_hash },
          clock.now(),
        );
        await audit.record(trx, {
          action: 'user.updated',
          entityType: 'user',
          entityId: userId,
          before: target.user,
          after: { name, email, phone: clearableText(body.phone), role_id: body.role_id, password_hash },
        });
      });
      // A new password signs the user out everywhere else; the caller keeps the session in use.
      if (password_hash) await sessions.revokeAllForUser(userId, userId === caller.user.id ? caller.sessionId : undefined);
    },

    async remove(caller: Caller, userId: string): Promise<void> {
      if (userId === caller.user.id) throw badRequest('You cannot delete your own user');
      const target = await manageableUser(caller, userId);
      if (target.isPrimary) throw badRequest("The account's primary contact cannot be deleted");
      await withTransaction(db, async (trx) => {
        await lockManageable(trx, caller, userId);
        // Memberships of other teams go with the user row (foreign key cascade).
        await trx.deleteFrom('members').where('user_id', '=', userId).where('operator_id', '=', caller.operatorId).execute();
        await deleteClientUser(trx, caller.operatorId, userId);
        await audit.record(trx, { action: 'user.deleted', entityType: 'user', entityId: userId, before: target.user });
      });
    },
  };
}

export type PortalUsersService = ReturnType<typeof createPortalUsersService>;
