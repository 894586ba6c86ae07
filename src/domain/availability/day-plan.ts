/**
 * A service date laid on the slot grid for the engine (engine.ts): which shift serves each grid point, the
 * date's blackouts and clock, and each access rule's bookable grid points. Pure; both depend on the prepared
 * configuration and the date alone, so they are computed once per configuration and date and shared.
 */
import { shiftRunsOn, shiftSpans, type PreparedConfig, type PreparedRule, type PreparedShift } from './prepare.js';
import { clockInWindow, DAY_MINUTES, SERVICE_MINUTES, serviceClock, weekdayOf, type ServiceClock } from './service-day.js';
import type { BookingType } from './types.js';

/** A service date resolved: its clock, which shift serves each grid point, and its blackouts. */
export interface DayPlan {
  date: string;
  day: string;
  clock: ServiceClock;
  /** Shift serving grid point k (minute k × interval), or undefined when none does. */
  shiftAt: (PreparedShift | undefined)[];
  blackout: Record<BookingType, boolean>;
}

export interface GridPoint {
  minute: number;
  shift: PreparedShift;
  startMs: number;
}

/**
 * The shifts of a date laid on the slot grid. Grid points are multiples of the interval past midnight
 * (a window starting off the grid starts at the next grid point); where shifts overlap, the first
 * in config order serves the point.
 */
function planDayOnce(prepared: PreparedConfig, date: string): DayPlan {
  const { config, interval } = prepared;
  const shiftAt: (PreparedShift | undefined)[] = new Array(Math.ceil(SERVICE_MINUTES / interval));
  for (const shift of prepared.shifts) {
    if (!shiftRunsOn(shift, date)) continue;
    for (const span of shiftSpans(config, shift, date)) {
      for (let k = Math.ceil(span.start / interval); k * interval < span.end; k++) shiftAt[k] ??= shift;
    }
  }
  const blackout = { tables: false, guestlist: false };
  for (const b of config.blackouts) {
    if (date < b.dateFrom || date > b.dateTo) continue;
    if (b.affectsReservations) blackout.tables = true;
    if (b.affectsGuestlist) blackout.guestlist = true;
  }
  return { date, day: weekdayOf(date) ?? '', clock: serviceClock(date, config.timezone), shiftAt, blackout };
}

/**
 * The grid points a rule offers on a planned day, in order: served by a shift, inside the rule's clock
 * window if it has one, existing on the wall clock (not skipped by a spring-forward), and each clock
 * time once (the first, should windows overlap across midnight).
 */
function ruleGridOnce(prepared: PreparedConfig, plan: DayPlan, rule: PreparedRule): GridPoint[] {
  if (!rule.rule.daysOfWeek.includes(plan.day)) return [];
  const { interval } = prepared;
  const seen = new Set<number>();
  const out: GridPoint[] = [];
  for (let k = 0; k < plan.shiftAt.length; k++) {
    const shift = plan.shiftAt[k];
    if (shift === undefined) continue;
    const minute = k * interval;
    if (rule.window !== null && !clockInWindow(minute, rule.window.start, rule.window.end)) continue;
    const clock = minute % DAY_MINUTES;
    if (seen.has(clock)) continue;
    const startMs = plan.clock.utcAt(minute);
    if (Number.isNaN(startMs)) continue;
    seen.add(clock);
    out.push({ minute, shift, startMs });
  }
  return out;
}

/** A service date's plan and each rule's grid on it, computed once per prepared configuration. */
interface PlannedDay {
  plan: DayPlan;
  grids: Map<PreparedRule, GridPoint[]>;
}

/**
 * The dates planned for each prepared configuration. Plans and grids depend on the configuration and
 * the date alone, and a cached configuration is asked about the same dates request after request; a
 * configuration is asked about the dates it was loaded for, so the map stays small (and is emptied
 * should a caller walk further).
 */
const plannedDays = new WeakMap<PreparedConfig, Map<string, PlannedDay>>();
const MAX_PLANNED_DAYS = 64;

function plannedDay(prepared: PreparedConfig, date: string): PlannedDay {
  let days = plannedDays.get(prepared);
  if (!days) plannedDays.set(prepared, (days = new Map()));
  let day = days.get(date);
  if (!day) {
    if (days.size >= MAX_PLANNED_DAYS) days.clear();
    day = { plan: planDayOnce(prepared, date), grids: new Map() };
    days.set(date, day);
  }
  return day;
}

export function planDay(prepared: PreparedConfig, date: string): DayPlan {
  return plannedDay(prepared, date).plan;
}

/** `ruleGridOnce`, kept with the planned day (read-only: callers never change the points). */
export function ruleGrid(prepared: PreparedConfig, plan: DayPlan, rule: PreparedRule): GridPoint[] {
  const { grids } = plannedDay(prepared, plan.date);
  let points = grids.get(rule);
  if (!points) grids.set(rule, (points = ruleGridOnce(prepared, plan, rule)));
  return points;
}
