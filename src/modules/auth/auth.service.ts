/**
 * Sign-in for operators and guests: password login with rate limits on failures, optional TOTP
 * second step (single-use, 5-minute challenges), guest registration, and TOTP set-up.
 */
import type { AppContext } from '../../context.js';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.js';
import { randomToken } from '../../platform/ids.js';
import type { SessionUser } from '../../platform/sessions.js';
import { verifyPassword } from './passwords.js';
import { insertUser, normaliseEmail } from './users.repository.js';
import type { User } from './auth.schemas.js';

const CHALLENGE_TTL_MS = 5 * 60_000;
const CHALLENGE_MAX_ATTEMPTS = 5;
const INVALID_CREDENTIALS = 'Invalid email or password';

export const toUser = (user: SessionUser | (SessionUser & Record<string, unknown>)): User => ({
  id: user.id,
  role: user.role,
  name: user.name,
  email: user.email,
  operator_id: user.operator_id ?? null,
});

export function createAuthService(ctx: AppContext) {
  const { db, clock, rateLimits, sessions } = ctx;

  // otplib and qrcode are loaded on the first two-factor call, not at start-up (qrcode alone is 57 files).
  async function checkCode(secret: string, code: string): Promise<boolean> {
    const { verify: verifyTotp } = await import('otplib');
    const result = await verifyTotp({ secret, token: code, epoch: Math.floor(clock.now().getTime() / 1000), epochTolerance: 30 });
    return result.valid;
  }

  async function loadUser(userId: string) {
    const user = await db.kysely.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
    if (!user) throw notFound('User');
    return user;
  }

  return {
    async login(email: string, password: string, ip: string) {
      const key = normaliseEmail(email);
      await rateLimits.check('login_failures_ip', ip);
      await rateLimits.check('login_failures_email', key);
      const user = await db.kysely.selectFrom('users').selectAll().where('email', '=', key).executeTakeFirst();
      const ok = await verifyPassword(user?.password_hash, password);
      if (!user || !ok) {
        await rateLimits.penalise('login_failures_ip', ip);
        await rateLimits.penalise('login_failures_email', key);
        throw new AppError(401, INVALID_CREDENTIALS);
      }
      await rateLimits.reset('login_failures_email', key);
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
      await rateLimits.check('login_failures_ip', ip);
      const now = clock.now();
      const challenge = await db.kysely
        .selectFrom('two_factor_challenges')
        .selectAll()
        .where('id', '=', challengeId)
        .executeTakeFirst();
      const expired = (message: string) => new AppError(401, message);
      if (!challenge || challenge.used_at || new Date(challenge.expires_at) <= now || challenge.attempts >= CHALLENGE_MAX_ATTEMPTS) {
        throw expired('This sign-in challenge has expired. Please log in again.');
      }
      const user = await loadUser(challenge.user_id);
      if (!user.totp_secret || !(await checkCode(user.totp_secret, code))) {
        await db.kysely
          .updateTable('two_factor_challenges')
          .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
          .where('id', '=', challengeId)
          .execute();
        await rateLimits.penalise('login_failures_ip', ip);
        throw expired('Invalid authentication code');
      }
      // Single use: only the request that flips used_at gets a session.
      const claimed = await db.kysely
        .updateTable('two_factor_challenges')
        .set({ used_at: now.toISOString() })
        .where('id', '=', challengeId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw expired('This sign-in challenge has expired. Please log in again.');
      return { user: toUser(user), token: await sessions.create(user.id) };
    },

    async register(input: { name: string; email: string; password: string; turnstile_token?: string }, ip: string) {
      await rateLimits.hit('registration', ip);
      await ctx.botCheck.verify(input.turnstile_token, ip);
      const id = await insertUser(db, { role: 'guest', name: input.name, email: input.email, password: input.password }, clock.now());
      const user = await loadUser(id);
      return { user: toUser(user), token: await sessions.create(id) };
    },

    async setupTwoFactor(userId: string) {
      const user = await loadUser(userId);
      if (user.totp_enabled) throw conflict('Two-factor authentication is already enabled');
      const [{ generateSecret, generateURI }, { default: QRCode }] = await Promise.all([import('otplib'), import('qrcode')]);
      const secret = generateSecret();
      await db.kysely
        .updateTable('users')
        .set({ totp_pending_secret: secret, updated_at: clock.now().toISOString() })
        .where('id', '=', userId)
        .execute();
      const otpauth_url = generateURI({ issuer: 'Maitred', label: user.email, secret });
      return { secret, otpauth_url, qr_code: await QRCode.toDataURL(otpauth_url) };
    },

    async enableTwoFactor(userId: string, code: string) {
      const user = await loadUser(userId);
      if (user.totp_enabled) throw conflict('Two-factor authentication is already enabled');
      if (!user.totp_pending_secret) throw badRequest('Start two-factor set-up first');
      if (!(await checkCode(user.totp_pending_secret, code))) throw badRequest('Invalid authentication code');
      await db.kysely
        .updateTable('users')
        .set({ totp_secret: user.totp_pending_secret, totp_pending_secret: null, totp_enabled: 1, updated_at: clock.now().toISOString() })
        .where('id', '=', userId)
        .execute();
    },

    async disableTwoFactor(userId: string, code: string) {
      const user = await loadUser(userId);
      if (!user.totp_enabled || !user.totp_secret) throw badRequest('Two-factor authentication is not enabled');
      if (!(await checkCode(user.totp_secret, code))) throw badRequest('Invalid authentication code');
      await db.kysely
        .updateTable('users')
        .set({ totp_secret: null, totp_pending_secret: null, totp_enabled: 0, updated_at: clock.now().toISOString() })
        .where('id', '=', userId)
        .execute();
    },
  };
}
