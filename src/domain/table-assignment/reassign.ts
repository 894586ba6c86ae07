/**
 * The daily smart-table pass, as a plan: which unlocked bookings of the day move to a smaller table,
 * which stay where they are and why, and how many seats that frees. Pure and deterministic (the same
 * bookings in any order give the same plan), so staff can preview exactly what the pass would do, and the
 * pass applies the same plan. Applying it: in one transaction, release the old tables of every moved
 * booking, then claim the new ones (a booking may take a table another moved booking leaves).
 *
 * Each move strictly improves its booking's seating: fewer seats, or as many seats on fewer tables. The
 * pass never moves a locked booking and never onto a table that anything else holds during the stay (with
 * the slot rounding of `slots.ts`), so a plan can never create an overlap.
 *
 * It is a greedy pass, not an optimiser: bookings with the most empty seats choose first (their move frees
 * the most), then earlier stays, then by booking id; choosing repeats in rounds until a round moves no
 * one, since one move can free the smaller table another booking wanted. It ends because every move goes
 * to a strictly better seating among finitely many. A booking that moves in several rounds shows as one
 * move from its original tables to its final ones.
 */
import { type ChooseTablesInput, type TableStay, rankCandidates } from './assign.js';
import { type FloorCombination, type FloorTable, type SeatingCandidate, type SeatingRestriction, seatingCandidates } from './candidates.js';
import { type Stay } from './slots.js';

/** A booking of the day as the pass sees it. */
export interface ReassignableStay extends Stay {
  bookingId: string;
  partySize: number;
  /** The tables it holds now. */
  tableIds: readonly string[];
  /** Locked by staff (or a guest's own table pick, which the pass must honour as well): never moved. */
  locked: boolean;
  /** The seatings its access rule permits (seating restriction; guest-pick areas as `seatingAreaIds`). */
  restriction?: SeatingRestriction;
}

export interface ReassignmentInput {
  tables: readonly FloorTable[];
  combinations: readonly FloorCombination[];
  /** The day's bookings that hold tables; each booking once. */
  stays: readonly ReassignableStay[];
  /** Other holds to plan around and never move: table blocks, bookings outside the pass. */
  fixed?: readonly TableStay[];
  /** Passed on to the fragmentation tie-break (`ChooseTablesInput.minUsableMinutes`). */
  minUsableMinutes?: number;
}

export interface PlannedMove {
  bookingId: string;
  from: string[];
  to: string[];
  fromCapacity: number;
  toCapacity: number;
}

/**
 * Why a booking stays put: `locked`; `unplaced` (it holds no table, or one the floorplan does not know,
 * so its seating cannot be judged); `size` (no permitted table or combination seats the party);
 * `already_best` (no permitted seating is smaller, nor as small on fewer tables); `no_better_table`
 * (a better seating exists but something holds it during the stay).
 */
export type BlockReason = 'locked' | 'unplaced' | 'size' | 'already_best' | 'no_better_table';

export interface BlockedBooking {
  bookingId: string;
  reason: BlockReason;
}

export interface ReassignmentPlan {
  /** By stay start, then booking id. */
  moves: PlannedMove[];
  /** Every booking that does not move, by stay start, then booking id. */
  blocked: BlockedBooking[];
  /**
   * Σ over moves of (capacity of the old tables − capacity of the new ones): the seats no longer held by
   * a smaller party, free for another booking. Never negative, as no move goes to more seats; a move from
   * a combination to a single table of equal capacity frees tables but no seats.
   */
  seatsFreed: number;
}

interface Seating {
  capacity: number;
  tables: number;
}

interface Movable {
  stay: ReassignableStay;
  candidates: SeatingCandidate[];
}

const compareNumbers = (a: number, b: number) => (a < b ? -1 : a > b ? 1 : 0);
const compareCodePoints = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const byStartThenId = (a: { startsAt: Date; bookingId: string }, b: { startsAt: Date; bookingId: string }) =>
  compareNumbers(a.startsAt.getTime(), b.startsAt.getTime()) || compareCodePoints(a.bookingId, b.bookingId);

function seatingOf(tableIds: readonly string[], capacities: ReadonlyMap<string, number>): Seating {
  const distinct = [...new Set(tableIds)];
  return { capacity: distinct.reduce((sum, id) => sum + (capacities.get(id) ?? 0), 0), tables: distinct.length };
}

/** Strictly better: fewer seats, or as many seats on fewer tables. */
function improves(candidate: SeatingCandidate, current: Seating): boolean {
  return candidate.capacity < current.capacity || (candidate.capacity === current.capacity && candidate.tableIds.length < current.tables);
}

/** Every hold of the day except the given booking's own: the fixed holds and every other booking where it now sits. */
function holdsExcept(
  bookingId: string,
  stays: readonly ReassignableStay[],
  placement: ReadonlyMap<string, readonly string[]>,
  fixed: readonly TableStay[],
): TableStay[] {
  const holds = [...fixed];
  for (const other of stays) {
    if (other.bookingId === bookingId) continue;
    for (const tableId of placement.get(other.bookingId) ?? []) holds.push({ tableId, startsAt: other.startsAt, endsAt: other.endsAt });
  }
  return holds;
}

/** Plans the smart-table pass for one day (module comment: what it does and does not promise). */
export function planReassignment(input: ReassignmentInput): ReassignmentPlan {
  const capacities = new Map(input.tables.map((table) => [table.id, table.capacity]));
  const stays = [...input.stays].sort((a, b) => compareCodePoints(a.bookingId, b.bookingId));
  const fixed = input.fixed ?? [];
  const placement = new Map<string, readonly string[]>(stays.map((stay) => [stay.bookingId, stay.tableIds]));
  const blocked: (BlockedBooking & { startsAt: Date })[] = [];
  const movable: Movable[] = [];

  for (const stay of stays) {
    const block = (reason: BlockReason) => blocked.push({ bookingId: stay.bookingId, reason, startsAt: stay.startsAt });
    if (stay.locked) block('locked');
    else if (stay.tableIds.length === 0 || stay.tableIds.some((id) => !capacities.has(id))) block('unplaced');
    else {
      const options = { partySize: stay.partySize, restriction: stay.restriction };
      const candidates = seatingCandidates(input.tables, input.combinations, options);
      if (candidates.length === 0) block('size');
      else movable.push({ stay, candidates });
    }
  }

  const emptySeats = ({ stay }: Movable) => seatingOf(placement.get(stay.bookingId) ?? [], capacities).capacity - stay.partySize;
  for (let moved = true; moved;) {
    moved = false;
    const order = [...movable].sort((a, b) => compareNumbers(emptySeats(b), emptySeats(a)) || byStartThenId(a.stay, b.stay));
    for (const { stay, candidates } of order) {
      const request: ChooseTablesInput = {
        candidates,
        partySize: stay.partySize,
        stay,
        occupied: holdsExcept(stay.bookingId, stays, placement, fixed),
        minUsableMinutes: input.minUsableMinutes,
      };
      // Ranking puts fewer seats, then fewer tables first: if the best is no improvement, none is.
      const best = rankCandidates(request)[0]?.candidate;
      if (best && improves(best, seatingOf(placement.get(stay.bookingId) ?? [], capacities))) {
        placement.set(stay.bookingId, best.tableIds);
        moved = true;
      }
    }
  }

  const moves: (PlannedMove & { startsAt: Date })[] = [];
  for (const { stay, candidates } of movable) {
    const now = placement.get(stay.bookingId) ?? stay.tableIds;
    const before = seatingOf(stay.tableIds, capacities);
    // The placement keeps the input's own array until a move replaces it.
    if (now !== stay.tableIds) {
      const after = seatingOf(now, capacities);
      moves.push({
        bookingId: stay.bookingId,
        from: [...stay.tableIds],
        to: [...now],
        fromCapacity: before.capacity,
        toCapacity: after.capacity,
        startsAt: stay.startsAt,
      });
    } else {
      const reason = candidates.some((candidate) => improves(candidate, before)) ? 'no_better_table' : 'already_best';
      blocked.push({ bookingId: stay.bookingId, reason, startsAt: stay.startsAt });
    }
  }

  return {
    moves: moves.sort(byStartThenId).map(({ startsAt: _startsAt, ...move }) => move),
    blocked: blocked.sort(byStartThenId).map(({ startsAt: _startsAt, ...entry }) => entry),
    seatsFreed: moves.reduce((sum, move) => sum + move.fromCapacity - move.toCapacity, 0),
  };
}
