/**
 * Failed-login limits under attack: bursts of concurrent guesses (in-process store and Redis), guessing
 * spread over many addresses, and overrides through RATE_LIMITS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, TEST_PASSWORD, type TestApp } from '../../../test/helpers/app.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const loginFrom = (t: TestApp, remoteAddress: string, email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { email, password } });

describe.each([
  ['in-process store', {}],
  ['Redis store', { REDIS_URL }],
])('concurrent wrong passwords (%s)', (_store, env: Record<string, string>) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(env);
  });
  afterAll(async () => t.close());

  it('60 at once for one email from one address: at most 10 reach the password check, the rest are 429', async () => {
    const op = await createOperator(t);
    const answers = await Promise.all(Array.from({ length: 60 }, () => loginFrom(t, '10.20.0.1', op.email, 'wrong-password')));
    const codes = answers.map((res) => res.statusCode);
    // Every answer other than 429 is a 401 from a password check.
    expect(codes.filter((code) => code !== 429).every((code) => code === 401)).toBe(true);
    expect(codes.filter((code) => code === 401).length).toBeLessThanOrEqual(10);
    expect(codes.filter((code) => code === 429).length).toBeGreaterThanOrEqual(50);
    // The limit holds afterwards too, right password or not; the owner elsewhere is not locked out.
    expect((await loginFrom(t, '10.20.0.1', op.email, TEST_PASSWORD)).statusCode).toBe(429);
    expect((await loginFrom(t, '10.20.0.2', op.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('a right password gives its attempt back: 9 failures and a sign-in leave room for 10 more failures', async () => {
    const op = await createOperator(t);
    for (let i = 0; i < 9; i++)
      expect((await loginFrom(t, '10.21.0.1', `nobody-${i}@example.test`, 'wrong-password')).statusCode).toBe(401);
    expect((await loginFrom(t, '10.21.0.1', op.email, TEST_PASSWORD)).statusCode).toBe(200);
    // The address's failures stay counted (signing in to one's own account does not clear them).
    expect((await loginFrom(t, '10.21.0.1', 'nobody-9@example.test', 'wrong-password')).statusCode).toBe(401);
    expect((await loginFrom(t, '10.21.0.1', 'nobody-10@example.test', 'wrong-password')).statusCode).toBe(429);
  });
});

describe('guessing one email from many addresses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('refuses every address once the email has had 100 failures in 15 minutes', async () => {
    const op = await createOperator(t);
    for (let batch = 0; batch < 5; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => loginFrom(t, `10.30.${batch}.${i + 1}`, op.email, 'wrong-password')),
      );
      expect(answers.map((res) => res.statusCode)).toEqual(Array(20).fill(401));
    }
    const fresh = await loginFrom(t, '10.31.0.1', op.email, TEST_PASSWORD);
    expect(fresh.statusCode).toBe(429);
    expect(Number(fresh.headers['retry-after'])).toBeGreaterThan(0);
    // Other emails are not affected.
    const other = await createOperator(t);
    expect((await loginFrom(t, '10.31.0.1', other.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('at most the per-email limit reaches the password check when guesses from many addresses arrive at once', async () => {
    const own = await createTestApp({ RATE_LIMITS: 'login_failures_email=20/900' });
    try {
      const op = await createOperator(own);
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) => loginFrom(own, `10.32.0.${i + 1}`, op.email, 'wrong-password')),
      );
      const codes = answers.map((res) => res.statusCode);
      expect(codes.filter((code) => code === 401).length).toBeLessThanOrEqual(20);
      expect(codes.filter((code) => code === 401).length + codes.filter((code) => code === 429).length).toBe(60);
    } finally {
      await own.close();
    }
  });
});
