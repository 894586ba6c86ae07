/**
 * The availability engine: which slots of a service date an access rule offers a party, and why each
 * unavailable one is not bookable. Pure and I/O-free: the venue's configuration, the active stays and
 * `now` are arguments. Semantics, worked examples and cost: docs/availability.md.
 */
import { addDays, shiftInstant } from '../venue-time.js';
import { GrownFromStays, isAppendOnly } from './appended.js';
import {
  addToIndex,
  indexOccupancy,
  intervalsFree,
  NO_COVERS,
  peakCovers,
  type CoverSteps,
  type OccupancyIndex,
} from './occupancy-index.js';
import {
  maxCoversOf,
  partyLimits,
  prepareConfig,
  seatableUnits,
  stayMinutes,
  type PreparedConfig,
  type PreparedRule,
  type PreparedShift,
  type Unit,
} from './prepare.js';
import { planDay, ruleGrid, type DayPlan, type GridPoint } from './day-plan.js';
import { clockLabel, weekdayOf } from './service-day.js';
import type {
  AvailabilityQuery,
  AvailabilityResult,
  BookingType,
  Candidate,
  Occupancy,
  Slot,
  SlotReason,
  TimeAmount,
  VenueConfig,
} from './types.js';

const MINUTE_MS = 60_000;
/** How far `nextAvailableDates` looks ahead unless told, and at most. */
export const NEXT_DATES_LOOKAHEAD = 14;
export const NEXT_DATES_MAX_LOOKAHEAD = 31;

/** One request's view: the prepared config, the indexed stays and memos shared by every slot. */
interface Context {
  prepared: PreparedConfig;
  occupancy: OccupancyIndex;
  now: Date;
  partySize: number;
  /** `now` moved by each distinct cutoff or horizon amount (rules mostly share the venue's). */
  shifted: Map<string, number>;
  terms: Map<PreparedRule, Map<PreparedShift, Terms>>;
}

/** What one rule under one shift asks of the request's party: resolved once, read by every slot. */
interface Terms {
  type: BookingType;
  partyMin: number;
  partyMax: number;
  maxCovers: number | null;
  covers: CoverSteps;
  stayMs: number;
  /** Units that seat the party, best fit first; null for guest lists (no tables). */
  fitting: Unit[] | null;
  /** The party's size alone could be seated here with the venue empty (for party_too_large). */
  sizeFits: boolean;
  /** Bookable starts: now + cutoff ≤ start ≤ now + horizon. */
  earliest: number;
  latest: number;
}

const ruleTypeOf = (type: BookingType) => (type === 'tables' ? 'table' : 'guestlist');
const bookingTypeOf = (ruleType: string): BookingType => (ruleType === 'guestlist' ? 'guestlist' : 'tables');

function checkQuery(date: string, partySize: number, now: Date) {
  if (weekdayOf(date) === undefined) throw new RangeError(`Invalid date ${date}`);
  if (!Number.isInteger(partySize) || partySize < 1) throw new RangeError(`Invalid party size ${partySize}`);
  if (!Number.isFinite(now.getTime())) throw new RangeError('now must be a valid date');
}

function createContext(prepared: PreparedConfig, occupancy: OccupancyIndex, now: Date, partySize: number): Context {
  return { prepared, occupancy, now, partySize, shifted: new Map(), terms: new Map() };
}

/**
 * `now` moved by an amount in the venue's zone: minutes and hours are elapsed time (plain arithmetic),
 * days, weeks and months calendar time (`shiftInstant`, so "1 day" keeps the wall-clock time across DST).
 */
function nowPlus(ctx: Context, amount: TimeAmount): number {
  const key = `${amount.value} ${amount.unit}`;
  let ms = ctx.shifted.get(key);
  if (ms === undefined) {
    const elapsed = amount.unit === 'minutes' ? MINUTE_MS : amount.unit === 'hours' ? 60 * MINUTE_MS : 0;
    ms =
      elapsed > 0
        ? ctx.now.getTime() + amount.value * elapsed
        : shiftInstant(ctx.now, amount.value, amount.unit, ctx.prepared.config.timezone).getTime();
    ctx.shifted.set(key, ms);
  }
  return ms;
}

function termsFor(ctx: Context, rule: PreparedRule, shift: PreparedShift): Terms {
  let byShift = ctx.terms.get(rule);
  if (!byShift) ctx.terms.set(rule, (byShift = new Map()));
  let terms = byShift.get(shift);
  if (terms) return terms;
  const party = ctx.partySize;
  const type = bookingTypeOf(rule.rule.ruleType);
  const limits = partyLimits(rule, shift);
  const maxCovers = maxCoversOf(rule);
  const seatable = type === 'tables' ? seatableUnits(ctx.prepared, rule, shift) : null;
  const largest = seatable === null ? Infinity : seatable.reduce((max, unit) => Math.max(max, unit.capacity), 0);
  terms = {
    type,
    partyMin: limits.min,
    partyMax: limits.max,
    maxCovers,
    covers: ctx.occupancy.ruleCovers.get(rule.rule.id) ?? NO_COVERS,
    stayMs: stayMinutes(ctx.prepared.config, rule, shift, party) * MINUTE_MS,
    fitting: seatable === null ? null : seatable.filter((unit) => unit.capacity >= party),
    sizeFits: party <= limits.max && (maxCovers === null || party <= maxCovers) && largest >= party,
    earliest: rule.cutoff ? nowPlus(ctx, rule.cutoff) : ctx.now.getTime(),
    latest: nowPlus(ctx, rule.start),
  };
  byShift.set(shift, terms);
  return terms;
}

const unitFree = (occupancy: OccupancyIndex, unit: Unit, start: number, end: number) => {
  for (const index of unit.tableIndexes) if (!intervalsFree(occupancy.tableBusy[index], start, end)) return false;
  return true;
};

/**
 * One slot, checked in the order of SLOT_REASONS; the first failure is the reason. With `free` given,
 * every free unit is collected into it (assignment); otherwise the search stops at the first.
 */
function evaluateSlot(ctx: Context, plan: DayPlan, terms: Terms, start: number, free?: Unit[]): SlotReason | undefined {
  const party = ctx.partySize;
  if (plan.blackout[terms.type]) return 'blackout';
  if (start < terms.earliest) return 'cutoff';
  if (start > terms.latest) return 'horizon';
  if (party < terms.partyMin || party > terms.partyMax) return 'party_size';
  const end = start + terms.stayMs;
  if (terms.maxCovers !== null && peakCovers(terms.covers, start, end) + party > terms.maxCovers) return 'max_covers';
  if (terms.fitting === null) return undefined;
  let found = false;
  for (const unit of terms.fitting) {
    if (!unitFree(ctx.occupancy, unit, start, end)) continue;
    found = true;
    if (!free) break;
    free.push(unit);
  }
  return found ? undefined : 'no_table';
}

/** Each unit's candidate, made once (frozen: every answer about the unit shares it). */
const candidates = new WeakMap<Unit, Candidate>();

function toCandidate(unit: Unit): Candidate {
  let candidate = candidates.get(unit);
  if (!candidate) {
    candidate = Object.freeze({ kind: unit.kind, id: unit.id, tableIds: unit.tableIds, capacity: unit.capacity });
    candidates.set(unit, candidate);
  }
  return candidate;
}

function toSlot(rule: PreparedRule, minute: number, start: number, stayMs: number, reason: SlotReason | undefined): Slot {
  const time = clockLabel(minute);
  const starts_at = new Date(start);
  const ends_at = new Date(start + stayMs);
  return reason === undefined
    ? { time, access_rule_id: rule.rule.id, available: true, starts_at, ends_at }
    : { time, access_rule_id: rule.rule.id, available: false, reason, starts_at, ends_at };
}

/**
 * The day's slots for a type, by start, then by the rules' config order: each rule's grid is already
 * in order, so the lists are merged rather than sorted.
 */
function slotsOfDay(ctx: Context, date: string, type: BookingType, stopAtAvailable: boolean) {
  const { prepared } = ctx;
  const plan = planDay(prepared, date);
  const grids: { rule: PreparedRule; points: GridPoint[] }[] = [];
  const bundleIds = new Set<string>();
  for (const rule of prepared.rules) {
    if (rule.rule.ruleType !== ruleTypeOf(type)) continue;
    const points = ruleGrid(prepared, plan, rule);
    if (points.length === 0) continue;
    grids.push({ rule, points });
    if (rule.rule.bundlesEnabled) for (const id of rule.rule.bundleIds) bundleIds.add(id);
  }
  const slots: Slot[] = [];
  let sizeFitsSomewhere = false;
  const cursors = grids.map(() => 0);
  for (;;) {
    let next = -1;
    for (let g = 0; g < grids.length; g++) {
      if (
        cursors[g] < grids[g].points.length &&
        (next < 0 || grids[g].points[cursors[g]].minute < grids[next].points[cursors[next]].minute)
      )
        next = g;
    }
    if (next < 0) break;
    const { rule, points } = grids[next];
    const point = points[cursors[next]++];
    const terms = termsFor(ctx, rule, point.shift);
    const reason = evaluateSlot(ctx, plan, terms, point.startMs);
    sizeFitsSomewhere ||= terms.sizeFits;
    slots.push(toSlot(rule, point.minute, point.startMs, terms.stayMs, reason));
    if (stopAtAvailable && reason === undefined) break;
  }
  return { slots, ruleIds: grids.map((g) => g.rule.rule.id), bundleIds: [...bundleIds], sizeFitsSomewhere };
}

/** Frozen occupancies indexed for each prepared configuration (the index reads its tables and blocks). */
const indexes = new WeakMap<PreparedConfig, WeakMap<Occupancy, OccupancyIndex>>();
/** Append-only occupancies' indexes for each prepared configuration, grown as their stays are. */
const grownIndexes = new WeakMap<PreparedConfig, GrownFromStays<OccupancyIndex>>();

/**
 * The stays indexed for the configuration. A frozen occupancy (the stays cache hands out frozen windows,
 * the same one until the venue's bookings change) is indexed once per configuration and shared by every
 * request about that window; an append-only one (appended.ts: a booking batch's day, each placement added
 * once written) is indexed once and its index grown with each stay added; any other is indexed per call.
 */
function indexFor(prepared: PreparedConfig, occupancy: Occupancy, excludeBookingId?: string): OccupancyIndex {
  if (excludeBookingId === undefined && isAppendOnly(occupancy)) {
    let grown = grownIndexes.get(prepared);
    if (!grown) {
      const build = (stays: Occupancy) => indexOccupancy(prepared.tableIndex, stays, prepared.config.blocks);
      grownIndexes.set(prepared, (grown = new GrownFromStays(build, (index, stay) => addToIndex(index, prepared.tableIndex, stay))));
    }
    return grown.of(occupancy);
  }
  if (excludeBookingId !== undefined || !Object.isFrozen(occupancy))
    return indexOccupancy(prepared.tableIndex, occupancy, prepared.config.blocks, excludeBookingId);
  let byOccupancy = indexes.get(prepared);
  if (!byOccupancy) indexes.set(prepared, (byOccupancy = new WeakMap()));
  let index = byOccupancy.get(occupancy);
  if (!index) byOccupancy.set(occupancy, (index = indexOccupancy(prepared.tableIndex, occupancy, prepared.config.blocks)));
  return index;
}

/**
 * Every slot the venue's rules of a type offer on a service date, each available or with its reason.
 * `party_too_large` says no slot of the day would seat the party even with the venue empty (above every
 * party maximum, max covers or largest table); with no slots at all, above the venue's default maximum.
 */
export function computeAvailability(config: VenueConfig, occupancy: Occupancy, query: AvailabilityQuery): AvailabilityResult {
  checkQuery(query.date, query.partySize, query.now);
  return availabilityIn(contextFor(config, occupancy, query), query);
}

function contextFor(config: VenueConfig, occupancy: Occupancy, query: AvailabilityQuery): Context {
  const prepared = prepareConfig(config);
  return createContext(prepared, indexFor(prepared, occupancy), query.now, query.partySize);
}

function availabilityIn(ctx: Context, query: AvailabilityQuery): AvailabilityResult {
  const day = slotsOfDay(ctx, query.date, query.type, false);
  return {
    date: query.date,
    party_size: query.partySize,
    type: query.type,
    slots: day.slots,
    party_too_large: day.slots.length > 0 ? !day.sizeFitsSomewhere : query.partySize > ctx.prepared.config.defaults.partyMax,
    access_rule_ids: day.ruleIds,
    bundle_ids: day.bundleIds,
  };
}

export interface NextDatesQuery extends AvailabilityQuery {
  /** Days after `date` to look at; 14 unless given, at most 31. */
  days?: number;
}

/**
 * The service dates after `date` (within `days`) with at least one available slot, in order. The
 * occupancy must cover the whole range (one query: stays overlapping `date`+1 00:00 to
 * `date`+days+2 00:00); the config is prepared and the stays indexed once for every day.
 */
export function nextAvailableDates(config: VenueConfig, occupancy: Occupancy, query: NextDatesQuery): string[] {
  checkQuery(query.date, query.partySize, query.now);
  return nextDatesIn(contextFor(config, occupancy, query), query);
}

/**
 * `computeAvailability` and `nextAvailableDates` of one query together, as the public availability
 * answer has them: the configuration prepared, the stays indexed and the clock arithmetic done once.
 */
export function availabilityWithNextDates(
  config: VenueConfig,
  occupancy: Occupancy,
  query: NextDatesQuery,
): { availability: AvailabilityResult; nextDates: string[] } {
  checkQuery(query.date, query.partySize, query.now);
  const ctx = contextFor(config, occupancy, query);
  return { availability: availabilityIn(ctx, query), nextDates: nextDatesIn(ctx, query) };
}

function nextDatesIn(ctx: Context, query: NextDatesQuery): string[] {
  const days = Math.min(NEXT_DATES_MAX_LOOKAHEAD, Math.max(0, Math.floor(query.days ?? NEXT_DATES_LOOKAHEAD)));
  const dates: string[] = [];
  for (let i = 1; i <= days; i++) {
    const date = addDays(query.date, i);
    if (slotsOfDay(ctx, date, query.type, true).slots.some((slot) => slot.available)) dates.push(date);
  }
  return dates;
}

export interface SlotRequest {
  /** The service date and the slot's clock time, as the guest picked them. */
  date: string;
  time: string;
  accessRuleId: string;
  partySize: number;
  now: Date;
  /** Leave this booking's own stay out (moving or re-checking an existing booking). */
  excludeBookingId?: string;
}

export type SlotCheck =
  | { available: true; slot: Slot; durationMinutes: number; candidates: Candidate[] }
  | { available: false; reason: SlotReason; slot: Slot | null; durationMinutes: number | null; candidates: [] };

/**
 * Re-checks one slot as the availability listed it, for the booking transaction: `closed` when the rule
 * is unknown or does not offer that time on that date; otherwise the slot's stay, and for table rules
 * every free single table or combination that fits, best fit first (the first is the natural pick).
 */
export function slotFree(config: VenueConfig, occupancy: Occupancy, request: SlotRequest): SlotCheck {
  checkQuery(request.date, request.partySize, request.now);
  const prepared = prepareConfig(config);
  const rule = prepared.rules.find((r) => r.rule.id === request.accessRuleId);
  const closed: SlotCheck = { available: false, reason: 'closed', slot: null, durationMinutes: null, candidates: [] };
  if (!rule) return closed;
  const plan = planDay(prepared, request.date);
  const point = ruleGrid(prepared, plan, rule).find(({ minute }) => clockLabel(minute) === request.time);
  if (!point) return closed;
  const ctx = createContext(prepared, indexFor(prepared, occupancy, request.excludeBookingId), request.now, request.partySize);
  const terms = termsFor(ctx, rule, point.shift);
  const free: Unit[] = [];
  const reason = evaluateSlot(ctx, plan, terms, point.startMs, free);
  const slot = toSlot(rule, point.minute, point.startMs, terms.stayMs, reason);
  const durationMinutes = terms.stayMs / MINUTE_MS;
  if (reason !== undefined) return { available: false, reason, slot, durationMinutes, candidates: [] };
  return { available: true, slot, durationMinutes, candidates: free.map(toCandidate) };
}

/**
 * The instant from which a slot starting at `startsAt` under the rule can be booked: its start moved
 * back by the rule's booking horizon (the inverse of the `horizon` check). Null for an unknown rule.
 */
export function bookingOpensAt(config: VenueConfig, accessRuleId: string, startsAt: Date): Date | null {
  const rule = prepareConfig(config).rules.find((r) => r.rule.id === accessRuleId);
  if (!rule) return null;
  const { value, unit } = rule.start;
  const elapsed = unit === 'minutes' ? MINUTE_MS : unit === 'hours' ? 60 * MINUTE_MS : 0;
  return elapsed > 0 ? new Date(startsAt.getTime() - value * elapsed) : shiftInstant(startsAt, -value, unit, config.timezone);
}

export interface CandidateRequest {
  startsAt: Date;
  endsAt: Date;
  partySize: number;
  /** Only units made entirely of these tables (a rule's or the staff's choice); omitted: every table. */
  tableIds?: readonly string[];
  excludeBookingId?: string;
}

/**
 * Free active tables and combinations that seat a party for a whole stay, best fit first: the staff
 * floor's manual and automatic assignment, where no access rule or slot grid applies.
 */
export function freeCandidates(config: VenueConfig, occupancy: Occupancy, request: CandidateRequest): Candidate[] {
  const prepared = prepareConfig(config);
  const index = indexFor(prepared, occupancy, request.excludeBookingId);
  const allowed = request.tableIds ? new Set(request.tableIds) : null;
  const start = request.startsAt.getTime();
  const end = request.endsAt.getTime();
  return prepared.units
    .filter((unit) => unit.capacity >= request.partySize && (allowed === null || unit.tableIds.every((id) => allowed.has(id))))
    .filter((unit) => unitFree(index, unit, start, end))
    .map(toCandidate);
}
