/**
 * Two-factor under attack: concurrent guesses on one challenge, the per-user limit on wrong codes,
 * replayed codes, sessions ended when two-factor changes, and TOTP secrets sealed at rest.
 */
import { randomBytes } from 'node:crypto';
import { generate, generateSecret } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOperator, createTestApp, TEST_PASSWORD, type TestApp, type TestOperator } from '../../../test/helpers/app.js';
import { open, SECRETS_KEY_SETTING, storedSecretsKey, UnreadableSecretError } from '../../platform/secret-box.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const codeAt = (app: TestApp, secret: string, offsetSeconds = 0) =>
  generate({ secret, epoch: Math.floor(app.clock.now().getTime() / 1000) + offsetSeconds });

/** A six-digit code that is none of the codes accepted now (previous, current and next step). */
async function wrongCode(app: TestApp, secret: string): Promise<string> {
  const valid = new Set([await codeAt(app, secret, -30), await codeAt(app, secret), await codeAt(app, secret, 30)]);
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

/** An operator with two-factor on; the clock is moved past the step of the enabling code. */
async function withTwoFactor(app: TestApp): Promise<TestOperator & { secret: string }> {
  const op = await createOperator(app);
  const { secret } = (await app.app.inject({ method: 'POST', url: '/api/2fa/setup', headers: op.headers })).json();
  const enabled = await app.app.inject({
    method: 'POST',
    url: '/api/2fa/enable',
    headers: op.headers,
    payload: { code: await codeAt(app, secret) },
  });
  expect(enabled.statusCode).toBe(200);
  app.clock.advance(30_000);
  return { ...op, secret };
}

async function challenge(app: TestApp, email: string, remoteAddress = '127.0.0.1'): Promise<string> {
  const res = await app.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { email, password: TEST_PASSWORD } });
  expect(res.json()).toEqual({ requires_2fa: true, challenge_id: expect.any(String) });
  return res.json().challenge_id;
}

const validate = (app: TestApp, challenge_id: string, code: string, remoteAddress = '127.0.0.1') =>
  app.app.inject({ method: 'POST', url: '/api/2fa/validate', remoteAddress, payload: { challenge_id, code } });

const userRow = (app: TestApp, id: string) => app.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('challenge attempts', () => {
  it('150 concurrent wrong codes on one challenge record at most 5 attempts; the challenge is then spent', async () => {
    // Generous address and user limits, so only the challenge's own cap stands in the way.
    const own = await createTestApp({ RATE_LIMITS: 'two_factor_failures_user=1000/900,login_failures_email=1000/900' });
    try {
      const op = await withTwoFactor(own);
      const id = await challenge(own, op.email);
      const wrong = await wrongCode(own, op.secret);
      const answers = await Promise.all(Array.from({ length: 150 }, (_, i) => validate(own, id, wrong, `10.40.${i >> 6}.${(i % 64) + 1}`)));
      expect(answers.every((res) => res.statusCode === 401)).toBe(true);
      expect(answers.filter((res) => res.json().error === 'Invalid authentication code').length).toBeLessThanOrEqual(5);
      const row = await own.db.kysely.selectFrom('two_factor_challenges').select('attempts').where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.attempts).toBe(5);
      const right = await validate(own, id, await codeAt(own, op.secret), '10.41.0.1');
      expect(right.statusCode).toBe(401);
      expect(right.json().error).toMatch(/expired/);
    } finally {
      await own.close();
    }
  });
});

describe('wrong codes per user', () => {
  it('after 10 wrong codes for one user (from any addresses) even the right code is refused with 429', async () => {
    const op = await withTwoFactor(t);
    const wrong = await wrongCode(t, op.secret);
    for (let c = 0; c < 2; c++) {
      const id = await challenge(t, op.email, `10.50.${c}.1`);
      for (let i = 0; i < 5; i++)
        expect((await validate(t, id, wrong, `10.50.${c}.${i + 2}`)).json().error).toBe('Invalid authentication code');
    }
    const id = await challenge(t, op.email, '10.50.9.1');
    const refused = await validate(t, id, await codeAt(t, op.secret), '10.50.9.1');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Nothing was spent on the refused request: the challenge still has all its attempts.
    const row = await t.db.kysely.selectFrom('two_factor_challenges').select('attempts').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.attempts).toBe(0);

    // Another user is unaffected.
    const other = await withTwoFactor(t);
    expect((await validate(t, await challenge(t, other.email), await codeAt(t, other.secret))).statusCode).toBe(200);
  });

  it('wrong codes to disable two-factor count too', async () => {
    const op = await withTwoFactor(t);
    const wrong = await wrongCode(t, op.secret);
    for (let i = 0; i < 10; i++) {
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/2fa/disable', headers: op.headers, payload: { code: wrong } })).statusCode,
      ).toBe(400);
    }
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/2fa/disable',
      headers: op.headers,
      payload: { code: await codeAt(t, op.secret) },
    });
    expect(refused.statusCode).toBe(429);
    expect((await userRow(t, op.userId)).totp_enabled).toBe(1);
  });
});

describe('codes are accepted once', () => {
  it('refuses the code that enabled two-factor, and a code already used to sign in', async () => {
    const op = await createOperator(t);
    const { secret } = (await t.app.inject({ method: 'POST', url: '/api/2fa/setup', headers: op.headers })).json();
    const code = await codeAt(t, secret);
    expect((await t.app.inject({ method: 'POST', url: '/api/2fa/enable', headers: op.headers, payload: { code } })).statusCode).toBe(200);
    const replayed = await validate(t, await challenge(t, op.email), code);
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().error).toBe('Invalid authentication code');

    t.clock.advance(30_000);
    const next = await codeAt(t, secret);
    expect((await validate(t, await challenge(t, op.email), next)).statusCode).toBe(200);
    expect((await validate(t, await challenge(t, op.email), next)).statusCode).toBe(401);
    // Nor may an earlier step's code, still inside the tolerance window, follow a later one.
    t.clock.advance(30_000);
    const later = await codeAt(t, secret, 30);
    expect((await validate(t, await challenge(t, op.email), later)).statusCode).toBe(200);
    expect((await validate(t, await challenge(t, op.email), await codeAt(t, secret))).statusCode).toBe(401);
  });

  it('of two concurrent sign-ins with the same code, one succeeds', async () => {
    const op = await withTwoFactor(t);
    const ids = [await challenge(t, op.email), await challenge(t, op.email)];
    const code = await codeAt(t, op.secret);
    const codes = (await Promise.all(ids.map((id) => validate(t, id, code)))).map((res) => res.statusCode).sort();
    expect(codes).toEqual([200, 401]);
  });
});

describe('sessions end when two-factor changes', () => {
  it('enabling and disabling sign the user out everywhere but the session that did it', async () => {
    const op = await createOperator(t);
    const other = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: op.email, password: TEST_PASSWORD } });
    const otherHeaders = bearer(other.json().token);
    const { secret } = (await t.app.inject({ method: 'POST', url: '/api/2fa/setup', headers: op.headers })).json();
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/2fa/enable', headers: op.headers, payload: { code: await codeAt(t, secret) } }))
        .statusCode,
    ).toBe(200);
    expect((await t.app.inject({ url: '/api/auth/me', headers: otherHeaders })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/auth/me', headers: op.headers })).statusCode).toBe(200);

    t.clock.advance(30_000);
    const signedIn = await validate(t, await challenge(t, op.email), await codeAt(t, secret));
    const secondHeaders = bearer(signedIn.json().token);
    expect((await t.app.inject({ url: '/api/auth/me', headers: secondHeaders })).statusCode).toBe(200);
    t.clock.advance(30_000);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/2fa/disable', headers: op.headers, payload: { code: await codeAt(t, secret) } }))
        .statusCode,
    ).toBe(200);
    expect((await t.app.inject({ url: '/api/auth/me', headers: secondHeaders })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/auth/me', headers: op.headers })).statusCode).toBe(200);
  });
});

describe('TOTP secrets at rest', () => {
  it('without SECRETS_KEY: sealed with a key created once in the database; two-factor works', async () => {
    const op = await createOperator(t);
    const { secret } = (await t.app.inject({ method: 'POST', url: '/api/2fa/setup', headers: op.headers })).json();
    const pending = (await userRow(t, op.userId)).totp_pending_secret!;
    expect(pending).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(pending).not.toContain(secret);
    const key = await storedSecretsKey(t.db);
    expect(key).toHaveLength(32);
    expect(open(key!, pending, `users.totp:${op.userId}`)).toBe(secret);

    await t.app.inject({ method: 'POST', url: '/api/2fa/enable', headers: op.headers, payload: { code: await codeAt(t, secret) } });
    const row = await userRow(t, op.userId);
    expect(row.totp_pending_secret).toBeNull();
    expect(row.totp_secret).toMatch(/^v1:/);
    expect(row.totp_secret).not.toContain(secret);
    // Bound to its user: the same value on another user's row does not open.
    expect(() => open(key!, row.totp_secret!, 'users.totp:usr_someone_else')).toThrow(UnreadableSecretError);
    t.clock.advance(30_000);
    expect((await validate(t, await challenge(t, op.email), await codeAt(t, secret))).statusCode).toBe(200);
  });

  it('with SECRETS_KEY: sealed with it, no key in the database, and another key cannot decrypt', async () => {
    const configured = randomBytes(32);
    const own = await createTestApp({ SECRETS_KEY: configured.toString('base64') });
    try {
      const op = await createOperator(own);
      const { secret } = (await own.app.inject({ method: 'POST', url: '/api/2fa/setup', headers: op.headers })).json();
      await own.app.inject({ method: 'POST', url: '/api/2fa/enable', headers: op.headers, payload: { code: await codeAt(own, secret) } });
      const stored = (await userRow(own, op.userId)).totp_secret!;
      expect(stored).not.toContain(secret);
      expect(open(configured, stored, `users.totp:${op.userId}`)).toBe(secret);
      expect(() => open(randomBytes(32), stored, `users.totp:${op.userId}`)).toThrow(UnreadableSecretError);
      expect(
        await own.db.kysely.selectFrom('platform_settings').select('key').where('key', '=', SECRETS_KEY_SETTING).executeTakeFirst(),
      ).toBeUndefined();
      own.clock.advance(30_000);
      expect((await validate(own, await challenge(own, op.email), await codeAt(own, secret))).statusCode).toBe(200);
    } finally {
      await own.close();
    }
  });

  it('plain-text secrets from before encryption keep working and are sealed at start', async () => {
    const op = await createOperator(t);
    const secret = generateSecret();
    const pendingSecret = generateSecret();
    await t.db.kysely
      .updateTable('users')
      .set({ totp_secret: secret, totp_pending_secret: pendingSecret, totp_enabled: 1 })
      .where('id', '=', op.userId)
      .execute();
    expect((await validate(t, await challenge(t, op.email), await codeAt(t, secret))).statusCode).toBe(200);

    const result = await t.ctx.auth.prepareSecrets();
    expect(result.sealed).toBeGreaterThanOrEqual(2);
    expect(result.unreadable).toBe(0);
    const row = await userRow(t, op.userId);
    const key = (await storedSecretsKey(t.db))!;
    expect(open(key, row.totp_secret!, `users.totp:${op.userId}`)).toBe(secret);
    expect(open(key, row.totp_pending_secret!, `users.totp:${op.userId}`)).toBe(pendingSecret);
    expect((await t.ctx.auth.prepareSecrets()).sealed).toBe(0);

    t.clock.advance(30_000);
    expect((await validate(t, await challenge(t, op.email), await codeAt(t, secret))).statusCode).toBe(200);
  });
});
