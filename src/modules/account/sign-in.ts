/**
 * Signing in to the guest's own account with a one-time code mailed to the address (docs/account.md).
 *
 * `requestCode` answers the same for every address. A guest's address (or one nobody has) is mailed a
 * 6-digit code in the transaction that records it; a portal (staff) address is mailed a note to sign in
 * to the portal instead, never a code. Codes are kept only as a salted SHA-256, last 10 minutes, allow 5
 * guesses each, and are used once; an address keeps its newest 3. Codes asked for are limited per client
 * address (`sign_in_code`) and mails per address (`sign_in_code_email`).
 *
 * `verifyCode` takes a point from the email's and the client address's wrong-code counters (the ones the
 * registration code uses) before anything is compared, and gives it back when the code is right. Each
 * guess spends one attempt of every live code of the address, claimed by a conditional update before the
 * comparison, so concurrent guesses cannot exceed the cap. The right code is deleted by the request that
 * uses it (single use), and the guest is signed in: the guest record of the address (made from earlier
 * bookings, or new) is the account. A code proves the address, so it is the verified address from then
 * on: the account app shows the records made with it.
 */
import type { Db } from '../../db/connect.js';
import { withTransaction } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest } from '../../platform/errors.js';
import { keepNewestMailedCodes, newMailedCode, useMailedCode } from '../../platform/mailed-codes.js';
import { sequentialId } from '../../platform/ids.js';
import type { Mail } from '../../platform/mail/mail.js';
import { renderMail } from '../../platform/mail/templates.js';
import type { LimitKey, RateLimits } from '../../platform/rate-limit.js';
import { findClientUserByEmail, guestForEmail, guestProfiles, normaliseEmail, type Sessions } from '../auth/index.js';

export const SIGN_IN_CODE_TTL_MS = 10 * 60_000;
export const SIGN_IN_CODE_MAX_ATTEMPTS = 5;
const MAX_LIVE_CODES = 3;
export const INVALID_SIGN_IN_CODE = 'Invalid or expired sign-in code';
const PLATFORM = 'Maitred';

const codeLimits = (email: string, ip: string): LimitKey[] => [
  { name: 'email_code_failures_email', key: email },
  { name: 'email_code_failures_ip', key: ip },
];

function platformMail(to: string, subject: string, paragraphs: string[]) {
  const { text, html } = renderMail({ title: subject, paragraphs, venueName: PLATFORM });
  return { to, subject, text, html, senderName: PLATFORM };
}

export function createSignIn(deps: { db: Db; clock: Clock; rateLimits: RateLimits; sessions: Sessions; mail: Mail }) {
  const { db, clock, rateLimits, mail } = deps;

  return {
    async requestCode(input: { email: string }, ip: string): Promise<{ code_sent: true }> {
      await rateLimits.hit('sign_in_code', ip);
      const email = normaliseEmail(input.email);
      await rateLimits.hit('sign_in_code_email', email);
      const staff = await findClientUserByEmail(db, email);
      const now = clock.now();
      await withTransaction(db, async (trx) => {
        await trx.deleteFrom('account_sign_in_codes').where('expires_at', '<=', now.toISOString()).execute();
        if (staff) {
          await mail.queue(
            trx,
            platformMail(email, 'Sign in to the portal', [
              'Someone (hopefully you) asked for a guest sign-in code for this email address. It belongs to a venue team account.',
              'Sign in to the portal with your password instead. If you did not ask for this, you can ignore this email.',
            ]),
          );
          return;
        }
        const { code, code_salt, code_hash } = newMailedCode();
        await trx
          .insertInto('account_sign_in_codes')
          .values({
            id: sequentialId('sic'),
            email,
            code_salt,
            code_hash,
            attempts: 0,
            expires_at: new Date(now.getTime() + SIGN_IN_CODE_TTL_MS).toISOString(),
            created_at: now.toISOString(),
          })
          .execute();
        await keepNewestMailedCodes(trx, 'account_sign_in_codes', email, MAX_LIVE_CODES);
        await mail.queue(
          trx,
          platformMail(email, `Your sign-in code: ${code}`, [
            `Your code to sign in to your account is ${code}. It is valid for 10 minutes and can be used once.`,
            'If you did not ask for this, you can ignore this email: nobody can sign in without the code.',
          ]),
        );
      });
      return { code_sent: true };
    },

    async verifyCode(input: { email: string; code: string }, ip: string) {
      const email = normaliseEmail(input.email);
      const limits = codeLimits(email, ip);
      await rateLimits.take(limits);
      const now = clock.now();
      const userId = await useMailedCode(
        db,
        { table: 'account_sign_in_codes', email, guess: input.code, now, maxAttempts: SIGN_IN_CODE_MAX_ATTEMPTS },
        // A portal user's address answers null (guests only sign in here).
        (trx) => guestForEmail(trx, { name: email.split('@')[0], email }, now),
      );
      // No code matched, a concurrent request used it, or the address became a portal user's meanwhile.
      if (!userId) throw badRequest(INVALID_SIGN_IN_CODE);
      await rateLimits.refund(limits);
      const [profile] = await guestProfiles(db, [userId]);
      return {
        user: { id: userId, role: 'guest', name: profile?.name ?? '', email, operator_id: null },
        token: await deps.sessions.create(userId),
      };
    },
  };
}

export type SignIn = ReturnType<typeof createSignIn>;
