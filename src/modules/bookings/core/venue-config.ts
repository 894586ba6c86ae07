/**
 * The availability engine's input for one venue, read in a fixed number of queries whatever the size of
 * the venue: the venue row (given), one query per availability family (periods, shifts, rules,
 * blackouts), four for the floorplan (tables, combinations, their members, smart settings; areas ride
 * along), one for blocks and one for the stays of the days asked about. Nothing per slot or per table.
 * `loadVenueConfig` is the one function that reads it; `cachedVenueConfig` wraps it in the venue cache
 * (platform/venue-cache.ts), which any write to the venue's data invalidates.
 */
import type { AccessRule, Occupancy, OpeningHours, Shift, TimeAmount, VenueConfig } from '../../../domain/availability/index.js';
import { addDays, localToUtc } from '../../../domain/venue-time.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import type { ChangeFeed } from '../../../db/change-feed.js';
import { kyselyOf, type Conn } from '../../../db/transaction.js';
import type { Clock } from '../../../platform/clock.js';
import { metrics } from '../../../platform/metrics.js';
import { VenueCache } from '../../../platform/venue-cache.js';
import { availabilityRecords, type AccessRuleRecord, type ShiftRecord } from '../../availability/index.js';
import { blocksBetween, floorplanRecords, type FloorplanRecords } from '../../tables/index.js';
import { ACTIVE_BOOKING_STATUSES } from './bookings.table.js';

const amount = (value: number | null, unit: string | null): TimeAmount | null => (value !== null && unit ? { value, unit } : null);

function parseOpeningHours(text: string | null): OpeningHours | null {
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as OpeningHours) : null;
  } catch {
    return null;
  }
}

const toShift = (s: ShiftRecord): Shift => ({
  id: s.id,
  daysOfWeek: s.days_of_week,
  timeType: s.time_type,
  timePeriodId: s.time_period_id,
  timeFrom: s.time_from,
  timeTo: s.time_to,
  scheduleStart: s.schedule_start,
  scheduleEnd: s.schedule_end,
  partySizeMin: s.party_size_min,
  partySizeMax: s.party_size_max,
  seatingAreaIds: s.seating_area_ids,
  tableIds: s.table_ids,
  durationType: s.duration_type,
  durationMinutes: s.duration_minutes,
});

/** A table id no floorplan holds: a seating list of only this seats nowhere (an empty list would mean "anywhere"). */
const NO_TABLE = '(none)';

/**
 * Where a rule may seat, as the engine sees it. A guest-pick rule's `guest_pick_area_ids` narrow its
 * seating: booking assigns only tables in those areas (also for "any table"), so availability and the
 * public floorplan must not offer any other (decisions: Guest journey polish).
 */
function ruleSeating(r: AccessRuleRecord, areaOf: ReadonlyMap<string, string | null>) {
  const own = { seatingEnabled: r.seating_enabled, seatingAreaIds: r.seating_area_ids, tableIds: r.table_ids };
  if (r.table_assignment_mode !== 'guest_pick' || r.guest_pick_area_ids.length === 0) return own;
  const pick = new Set(r.guest_pick_area_ids);
  const unrestricted = !r.seating_enabled || (r.seating_area_ids.length === 0 && r.table_ids.length === 0);
  if (unrestricted) return { seatingEnabled: true, seatingAreaIds: [...pick], tableIds: [] };
  const seatingAreaIds = r.seating_area_ids.filter((area) => pick.has(area));
  const tableIds = r.table_ids.filter((id) => pick.has(areaOf.get(id) ?? ''));
  return { seatingEnabled: true, seatingAreaIds, tableIds: seatingAreaIds.length + tableIds.length > 0 ? tableIds : [NO_TABLE] };
}

const toRule = (r: AccessRuleRecord, areaOf: ReadonlyMap<string, string | null>): AccessRule => ({
  id: r.id,
  ruleType: r.rule_type,
  daysOfWeek: r.days_of_week,
  timeFrom: r.time_from,
  timeTo: r.time_to,
  partySizeEnabled: r.party_size_enabled,
  partySizeMin: r.party_size_min,
  partySizeMax: r.party_size_max,
  durationEnabled: r.duration_enabled,
  durationMinutes: r.duration_minutes,
  ...ruleSeating(r, areaOf),
  bundlesEnabled: r.bundles_enabled,
  bundleIds: r.bundle_ids,
  bookingWindowEnabled: r.booking_window_enabled,
  bookingCutoff: amount(r.booking_cutoff_value, r.booking_cutoff_unit),
  bookingStart: amount(r.booking_start_value, r.booking_start_unit),
  maxCoversEnabled: r.max_covers_enabled,
  maxCovers: r.max_covers,
});

export interface LoadedVenue {
  config: VenueConfig;
  /** The raw records, for what the engine does not model (rule display, payment policy, price list). */
  rules: AccessRuleRecord[];
  floorplan: FloorplanRecords;
}

/** The UTC window the service dates [firstDate, lastDate] reach: windows may run to 00:00 two days on. */
export function serviceWindow(venue: Pick<VenueRow, 'timezone'>, firstDate: string, lastDate: string): { fromUtc: Date; toUtc: Date } {
  return { fromUtc: localToUtc(firstDate, '00:00', venue.timezone), toUtc: localToUtc(addDays(lastDate, 2), '00:00', venue.timezone) };
}

/** The venue's configuration with the table blocks of the service dates [firstDate, lastDate]. */
export async function loadVenueConfig(db: Conn, venue: VenueRow, firstDate: string, lastDate = firstDate): Promise<LoadedVenue> {
  const window = serviceWindow(venue, firstDate, lastDate);
  const [availability, floorplan, blocks] = await Promise.all([
    availabilityRecords(db, venue.id),
    floorplanRecords(db, venue.id),
    blocksBetween(db, venue.id, window.fromUtc, window.toUtc),
  ]);
  const areaOf = new Map(floorplan.tables.map((t) => [t.id, t.seating_area_id]));
  const config: VenueConfig = {
    timezone: venue.timezone,
    defaults: {
      durationMinutes: venue.default_booking_duration,
      partyMin: venue.default_party_min,
      partyMax: venue.default_party_max,
      openingHours: parseOpeningHours(venue.opening_hours),
      bookingCutoff: amount(venue.booking_cutoff_value, venue.booking_cutoff_unit),
      bookingStart: amount(venue.booking_start_value, venue.booking_start_unit),
    },
    timePeriods: availability.timePeriods.map((p) => ({ id: p.id, timeFrom: p.time_from, timeTo: p.time_to })),
    shifts: availability.shifts.map(toShift),
    accessRules: availability.accessRules.map((r) => toRule(r, areaOf)),
    tables: floorplan.tables.map((t) => ({ id: t.id, capacity: t.capacity, status: t.status, seatingAreaId: t.seating_area_id })),
    combinations: floorplan.combinations.map((c) => ({ id: c.id, tableIds: c.table_ids, capacity: c.combined_capacity })),
    blackouts: availability.blackouts.map((b) => ({
      id: b.id,
      dateFrom: b.date_from,
      dateTo: b.date_to,
      affectsReservations: b.affects_reservations,
      affectsGuestlist: b.affects_guestlist,
    })),
    blocks: blocks.map((b) => ({ tableId: b.table_id, fromUtc: new Date(b.blocked_from), toUtc: new Date(b.blocked_to) })),
    smartDuration: floorplan.smart.duration_enabled,
  };
  return { config, rules: availability.accessRules, floorplan };
}

/** How long a venue's configuration may be served from the cache without a change. */
const CONFIG_TTL_MS = 60_000;

/**
 * `loadVenueConfig` through the venue cache. The configuration does not depend on the clock or on the
 * stays, and every write to it (or to anything the change feed cannot place) invalidates it before the
 * write returns;
 * other instances learn of it through the feed's notification. Stays are cached apart (`cachedOccupancy`),
 * and never on the booking path, which reads them afresh inside its transaction.
 */
export function cachedVenueConfig(changes: ChangeFeed, clock: Clock) {
  const cache = new VenueCache<LoadedVenue>(changes, clock, { ttlMs: CONFIG_TTL_MS, maxEntries: 2_000, scope: 'configuration' });
  return (conn: Conn, venue: VenueRow, firstDate: string, lastDate = firstDate): Promise<LoadedVenue> =>
    cache.get(venue.id, `${firstDate}|${lastDate}`, () => loadVenueConfig(conn, venue, firstDate, lastDate));
}

/**
 * The active stays overlapping [fromUtc, toUtc) with the tables they hold, in one query driven by the
 * (venue_id, booking_date) index: a stay's service date lies within three days before the window's
 * first UTC date (service windows run past midnight, stays last at most a day, zones are at most 14 h
 * off UTC) and a day after its last, so only those dates are read, however long the venue's history.
 */
export async function occupancyBetween(db: Conn, venueId: string, fromUtc: Date, toUtc: Date): Promise<Occupancy> {
  const { first, last } = bookingDateBounds(fromUtc, toUtc);
  const rows = await kyselyOf(db)
    .selectFrom('bookings as b')
    .leftJoin('booking_tables as bt', 'bt.booking_id', 'b.id')
    .select(['b.id', 'b.starts_at', 'b.ends_at', 'b.guest_count', 'b.access_rule_id', 'bt.table_id'])
    .where('b.venue_id', '=', venueId)
    .where('b.booking_date', '>=', first)
    .where('b.booking_date', '<=', last)
    .where('b.status', 'in', [...ACTIVE_BOOKING_STATUSES])
    .where('b.starts_at', '<', toUtc.toISOString())
    .where('b.ends_at', '>', fromUtc.toISOString())
    .execute();
  return groupStays(rows).map(({ stay }) => stay);
}

const DAY_MS = 86_400_000;

/** The service dates whose stays can overlap [fromUtc, toUtc) (see `occupancyBetween`). */
function bookingDateBounds(fromUtc: Date, toUtc: Date): { first: string; last: string } {
  return {
    first: new Date(fromUtc.getTime() - 3 * DAY_MS).toISOString().slice(0, 10),
    last: new Date(toUtc.getTime() + DAY_MS).toISOString().slice(0, 10),
  };
}

interface StayQueryRow {
  id: string;
  starts_at: string | null;
  ends_at: string | null;
  guest_count: number;
  access_rule_id: string | null;
  table_id: string | null;
}

/** One stay per booking, with every table it holds, from rows of bookings joined to their tables. */
function groupStays<R extends StayQueryRow>(rows: readonly R[]): { row: R; stay: Occupancy[number] & { tableIds: string[] } }[] {
  const stays = new Map<string, { row: R; stay: Occupancy[number] & { tableIds: string[] } }>();
  for (const row of rows) {
    let entry = stays.get(row.id);
    if (!entry) {
      entry = {
        row,
        stay: {
          bookingId: row.id,
          tableIds: [],
          startsAt: new Date(row.starts_at!),
          endsAt: new Date(row.ends_at!),
          covers: row.guest_count,
          accessRuleId: row.access_rule_id,
        },
      };
      stays.set(row.id, entry);
    }
    if (row.table_id) entry.stay.tableIds.push(row.table_id);
  }
  return [...stays.values()];
}

/** How long a venue's stays of a date may be served from the cache without a change. */
const STAYS_TTL_MS = 60_000;

/** How long an assembled window of stays may be served without a change (its dates are cached apart). */
const WINDOW_TTL_MS = 15_000;

/**
 * `occupancyBetween` for answers outside a transaction (public availability and floorplans), from a
 * cache of each venue's active stays by service date: a request reads only the dates no earlier request
 * has, in one query, and the engine's input is filtered from memory. Any write to the venue's bookings
 * (or anything the change feed cannot place) invalidates every date of the venue before it returns;
 * other instances learn of it through the feed's notification, and of another process writing to the same
 * SQLite file within 100 ms (db/connect.ts). The booking path reads the stays inside its transaction,
 * except (SQLite) a window kept by the batch before it that provably holds every change since (`kept`).
 *
 * Each window asked for is kept too, frozen: the same window answers with the same array until the
 * venue's bookings change, so the engine indexes it once (engine.ts `indexFor`) rather than per request.
 * `keep` stores a window its caller knows to be current (a batch of bookings, right after its commit), so
 * the next ask is answered without a read; with the file's data version its transaction saw, so that the
 * next batch can take it over (`kept`) when its own transaction sees the same version.
 */
export function cachedOccupancy(changes: ChangeFeed, clock: Clock) {
  const cache = new VenueCache<readonly StayRow[]>(changes, clock, { ttlMs: STAYS_TTL_MS, maxEntries: 20_000 });
  // At most a thousand windows (each with its index, engine.ts): what a server is asked about within WINDOW_TTL_MS.
  const windows = new VenueCache<Occupancy>(changes, clock, { ttlMs: WINDOW_TTL_MS, maxEntries: 1_000 });
  /** The data version under which `keep` stored a window (by the window's frozen array). */
  const keptUnder = new WeakMap<Occupancy, number>();

  const assemble = async (conn: Conn, venueId: string, fromUtc: Date, toUtc: Date): Promise<Occupancy> => {
    const { first, last } = bookingDateBounds(fromUtc, toUtc);
    const dates: string[] = [];
    for (let date = first; date <= last; date = addDays(date, 1)) dates.push(date);
    // The cache calls `compute` for each missing date before it awaits anything, so every missing date
    // is in `missing` before the one query for them runs.
    const missing: string[] = [];
    let batch: Promise<Map<string, StayRow[]>> | undefined;
    const byDate = await Promise.all(
      dates.map((date) =>
        cache.get(venueId, date, () => {
          missing.push(date);
          batch ??= Promise.resolve().then(() => {
            metrics.staysWindow('read');
            return staysOnDates(conn, venueId, missing);
          });
          return batch.then((found) => found.get(date) ?? []);
        }),
      ),
    );
    const from = fromUtc.getTime();
    const to = toUtc.getTime();
    const stays: Occupancy[number][] = [];
    for (const rows of byDate) for (const stay of rows) if (stay.start < to && stay.end > from) stays.push(stay.stay);
    return Object.freeze(stays);
  };

  const windowKey = (fromUtc: Date, toUtc: Date) => `${fromUtc.getTime()}|${toUtc.getTime()}`;
  const read = (conn: Conn, venueId: string, fromUtc: Date, toUtc: Date): Promise<Occupancy> =>
    windows.get(venueId, windowKey(fromUtc, toUtc), () => assemble(conn, venueId, fromUtc, toUtc));
  /**
   * Keeps `stays` as the venue's window [fromUtc, toUtc) as of now. Only for a caller that has just seen
   * every change since it read them: a batch of bookings on SQLite, right after its commit (its read came
   * under the database's write lock, and its own bookings are all it added before committing; the
   * change feed's marks of that commit came before this call, synchronously).
   */
  const keep = (venueId: string, fromUtc: Date, toUtc: Date, stays: Occupancy, dataVersion: number): void => {
    metrics.staysWindow('kept');
    const window = Object.freeze([...stays]);
    keptUnder.set(window, dataVersion);
    windows.put(venueId, windowKey(fromUtc, toUtc), window);
  };
  /**
   * The window `keep` stored under `dataVersion`, while nothing of the venue changed in this process since
   * (the change feed) and it is younger than WINDOW_TTL_MS; undefined otherwise. For a transaction on
   * SQLite that read `dataVersion` under its write lock: equal to the keeping transaction's, no other
   * connection has committed since that one read its stays, so the window is what a read would answer.
   */
  const kept = (venueId: string, fromUtc: Date, toUtc: Date, dataVersion: number): Occupancy | undefined => {
    const window = windows.peek(venueId, windowKey(fromUtc, toUtc));
    return window !== undefined && keptUnder.get(window) === dataVersion ? window : undefined;
  };
  return Object.assign(read, { keep, kept });
}

/**
 * A window's stays with those of `others` that reach into it and it does not hold yet: a batch's
 * placements on other dates (a date's window runs to 00:00 two days on, so it holds the next date's stays).
 */
export function withReaching(stays: Occupancy, others: Occupancy, window: { fromUtc: Date; toUtc: Date }): Occupancy {
  const held = new Set(stays.map((stay) => stay.bookingId));
  const reaching = others.filter((stay) => !held.has(stay.bookingId) && stay.startsAt < window.toUtc && stay.endsAt > window.fromUtc);
  return reaching.length > 0 ? [...stays, ...reaching] : stays;
}

interface StayRow {
  start: number;
  end: number;
  stay: Occupancy[number];
}

/** The active stays of a venue's service dates, by date. */
async function staysOnDates(conn: Conn, venueId: string, dates: readonly string[]): Promise<Map<string, StayRow[]>> {
  const rows = await kyselyOf(conn)
    .selectFrom('bookings as b')
    .leftJoin('booking_tables as bt', 'bt.booking_id', 'b.id')
    .select(['b.id', 'b.booking_date', 'b.starts_at', 'b.ends_at', 'b.guest_count', 'b.access_rule_id', 'bt.table_id'])
    .where('b.venue_id', '=', venueId)
    .where('b.booking_date', 'in', dates)
    .where('b.status', 'in', [...ACTIVE_BOOKING_STATUSES])
    .where('b.starts_at', 'is not', null)
    .where('b.ends_at', 'is not', null)
    .execute();
  const stays = groupStays(rows);
  const byDate = new Map<string, StayRow[]>(dates.map((date) => [date, []]));
  for (const { row, stay } of stays) {
    byDate.get(row.booking_date)?.push({ start: stay.startsAt.getTime(), end: stay.endsAt.getTime(), stay });
  }
  return byDate;
}
