/** Builders for the engine's tests: a London venue with one table and one all-week evening shift, overridable piece by piece. */
import { localToUtc } from '../venue-time.js';
import type { AccessRule, AvailabilityResult, Shift, Stay, Table, VenueConfig } from './types.js';

export const ZONE = 'Europe/London';
export const ALL_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

export const shift = (fields: Partial<Shift> = {}): Shift => ({
  id: 'sh_evening',
  daysOfWeek: ALL_DAYS,
  timeType: 'custom',
  timePeriodId: null,
  timeFrom: '17:00',
  timeTo: '22:00',
  scheduleStart: null,
  scheduleEnd: null,
  partySizeMin: null,
  partySizeMax: null,
  seatingAreaIds: [],
  tableIds: [],
  durationType: 'default',
  durationMinutes: null,
  ...fields,
});

export const rule = (fields: Partial<AccessRule> = {}): AccessRule => ({
  id: 'rule_dinner',
  ruleType: 'table',
  daysOfWeek: ALL_DAYS,
  timeFrom: null,
  timeTo: null,
  partySizeEnabled: false,
  partySizeMin: null,
  partySizeMax: null,
  durationEnabled: false,
  durationMinutes: null,
  seatingEnabled: false,
  seatingAreaIds: [],
  tableIds: [],
  bundlesEnabled: false,
  bundleIds: [],
  bookingWindowEnabled: false,
  bookingCutoff: null,
  bookingStart: null,
  maxCoversEnabled: false,
  maxCovers: null,
  ...fields,
});

export const table = (id: string, capacity = 4, fields: Partial<Table> = {}): Table => ({
  id,
  capacity,
  status: 'active',
  seatingAreaId: null,
  ...fields,
});

export const venue = (fields: Partial<VenueConfig> = {}): VenueConfig => ({
  timezone: ZONE,
  defaults: { durationMinutes: 120, partyMin: 1, partyMax: 10, openingHours: null, bookingCutoff: null, bookingStart: null },
  timePeriods: [],
  shifts: [shift()],
  accessRules: [rule()],
  tables: [table('t1')],
  combinations: [],
  blackouts: [],
  blocks: [],
  smartDuration: false,
  ...fields,
});

/** Venue-local date-time → UTC instant. */
export const local = (date: string, time: string) => localToUtc(date, time, ZONE);

export const stay = (
  bookingId: string,
  tableIds: string[],
  date: string,
  from: string,
  to: string,
  covers = 2,
  accessRuleId: string | null = 'rule_dinner',
): Stay => ({ bookingId, tableIds, startsAt: local(date, from), endsAt: local(date, to), covers, accessRuleId });

/** Slots as `HH:MM ok` or `HH:MM reason` (with the rule id when asked), for exact comparisons. */
export const summary = (result: AvailabilityResult, withRule = false) =>
  result.slots.map((s) => `${withRule ? `${s.access_rule_id} ` : ''}${s.time} ${s.available ? 'ok' : s.reason}`);

/** The slots from `from` to `to` (inclusive) every `step` minutes, all with one outcome. */
export function run(from: string, to: string, outcome: string, step = 15): string[] {
  const minutes = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));
  const end = minutes(to) < minutes(from) ? minutes(to) + 1440 : minutes(to);
  const out: string[] = [];
  for (let m = minutes(from); m <= end; m += step) {
    const c = m % 1440;
    out.push(`${String(Math.floor(c / 60)).padStart(2, '0')}:${String(c % 60).padStart(2, '0')} ${outcome}`);
  }
  return out;
}
