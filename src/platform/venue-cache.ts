/**
 * An in-process cache of answers derived from one venue's data (public availability, floorplans,
 * widget configs), kept correct by the database's change feed (db/change-feed.ts): an answer is stamped
 * with the venue's generations before it is computed, stored only if nothing of the venue changed
 * while it was computed, and served only while those generations are current and it is younger than
 * `ttlMs` (answers that depend on the clock, such as booking cutoffs, must not outlive it). Concurrent
 * misses of one key share a single computation.
 * Entries are kept in the order they were stored, which with one `ttlMs` is the order they expire in: each
 * store drops the expired ones from the front, so the cache holds what was stored within the last `ttlMs`
 * (at most `maxEntries`), not every key ever asked for until `maxEntries` pushes it out. Each cache is
 * registered with its change feed, which sweeps it when the server goes quiet (`sweep`).
 */
import type { ChangeFeed, Scope, Stamp } from '../db/change-feed.js';
import type { Clock } from './clock.js';

interface Entry<T> {
  stamp: Stamp;
  expiresAt: number;
  value: T;
}

export interface VenueCacheOptions {
  /** How long an answer may be served without a change, at most. */
  ttlMs: number;
  /** Entries kept at most, however recent (the oldest go first). */
  maxEntries?: number;
  /** `configuration`: answers that depend on the venue's configuration only, not its stays. */
  scope?: Scope;
}

const SEPARATOR = '\u0000';
const entryId = (venueId: string, key: string) => `${venueId}${SEPARATOR}${key}`;
const venueOf = (id: string) => id.slice(0, id.indexOf(SEPARATOR));

export class VenueCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly inFlight = new Map<string, { stamp: Stamp; promise: Promise<T> }>();
  private readonly maxEntries: number;
  private readonly scope: Scope;
  hits = 0;
  misses = 0;

  constructor(
    private readonly changes: ChangeFeed,
    private readonly clock: Clock,
    private readonly options: VenueCacheOptions,
  ) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.scope = options.scope ?? 'everything';
    changes.register(this);
  }

  /** The cached answer for (venue, key), or `compute`'s, stored when nothing changed meanwhile. */
  async get(venueId: string, key: string, compute: () => Promise<T>): Promise<T> {
    const id = entryId(venueId, key);
    const now = this.clock.now().getTime();
    const entry = this.entries.get(id);
    if (entry && this.servable(entry, venueId, now)) {
      this.hits++;
      return entry.value;
    }
    this.misses++;
    const running = this.inFlight.get(id);
    if (running && this.changes.isCurrent(running.stamp, venueId, this.scope)) return running.promise;
    const stamp = this.changes.stamp(venueId, this.scope);
    const promise = compute();
    this.inFlight.set(id, { stamp, promise });
    try {
      const value = await promise;
      if (this.changes.isCurrent(stamp, venueId, this.scope)) this.store(id, { stamp, expiresAt: now + this.options.ttlMs, value });
      return value;
    } finally {
      if (this.inFlight.get(id)?.promise === promise) this.inFlight.delete(id);
    }
  }

  /** The answer for (venue, key) if one may be served now, without computing one (counted as neither hit nor miss). */
  peek(venueId: string, key: string): T | undefined {
    const entry = this.entries.get(entryId(venueId, key));
    return entry && this.servable(entry, venueId, this.clock.now().getTime()) ? entry.value : undefined;
  }

  /**
   * Stores `value` for (venue, key) as current now: for an answer the caller knows is the venue's state as of
   * the last change (the batch that made that change, right after its commit). An answer being computed
   * for the key meanwhile is not stored over it (its stamp is older).
   */
  put(venueId: string, key: string, value: T): void {
    const now = this.clock.now().getTime();
    this.store(entryId(venueId, key), { stamp: this.changes.stamp(venueId, this.scope), expiresAt: now + this.options.ttlMs, value });
  }

  /** Entries held now, expired or stale ones not yet dropped included. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Drops every entry that can no longer be served: expired, or stamped before a change of its venue. A
   * store drops only the expired ones at the front; this also finds those a write made stale, which would
   * otherwise be held until they expire (a venue taking bookings leaves behind a window of stays per batch).
   * Answers how many went.
   */
  sweep(): number {
    const now = this.clock.now().getTime();
    let dropped = 0;
    for (const [id, entry] of this.entries) {
      if (this.servable(entry, venueOf(id), now)) continue;
      this.entries.delete(id);
      dropped++;
    }
    return dropped;
  }

  /** Whether `entry` (of `venueId`) may still be served at `now`: not expired, and nothing of its venue changed since. */
  private servable(entry: Entry<T>, venueId: string, now: number): boolean {
    return entry.expiresAt > now && this.changes.isCurrent(entry.stamp, venueId, this.scope);
  }

  private store(id: string, entry: Entry<T>): void {
    this.entries.delete(id);
    const now = entry.expiresAt - this.options.ttlMs;
    for (const [key, oldest] of this.entries) {
      if (oldest.expiresAt > now && this.entries.size < this.maxEntries) break;
      this.entries.delete(key);
    }
    this.entries.set(id, entry);
  }
}
