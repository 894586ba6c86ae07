/**
 * Occupancy pre-indexed for the slot loop: per table, its busy time (stays and blocks) as sorted,
 * merged, half-open intervals, so "is this table free for the whole stay" is one binary search; per
 * access rule, the covers seated at each moment as a step function, so the peak during a stay is a
 * binary search and a short scan. Instants are UTC milliseconds.
 */
import type { Occupancy, TableBlock } from './types.js';

/** Flat [start0, end0, start1, end1, …], sorted and disjoint. */
type Intervals = number[];

function mergeIntervals(raw: [number, number][]): Intervals {
  raw.sort((a, b) => a[0] - b[0]);
  const out: Intervals = [];
  for (const [start, end] of raw) {
    if (!(end > start)) continue;
    const last = out.length - 1;
    if (last > 0 && start <= out[last]) out[last] = Math.max(out[last], end);
    else out.push(start, end);
  }
  return out;
}

/** Adds [start, end) to sorted, disjoint intervals in place, merging as `mergeIntervals` does (touching ones too). */
function insertInterval(intervals: Intervals, start: number, end: number): void {
  if (!(end > start)) return;
  // The first interval ending at or after `start`, and the first starting after `end`: those between merge.
  let first = 0;
  while (first < intervals.length && intervals[first + 1] < start) first += 2;
  let after = first;
  while (after < intervals.length && intervals[after] <= end) after += 2;
  const merged = after > first ? [Math.min(start, intervals[first]), Math.max(end, intervals[after - 1])] : [start, end];
  intervals.splice(first, after - first, ...merged);
}

/** True when no interval overlaps [start, end). */
export function intervalsFree(intervals: Intervals, start: number, end: number): boolean {
  // First interval whose end is after `start`: the only one that can overlap, the list being disjoint.
  let lo = 0;
  let hi = intervals.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (intervals[mid * 2 + 1] > start) hi = mid;
    else lo = mid + 1;
  }
  return lo * 2 >= intervals.length || intervals[lo * 2] >= end;
}

/** Covers seated from `times[i]` (inclusive) until `times[i + 1]`; zero before the first time. */
export interface CoverSteps {
  times: number[];
  covers: number[];
}

function coverSteps(stays: { start: number; end: number; covers: number }[]): CoverSteps {
  // Every start and end as an event, in time order (typed arrays: instants are not small integers, and
  // keying a Map by them costs more than sorting), then equal times folded into one step.
  const at = new Float64Array(stays.length * 2);
  const delta = new Float64Array(stays.length * 2);
  let count = 0;
  for (const stay of stays) {
    if (!(stay.end > stay.start) || !(stay.covers > 0)) continue;
    at[count] = stay.start;
    delta[count++] = stay.covers;
    at[count] = stay.end;
    delta[count++] = -stay.covers;
  }
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  order.sort((a, b) => at[a] - at[b]);
  const times: number[] = [];
  const covers: number[] = [];
  let seated = 0;
  for (let k = 0; k < count; k++) {
    const i = order[k];
    seated += delta[i];
    if (times.length > 0 && times[times.length - 1] === at[i]) covers[covers.length - 1] = seated;
    else {
      times.push(at[i]);
      covers.push(seated);
    }
  }
  return { times, covers };
}

/** The index of the step at `time`, inserted (with the covers seated just before it) when there is none. */
function stepAt(steps: CoverSteps, time: number): number {
  const { times, covers } = steps;
  let i = times.length;
  while (i > 0 && times[i - 1] > time) i--;
  if (i > 0 && times[i - 1] === time) return i - 1;
  times.splice(i, 0, time);
  covers.splice(i, 0, i > 0 ? covers[i - 1] : 0);
  return i;
}

/** Adds a stay's covers to the steps in place: the same steps `coverSteps` makes with the stay among the others. */
function addCovers(steps: CoverSteps, start: number, end: number, seated: number): void {
  if (!(end > start) || !(seated > 0)) return;
  const from = stepAt(steps, start);
  const to = stepAt(steps, end);
  for (let i = from; i < to; i++) steps.covers[i] += seated;
}

/** The most covers seated at any moment of [start, end). */
export function peakCovers(steps: CoverSteps, start: number, end: number): number {
  const { times, covers } = steps;
  // Last step at or before `start` gives the covers seated as the stay begins.
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= start) lo = mid + 1;
    else hi = mid;
  }
  let peak = lo > 0 ? covers[lo - 1] : 0;
  for (let i = lo; i < times.length && times[i] < end; i++) if (covers[i] > peak) peak = covers[i];
  return peak;
}

export interface OccupancyIndex {
  /** Busy intervals per table index (the config's table order). */
  tableBusy: Intervals[];
  /** Seated covers per access rule id. */
  ruleCovers: Map<string, CoverSteps>;
}

export const NO_COVERS: CoverSteps = { times: [], covers: [] };

/**
 * Indexes stays and blocks once per request. `excludeBookingId` leaves one booking out, so moving or
 * extending a booking is checked against everyone else. Stays on tables not in `tableIndex` count only
 * towards covers.
 */
export function indexOccupancy(
  tableIndex: ReadonlyMap<string, number>,
  occupancy: Occupancy,
  blocks: readonly TableBlock[],
  excludeBookingId?: string,
): OccupancyIndex {
  const raw: [number, number][][] = Array.from({ length: tableIndex.size }, () => []);
  const byRule = new Map<string, { start: number; end: number; covers: number }[]>();
  for (const stay of occupancy) {
    if (excludeBookingId !== undefined && stay.bookingId === excludeBookingId) continue;
    const start = stay.startsAt.getTime();
    const end = stay.endsAt.getTime();
    for (const tableId of stay.tableIds) {
      const index = tableIndex.get(tableId);
      if (index !== undefined) raw[index].push([start, end]);
    }
    if (stay.accessRuleId !== null) {
      const list = byRule.get(stay.accessRuleId) ?? [];
      list.push({ start, end, covers: stay.covers });
      byRule.set(stay.accessRuleId, list);
    }
  }
  for (const block of blocks) {
    const index = tableIndex.get(block.tableId);
    if (index !== undefined) raw[index].push([block.fromUtc.getTime(), block.toUtc.getTime()]);
  }
  const ruleCovers = new Map<string, CoverSteps>();
  for (const [ruleId, stays] of byRule) ruleCovers.set(ruleId, coverSteps(stays));
  return { tableBusy: raw.map(mergeIntervals), ruleCovers };
}

/**
 * Adds one more stay to an index in place: the index is then the one `indexOccupancy` makes with the stay
 * among the others (a booking batch's placements, each added after it is written, instead of every stay
 * indexed again for the next one).
 */
export function addToIndex(index: OccupancyIndex, tableIndex: ReadonlyMap<string, number>, stay: Occupancy[number]): void {
  const start = stay.startsAt.getTime();
  const end = stay.endsAt.getTime();
  for (const tableId of stay.tableIds) {
    const at = tableIndex.get(tableId);
    if (at !== undefined) insertInterval(index.tableBusy[at], start, end);
  }
  if (stay.accessRuleId === null) return;
  let steps = index.ruleCovers.get(stay.accessRuleId);
  if (!steps) index.ruleCovers.set(stay.accessRuleId, (steps = { times: [], covers: [] }));
  addCovers(steps, start, end, stay.covers);
}
