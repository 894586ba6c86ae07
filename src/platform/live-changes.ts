/**
 * Live change notices per venue, for the reservation floor's event stream (decisions: Live floor
 * stream): who is listening to which venue, and when to tell them. Fed by the database's change feed
 * (db/change-feed.ts), so on PostgreSQL a change committed through any instance reaches the listeners
 * of every instance; on SQLite another process's commits (the CLI, a second server) are noticed by
 * polling `PRAGMA data_version` once a second while anyone listens.
 *
 * Bursts are coalesced: a venue's listeners are told at most once per `coalesceMs`, at the end of the
 * window that a mark opened, so every mark (the last of a write always follows its commit) is followed
 * by a notice. A mark the feed cannot attribute to a venue (every venue, `*`) tells every listener.
 *
 * Open streams are capped per account and per instance: the stream holds a connection and a listener
 * for as long as the page is open, so an unbounded number would let one account exhaust an instance.
 */
import { ALL_VENUES, type ChangeFeed, type Touched } from '../db/change-feed.js';
import { AppError, tooManyRequests } from './errors.js';

export interface LiveChangesOptions {
  /** At most one notice per venue per this many milliseconds. */
  coalesceMs: number;
  /** Open streams one account may hold on one instance. */
  maxPerAccount: number;
  /** Open streams one instance holds, over all accounts. */
  maxTotal: number;
  /** How often to look for other processes' commits (SQLite) while anyone listens. */
  pollMs?: number;
}

export interface LiveSubscription {
  close(): void;
}

interface VenueListeners {
  listeners: Set<() => void>;
  timer?: NodeJS.Timeout;
  lastSent: number;
}

/** At most one notice per venue per this long: a burst of writes (a busy door, the smart-table pass) is one refetch. */
export const LIVE_COALESCE_MS = 250;

/** Seconds a refused stream is told to wait before trying again. */
const RETRY_AFTER_SECONDS = 30;

export function createLiveChanges(feed: ChangeFeed, options: LiveChangesOptions) {
  const venues = new Map<string, VenueListeners>();
  const perAccount = new Map<string, number>();
  let open = 0;
  let stopFeed: (() => void) | undefined;
  let poller: NodeJS.Timeout | undefined;

  const send = (venueId: string, entry: VenueListeners) => {
    entry.timer = undefined;
    entry.lastSent = performance.now();
    if (venues.get(venueId) !== entry) return;
    for (const listener of entry.listeners) listener();
  };

  const schedule = (venueId: string, entry: VenueListeners) => {
    if (entry.timer) return;
    const wait = Math.max(0, entry.lastSent + options.coalesceMs - performance.now());
    entry.timer = setTimeout(() => send(venueId, entry), Math.max(wait, Math.min(50, options.coalesceMs)));
  };

  const marked = (touched: Touched) => {
    if (touched === ALL_VENUES) for (const [venueId, entry] of venues) schedule(venueId, entry);
    else
      for (const venueId of touched) {
        const entry = venues.get(venueId);
        if (entry) schedule(venueId, entry);
      }
  };

  const start = () => {
    stopFeed = feed.onMark(marked);
    if (feed.poll) poller = setInterval(() => feed.poll?.(), options.pollMs ?? 1000).unref();
  };

  const stop = () => {
    stopFeed?.();
    stopFeed = undefined;
    clearInterval(poller);
    poller = undefined;
  };

  return {
    /**
     * Listens to one venue for one account's stream: `onChange` runs after each (coalesced) change. 429
     * when the account has `maxPerAccount` streams open here, 503 when the instance has `maxTotal`.
     */
    subscribe(accountId: string, venueId: string, onChange: () => void): LiveSubscription {
      const held = perAccount.get(accountId) ?? 0;
      if (held >= options.maxPerAccount) throw tooManyRequests(RETRY_AFTER_SECONDS, { limit: options.maxPerAccount });
      if (open >= options.maxTotal) {
        throw new AppError(
          503,
          'Too many live streams are open on this server. Please try again shortly.',
          {},
          {
            'Retry-After': String(RETRY_AFTER_SECONDS),
          },
        );
      }
      if (open === 0) start();
      open++;
      perAccount.set(accountId, held + 1);
      let entry = venues.get(venueId);
      if (!entry) {
        entry = { listeners: new Set(), lastSent: -Infinity };
        venues.set(venueId, entry);
      }
      const listener = () => onChange();
      entry.listeners.add(listener);
      let closed = false;
      return {
        close() {
          if (closed) return;
          closed = true;
          const current = venues.get(venueId);
          current?.listeners.delete(listener);
          if (current && current.listeners.size === 0) {
            clearTimeout(current.timer);
            venues.delete(venueId);
          }
          const left = (perAccount.get(accountId) ?? 1) - 1;
          if (left > 0) perAccount.set(accountId, left);
          else perAccount.delete(accountId);
          open--;
          if (open === 0) stop();
        },
      };
    },

    /** Streams open on this instance (all accounts). */
    get open() {
      return open;
    },

    /** Listeners of one venue on this instance. */
    listening(venueId: string): number {
      return venues.get(venueId)?.listeners.size ?? 0;
    },
  };
}

export type LiveChanges = ReturnType<typeof createLiveChanges>;
