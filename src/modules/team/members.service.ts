/**
 * Team members of an account: the people listed on its team, each with a free role label. A member is
 * any operator-side (client) user: one of the account's own portal users, or a person from another
 * account found by their exact email. Membership is a listing, never access: it does not move the user
 * to this account nor give them a role here (what someone may do in an account's portal comes only from
 * being its portal user with a role), and it changes nothing in their own account. The primary contact
 * cannot be removed.
 */
import type { Db } from '../../db/connect.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { requiredText } from '../../platform/text.js';
import { findClientUserByEmail, findClientUserOfAnyAccount, searchClientUsers, userSummaries } from '../auth/index.js';
import type { MemberCreateBody } from './team.schemas.js';
import { findOperator, listMembers } from './team.repository.js';

const SEARCH_LIMIT = 20;
const DEFAULT_MEMBER_ROLE = 'member';

export function createMembersService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  return {
    async list(operatorId: string) {
      const members = await listMembers(db, operatorId);
      const users = new Map(
        (
          await userSummaries(
            db,
            members.map((m) => m.user_id),
          )
        ).map((u) => [u.id, u]),
      );
      // A member whose user is gone is not listed (as the inner join on users did).
      const data = members.flatMap((m) => {
        const user = users.get(m.user_id);
        return user ? [{ id: m.id, user_id: m.user_id, role: m.role, name: user.name, email: user.email, created_at: m.created_at }] : [];
      });
      return { data };
    },

    /**
     * Candidates not yet on the team: the account's own client users whose name or email contains `q`
     * (any case), and the client user of any account whose email is exactly `q` (any case), first.
     * Another account's users are found only by their whole email, so nobody can browse them.
     */
    async searchCandidates(operatorId: string, q: string) {
      const text = q.trim();
      if (text.length < 2) throw badRequest('q must be at least 2 characters');
      const memberIds = new Set((await listMembers(db, operatorId)).map((m) => m.user_id));
      const [exact, own] = await Promise.all([
        text.includes('@') ? findClientUserByEmail(db, text) : undefined,
        searchClientUsers(db, operatorId, text, { excludeIds: [...memberIds], limit: SEARCH_LIMIT }),
      ]);
      const first = exact && !memberIds.has(exact.id) && !own.some((u) => u.id === exact.id) ? [exact] : [];
      return { data: [...first, ...own].slice(0, SEARCH_LIMIT).map(({ id, name, email }) => ({ id, name, email })) };
    },

    async add(operatorId: string, body: MemberCreateBody): Promise<string> {
      const user = await findClientUserOfAnyAccount(db, body.user_id);
      if (!user) throw notFound('User');
      const role = body.role === undefined ? DEFAULT_MEMBER_ROLE : requiredText(body.role, 'role');
      const existing = await db.kysely
        .selectFrom('members')
        .select('id')
        .where('operator_id', '=', operatorId)
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      if (existing) throw conflict('This user is already a member of the team');
      const id = newId('mem');
      const at = clock.now().toISOString();
      try {
        await db.kysely
          .insertInto('members')
          .values({ id, operator_id: operatorId, user_id: user.id, role, created_at: at, updated_at: at })
          .execute();
      } catch (error) {
        // A concurrent add of the same user loses on the (operator, user) unique constraint.
        if (isUniqueViolation(error)) throw conflict('This user is already a member of the team');
        throw error;
      }
      return id;
    },

    async updateRole(operatorId: string, memberId: string, role: string): Promise<void> {
      const result = await db.kysely
        .updateTable('members')
        .set({ role: requiredText(role, 'role'), updated_at: clock.now().toISOString() })
        .where('id', '=', memberId)
        .where('operator_id', '=', operatorId)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw notFound('Member');
    },

    async remove(operatorId: string, memberId: string): Promise<void> {
      const [member, operator] = await Promise.all([
        db.kysely
          .selectFrom('members')
          .select(['id', 'user_id'])
          .where('id', '=', memberId)
          .where('operator_id', '=', operatorId)
          .executeTakeFirst(),
        findOperator(db, operatorId),
      ]);
      if (!member) throw notFound('Member');
      if (member.user_id === operator?.primary_user_id) {
        throw badRequest("The account's primary contact cannot be removed from the team");
      }
      await db.kysely.deleteFrom('members').where('id', '=', memberId).where('operator_id', '=', operatorId).execute();
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
