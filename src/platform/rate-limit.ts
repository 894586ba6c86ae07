/**
 * Named rate limits (config.rateLimits) over rate-limiter-flexible: in-process by default, Redis when
 * REDIS_URL is set so every instance shares the counters. Exceeding a limit throws 429 with Retry-After.
 */
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateLimitName, RateLimitRule } from '../config/config.js';
import { tooManyRequests } from './errors.js';

export interface RateLimits {
  /** Counts one request; throws 429 once the limit is exceeded. */
  hit(name: RateLimitName, key: string): Promise<void>;
  /** Throws 429 if the limit is already used up, without counting (e.g. before checking a password). */
  check(name: RateLimitName, key: string): Promise<void>;
  /** Counts one failure without throwing (the next `check` refuses). */
  penalise(name: RateLimitName, key: string): Promise<void>;
  reset(name: RateLimitName, key: string): Promise<void>;
  close(): Promise<void>;
}

const requireCjs = createRequire(import.meta.url);

/** The Redis client is loaded only when REDIS_URL is set (CommonJS, so this stays synchronous). */
function connectRedis(url: string): Redis {
  const { Redis: Client } = requireCjs('ioredis') as typeof import('ioredis');
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

  return {
    async hit(name, key) {
      try {
        await limiter(name).consume(normalise(key));
      } catch (error) {
        if (error instanceof RateLimiterRes) throw tooManyRequests(error.msBeforeNext / 1000);
        throw error;
      }
    },
    async check(name, key) {
      const res = await limiter(name).get(normalise(key));
      if (res && res.consumedPoints >= rules[name].points) throw tooManyRequests(res.msBeforeNext / 1000);
    },
    async penalise(name, key) {
      await limiter(name).penalty(normalise(key), 1);
    },
    async reset(name, key) {
      await limiter(name).delete(normalise(key));
    },
    async close() {
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
