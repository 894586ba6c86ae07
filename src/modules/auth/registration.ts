/**
 * Guest registration in two steps (decisions: Security round 2): an address is proven before anything is
 * created or linked to it.
 *
 * `register` answers the same for every address and mails it, in the transaction that records the
 * request: a 6-digit code when the address has no account (a password-less guest record from bookings
 * counts as none), or "you already have an account, sign in" when it has one. The code is kept only as
 * a salted SHA-256, lasts 15 minutes, is used once, and allows 5 attempts. Each registration keeps its
 * own code and password (at most MAX_PENDING wait per address, the oldest dropped): whoever registers the
 * address after its owner cannot make the owner's code create an account with their password. Mails to
 * one address are limited too (`registration_email`). `verifyEmail` then creates the account with the
 * password of the registration whose code it was, claiming the guest record of that address, and signs
 * the guest in; the address's other pending registrations are dropped.
 *
 * Code checks count like sign-in failures: a point is taken from the email's and the client address's
 * counters before the check and given back when the code is right.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';
import { withTransaction } from '../../db/transaction.js';
import type { BotCheck } from '../../platform/bot-check.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest } from '../../platform/errors.js';
import { keepNewestMailedCodes, newMailedCode, useMailedCode } from '../../platform/mailed-codes.js';
import { sequentialId } from '../../platform/ids.js';
import type { Mail } from '../../platform/mail/mail.js';
import { renderMail } from '../../platform/mail/templates.js';
import type { LimitKey, RateLimits } from '../../platform/rate-limit.js';
import { hashPassword } from './passwords.js';
import type { Sessions } from './sessions.js';
import { createGuestAccount, findUser, findUserByEmail, normaliseEmail } from './users.repository.js';
import type { User } from './auth.schemas.js';
import type { EmailVerificationsTable } from './auth.table.js';

export const VERIFICATION_TTL_MS = 15 * 60_000;
export const VERIFICATION_MAX_ATTEMPTS = 5;
/** Registrations of one address that may wait for their code at once. */
export const MAX_PENDING = 3;
export const INVALID_VERIFICATION = 'Invalid or expired verification code';
const PLATFORM = 'Maitred';

/** The counters a wrong code counts against: the email from any address, and the client address. */
const codeLimits = (email: string, ip: string): LimitKey[] => [
  { name: 'email_code_failures_email', key: email },
  { name: 'email_code_failures_ip', key: ip },
];

function platformMail(to: string, subject: string, paragraphs: string[]) {
  const { text, html } = renderMail({ title: subject, paragraphs, venueName: PLATFORM });
  return { to, subject, text, html, senderName: PLATFORM };
}

export function createRegistration(deps: {
  db: Db;
  clock: Clock;
  rateLimits: RateLimits;
  sessions: Sessions;
  botCheck: BotCheck;
  mail: Mail;
  toUser(user: NonNullable<Awaited<ReturnType<typeof findUser>>>): User;
}) {
  const { db, clock, rateLimits, mail } = deps;

  return {
    /** Records the registration and mails its code, or tells an existing account's owner to sign in. Same answer for every address. */
    async register(input: { name: string; email: string; password: string; turnstile_token?: string }, ip: string) {
      await rateLimits.hit('registration', ip);
      await deps.botCheck.verify(input.turnstile_token, ip);
      const email = normaliseEmail(input.email);
      await rateLimits.hit('registration_email', email);
      // Hashed whatever the address, so the answer takes as long for a known address as for a new one.
      const passwordHash = await hashPassword(input.password);
      const existing = await findUserByEmail(db, email);
      const now = clock.now();
      await withTransaction(db, async (trx) => {
        // Expired registrations are forgotten here (they hold a name and a password hash).
        await trx.deleteFrom('email_verifications').where('expires_at', '<=', now.toISOString()).execute();
        if (existing?.password_hash) {
          await trx.deleteFrom('email_verifications').where('email', '=', email).execute();
          await mail.queue(
            trx,
            platformMail(email, 'You already have an account', [
              'Someone (hopefully you) asked to create an account with this email address. You already have one.',
              'Sign in with your password instead. If you did not ask for this, you can ignore this email.',
            ]),
          );
          return;
        }
        const { code, code_salt, code_hash } = newMailedCode();
        const row = {
          id: sequentialId('ver'),
          email,
          name: input.name.trim(),
          password_hash: passwordHash,
          code_salt,
          code_hash,
          attempts: 0,
          expires_at: new Date(now.getTime() + VERIFICATION_TTL_MS).toISOString(),
          created_at: now.toISOString(),
        };
        await trx.insertInto('email_verifications').values(row).execute();
        // Bounded: the address keeps its newest MAX_PENDING registrations.
        await keepNewestMailedCodes(trx, 'email_verifications', email, MAX_PENDING);
        await mail.queue(
          trx,
          platformMail(email, `Your verification code: ${code}`, [
            `Your code to finish creating your account is ${code}. It is valid for 15 minutes and can be used once.`,
            'If you did not ask for this, you can ignore this email: no account is created without the code.',
          ]),
        );
      });
      return { verification_required: true as const };
    },

    /** Creates the account of a proven address (claiming its guest record) and signs the guest in. */
    async verifyEmail(input: { email: string; code: string }, ip: string) {
      const email = normaliseEmail(input.email);
      const limits = codeLimits(email, ip);
      await rateLimits.take(limits);
      const now = clock.now();
      // The code's registration creates the account (claiming the address's guest record), once.
      const userId = await useMailedCode<Selectable<EmailVerificationsTable>, string>(
        db,
        { table: 'email_verifications', email, guess: input.code, now, maxAttempts: VERIFICATION_MAX_ATTEMPTS },
        (trx, proven) => createGuestAccount(trx, { name: proven.name, email, passwordHash: proven.password_hash }, now),
      );
      if (!userId) throw badRequest(INVALID_VERIFICATION);
      await rateLimits.refund(limits);
      const user = (await findUser(db, userId))!;
      return { user: deps.toUser(user), token: await deps.sessions.create(userId) };
    },
  };
}
