/**
 * Choosing the tables for one new stay. Pure: the caller hands in the candidates, the holds already on
 * the tables that day (other bookings' stays and table blocks) and the stay, and gets back the best free
 * candidate. The database's (table, slot) constraint still decides races; this only picks well.
 *
 * Order of preference, each rule breaking the ties of the one before:
 * 1. the smallest capacity that seats the party (large tables stay free for large parties);
 * 2. fewer tables (a single table before a combination of equal capacity);
 * 3. the least fragmentation of the tables' evening (see `Fragmentation`);
 * 4. table number in natural order, then id: stable, and the order staff read the floorplan in.
 */
import { type SeatingCandidate, compareTableLabels } from './candidates.js';
import { claimsSlotIn, slotSpanOf, type Stay } from './slots.js';

/** A hold on one table: a booking's stay or a block. */
export interface TableStay extends Stay {
  tableId: string;
}

/** Guest pick (access rule `table_assignment_mode` `guest_pick`): the guest chooses among the rule's areas. */
export interface GuestPick {
  /** `guest_pick_area_ids`; every member table must lie in one of them. Empty: every area may be picked. */
  areaIds: readonly string[];
  /** The table (or combination) the guest picked: then only that one is considered. */
  requestedTableId?: string | null;
}

export interface ChooseTablesInput {
  /** Seatings permitted for the booking (`seatingCandidates`); any that do not seat the party are skipped. */
  candidates: readonly SeatingCandidate[];
  partySize: number;
  /** The new stay. An empty or reversed stay is never assigned. */
  stay: Stay;
  /**
   * Every hold on the venue's tables around the stay, or the same already grouped by table (`holdsByTable`);
   * holds sharing a slot with it make a table unavailable.
   */
  occupied: readonly TableStay[] | TableHolds;
  guestPick?: GuestPick;
  /** Leftovers shorter than this are counted as wasted (default: the new stay's own length). */
  minUsableMinutes?: number;
}

/**
 * How much the stay breaks up its tables' free time, summed over the member tables. On each table the
 * stay lands inside one free gap, between the nearest hold ending at or before it and the nearest hold
 * starting at or after it (a side without a hold is open to the end of the day), and leaves a leftover
 * before and after it. Compared in this order, each lower is better:
 * - `wastedMinutes`: leftovers bounded by a hold and shorter than the minimum usable length: time no
 *   later booking of that length can use;
 * - `newGaps`: how many free gaps the stay adds: +1 when it splits a gap, 0 when it abuts a hold on one
 *   side, −1 when it fills a gap exactly. Abutting keeps the rest of the evening in one piece;
 * - `slackMinutes`: the leftovers' total, infinite when a side is open: best fit, so the tightest gap is
 *   filled and long stretches stay whole for long stays.
 */
export interface Fragmentation {
  wastedMinutes: number;
  newGaps: number;
  slackMinutes: number;
}

export interface RankedCandidate {
  candidate: SeatingCandidate;
  fragmentation: Fragmentation;
}

const MINUTE_MS = 60_000;

const NO_HOLDS: readonly Stay[] = [];

/** A leftover bounded by a hold and shorter than the minimum usable length (an open side is infinite). */
const wastedOf = (leftover: number, minUsableMs: number) => (leftover > 0 && leftover < minUsableMs ? leftover : 0);

const compareNumbers = (a: number, b: number) => (a < b ? -1 : a > b ? 1 : 0);
const compareCodePoints = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Holds grouped by table id. */
export type TableHolds = ReadonlyMap<string, readonly Stay[]>;

/** Adds a hold on `tableId` to its table's holds, unless it is empty (it claims no slot). */
export function addHold(byTable: Map<string, Stay[]>, tableId: string, hold: Stay): void {
  if (!(hold.endsAt.getTime() > hold.startsAt.getTime())) return;
  const holds = byTable.get(tableId);
  if (holds) holds.push(hold);
  else byTable.set(tableId, [hold]);
}

/** Holds per table, skipping empty ones. */
export function holdsByTable(occupied: readonly TableStay[]): Map<string, Stay[]> {
  const byTable = new Map<string, Stay[]>();
  for (const hold of occupied) addHold(byTable, hold.tableId, hold);
  return byTable;
}

/**
 * The fragmentation of placing `stay` on `tableIds`, or undefined when a hold shares a slot with it on
 * one of them (the table is taken). A hold that shares no slot lies wholly before or wholly after the stay.
 */
export function fragmentationOf(
  tableIds: readonly string[],
  stay: Stay,
  holds: ReadonlyMap<string, readonly Stay[]>,
  minUsableMs: number,
): Fragmentation | undefined {
  const start = stay.startsAt.getTime();
  const end = stay.endsAt.getTime();
  const span = slotSpanOf(stay.startsAt, stay.endsAt);
  let wasted = 0;
  let newGaps = 0;
  let slack = 0;
  for (const tableId of tableIds) {
    let previousEnd = -Infinity;
    let nextStart = Infinity;
    for (const hold of holds.get(tableId) ?? NO_HOLDS) {
      if (span && claimsSlotIn(hold, span)) return undefined;
      if (hold.endsAt.getTime() <= start) previousEnd = Math.max(previousEnd, hold.endsAt.getTime());
      else nextStart = Math.min(nextStart, hold.startsAt.getTime());
    }
    const before = start - previousEnd;
    const after = nextStart - end;
    wasted += wastedOf(before, minUsableMs) + wastedOf(after, minUsableMs);
    newGaps += (before > 0 ? 1 : 0) + (after > 0 ? 1 : 0) - 1;
    slack += before + after;
  }
  return { wastedMinutes: wasted / MINUTE_MS, newGaps, slackMinutes: slack / MINUTE_MS };
}

function compareRanked(a: RankedCandidate, b: RankedCandidate): number {
  return (
    compareNumbers(a.candidate.capacity, b.candidate.capacity) ||
    compareNumbers(a.candidate.tableIds.length, b.candidate.tableIds.length) ||
    compareNumbers(a.fragmentation.wastedMinutes, b.fragmentation.wastedMinutes) ||
    compareNumbers(a.fragmentation.newGaps, b.fragmentation.newGaps) ||
    compareNumbers(a.fragmentation.slackMinutes, b.fragmentation.slackMinutes) ||
    compareTableLabels(a.candidate.label, b.candidate.label) ||
    compareCodePoints(a.candidate.id, b.candidate.id)
  );
}

function guestMayPick(candidate: SeatingCandidate, guestPick: GuestPick | undefined): boolean {
  if (!guestPick) return true;
  const requested = guestPick.requestedTableId;
  if (requested !== undefined && requested !== null && candidate.id !== requested) return false;
  if (guestPick.areaIds.length === 0) return true;
  return candidate.areaIds.every((area) => area !== null && guestPick.areaIds.includes(area));
}

/** Every free candidate that seats the party and the guest may pick, in the candidates' order. */
function freeRanked(input: ChooseTablesInput): RankedCandidate[] {
  const { stay, partySize } = input;
  const length = stay.endsAt.getTime() - stay.startsAt.getTime();
  if (!(length > 0) || !(partySize >= 1)) return [];
  const minUsableMs = input.minUsableMinutes === undefined ? length : input.minUsableMinutes * MINUTE_MS;
  const holds = input.occupied instanceof Map ? input.occupied : holdsByTable(input.occupied as readonly TableStay[]);
  const ranked: RankedCandidate[] = [];
  for (const candidate of input.candidates) {
    if (candidate.capacity < partySize || !guestMayPick(candidate, input.guestPick)) continue;
    const fragmentation = fragmentationOf(candidate.tableIds, stay, holds, minUsableMs);
    if (fragmentation) ranked.push({ candidate, fragmentation });
  }
  return ranked;
}

/** Every free candidate that seats the party and the guest may pick, best first (the order in the module comment). */
export function rankCandidates(input: ChooseTablesInput): RankedCandidate[] {
  return freeRanked(input).sort(compareRanked);
}

/**
 * The best free candidate for the stay, or null when none is free, fits and may be picked: the first of
 * `rankCandidates`, found in one pass (the order is total: the id breaks every tie).
 */
export function chooseTables(input: ChooseTablesInput): SeatingCandidate | null {
  let best: RankedCandidate | undefined;
  for (const ranked of freeRanked(input)) if (!best || compareRanked(ranked, best) < 0) best = ranked;
  return best?.candidate ?? null;
}
