/**
 * Promoter self sign-up in two steps, like guest registration (docs/promoters.md; decisions: Promoter
 * sign-up proven by a mailed code): an email typed by an anonymous caller is a contact address, never an
 * identity, so nothing is created until the address is proven.
 *
 * `register` answers the same for every address and mails it, in the transaction that records the
 * sign-up: a 6-digit code when the address has no account, or a note that it already has one (never a
 * code, never a 409). The code is kept only as a salted SHA-256 (platform/mailed-codes.ts), lasts 15
 * minutes, is used once and allows 5 attempts; each sign-up keeps its own code and password (an address
 * keeps its newest 3), so whoever signs up an address after its owner cannot make the owner's code create
 * an account with their password. Attempts count before any work, on the guest registration's limits
 * (`registration` per client address, `registration_email` per address).
 *
 * `verify` takes a point from the wrong-code counters of the email and the client address first (given
 * back when the code is right), spends an attempt of every live code of the address before comparing,
 * and creates the promoter with the password of the sign-up whose code it was, in the transaction that
 * deletes that sign-up: of two racing verifies only the one whose delete removed the row creates the
 * account. Then the promoter is signed in.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';
import { withTransaction } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest } from '../../platform/errors.js';
import { sequentialId } from '../../platform/ids.js';
import { keepNewestMailedCodes, newMailedCode, useMailedCode } from '../../platform/mailed-codes.js';
import type { Mail } from '../../platform/mail/mail.js';
import { renderMail } from '../../platform/mail/templates.js';
import type { LimitKey, RateLimits } from '../../platform/rate-limit.js';
import { requiredText } from '../../platform/text.js';
import { emailAccount, hashPassword, insertUser, normaliseEmail, type Sessions } from '../auth/index.js';
import type { PromoterSignUpsTable } from './promoters.table.js';

export const SIGN_UP_TTL_MS = 15 * 60_000;
export const SIGN_UP_MAX_ATTEMPTS = 5;
const MAX_PENDING = 3;
export const INVALID_SIGN_UP_CODE = 'Invalid or expired verification code';
const PLATFORM = 'Maitred';

const codeLimits = (email: string, ip: string): LimitKey[] => [
  { name: 'email_code_failures_email', key: email },
  { name: 'email_code_failures_ip', key: ip },
];

function platformMail(to: string, subject: string, paragraphs: string[]) {
  const { text, html } = renderMail({ title: subject, paragraphs, venueName: PLATFORM });
  return { to, subject, text, html, senderName: PLATFORM };
}

export function createPromoterSignUp(deps: { db: Db; clock: Clock; rateLimits: RateLimits; sessions: Sessions; mail: Mail }) {
  const { db, clock, rateLimits, mail } = deps;

  return {
    /** Records the sign-up and mails its code, or tells the address it has an account already. Same answer for every address. */
    async register(input: { name: string; email: string; password: string }, ip: string) {
      await rateLimits.hit('registration', ip);
      const email = normaliseEmail(input.email);
      await rateLimits.hit('registration_email', email);
      const name = requiredText(input.name, 'name');
      // Hashed whatever the address, so the answer takes as long for a known address as for a new one.
      const passwordHash = await hashPassword(input.password);
      const existing = await emailAccount(db, email);
      const now = clock.now();
      await withTransaction(db, async (trx) => {
        // Expired sign-ups are forgotten here (they hold a name and a password hash).
        await trx.deleteFrom('promoter_sign_ups').where('expires_at', '<=', now.toISOString()).execute();
        if (existing) {
          await trx.deleteFrom('promoter_sign_ups').where('email', '=', email).execute();
          await mail.queue(
            trx,
            platformMail(
              email,
              'This email already has an account',
              existing.hasPassword
                ? [
                    'Someone (hopefully you) asked to sign up as a promoter with this email address. It already has an account.',
                    'Sign in with your password instead. If you did not ask for this, you can ignore this email.',
                  ]
                : [
                    'Someone (hopefully you) asked to sign up as a promoter with this email address. It is already in use for bookings.',
                    'A promoter account needs an address of its own: sign up with another one. If you did not ask for this, you can ignore this email.',
                  ],
            ),
          );
          return;
        }
        const { code, code_salt, code_hash } = newMailedCode();
        await trx
          .insertInto('promoter_sign_ups')
          .values({
            id: sequentialId('psu'),
            email,
            name,
            password_hash: passwordHash,
            code_salt,
            code_hash,
            attempts: 0,
            expires_at: new Date(now.getTime() + SIGN_UP_TTL_MS).toISOString(),
            created_at: now.toISOString(),
          })
          .execute();
        // Bounded: the address keeps its newest MAX_PENDING sign-ups.
        await keepNewestMailedCodes(trx, 'promoter_sign_ups', email, MAX_PENDING);
        await mail.queue(
          trx,
          platformMail(email, `Your verification code: ${code}`, [
            `Your code to finish signing up as a promoter is ${code}. It is valid for 15 minutes and can be used once.`,
            'If you did not ask for this, you can ignore this email: no account is created without the code.',
          ]),
        );
      });
      return { verification_required: true as const };
    },

    /** Creates the promoter of a proven address and signs them in (the same answer as signing in). */
    async verify(input: { email: string; code: string }, ip: string) {
      const email = normaliseEmail(input.email);
      const limits = codeLimits(email, ip);
      await rateLimits.take(limits);
      const now = clock.now();
      // 409 when the address got an account in the meantime.
      const created = await useMailedCode<Selectable<PromoterSignUpsTable>, { userId: string; name: string }>(
        db,
        { table: 'promoter_sign_ups', email, guess: input.code, now, maxAttempts: SIGN_UP_MAX_ATTEMPTS },
        async (trx, proven) => ({
          userId: await insertUser(trx, { role: 'promoter', name: proven.name, email, passwordHash: proven.password_hash }, now),
          name: proven.name,
        }),
      );
      if (!created) throw badRequest(INVALID_SIGN_UP_CODE);
      const { userId, name } = created;
      await rateLimits.refund(limits);
      return {
        user: { id: userId, role: 'promoter', name, email, operator_id: null },
        token: await deps.sessions.create(userId),
      };
    },
  };
}
