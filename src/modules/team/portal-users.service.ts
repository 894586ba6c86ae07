/**
 * Portal users: the account's client (operator staff) users, each holding exactly one role of the
 * account. Guards against privilege escalation: only an Owner hands out the Owner role or changes
 * or deletes a user who holds it, and the primary contact always keeps it.
 */
import type { Db } from '../../db/connect.js';
import { lockKey, withTransaction, type Conn } from '../../db/transaction.js';
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
import { findOperator, findRole, roleGrid } from './team.repository.js';
import { roleLockKey } from './roles.service.js';

const MIN_PASSWORD = 8;
const EMAIL_TAKEN = 'An account with this email already exists';

type Caller = AuthInfo & { operatorId: string };

export function createPortalUsersService(deps: { db: Db; clock: Clock; sessions: Pick<Sessions, 'revokeAllForUser'> }) {
  const { db, clock, sessions } = deps;

  /** The role a user is to hold: a role of the account, and the Owner role only from an Owner. */
  async function assignableRole(caller: Caller, roleId: string, conn: Conn = db) {
    const role = await findRole(conn, caller.operatorId, roleId);
    if (!role) throw badRequest('role_id is not a role of this account');
    if (role.is_system && !caller.isOwner) throw forbidden('Only an Owner can give someone the Owner role');
    if (!caller.isOwner) {
      const { grid, venueIds } = await roleGrid(conn, role.id);
      const beyond = exceedsCaller(caller, grid);
      if (beyond) throw forbidden(`You cannot assign a role holding ${beyond}: your own role does not hold it`);
      if (!scopeWithinCaller(caller, venueIds)) throw forbidden('You cannot assign a role that reaches venues beyond your own');
    }
    return role;
  }

  /** A user of the account that the caller may change: holders of the Owner role only by an Owner. */
  async function manageableUser(caller: Caller, userId: string) {
    const user = await findClientUser(db, caller.operatorId, userId);
    if (!user) throw notFound('User');
    const role = user.role_id ? await findRole(db, caller.operatorId, user.role_id) : undefined;
    const operator = await findOperator(db, caller.operatorId);
    return { user, holdsOwner: Boolean(role?.is_system), isPrimary: operator?.primary_user_id === user.id };
  }

  function assertMayManage(caller: Caller, target: { holdsOwner: boolean }) {
    if (target.holdsOwner && !caller.isOwner) throw forbidden('Only an Owner can change or delete a user who holds the Owner role');
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
          { role: 'client', name, email: body.email, password: body.password, phone: clearableText(body.phone) ?? null, operator_id: caller.operatorId, role_id: body.role_id },
          clock.now(),
        );
        const at = clock.now().toISOString();
        await trx.insertInto('members').values({ id: newId('mem'), operator_id: caller.operatorId, user_id: userId, role: 'member', created_at: at, updated_at: at }).execute();
        return userId;
      });
    },

    async update(caller: Caller, userId: string, body: PortalUserUpdateBody): Promise<void> {
      const target = await manageableUser(caller, userId);
      assertMayManage(caller, target);
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
        if (body.role_id !== undefined) {
          await lockKey(db, trx, roleLockKey(body.role_id));
          await assignableRole(caller, body.role_id, trx);
        }
        // A concurrent sign-up with the same email loses or wins on the unique index (409 either way).
        await updateClientUser(trx, caller.operatorId, userId, { name, email, phone: clearableText(body.phone), role_id: body.role_id, password_hash }, clock.now());
      });
      // A new password signs the user out everywhere else; the caller keeps the session in use.
      if (password_hash) await sessions.revokeAllForUser(userId, userId === caller.user.id ? caller.sessionId : undefined);
    },

    async remove(caller: Caller, userId: string): Promise<void> {
      if (userId === caller.user.id) throw badRequest('You cannot delete your own user');
      const target = await manageableUser(caller, userId);
      if (target.isPrimary) throw badRequest("The account's primary contact cannot be deleted");
      assertMayManage(caller, target);
      await withTransaction(db, async (trx) => {
        await trx.deleteFrom('members').where('user_id', '=', userId).where('operator_id', '=', caller.operatorId).execute();
        await deleteClientUser(trx, caller.operatorId, userId);
      });
    },
  };
}

export type PortalUsersService = ReturnType<typeof createPortalUsersService>;
