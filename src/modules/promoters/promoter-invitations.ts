/**
 * The venue's emailed promoter invitations (docs/promoters.md): the venue's pending list, the invite
 * (a random 32-byte token, only its SHA-256 kept, 7 days, once; mail queued in the transaction that
 * records it), the revoke, and the public side: the preview of a link and its accept, which creates the
 * promoter account and its active agreement with the venue. Part of the promoters service
 * (promoters.service.ts), which owns the agreements themselves.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../db/connect.js';
import { kyselyOf, lockKey, withTransaction, type Conn } from '../../db/transaction.js';
import type { AuthInfo, VenueRow } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { conflict, notFound } from '../../platform/errors.js';
import { newId, randomToken } from '../../platform/ids.js';
import type { Mail } from '../../platform/mail/mail.js';
import { renderMail } from '../../platform/mail/templates.js';
import { requiredText } from '../../platform/text.js';
import { emailTaken, insertUser, normaliseEmail } from '../auth/index.js';
import type { PromoterInviteBody } from './promoters.schemas.js';

const PROMOTER_INVITATION_TTL_MS = 7 * 24 * 60 * 60_000;
const EMAIL_TAKEN = 'This email already has an account';
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export function createPromoterInvitations(deps: {
  db: Db;
  clock: Clock;
  mail: Mail;
  publicBaseUrl: string;
  /** A venue of an account (the venues module's), read on `conn`. */
  accountVenue(conn: Conn, operatorId: string, venueId: string): Promise<VenueRow | undefined>;
}) {
  const { db, clock, mail, publicBaseUrl } = deps;
  const now = () => clock.now().toISOString();

  const pendingInvitations = (conn: Conn, at: string) =>
    kyselyOf(conn)
      .selectFrom('promoter_invitations')
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', at);

  async function openInvitation(token: string) {
    return pendingInvitations(db, now()).selectAll().where('token_hash', '=', tokenHash(token)).executeTakeFirst();
  }

  return {
    async invitationsOfVenue(venue: VenueRow) {
      const data = await pendingInvitations(db, now())
        .select(['id', 'venue_id', 'email', 'name', 'share_percent', 'invited_by', 'created_at', 'expires_at'])
        .where('venue_id', '=', venue.id)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return { data };
    },

    /** Mails an invitation to become the venue's promoter (an email with an account: 409; one already pending: 409). */
    async invite(auth: AuthInfo, venue: VenueRow, body: PromoterInviteBody) {
      const name = requiredText(body.name, 'name');
      const email = normaliseEmail(body.email);
      const token = randomToken(32);
      const at = clock.now();
      const row = {
        id: newId('pin'),
        operator_id: venue.operator_id,
        venue_id: venue.id,
        email,
        name,
        share_percent: body.share_percent,
        invited_by: auth.user.id,
        token_hash: tokenHash(token),
        expires_at: new Date(at.getTime() + PROMOTER_INVITATION_TTL_MS).toISOString(),
        accepted_at: null,
        revoked_at: null,
        user_id: null,
        created_at: at.toISOString(),
      };
      await withTransaction(db, async (trx) => {
        await lockKey(db, trx, `promoter-invitation:${venue.id}:${email}`);
        if (await emailTaken(trx, email)) throw conflict(EMAIL_TAKEN);
        const open = await pendingInvitations(trx, row.created_at)
          .select('id')
          .where('venue_id', '=', venue.id)
          .where('email', '=', email)
          .executeTakeFirst();
        if (open) throw conflict('This email already has a pending invitation');
        await trx.insertInto('promoter_invitations').values(row).execute();
        const subject = `${venue.name} invited you to run events there`;
        const { text, html } = renderMail({
          title: subject,
          paragraphs: [
            `Hello ${name},`,
            `${auth.user.name} of ${venue.name} invited you to submit events to ${venue.name} as a promoter, with a ${body.share_percent}% ` +
              'share of your events’ ticket revenue. Open the link to choose your password. It works once and for 7 days.',
            'If you did not expect this, you can ignore this email: nothing is created without the link.',
          ],
          link: { label: 'Accept the invitation', url: `${publicBaseUrl}/app/promoter-invitation?token=${token}` },
          venueName: venue.name,
        });
        await mail.queue(trx, { to: email, subject, text, html, senderName: venue.name });
      });
      const { token_hash: _h, operator_id: _o, accepted_at: _a, revoked_at: _r, user_id: _u, ...invitation } = row;
      return invitation;
    },

    async revokeInvitation(venue: VenueRow, id: string) {
      const done = await db.kysely
        .updateTable('promoter_invitations')
        .set({ revoked_at: now() })
        .where('id', '=', id)
        .where('venue_id', '=', venue.id)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) throw notFound('Invitation');
      return { success: true };
    },

    async preview(token: string) {
      const invitation = await openInvitation(token);
      const venue = invitation && (await deps.accountVenue(db, invitation.operator_id, invitation.venue_id));
      if (!invitation || !venue) throw notFound('Invitation');
      return {
        venue_name: venue.name,
        email: invitation.email,
        name: invitation.name,
        share_percent: invitation.share_percent,
        expires_at: invitation.expires_at,
      };
    },

    /** Creates the promoter account and its active agreement with the venue, once (two accepts of one link: one account). */
    async acceptInvitation(token: string, password: string): Promise<string> {
      const invitation = await openInvitation(token);
      if (!invitation) throw notFound('Invitation');
      if (await emailTaken(db, invitation.email)) throw conflict(EMAIL_TAKEN);
      return withTransaction(db, async (trx) => {
        const at = clock.now();
        const claimed = await trx
          .updateTable('promoter_invitations')
          .set({ accepted_at: at.toISOString() })
          .where('id', '=', invitation.id)
          .where('accepted_at', 'is', null)
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', at.toISOString())
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) throw notFound('Invitation');
        const userId = await insertUser(
          trx,
          { role: 'promoter', name: invitation.name, email: invitation.email, password, phone: null, operator_id: null, role_id: null },
          at,
        );
        await trx
          .insertInto('promoter_agreements')
          .values({
            id: newId('pag'),
            operator_id: invitation.operator_id,
            venue_id: invitation.venue_id,
            promoter_id: userId,
            status: 'active',
            requested_by: 'venue',
            share_percent: invitation.share_percent,
            decided_at: at.toISOString(),
            created_at: at.toISOString(),
            updated_at: at.toISOString(),
          })
          .execute();
        await trx.updateTable('promoter_invitations').set({ user_id: userId }).where('id', '=', invitation.id).execute();
        return userId;
      });
    },
  };
}
