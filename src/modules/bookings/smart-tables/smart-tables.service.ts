/**
 * The daily smart-table pass (decisions: docs/availability.md, "The daily smart-table pass") and its
 * staff preview. Both plan a venue-local service date with the pure planner (`planReassignment`): the
 * date's table reservations that are active, not yet started and not seated are the stays it may move;
 * every other hold on the tables that service (earlier or seated stays, other dates' stays reaching into
 * it, table blocks) is fixed. A booking locked by staff, or booked by a guest under a guest-pick rule
 * (the guest may have chosen that very table), never moves.
 *
 * `runDue` runs the pass for every venue whose venue-local `reassign_time` has passed today and that has
 * not run since: one instance claims the run with a conditional update of `reassign_last_run` (tables
 * module), so with several servers exactly one runs it. Each move is then its own transaction that
 * re-checks the booking and claims the new slots; the slots' primary key is the final guard, and a move
 * that conflicts is skipped, never failing the pass.
 */
import type { Logger } from 'pino';
import { type TableStay } from '../../../domain/table-assignment/index.js';
import { type FloorCombination, type FloorTable, type SeatingRestriction } from '../../../domain/table-assignment/candidates.js';
import { type BlockReason, type PlannedMove, type ReassignableStay, planReassignment } from '../../../domain/table-assignment/index.js';
import { addDays, isCalendarDate, localToUtc, localToday } from '../../../domain/venue-time.js';
import type { Db } from '../../../db/connect.js';
import { lockKey, withTransaction } from '../../../db/transaction.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import type { Clock } from '../../../platform/clock.js';
import { AppError, badRequest } from '../../../platform/errors.js';
import type { AccessRuleRecord } from '../../availability/index.js';
import { blocksBetween, claimReassignRun, reassignSchedules, type TableRecord } from '../../tables/index.js';
import { updateBooking } from '../core/booking-writes.js';
import { findBooking, tableIdsOf } from '../core/booking-store.js';
import { SYSTEM, recordHistory } from '../core/history.js';
import { holdTables } from '../core/seating.js';
import { loadVenueConfig, occupancyBetween, serviceWindow } from '../core/venue-config.js';

/** The pass optimises today's service and the next six: large tables freed early can still be booked. */
export const REASSIGN_DAYS = 7;

/** Statuses the pass may move: active, and not yet at the table (a checked-in party stays put). */
const MOVABLE_STATUSES = ['pending', 'pending_payment', 'approved', 'confirmed'] as const;

export interface SmartTablesDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  /** A venue by id alone (the pass works across accounts). */
  venueById(venueId: string): Promise<VenueRow | undefined>;
}

/** Why a booking stays put, as staff read it: the planner's reasons, with a guest's own pick told apart from a staff lock. */
export type PreviewBlockReason = BlockReason | 'guest_pick';

/** A booking the pass considers, with what the preview shows of it. */
interface DayBooking {
  id: string;
  guestName: string | null;
  startTime: string | null;
  partySize: number;
  startsAt: Date;
  endsAt: Date;
  tableIds: string[];
  lockedBy: 'staff' | 'guest_pick' | null;
  restriction?: SeatingRestriction;
}

interface DayPlan {
  bookings: Map<string, DayBooking>;
  tables: TableRecord[];
  /** Holds the pass plans around and never moves (other stays, table blocks). */
  fixed: TableStay[];
  plan: ReturnType<typeof planReassignment>;
}

/** What a booking's access rule lets it sit at (its seating restriction), or nothing to say. */
function restrictionOf(rule: AccessRuleRecord | undefined): SeatingRestriction | undefined {
  if (!rule?.seating_enabled) return undefined;
  return { seatingAreaIds: rule.seating_area_ids, tableIds: rule.table_ids };
}

/**
 * Time nobody can book: on each table, the free gaps between two holds that are shorter than a stay of
 * `minUsableMinutes`, counted and summed (longer gaps, and the open ends of the day, can still be sold).
 */
function shortGaps(holds: readonly TableStay[], minUsableMinutes: number): { short_gaps: number; short_gap_minutes: number } {
  const byTable = new Map<string, TableStay[]>();
  for (const hold of holds) byTable.set(hold.tableId, [...(byTable.get(hold.tableId) ?? []), hold]);
  let count = 0;
  let minutes = 0;
  for (const tableHolds of byTable.values()) {
    const sorted = [...tableHolds].sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
    let end = sorted[0].endsAt.getTime();
    for (const hold of sorted.slice(1)) {
      const gap = (hold.startsAt.getTime() - end) / 60_000;
      if (gap > 0 && gap < minUsableMinutes) {
        count += 1;
        minutes += gap;
      }
      end = Math.max(end, hold.endsAt.getTime());
    }
  }
  return { short_gaps: count, short_gap_minutes: Math.round(minutes) };
}

const sameTables = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

export function createSmartTablesService(deps: SmartTablesDeps) {
  const { db, clock, log } = deps;

  /** The plan for one venue-local service date, as of `now`. */
  async function planDay(venue: VenueRow, date: string, now: Date): Promise<DayPlan> {
    const window = serviceWindow(venue, date, date);
    const [loaded, occupancy, rows] = await Promise.all([
      loadVenueConfig(db, venue, date),
      occupancyBetween(db, venue.id, window.fromUtc, window.toUtc),
      db.kysely
        .selectFrom('bookings')
        .select(['id', 'guest_name', 'start_time', 'guest_count', 'table_locked', 'access_rule_id', 'source'])
        .where('venue_id', '=', venue.id)
        .where('booking_date', '=', date)
        .where('kind', '=', 'table')
        .where('status', 'in', [...MOVABLE_STATUSES])
        .where('closed_at', 'is', null)
        .where('starts_at', '>', now.toISOString())
        .execute(),
    ]);
    const rules = new Map(loaded.rules.map((rule) => [rule.id, rule]));
    const stays = new Map(occupancy.map((stay) => [stay.bookingId, stay]));
    const bookings = new Map<string, DayBooking>();
    for (const row of rows) {
      const stay = stays.get(row.id);
      if (!stay) continue;
      const rule = row.access_rule_id ? rules.get(row.access_rule_id) : undefined;
      const guestPick = row.source === 'widget' && rule?.table_assignment_mode === 'guest_pick';
      bookings.set(row.id, {
        id: row.id,
        guestName: row.guest_name,
        startTime: row.start_time,
        partySize: row.guest_count,
        startsAt: stay.startsAt,
        endsAt: stay.endsAt,
        tableIds: [...stay.tableIds].sort(),
        lockedBy: row.table_locked ? 'staff' : guestPick ? 'guest_pick' : null,
        restriction: restrictionOf(rule),
      });
    }
    const fixed: TableStay[] = occupancy
      .filter((stay) => !bookings.has(stay.bookingId))
      .flatMap((stay) => stay.tableIds.map((tableId) => ({ tableId, startsAt: stay.startsAt, endsAt: stay.endsAt })));
    for (const block of loaded.config.blocks) fixed.push({ tableId: block.tableId, startsAt: block.fromUtc, endsAt: block.toUtc });

    const tables: FloorTable[] = loaded.floorplan.tables.map((t) => ({
      id: t.id,
      tableNumber: t.table_number,
      capacity: t.capacity,
      status: t.status,
      seatingAreaId: t.seating_area_id,
    }));
    const combinations: FloorCombination[] = loaded.floorplan.combinations.map((c) => ({ id: c.id, tableIds: c.table_ids }));
    const planned: ReassignableStay[] = [...bookings.values()].map((b) => ({
      bookingId: b.id,
      partySize: b.partySize,
      tableIds: b.tableIds,
      startsAt: b.startsAt,
      endsAt: b.endsAt,
      locked: b.lockedBy !== null,
      restriction: b.restriction,
    }));
    const plan = planReassignment({ tables, combinations, stays: planned, fixed });
    return { bookings, tables: loaded.floorplan.tables, fixed, plan };
  }

  /** Where each booking sits before and after the plan, with the fixed holds: for the fragmentation figures. */
  function holdsOf(day: DayPlan, after: boolean): TableStay[] {
    const moved = new Map(day.plan.moves.map((move) => [move.bookingId, move.to]));
    const holds = [...day.fixed];
    for (const booking of day.bookings.values()) {
      const tableIds = (after ? moved.get(booking.id) : undefined) ?? booking.tableIds;
      for (const tableId of tableIds) holds.push({ tableId, startsAt: booking.startsAt, endsAt: booking.endsAt });
    }
    return holds;
  }

  /**
   * Moves one booking as planned, in its own transaction: only if it is still movable, unchanged since
   * the plan and on the same tables (`skipped` otherwise, as is any unexpected failure, which is logged),
   * and its new tables are not blocked. `taken` when the new tables are held: by a booking the plan moves
   * away later in the pass, or by one made or moved since the plan.
   */
  async function applyMove(venue: VenueRow, booking: DayBooking, move: PlannedMove, now: Date): Promise<'moved' | 'skipped' | 'taken'> {
    try {
      return await withTransaction(db, async (trx) => {
        await lockKey(db, trx, `booking:${booking.id}`);
        const current = await findBooking(trx, booking.id);
        const unchanged =
          current !== undefined &&
          current.venue_id === venue.id &&
          (MOVABLE_STATUSES as readonly string[]).includes(current.status) &&
          !current.table_locked &&
          current.closed_at === null &&
          current.guest_count === booking.partySize &&
          Date.parse(current.starts_at ?? '') === booking.startsAt.getTime() &&
          Date.parse(current.ends_at ?? '') === booking.endsAt.getTime();
        if (!unchanged || !sameTables(await tableIdsOf(trx, booking.id), move.from)) return 'skipped';
        const blocked = await blocksBetween(trx, venue.id, booking.startsAt, booking.endsAt);
        if (blocked.some((block) => move.to.includes(block.table_id))) return 'taken';

        await holdTables(trx, current, move.to, booking.startsAt, booking.endsAt);
        await updateBooking(trx, booking.id, { updated_at: now.toISOString() });
        const detail = { from: move.from, to: move.to, from_capacity: move.fromCapacity, to_capacity: move.toCapacity };
        await recordHistory(trx, booking.id, SYSTEM, { action: 'smart_reassign', detail }, now);
        return 'moved';
      });
    } catch (error) {
      // The slots' primary key refused the new tables (409): another stay holds them.
      if (error instanceof AppError && error.status === 409) return 'taken';
      log.error({ err: error, bookingId: booking.id }, 'a smart-table move failed');
      return 'skipped';
    }
  }

  /**
   * Applies the date's plan. Moves go in plan order, in rounds: a move onto a table that another moved
   * booking leaves fails until that booking has moved, so what was taken is tried again while a round
   * still moves someone.
   */
  async function applyDay(venue: VenueRow, date: string, now: Date): Promise<{ moved: number; skipped: number }> {
    const day = await planDay(venue, date, now);
    let pending = day.plan.moves;
    let moved = 0;
    let skipped = 0;
    while (pending.length > 0) {
      const taken: PlannedMove[] = [];
      for (const move of pending) {
        const outcome = await applyMove(venue, day.bookings.get(move.bookingId)!, move, now);
        if (outcome === 'moved') moved += 1;
        else if (outcome === 'taken') taken.push(move);
        else skipped += 1;
      }
      if (taken.length === pending.length) {
        skipped += taken.length;
        break;
      }
      pending = taken;
    }
    return { moved, skipped };
  }

  return {
    /** What the pass would do to the venue-local `date`'s table reservations now; changes nothing. */
    async preview(venue: VenueRow, date: string) {
      if (!isCalendarDate(date)) throw badRequest('date must be a real calendar date');
      const day = await planDay(venue, date, clock.now());
      const numbers = new Map(day.tables.map((t) => [t.id, t.table_number]));
      const capacities = new Map(day.tables.map((t) => [t.id, t.capacity]));
      const seating = (tableIds: readonly string[], capacity?: number) => ({
        table_ids: [...tableIds],
        table_numbers: tableIds.map((id) => numbers.get(id) ?? id),
        capacity: capacity ?? tableIds.reduce((sum, id) => sum + (capacities.get(id) ?? 0), 0),
      });
      const about = (booking: DayBooking) => ({
        booking_id: booking.id,
        guest_name: booking.guestName,
        start_time: booking.startTime,
        party_size: booking.partySize,
      });
      const minUsable = venue.default_booking_duration;
      return {
        date,
        moves: day.plan.moves.map((move) => ({
          ...about(day.bookings.get(move.bookingId)!),
          from: seating(move.from, move.fromCapacity),
          to: seating(move.to, move.toCapacity),
        })),
        blocked: day.plan.blocked.map((entry) => {
          const booking = day.bookings.get(entry.bookingId)!;
          const reason: PreviewBlockReason = entry.reason === 'locked' && booking.lockedBy === 'guest_pick' ? 'guest_pick' : entry.reason;
          return { ...about(booking), tables: seating(booking.tableIds), reason };
        }),
        seats_freed: day.plan.seatsFreed,
        fragmentation: {
          before: shortGaps(holdsOf(day, false), minUsable),
          after: shortGaps(holdsOf(day, true), minUsable),
        },
      };
    },

    /**
     * Runs the pass for every venue that is due at `now` (see the module comment); answers the venues
     * this instance ran it for and how many moves it made or skipped. A venue that fails is logged and
     * left; the others still run.
     */
    async runDue(now: Date = clock.now()): Promise<{ venues: string[]; moved: number; skipped: number }> {
      const report = { venues: [] as string[], moved: 0, skipped: 0 };
      for (const schedule of await reassignSchedules(db)) {
        try {
          const venue = await deps.venueById(schedule.venue_id);
          if (!venue) continue;
          const today = localToday(now, venue.timezone);
          const runAt = localToUtc(today, schedule.reassign_time, venue.timezone);
          if (now < runAt || (schedule.reassign_last_run !== null && schedule.reassign_last_run >= runAt.toISOString())) continue;
          if (!(await claimReassignRun(db, venue.id, runAt, now))) continue;
          report.venues.push(venue.id);
          let moved = 0;
          let skipped = 0;
          for (let offset = 0; offset < REASSIGN_DAYS; offset += 1) {
            const day = await applyDay(venue, addDays(today, offset), now);
            moved += day.moved;
            skipped += day.skipped;
          }
          report.moved += moved;
          report.skipped += skipped;
          log.info({ venueId: venue.id, moved, skipped }, 'smart-table pass ran');
        } catch (error) {
          log.error({ err: error, venueId: schedule.venue_id }, 'smart-table pass failed');
        }
      }
      return report;
    },
  };
}

export type SmartTablesService = ReturnType<typeof createSmartTablesService>;
