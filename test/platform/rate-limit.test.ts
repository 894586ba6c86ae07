/** Rate limits: the in-process store, the Redis store shared by instances, and client addresses. */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../../src/config/config.js';
import { AppError } from '../../src/platform/errors.js';
import { createRateLimits, type RateLimits } from '../../src/platform/rate-limit.js';
import { createTestApp } from '../helpers/app.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const rules = { ...DEFAULT_RATE_LIMITS, voucher_lookup: { points: 3, durationSeconds: 60 } };
const opened: RateLimits[] = [];
afterAll(async () => {
  await Promise.all(opened.map((l) => l.close()));
});

async function statusOf(promise: Promise<void>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    if (error instanceof AppError) return error.status;
    throw error;
  }
}

describe('rate limits', () => {
  it('in process: the n+1th hit is a 429 with Retry-After', async () => {
    const limits = createRateLimits(rules);
    opened.push(limits);
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push(await statusOf(limits.hit('voucher_lookup', '1.2.3.4')));
    expect(codes).toEqual([200, 200, 200, 429]);
    await limits.hit('voucher_lookup', '1.2.3.5');
    try {
      await limits.hit('voucher_lookup', '1.2.3.4');
    } catch (error) {
      expect((error as AppError).headers['Retry-After']).toMatch(/^\d+$/);
      expect(Number((error as AppError).headers['Retry-After'])).toBeGreaterThan(0);
      expect((error as AppError).message).toBe('Too many requests. Please try again later.');
    }
  });

  it('with Redis: two instances share their counters', async () => {
    const namespace = `test-shared-${randomBytes(4).toString('hex')}`;
    const a = createRateLimits(rules, REDIS_URL, namespace);
    const b = createRateLimits(rules, REDIS_URL, namespace);
    opened.push(a, b);
    expect(await statusOf(a.hit('voucher_lookup', 'ip'))).toBe(200);
    expect(await statusOf(b.hit('voucher_lookup', 'ip'))).toBe(200);
    expect(await statusOf(a.hit('voucher_lookup', 'ip'))).toBe(200);
    expect(await statusOf(b.hit('voucher_lookup', 'ip'))).toBe(429);
    await a.reset('voucher_lookup', 'ip');
    expect(await statusOf(b.hit('voucher_lookup', 'ip'))).toBe(200);
  });

  it('check refuses once penalties reach the limit, without counting itself', async () => {
    const limits = createRateLimits(rules);
    opened.push(limits);
    for (let i = 0; i < 2; i++) await limits.penalise('voucher_lookup', 'k');
    expect(await statusOf(limits.check('voucher_lookup', 'k'))).toBe(200);
    expect(await statusOf(limits.check('voucher_lookup', 'k'))).toBe(200);
    await limits.penalise('voucher_lookup', 'k');
    expect(await statusOf(limits.check('voucher_lookup', 'k'))).toBe(429);
  });
});

describe('client addresses', () => {
  const failLogins = async (t: Awaited<ReturnType<typeof createTestApp>>, forwardedFor: (i: number) => string) => {
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '10.1.1.1',
        headers: { 'x-forwarded-for': forwardedFor(i) },
        payload: { email: `nobody${i}@example.test`, password: 'wrong-password' },
      });
      codes.push(res.statusCode);
    }
    return codes;
  };

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    const untrusted = await createTestApp();
    const trusted = await createTestApp({ TRUST_PROXY: 'true' });
    try {
      // Untrusted: every request counts against the socket address, so the 11th is refused.
      expect((await failLogins(untrusted, (i) => `203.0.113.${i}`)).at(-1)).toBe(429);
      // Trusted: each forwarded address is its own client, so none is refused.
      expect(await failLogins(trusted, (i) => `203.0.113.${i}`)).not.toContain(429);
    } finally {
      await untrusted.close();
      await trusted.close();
    }
  });
});
