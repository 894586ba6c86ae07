// The venue cache's memory: what it holds is bounded by its TTL and by maxEntries (its answers' correctness
// across changes is test/platform/change-feed.test.ts).
import { describe, expect, it } from 'vitest';
import { ChangeFeed } from '../db/change-feed.js';
import { fixedClock } from './clock.js';
import { VenueCache } from './venue-cache.js';

const at = '2026-06-15T12:00:00.000Z';

describe('VenueCache memory', () => {
  it('drops expired answers when it stores: it holds what was stored within the TTL, not every key ever asked', async () => {
    const clock = fixedClock(at);
    const cache = new VenueCache<number>(new ChangeFeed(), clock, { ttlMs: 15_000, maxEntries: 10_000 });
    // A crawler walking 500 dates, one a second: each answer is used once and never asked for again.
    for (let day = 0; day < 500; day++) {
      await cache.get('ven_a', `date-${day}`, async () => day);
      clock.advance(1_000);
    }
    // Stored within the last 15 s: 15 of them (the one stored exactly 15 s ago has expired too).
    expect(cache.size).toBe(15);
  });

  it('a recent answer is still served after older ones were dropped', async () => {
    const clock = fixedClock(at);
    const cache = new VenueCache<number>(new ChangeFeed(), clock, { ttlMs: 15_000 });
    let computed = 0;
    await cache.get('ven_a', 'old', async () => ++computed);
    clock.advance(10_000);
    await cache.get('ven_a', 'recent', async () => ++computed);
    clock.advance(6_000);
    // Storing this one drops 'old' (16 s) and keeps 'recent' (6 s).
    await cache.get('ven_b', 'new', async () => ++computed);
    expect(cache.size).toBe(2);
    expect(await cache.get('ven_a', 'recent', async () => ++computed)).toBe(2);
    expect(computed).toBe(3);
  });

  it('holds at most maxEntries however recent, the least recently stored going first', async () => {
    const clock = fixedClock(at);
    const cache = new VenueCache<number>(new ChangeFeed(), clock, { ttlMs: 60_000, maxEntries: 3 });
    let computed = 0;
    for (const key of ['a', 'b', 'c', 'd']) await cache.get('ven_a', key, async () => ++computed);
    expect(cache.size).toBe(3);
    expect(await cache.get('ven_a', 'd', async () => ++computed)).toBe(4);
    expect(await cache.get('ven_a', 'b', async () => ++computed)).toBe(2);
    // 'a' went first: asked again, it is computed again.
    expect(await cache.get('ven_a', 'a', async () => ++computed)).toBe(5);
    expect(computed).toBe(5);
  });

  it('a sweep drops what can no longer be served (expired, or older than a change of its venue) and keeps the rest', async () => {
    const clock = fixedClock(at);
    const changes = new ChangeFeed();
    const cache = new VenueCache<number>(changes, clock, { ttlMs: 15_000 });
    const configs = new VenueCache<number>(changes, clock, { ttlMs: 60_000, scope: 'configuration' });
    await cache.get('ven_a', 'old', async () => 1);
    clock.advance(10_000);
    await cache.get('ven_a', 'recent', async () => 2);
    await cache.get('ven_b', 'recent', async () => 3);
    await configs.get('ven_a', 'config', async () => 4);
    clock.advance(6_000);
    // A booking at ven_a: its stays changed, its configuration did not.
    changes.mark(['ven_a'], true);
    expect(cache.size).toBe(3);
    // ven_a's 'old' expired and its 'recent' went stale; ven_b's and ven_a's configuration are still current.
    expect(changes.sweepCaches()).toBe(2);
    expect(cache.size).toBe(1);
    expect(configs.size).toBe(1);
    expect(await cache.get('ven_b', 'recent', async () => 30)).toBe(3);
    expect(await configs.get('ven_a', 'config', async () => 40)).toBe(4);
    expect(changes.sweepCaches()).toBe(0);
  });
});
