/**
 * The venue's configuration resolved once per request into what the slot loop reads: shift windows in
 * grid minutes for a date, effective party limits, durations and booking windows, and the bookable
 * units (single active tables and combinations of active tables) a rule and shift may seat.
 */
import { DAY_MINUTES, weekdayOf, windowSpan } from './service-day.js';
import type { AccessRule, Candidate, Shift, TimeAmount, VenueConfig } from './types.js';

export const DEFAULT_SLOT_INTERVAL = 15;
export const DEFAULT_HORIZON: TimeAmount = { value: 90, unit: 'days' };
/** Smart duration: 10 minutes per guest above 4, at most 60. */
export const SMART_DURATION = { aboveParty: 4, perGuest: 10, max: 60 } as const;

export interface Span {
  start: number;
  end: number;
}

export interface Unit extends Candidate {
  tableIndexes: number[];
}

export interface PreparedShift {
  id: string;
  /** The venue's hours stand in for a venue without shifts. */
  implicit: boolean;
  source: Shift | null;
  partyMin: number;
  partyMax: number;
  durationMinutes: number;
  /** Table indexes the shift may seat; null: every table. */
  seating: Set<number> | null;
}

export interface PreparedRule {
  rule: AccessRule;
  index: number;
  window: Span | null;
  /** Table indexes the rule may seat; null: every table. */
  seating: Set<number> | null;
  cutoff: TimeAmount | null;
  start: TimeAmount;
}

export interface PreparedConfig {
  config: VenueConfig;
  interval: number;
  tableIndex: Map<string, number>;
  shifts: PreparedShift[];
  rules: PreparedRule[];
  /** Best fit first: by capacity, single tables before combinations, then config order. */
  units: Unit[];
}

const positive = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0;

/** A set of table indexes from areas and table ids; null when both lists are empty (no restriction). */
function seatingSet(config: VenueConfig, areaIds: readonly string[], tableIds: readonly string[]) {
  if (areaIds.length === 0 && tableIds.length === 0) return null;
  const areas = new Set(areaIds);
  const ids = new Set(tableIds);
  const set = new Set<number>();
  config.tables.forEach((table, index) => {
    if (ids.has(table.id) || (table.seatingAreaId !== null && areas.has(table.seatingAreaId))) set.add(index);
  });
  return set;
}

function prepareShift(config: VenueConfig, shift: Shift): PreparedShift {
  const { defaults } = config;
  return {
    id: shift.id,
    implicit: false,
    source: shift,
    partyMin: shift.partySizeMin ?? defaults.partyMin,
    partyMax: shift.partySizeMax ?? defaults.partyMax,
    durationMinutes: shift.durationType === 'custom' && positive(shift.durationMinutes) ? shift.durationMinutes : defaults.durationMinutes,
    seating: seatingSet(config, shift.seatingAreaIds, shift.tableIds),
  };
}

function prepareRule(config: VenueConfig, rule: AccessRule, index: number): PreparedRule {
  const window = rule.timeFrom !== null && rule.timeTo !== null ? (windowSpan(rule.timeFrom, rule.timeTo) ?? null) : null;
  const ownWindow = rule.bookingWindowEnabled;
  return {
    rule,
    index,
    window,
    seating: rule.seatingEnabled ? seatingSet(config, rule.seatingAreaIds, rule.tableIds) : null,
    cutoff: (ownWindow ? rule.bookingCutoff : null) ?? config.defaults.bookingCutoff,
    start: (ownWindow ? rule.bookingStart : null) ?? config.defaults.bookingStart ?? DEFAULT_HORIZON,
  };
}

/** Single active tables, then combinations of active tables; sorted best fit first (see seatableUnits). */
function prepareUnits(config: VenueConfig, tableIndex: Map<string, number>): Unit[] {
  const active = (index: number | undefined) => index !== undefined && config.tables[index].status === 'active';
  const units: Unit[] = [];
  config.tables.forEach((table, index) => {
    if (active(index)) units.push({ kind: 'table', id: table.id, tableIds: [table.id], capacity: table.capacity, tableIndexes: [index] });
  });
  for (const combo of config.combinations) {
    const indexes = combo.tableIds.map((id) => tableIndex.get(id));
    // A combination with a missing or inactive member cannot be laid.
    if (indexes.length < 2 || !indexes.every(active)) continue;
    units.push({
      kind: 'combination',
      id: combo.id,
      tableIds: [...combo.tableIds],
      capacity: combo.capacity,
      tableIndexes: indexes as number[],
    });
  }
  // Stable sort: at equal capacity single tables (listed first) stay before combinations, each in config order.
  return units.sort((a, b) => a.capacity - b.capacity);
}

// Prepared once per configuration object: a cached configuration (the same object, never mutated) is
// asked about again and again.
const preparedConfigs = new WeakMap<VenueConfig, PreparedConfig>();

/** The configuration indexed for the engine; the same object gives the same (shared, read-only) answer. */
export function prepareConfig(config: VenueConfig): PreparedConfig {
  let prepared = preparedConfigs.get(config);
  if (!prepared) {
    prepared = prepareConfigOnce(config);
    preparedConfigs.set(config, prepared);
  }
  return prepared;
}

function prepareConfigOnce(config: VenueConfig): PreparedConfig {
  const tableIndex = new Map(config.tables.map((table, index) => [table.id, index]));
  const shifts = config.shifts.map((shift) => prepareShift(config, shift));
  if (shifts.length === 0) {
    const { defaults } = config;
    shifts.push({
      id: '',
      implicit: true,
      source: null,
      partyMin: defaults.partyMin,
      partyMax: defaults.partyMax,
      durationMinutes: defaults.durationMinutes,
      seating: null,
    });
  }
  const interval = positive(config.slotIntervalMinutes) ? Math.round(config.slotIntervalMinutes) : DEFAULT_SLOT_INTERVAL;
  return {
    config,
    interval,
    tableIndex,
    shifts,
    rules: config.accessRules.map((rule, index) => prepareRule(config, rule, index)),
    units: prepareUnits(config, tableIndex),
  };
}

/** The venue's opening periods of a date as grid spans; the whole day when it has set no hours. */
function openingSpans(config: VenueConfig, date: string): Span[] {
  const hours = config.defaults.openingHours;
  if (hours === null) return [{ start: 0, end: DAY_MINUTES }];
  return (hours[weekdayOf(date) ?? ''] ?? []).flatMap(({ open, close }) => windowSpan(open, close) ?? []);
}

/** Whether a shift runs on a service date: its day of week and its schedule range. */
export function shiftRunsOn(shift: PreparedShift, date: string): boolean {
  const source = shift.source;
  if (source === null) return true;
  if (!source.daysOfWeek.includes(weekdayOf(date) ?? '')) return false;
  return (source.scheduleStart === null || date >= source.scheduleStart) && (source.scheduleEnd === null || date <= source.scheduleEnd);
}

/**
 * A shift's windows on a date: a custom shift's time period, else its own times; a default shift (or a
 * custom one whose period and times are gone) the venue's opening hours.
 */
export function shiftSpans(config: VenueConfig, shift: PreparedShift, date: string): Span[] {
  const source = shift.source;
  if (source !== null && source.timeType === 'custom') {
    const period = source.timePeriodId === null ? undefined : config.timePeriods.find((p) => p.id === source.timePeriodId);
    const span = period
      ? windowSpan(period.timeFrom, period.timeTo)
      : source.timeFrom !== null && source.timeTo !== null
        ? windowSpan(source.timeFrom, source.timeTo)
        : undefined;
    if (span) return [span];
  }
  return openingSpans(config, date);
}

/** Party limits at a slot: the rule's when its toggle is on, else the shift's (which default to the venue's). */
export function partyLimits(rule: PreparedRule, shift: PreparedShift): { min: number; max: number } {
  if (!rule.rule.partySizeEnabled) return { min: shift.partyMin, max: shift.partyMax };
  return { min: rule.rule.partySizeMin ?? shift.partyMin, max: rule.rule.partySizeMax ?? shift.partyMax };
}

/** Minutes a party stays: rule (toggle on), else shift, else venue; plus smart duration when enabled. */
export function stayMinutes(config: VenueConfig, rule: PreparedRule, shift: PreparedShift, partySize: number): number {
  const base = rule.rule.durationEnabled && positive(rule.rule.durationMinutes) ? rule.rule.durationMinutes : shift.durationMinutes;
  return withSmartDuration(base, config.smartDuration, partySize);
}

/** A stay of `base` minutes, lengthened for larger parties when smart duration is on (decisions: venue defaults). */
export function withSmartDuration(base: number, smartDuration: boolean, partySize: number): number {
  if (!smartDuration || partySize <= SMART_DURATION.aboveParty) return base;
  return base + Math.min(SMART_DURATION.max, (partySize - SMART_DURATION.aboveParty) * SMART_DURATION.perGuest);
}

/** The max covers a rule paces to, or null when it does not pace. */
export const maxCoversOf = (rule: PreparedRule) =>
  rule.rule.maxCoversEnabled && typeof rule.rule.maxCovers === 'number' ? rule.rule.maxCovers : null;

/**
 * Units a rule may use under a shift: every table within both seating restrictions, ordered best fit
 * first (smallest capacity, a single table before a combination, then config order).
 */
export function seatableUnits(prepared: PreparedConfig, rule: PreparedRule, shift: PreparedShift): Unit[] {
  if (rule.seating === null && shift.seating === null) return prepared.units;
  const allowed = (index: number) =>
    (rule.seating === null || rule.seating.has(index)) && (shift.seating === null || shift.seating.has(index));
  return prepared.units.filter((unit) => unit.tableIndexes.every(allowed));
}
