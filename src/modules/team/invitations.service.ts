/**
 * Invitations: an account invites someone by email to become a portal user holding a role (our
 * extension; docs/decisions.md, Portal). The inviter must be allowed to create that user outright
 * (`assignable`: only an Owner gives the Owner role or a role beyond their own). The invitee gets a
 * link with a random 32-byte token, queued as mail in the transaction that records the invitation;
 * only its SHA-256 is stored. The link is good for 7 days and once: accepting it with a password
 * creates the user exactly as `POST /api/my-users` does, and marks the invitation accepted by a
 * conditional update in the same transaction, so two accepts of one link create one user.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../db/connect.js';
import { kyselyOf, lockKey, withTransaction, type Conn } from '../../db/transaction.js';
import type { AuthInfo } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { conflict, forbidden, notFound } from '../../platform/errors.js';
import { newId, randomToken } from '../../platform/ids.js';
import type { Mail } from '../../platform/mail/mail.js';
import { renderMail } from '../../platform/mail/templates.js';
import { requiredText } from '../../platform/text.js';
import { emailTaken, insertUser, normaliseEmail, userSummaries } from '../auth/index.js';
import { beyondCaller, roleReach } from './authority.js';
import { assignable, EMAIL_TAKEN } from './portal-users.service.js';
import { roleLockKey } from './roles.service.js';
import { findOperator } from './team.repository.js';
import type { InvitationCreateBody } from './team.schemas.js';

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60_000;
const PLATFORM = 'Maitred';
const INVITATION = 'Invitation';

type Caller = AuthInfo & { operatorId: string };

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** One invitation per address and account at a time: taken around the check and the insert. */
const inviteLockKey = (operatorId: string, email: string) => `invitation:${operatorId}:${email}`;

const COLUMNS = ['id', 'email', 'name', 'role_id', 'invited_by', 'created_at', 'expires_at'] as const;

export function createInvitationsService(deps: { db: Db; clock: Clock; mail: Mail; publicBaseUrl: string }) {
  const { db, clock, mail, publicBaseUrl } = deps;

  /** Invitations still open at `now`: not accepted, not revoked, not expired. */
  const pending = (conn: Conn, now: string) =>
    kyselyOf(conn).selectFrom('invitations').where('accepted_at', 'is', null).where('revoked_at', 'is', null).where('expires_at', '>', now);

  /** The pending invitation a token names, with its account's and role's names; undefined when none. */
  async function openInvitation(token: string) {
    return db.kysely
      .selectFrom('invitations as i')
      .innerJoin('operators as o', 'o.id', 'i.operator_id')
      .innerJoin('roles as r', 'r.id', 'i.role_id')
      .select([
        'i.id',
        'i.operator_id',
        'i.email',
        'i.name',
        'i.role_id',
        'i.expires_at',
        'o.name as operator_name',
        'r.name as role_name',
        'i.invited_by',
      ])
      .where('i.token_hash', '=', tokenHash(token))
      .where('i.accepted_at', 'is', null)
      .where('i.revoked_at', 'is', null)
      .where('i.expires_at', '>', clock.now().toISOString())
      .executeTakeFirst();
  }

  return {
    async list(operatorId: string) {
      const data = await pending(db, clock.now().toISOString())
        .select([...COLUMNS])
        .where('operator_id', '=', operatorId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return { data };
    },

    async create(caller: Caller, body: InvitationCreateBody) {
      const name = requiredText(body.name, 'name');
      const email = normaliseEmail(body.email);
      const roleMissing = () => notFound('Role');
      await assignable(db, caller, body.role_id, roleMissing);
      const token = randomToken(32);
      const now = clock.now();
      const row = {
        id: newId('inv'),
        operator_id: caller.operatorId,
        email,
        name,
        role_id: body.role_id,
        invited_by: caller.user.id,
        token_hash: tokenHash(token),
        expires_at: new Date(now.getTime() + INVITATION_TTL_MS).toISOString(),
        accepted_at: null,
        revoked_at: null,
        user_id: null,
        created_at: now.toISOString(),
      };
      await withTransaction(db, async (trx) => {
        await lockKey(db, trx, roleLockKey(body.role_id));
        await lockKey(db, trx, inviteLockKey(caller.operatorId, email));
        // Re-read inside the locks: the role may have changed or gone since the check above.
        const role = await assignable(trx, caller, body.role_id, roleMissing);
        if (await emailTaken(trx, email)) throw conflict(EMAIL_TAKEN);
        const open = await pending(trx, row.created_at)
          .select('id')
          .where('operator_id', '=', caller.operatorId)
          .where('email', '=', email)
          .executeTakeFirst();
        if (open) throw conflict('This email already has a pending invitation');
        await trx.insertInto('invitations').values(row).execute();
        const operator = await findOperator(trx, caller.operatorId);
        const accountName = operator?.name ?? 'an account';
        const subject = `${caller.user.name} invited you to ${accountName} on ${PLATFORM}`;
        const { text, html } = renderMail({
          title: subject,
          paragraphs: [
            `Hello ${name},`,
            `${caller.user.name} invited you to sign in to the ${accountName} portal on ${PLATFORM} with the role ${role.name}. ` +
              'Open the link to choose your password. It works once and for 7 days.',
            'If you did not expect this, you can ignore this email: nothing is created without the link.',
          ],
          link: { label: 'Accept the invitation', url: `${publicBaseUrl}/app/invitation?token=${token}` },
          venueName: PLATFORM,
        });
        await mail.queue(trx, { to: email, subject, text, html, senderName: PLATFORM });
      });
      const { token_hash: _hash, operator_id: _operator, accepted_at: _a, revoked_at: _r, user_id: _u, ...invitation } = row;
      return invitation;
    },

    /** Revokes a pending invitation; only an Owner revokes one to a role beyond the caller's own (as for deleting its holder). */
    async revoke(caller: Caller, invitationId: string): Promise<void> {
      const now = clock.now().toISOString();
      const invitation = await pending(db, now)
        .select(['id', 'role_id'])
        .where('id', '=', invitationId)
        .where('operator_id', '=', caller.operatorId)
        .executeTakeFirst();
      if (!invitation) throw notFound(INVITATION);
      const beyond = beyondCaller(caller, await roleReach(db, caller.operatorId, invitation.role_id));
      if (beyond) throw forbidden(`Only an Owner can revoke this invitation: its role ${beyond}`);
      const done = await db.kysely
        .updateTable('invitations')
        .set({ revoked_at: now })
        .where('id', '=', invitationId)
        .where('operator_id', '=', caller.operatorId)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) throw notFound(INVITATION);
    },

    /** What the invitee sees before choosing a password; 404 for an unknown, used, revoked or expired token. */
    async preview(token: string) {
      const invitation = await openInvitation(token);
      if (!invitation) throw notFound(INVITATION);
      return {
        operator_name: invitation.operator_name,
        // The inviter's name through the auth module (users are its table); gone with their account.
        invited_by_name: invitation.invited_by ? ((await userSummaries(db, [invitation.invited_by]))[0]?.name ?? null) : null,
        email: invitation.email,
        name: invitation.name,
        role_name: invitation.role_name,
        expires_at: invitation.expires_at,
      };
    },

    /** Creates the invited user with this password, once. */
    async accept(token: string, password: string): Promise<string> {
      const invitation = await openInvitation(token);
      if (!invitation) throw notFound(INVITATION);
      if (await emailTaken(db, invitation.email)) throw conflict(EMAIL_TAKEN);
      return withTransaction(db, async (trx) => {
        const now = clock.now();
        // Only the accept that flips accepted_at goes on; a concurrent one finds it set (404).
        const claimed = await trx
          .updateTable('invitations')
          .set({ accepted_at: now.toISOString() })
          .where('id', '=', invitation.id)
          .where('accepted_at', 'is', null)
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', now.toISOString())
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) throw notFound(INVITATION);
        await lockKey(db, trx, roleLockKey(invitation.role_id));
        // A role deleted meanwhile takes its invitations with it (foreign key cascade).
        const role = await trx
          .selectFrom('roles')
          .select('id')
          .where('id', '=', invitation.role_id)
          .where('operator_id', '=', invitation.operator_id)
          .executeTakeFirst();
        if (!role) throw notFound(INVITATION);
        // As POST /api/my-users: the user (email taken meanwhile: 409, and the claim rolls back) and their membership.
        const userId = await insertUser(
          trx,
          {
            role: 'client',
            name: invitation.name,
            email: invitation.email,
            password,
            phone: null,
            operator_id: invitation.operator_id,
            role_id: invitation.role_id,
          },
          now,
        );
        const at = now.toISOString();
        await trx
          .insertInto('members')
          .values({
            id: newId('mem'),
            operator_id: invitation.operator_id,
            user_id: userId,
            role: 'member',
            created_at: at,
            updated_at: at,
          })
          .execute();
        await trx.updateTable('invitations').set({ user_id: userId }).where('id', '=', invitation.id).execute();
        return userId;
      });
    },
  };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
