/**
 * Team members of an account: which of its portal users are listed on the team, with a free role
 * label. Only the account's own client users can be members; the primary contact cannot be removed.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { MemberCreateBody } from './team.schemas.js';
import { requiredText } from './team.input.js';
import { findClientUser, findOperator, isUniqueViolation } from './team.repository.js';

const SEARCH_LIMIT = 20;
const DEFAULT_MEMBER_ROLE = 'member';

/** `%text%` for LIKE, with the wildcards of the text itself escaped (escape character `\`). */
const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createMembersService(ctx: AppContext) {
  const { db, clock } = ctx;

  return {
    async list(operatorId: string) {
      const data = await db.kysely
        .selectFrom('members')
        .innerJoin('users', 'users.id', 'members.user_id')
        .select(['members.id', 'members.user_id', 'members.role', 'users.name', 'users.email', 'members.created_at'])
        .where('members.operator_id', '=', operatorId)
        .orderBy('members.created_at')
        .orderBy('members.id')
        .execute();
      return { data };
    },

    /** Client users of the account, not yet members, whose name or email contains `q` (any case). */
    async searchCandidates(operatorId: string, q: string) {
      const text = q.trim();
      if (text.length < 2) throw badRequest('q must be at least 2 characters');
      const pattern = containsPattern(text);
      const data = await db.kysely
        .selectFrom('users')
        .select(['users.id', 'users.name', 'users.email'])
        .where('users.operator_id', '=', operatorId)
        .where('users.role', '=', 'client')
        .where((eb) =>
          eb.or([
            eb(sql`lower(users.name)`, 'like', sql`${pattern} escape '\\'`),
            eb(sql`lower(users.email)`, 'like', sql`${pattern} escape '\\'`),
          ]),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('members')
                .select('members.id')
                .whereRef('members.user_id', '=', 'users.id')
                .where('members.operator_id', '=', operatorId),
            ),
          ),
        )
        .orderBy('users.name')
        .orderBy('users.id')
        .limit(SEARCH_LIMIT)
        .execute();
      return { data };
    },

    async add(operatorId: string, body: MemberCreateBody): Promise<string> {
      const user = await findClientUser(db, operatorId, body.user_id);
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
        await db.kysely.insertInto('members').values({ id, operator_id: operatorId, user_id: user.id, role, created_at: at, updated_at: at }).execute();
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
        db.kysely.selectFrom('members').select(['id', 'user_id']).where('id', '=', memberId).where('operator_id', '=', operatorId).executeTakeFirst(),
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
