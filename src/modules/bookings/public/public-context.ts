/**
 * What every public booking flow shares: its deps, the guest's mails, the live venue (404 otherwise) and
 * a day's configuration and stays, read afresh inside the booking transaction and from the caches outside it.
 */
import type { TextMessages } from '../../../platform/sms/sms.js';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Occupancy } from '../../../domain/availability/index.js';
import type { Db } from '../../../db/connect.js';
import type { Database } from '../../../db/schema.js';
import type { Conn } from '../../../db/transaction.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import type { BotCheck } from '../../../platform/bot-check.js';
import type { Clock } from '../../../platform/clock.js';
import { VenueCache } from '../../../platform/venue-cache.js';
import { notFound } from '../../../platform/errors.js';
import { metrics } from '../../../platform/metrics.js';
import type { Mail } from '../../../platform/mail/mail.js';
import type { RateLimits } from '../../../platform/rate-limit.js';
import type { Payments } from '../../payments/index.js';
import { bookingMails } from '../core/booking-mail.js';
import type { DoorKeys } from '../core/door-keys.js';
import {
  cachedOccupancy,
  cachedVenueConfig,
  occupancyBetween,
  serviceWindow,
  withReaching,
  type LoadedVenue,
} from '../core/venue-config.js';

export interface PublicDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  payments: Payments;
  mail: Mail;
  botCheck: BotCheck;
  rateLimits: RateLimits;
  doorKeys: DoorKeys;
  publicBaseUrl: string;
  /** Text messages (platform/sms): confirmation and cancellation texts to guests who agreed to them. */
  sms?: TextMessages;
  /** A live venue by id (the venues module's), read on `conn`. */
  liveVenue(conn: Conn, venueId: string): Promise<VenueRow | undefined>;
  /**
   * How long a cached availability or floorplan answer may be served without a change (cutoffs move
   * with the clock): AVAILABILITY_CACHE_MS. 0: no cache, every request computes its answer.
   */
  answerCacheMs: number;
}

export type PublicContext = ReturnType<typeof publicContext>;

export function publicContext(deps: PublicDeps) {
  const { db, clock } = deps;
  const mails = bookingMails({ mail: deps.mail, doorKeys: deps.doorKeys, publicBaseUrl: deps.publicBaseUrl, sms: deps.sms });
  const venueConfig = cachedVenueConfig(db.changes, clock);
  const cachedStays = cachedOccupancy(db.changes, clock);
  // The venue row changes only with the venue's configuration (a write to it invalidates this, on every instance).
  const liveVenues = new VenueCache<VenueRow | undefined>(db.changes, clock, { ttlMs: 60_000, maxEntries: 2_000, scope: 'configuration' });

  async function venueOrThrow(venueId: string): Promise<VenueRow> {
    const venue = await liveVenues.get(venueId, 'live', () => deps.liveVenue(db, venueId));
    if (!venue) throw notFound('Venue');
    return venue;
  }

  /**
   * The configuration and stays of the service dates [first, last]: outside a transaction from the stays
   * cache; inside one (`trx`, the booking path) read afresh, except on SQLite the picture the batch before
   * kept when `dataVersion` (the file's data version, read under the transaction's write lock) is the one
   * that batch saw (no other connection has committed since) and nothing in this process wrote to the
   * venue since (the change feed).
   */
  async function dayState(
    conn: Db | Kysely<Database>,
    venue: VenueRow,
    first: string,
    last = first,
    dataVersion?: number,
  ): Promise<{ loaded: LoadedVenue; occupancy: Occupancy }> {
    const window = serviceWindow(venue, first, last);
    const [loaded, occupancy] = await Promise.all([venueConfig(conn, venue, first, last), staysOf(conn, venue.id, window, dataVersion)]);
    return { loaded, occupancy };
  }

  function staysOf(conn: Db | Kysely<Database>, venueId: string, window: { fromUtc: Date; toUtc: Date }, dataVersion?: number) {
    if (conn === db) return cachedStays(db, venueId, window.fromUtc, window.toUtc);
    const kept = dataVersion === undefined ? undefined : cachedStays.kept(venueId, window.fromUtc, window.toUtc, dataVersion);
    if (!kept) return occupancyBetween(conn, venueId, window.fromUtc, window.toUtc);
    metrics.staysWindow('taken_over');
    return kept;
  }

  /**
   * After a batch of bookings committed on SQLite: the stays of a date as its transaction read them (under
   * the write lock) with its own bookings added, and those it placed on other dates that reach into the
   * date's window (`withReaching`), are the cached picture from now on, instead of a re-read by the next
   * pre-check, or by the next batch's transaction (`dayState`) while the file's data version is the
   * one the keeping transaction saw (`dataVersion`). To be called synchronously in the commit's
   * `afterCommit` hook, so that no other write can have come between.
   */
  function keepDayStays(venue: VenueRow, date: string, occupancy: Occupancy, placed: Occupancy, dataVersion: number): void {
    const window = serviceWindow(venue, date, date);
    cachedStays.keep(venue.id, window.fromUtc, window.toUtc, withReaching(occupancy, placed, window), dataVersion);
  }

  return {
    deps,
    db,
    clock,
    mails,
    venueOrThrow,
    dayState,
    // PostgreSQL has none and re-reads: a write that does not take the venue's lock (a cancellation) can
    // commit between the batch's read and its commit.
    keepDayStays: db.engine === 'sqlite' ? keepDayStays : undefined,
  };
}
