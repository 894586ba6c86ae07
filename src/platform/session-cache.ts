/**
 * The guard's per-instance memory of what a session resolves to: its user and the user's role grant,
 * keyed by the SHA-256 of the bearer token (the token itself is not kept) and stamped with the session's
 * `auth_version` they were read at (docs/decisions.md, "Session cache").
 *
 * It is never trusted on its own: every request still reads the session row (one indexed read), which
 * answers whether the session exists, whether it has expired, and its version; an entry is used only
 * while that version is the one it was stamped with. The database moves the version in the transaction of
 * any change to what an entry holds (migration 0028's triggers), and a session that ends is deleted, so a
 * change committed on any instance is seen by the next request on every instance: nothing waits for the
 * change feed.
 *
 * Bounded: at most `maxEntries` (least recently used first out), each kept at most `ttlMs`.
 */
export interface SessionCacheOptions {
  maxEntries: number;
  ttlMs: number;
}

/** Enough for every session active on an instance at once; about half a kilobyte each. */
export const SESSION_CACHE_DEFAULTS: SessionCacheOptions = { maxEntries: 10_000, ttlMs: 5 * 60_000 };

export class SessionCache<T> {
  private readonly entries = new Map<string, { value: T; storedAt: number }>();

  constructor(private readonly options: SessionCacheOptions = SESSION_CACHE_DEFAULTS) {}

  /** The entry for a token hash, unless it is older than the TTL. Touching it keeps it longer in the LRU. */
  get(tokenHash: string, now = performance.now()): T | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    this.entries.delete(tokenHash);
    if (now - entry.storedAt >= this.options.ttlMs) return undefined;
    this.entries.set(tokenHash, entry);
    return entry.value;
  }

  set(tokenHash: string, value: T, now = performance.now()): void {
    this.entries.delete(tokenHash);
    this.entries.set(tokenHash, { value, storedAt: now });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  delete(tokenHash: string): void {
    this.entries.delete(tokenHash);
  }

  get size(): number {
    return this.entries.size;
  }
}
