/**
 * What the booking engine reads of a venue's availability: its time periods, shifts, access rules and
 * blackouts, one query each, in the shapes the API returns (lists parsed, toggles as booleans).
 */
import { kyselyOf, type Conn } from '../../db/transaction.js';
import { toAccessRule } from './access-rules.service.js';
import { toBlackout, toShift, toTimePeriod } from './availability.service.js';

export type AccessRuleRecord = ReturnType<typeof toAccessRule>;
export type ShiftRecord = ReturnType<typeof toShift>;
export type BlackoutRecord = ReturnType<typeof toBlackout>;
export type TimePeriodRecord = ReturnType<typeof toTimePeriod>;

export interface AvailabilityRecords {
  timePeriods: TimePeriodRecord[];
  shifts: ShiftRecord[];
  accessRules: AccessRuleRecord[];
  blackouts: BlackoutRecord[];
}

export async function availabilityRecords(db: Conn, venueId: string): Promise<AvailabilityRecords> {
  const k = kyselyOf(db);
  const [timePeriods, shifts, accessRules, blackouts] = await Promise.all([
    k.selectFrom('time_periods').selectAll().where('venue_id', '=', venueId).orderBy('id').execute(),
    k.selectFrom('shifts').selectAll().where('venue_id', '=', venueId).orderBy('id').execute(),
    k.selectFrom('access_rules').selectAll().where('venue_id', '=', venueId).orderBy('id').execute(),
    k.selectFrom('blackouts').selectAll().where('venue_id', '=', venueId).orderBy('id').execute(),
  ]);
  return {
    timePeriods: timePeriods.map(toTimePeriod),
    shifts: shifts.map(toShift),
    accessRules: accessRules.map(toAccessRule),
    blackouts: blackouts.map(toBlackout),
  };
}
