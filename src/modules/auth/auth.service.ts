/**
 * Sign-in for operators and guests: password login with rate limits on failures, optional TOTP
 * second step (single-use, 5-minute challenges), guest registration (two steps: registration.ts), and
 * TOTP set-up.
 *
 * A password or code check first takes a point from each of its failure limits and gives it back when
 * it succeeds, so concurrent guesses cannot outrun a limit. TOTP secrets are sealed at rest, a code is
 * accepted at most once per user, and turning two-factor on or off signs the user out everywhere else.
 */
import type { Db } from '../../db/connect.js';
import type { SessionUser } from '../../platform/auth-guard.js';
import type { BotCheck } from '../../platform/bot-check.js';
import type { Clock } from '../../platform/clock.js';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.js';
import { randomToken } from '../../platform/ids.js';
import { qrDataUrl } from '../../platform/qr-image.js';
import type { Mail } from '../../platform/mail/mail.js';
import type { LimitKey, RateLimits } from '../../platform/rate-limit.js';
import type { SecretBox } from '../../platform/secret-box.js';
import { verifyPassword } from './passwords.js';
import type { Sessions } from './sessions.js';
import { createTotp, otplib } from './totp.js';
import { createRegistration } from './registration.js';
import { findUser, findUserByEmail, normaliseEmail } from './users.repository.js';
import type { User } from './auth.schemas.js';

const CHALLENGE_TTL_MS = 5 * 60_000;
const CHALLENGE_MAX_ATTEMPTS = 5;
const INVALID_CREDENTIALS = 'Invalid email or password';
const INVALID_CODE = 'Invalid authentication code';
const CHALLENGE_EXPIRED = 'This sign-in challenge has expired. Please log in again.';

export const toUser = (user: SessionUser | (SessionUser & Record<string, unknown>)): User => ({
  id: user.id,
  role: user.role,
  name: user.name,
  email: user.email,
  operator_id: user.operator_id ?? null,
});

/** The counters a failed sign-in step counts against: the email from this address, the address, the email. */
function failureLimits(email: string, ip: string): LimitKey[] {
  return [
    { name: 'login_failures_email_ip', key: `${email} ${ip}` },
    { name: 'login_failures_ip', key: ip },
    { name: 'login_failures_email', key: email },
  ];
}

const codeLimit = (userId: string): LimitKey => ({ name: 'two_factor_failures_user', key: userId });

export function createAuthService(deps: {
  db: Db;
  clock: Clock;
  rateLimits: RateLimits;
  sessions: Sessions;
  botCheck: BotCheck;
  secrets: SecretBox;
  mail: Mail;
}) {
  const { db, clock, rateLimits, sessions } = deps;
  const totp = createTotp({ db, clock, secrets: deps.secrets });
  const registration = createRegistration({ ...deps, toUser });

  async function loadUser(userId: string) {
    const user = await findUser(db, userId);
    if (!user) throw notFound('User');
    return user;
  }

  /**
   * After a successful step: the points taken are given back, and this address's failures for the email
   * are forgotten (only someone who knows the password can do that). The address's and the email's
   * other failures stay counted, so an attacker cannot clear them by signing in to an account of their own.
   */
  async function succeeded(limits: LimitKey[]) {
    const [pair, ...rest] = limits;
    await rateLimits.refund(rest);
    await rateLimits.reset(pair!.name, pair!.key);
  }

  return {
    register: registration.register,
    verifyEmail: registration.verifyEmail,

    async login(email: string, password: string, ip: string) {
      const key = normaliseEmail(email);
      const limits = failureLimits(key, ip);
      await rateLimits.take(limits);
      const user = await findUserByEmail(db, key);
      const ok = await verifyPassword(user?.password_hash, password);
      if (!user || !ok) throw new AppError(401, INVALID_CREDENTIALS);
      await succeeded(limits);
      if (user.totp_enabled && user.totp_secret) {
        const challengeId = `tfa_${randomToken(24)}`;
        const now = clock.now();
        await db.kysely
          .insertInto('two_factor_challenges')
          .values({
            id: challengeId,
            user_id: user.id,
            created_at: now.toISOString(),
            expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString(),
            used_at: null,
          })
          .execute();
        return { requires_2fa: true as const, challenge_id: challengeId };
      }
      return { user: toUser(user), token: await sessions.create(user.id) };
    },

    async validateChallenge(challengeId: string, code: string, ip: string) {
      const now = clock.now();
      const challenge = await db.kysely.selectFrom('two_factor_challenges').selectAll().where('id', '=', challengeId).executeTakeFirst();
      const open = challenge && !challenge.used_at && new Date(challenge.expires_at) > now && challenge.attempts < CHALLENGE_MAX_ATTEMPTS;
      const user = open ? await findUser(db, challenge.user_id) : undefined;
      if (!user) throw new AppError(401, CHALLENGE_EXPIRED);

      const limits = [...failureLimits(user.email, ip), codeLimit(user.id)];
      await rateLimits.take(limits);
      // Claim one of the challenge's attempts before checking the code: concurrent guesses cannot exceed the cap.
      const attempt = await db.kysely
        .updateTable('two_factor_challenges')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', challengeId)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now.toISOString())
        .where('attempts', '<', CHALLENGE_MAX_ATTEMPTS)
        .executeTakeFirst();
      if (Number(attempt.numUpdatedRows) !== 1) {
        await rateLimits.refund(limits);
        throw new AppError(401, CHALLENGE_EXPIRED);
      }

      const step =
        user.totp_enabled && user.totp_secret
          ? await totp.match(await totp.openSecret(user.id, user.totp_secret), code, user.totp_last_step)
          : undefined;
      if (step === undefined || !(await totp.claimStep(user.id, step))) throw new AppError(401, INVALID_CODE);
      // Single use: only the request that flips used_at gets a session.
      const claimed = await db.kysely
        .updateTable('two_factor_challenges')
        .set({ used_at: now.toISOString() })
        .where('id', '=', challengeId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw new AppError(401, CHALLENGE_EXPIRED);
      await succeeded(limits);
      return { user: toUser(user), token: await sessions.create(user.id) };
    },

    /** Whether the user's sign-in asks for an authenticator code. */
    async twoFactorStatus(userId: string) {
      return { enabled: Boolean((await loadUser(userId)).totp_enabled) };
    },

    async setupTwoFactor(userId: string) {
      const user = await loadUser(userId);
      if (user.totp_enabled) throw conflict('Two-factor authentication is already enabled');
      const { generateSecret, generateURI } = otplib();
      const secret = generateSecret();
      await db.kysely
        .updateTable('users')
        .set({ totp_pending_secret: await totp.sealSecret(userId, secret), updated_at: clock.now().toISOString() })
        .where('id', '=', userId)
        .execute();
      const otpauth_url = generateURI({ issuer: 'Maitred', label: user.email, secret });
      return { secret, otpauth_url, qr_code: await qrDataUrl(otpauth_url) };
    },

    /** Turns two-factor on with a code of the pending secret; every other session of the user ends. */
    async enableTwoFactor(userId: string, sessionId: string, code: string) {
      const user = await loadUser(userId);
      if (user.totp_enabled) throw conflict('Two-factor authentication is already enabled');
      const pending = user.totp_pending_secret;
      if (!pending) throw badRequest('Start two-factor set-up first');
      const limits = [codeLimit(userId)];
      await rateLimits.take(limits);
      const secret = await totp.openSecret(userId, pending);
      const step = await totp.match(secret, code, user.totp_last_step);
      if (step === undefined) throw badRequest(INVALID_CODE);
      // Conditional on the pending secret read: a set-up started meanwhile is not enabled with the old code.
      const updated = await db.kysely
        .updateTable('users')
        .set({
          totp_secret: await totp.sealSecret(userId, secret),
          totp_pending_secret: null,
          totp_enabled: 1,
          totp_last_step: step,
          updated_at: clock.now().toISOString(),
        })
        .where('id', '=', userId)
        .where('totp_enabled', '=', 0)
        .where('totp_pending_secret', '=', pending)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) {
        if ((await loadUser(userId)).totp_enabled) throw conflict('Two-factor authentication is already enabled');
        throw badRequest(INVALID_CODE);
      }
      await rateLimits.refund(limits);
      await sessions.revokeAllForUser(userId, sessionId);
    },

    /** Turns two-factor off with a current code; every other session of the user ends. */
    async disableTwoFactor(userId: string, sessionId: string, code: string) {
      const user = await loadUser(userId);
      if (!user.totp_enabled || !user.totp_secret) throw badRequest('Two-factor authentication is not enabled');
      const limits = [codeLimit(userId)];
      await rateLimits.take(limits);
      const step = await totp.match(await totp.openSecret(userId, user.totp_secret), code, user.totp_last_step);
      if (step === undefined) throw badRequest(INVALID_CODE);
      const updated = await db.kysely
        .updateTable('users')
        .set({ totp_secret: null, totp_pending_secret: null, totp_enabled: 0, totp_last_step: step, updated_at: clock.now().toISOString() })
        .where('id', '=', userId)
        .where('totp_enabled', '=', 1)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) {
        if (!(await loadUser(userId)).totp_enabled) throw badRequest('Two-factor authentication is not enabled');
        throw badRequest(INVALID_CODE);
      }
      await rateLimits.refund(limits);
      await sessions.revokeAllForUser(userId, sessionId);
    },

    /**
     * At start: resolves the secrets key (creating the database's own when SECRETS_KEY is unset) and
     * seals the TOTP secrets still stored in plain text or under another key.
     */
    async prepareSecrets() {
      const { createdStoredKey } = await deps.secrets.prepare();
      return { createdStoredKey, ...(await totp.sealStoredSecrets()) };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
