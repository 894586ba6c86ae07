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

  it('take refuses once the limit is used up, takes nothing then, and refund gives points back', async () => {
    const limits = createRateLimits(rules);
    opened.push(limits);
    const both = [
      { name: 'voucher_lookup' as const, key: 'k' },
      { name: 'public_booking' as const, key: 'k' },
    ];
    for (let i = 0; i < 3; i++) expect(await statusOf(limits.take(both))).toBe(200);
    expect(await statusOf(limits.take(both))).toBe(429);
    // The refused take gave back what it had taken from public_booking (30 a minute): 27 more fit.
    for (let i = 0; i < 27; i++) expect(await statusOf(limits.take([both[1]!]))).toBe(200);
    expect(await statusOf(limits.take([both[1]!]))).toBe(429);
    await limits.refund([both[0]!]);
    expect(await statusOf(limits.take([both[0]!]))).toBe(200);
    expect(await statusOf(limits.take([both[0]!]))).toBe(429);
  });
});

describe.each([
  ['in process', undefined],
  ['with Redis', REDIS_URL],
])('take under concurrency (%s)', (_store, redisUrl) => {
  it('lets exactly the limit through when 60 attempts arrive at once', async () => {
    const limits = createRateLimits(DEFAULT_RATE_LIMITS, redisUrl, `test-burst-${randomBytes(4).toString('hex')}`);
    opened.push(limits);
    const counters = [
      { name: 'login_failures_email_ip' as const, key: 'a@b.test 10.0.0.1' },
      { name: 'login_failures_ip' as const, key: '10.0.0.1' },
      { name: 'login_failures_email' as const, key: 'a@b.test' },
    ];
    const codes = await Promise.all(Array.from({ length: 60 }, () => statusOf(limits.take(counters))));
    expect(codes.filter((code) => code === 200)).toHaveLength(DEFAULT_RATE_LIMITS.login_failures_email_ip.points);
    expect(codes.filter((code) => code === 429)).toHaveLength(60 - DEFAULT_RATE_LIMITS.login_failures_email_ip.points);
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

  // Behind one proxy the client is the entry that proxy appended (the rightmost); whatever the client
  // wrote before it is only text. TRUST_PROXY=true used to take the leftmost one.
  it.each([
    ['a hop count', '1'],
    ['true, read as one hop', 'true'],
    ["the proxy's address", '10.1.1.1'],
    ["the proxy's CIDR range", '10.1.0.0/16,127.0.0.1'],
  ])('with TRUST_PROXY as %s, a forged leftmost X-Forwarded-For entry changes nothing', async (_label, value) => {
    const t = await createTestApp({ TRUST_PROXY: value });
    try {
      const codes = await failLogins(t, (i) => `10.0.0.${i}, 9.9.9.9`);
      // Eleven wrong logins from 9.9.9.9 whatever the leftmost entry says: the 11th is refused.
      expect(codes.slice(0, 10)).not.toContain(429);
      expect(codes.at(-1)).toBe(429);
      const registrations: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/auth/register',
          remoteAddress: '10.1.1.1',
          headers: { 'x-forwarded-for': `10.0.0.${i}, 9.9.9.8` },
          payload: { name: 'R', email: `forged-${i}@example.test`, password: 'long-enough-pw' },
        });
        registrations.push(res.statusCode);
      }
      expect(registrations.slice(0, 5)).not.toContain(429);
      expect(registrations.at(-1)).toBe(429);
      // A real client behind the same proxy is its own client, not refused for 9.9.9.9's failures.
      const other = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '10.1.1.1',
        headers: { 'x-forwarded-for': '9.9.9.9, 198.51.100.7' },
        payload: { email: 'someone@example.test', password: 'wrong-password' },
      });
      expect(other.statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('with TRUST_PROXY naming proxies, a request from elsewhere is its own client whatever it forwards', async () => {
    const t = await createTestApp({ TRUST_PROXY: '10.1.1.1' });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: '192.0.2.50',
          headers: { 'x-forwarded-for': `203.0.113.${i}` },
          payload: { email: `direct${i}@example.test`, password: 'wrong-password' },
        });
        codes.push(res.statusCode);
      }
      expect(codes.at(-1)).toBe(429);
    } finally {
      await t.close();
    }
  });
});
