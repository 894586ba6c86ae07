/**
 * Named rate limits (config.rateLimits) over rate-limiter-flexible: in-process by default, Redis when
 * REDIS_URL is set so every instance shares the counters. Exceeding a limit throws 429 with Retry-After.
 *
 * Guarded work such as a password check takes its points up front (`take`) and gives them back when it
 * succeeds (`refund`): the store counts atomically, so concurrent attempts cannot all slip past a limit
 * the way "check, then count the failure afterwards" lets them.
 */
import { createRequire } from 'node:module';
import type * as IORedis from 'ioredis';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateLimitName, RateLimitRule } from '../config/config.js';
import { tooManyRequests } from './errors.js';

/** One counter: a named limit and the key it counts (an address, an email, a user id…). */
export interface LimitKey {
  name: RateLimitName;
  key: string;
}

export interface RateLimits {
  /** Counts one request; throws 429 once the limit is exceeded. */
  hit(name: RateLimitName, key: string): Promise<void>;
  /**
   * Takes one point from each counter before the guarded work runs. When any of them is used up it
   * throws 429 and takes nothing (the points taken from the others are given back).
   */
  take(limits: readonly LimitKey[]): Promise<void>;
  /** Gives back the points `take` took, once the guarded work succeeded (e.g. the right password). */
  refund(limits: readonly LimitKey[]): Promise<void>;
  reset(name: RateLimitName, key: string): Promise<void>;
  close(): Promise<void>;
}

const requireCjs = createRequire(import.meta.url);

/** The Redis client is loaded only when REDIS_URL is set (CommonJS, so this stays synchronous). */
function connectRedis(url: string): Redis {
  const { Redis: Client } = requireCjs('ioredis') as typeof IORedis;
  return new Client(url, { enableOfflineQueue: true, maxRetriesPerRequest: 2, lazyConnect: false });
}

export function createRateLimits(rules: Record<RateLimitName, RateLimitRule>, redisUrl?: string, namespace = 'maitred'): RateLimits {
  const redis = redisUrl ? connectRedis(redisUrl) : undefined;
  const limiters = new Map<RateLimitName, RateLimiterAbstract>();
  for (const [name, rule] of Object.entries(rules) as [RateLimitName, RateLimitRule][]) {
    const options = { keyPrefix: `${namespace}:rl:${name}`, points: rule.points, duration: rule.durationSeconds };
    limiters.set(name, redis ? new RateLimiterRedis({ ...options, storeClient: redis }) : new RateLimiterMemory(options));
  }
  const limiter = (name: RateLimitName) => limiters.get(name)!;
  const normalise = (key: string) => key.trim().toLowerCase();
  const refund = async (limits: readonly LimitKey[]) => {
    await Promise.all(limits.map(({ name, key }) => limiter(name).reward(normalise(key), 1)));
  };

  return {
    async hit(name, key) {
      try {
        await limiter(name).consume(normalise(key));
      } catch (error) {
        if (error instanceof RateLimiterRes) throw tooManyRequests(error.msBeforeNext / 1000);
        throw error;
      }
    },
    async take(limits) {
      const results = await Promise.allSettled(limits.map(({ name, key }) => limiter(name).consume(normalise(key))));
      const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as unknown] : []));
      if (refused.length === 0) return;
      // A refusal counted too (the store adds before it compares), so it is given back like the rest;
      // after a store error nobody knows whether that counter moved, so it is left alone.
      const counted = (i: number) => {
        const result = results[i]!;
        return result.status === 'fulfilled' || result.reason instanceof RateLimiterRes;
      };
      await refund(limits.filter((_, i) => counted(i)));
      const storeError = refused.find((reason) => !(reason instanceof RateLimiterRes));
      if (storeError !== undefined) throw storeError;
      throw tooManyRequests(Math.max(...refused.map((reason) => (reason as RateLimiterRes).msBeforeNext)) / 1000);
    },
    refund,
    async reset(name, key) {
      await limiter(name).delete(normalise(key));
    },
    async close() {
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
