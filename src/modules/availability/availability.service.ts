/**
 * Time periods, shifts and blackouts of a venue: validation, defaults and row ↔ response mapping.
 * Access rules, the larger resource, live in access-rules.service.ts.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';
import { withTransaction } from '../../db/transaction.js';
import { parseIdArray } from '../../db/json.js';
import { isCalendarDate } from '../../domain/venue-time.js';
import type { Audit, AuditEvent } from '../../platform/audit.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { toFlag } from '../../platform/http.js';
import { newId } from '../../platform/ids.js';
import type { References } from '../../platform/references.js';
import { byName, compareCodePoints, requiredText } from '../../platform/text.js';
import { assertReferences } from './availability.repository.js';
import type { BlackoutBody, ShiftUpdateBody, TimePeriodBody } from './availability.schemas.js';
import { DAYS_OF_WEEK, type BlackoutsTable, type ShiftsTable, type TimePeriodsTable } from './availability.table.js';

/** Distinct days in week order. */
export const normaliseDays = (days: readonly string[]) => DAYS_OF_WEEK.filter((day) => days.includes(day));

export const distinct = (ids: readonly string[] | undefined) => [...new Set(ids ?? [])];

/** A clock-time window: both ends or neither; equal ends would be an empty window (overnight is fine). */
export function checkWindow(from: string | null, to: string | null, what = 'time_from and time_to') {
  if ((from === null) !== (to === null)) throw badRequest(`${what} must be given together`);
  if (from !== null && from === to) throw badRequest('time_to must differ from time_from');
}

export const toTimePeriod = (row: Selectable<TimePeriodsTable>) => ({
  id: row.id,
  name: row.name,
  time_from: row.time_from,
  time_to: row.time_to,
});

export const toShift = (row: Selectable<ShiftsTable>) => ({
  id: row.id,
  name: row.name,
  days_of_week: parseIdArray(row.days_of_week),
  time_type: row.time_type,
  time_period_id: row.time_period_id,
  time_from: row.time_from,
  time_to: row.time_to,
  schedule_start: row.schedule_start,
  schedule_end: row.schedule_end,
  party_size_min: row.party_size_min,
  party_size_max: row.party_size_max,
  seating_area_ids: parseIdArray(row.seating_area_ids),
  table_ids: parseIdArray(row.table_ids),
  duration_type: row.duration_type,
  duration_minutes: row.duration_minutes,
  payment_policy_id: row.payment_policy_id,
});

export const toBlackout = (row: Selectable<BlackoutsTable>) => ({
  id: row.id,
  date_from: row.date_from,
  date_to: row.date_to,
  description: row.description,
  affects_guestlist: Boolean(row.affects_guestlist),
  affects_events: Boolean(row.affects_events),
  affects_reservations: Boolean(row.affects_reservations),
});

export function createAvailabilityService(deps: { db: Db; clock: Clock; references: References; audit: Audit }) {
  const db = deps.db.kysely;
  const now = () => deps.clock.now().toISOString();
  /** One write and its audit entry, in one transaction. */
  const audited = (event: AuditEvent, write: (trx: typeof db) => Promise<unknown>) =>
    withTransaction(deps.db, async (trx) => {
      await write(trx);
      await deps.audit.record(trx, event);
    });

  async function periodOf(venueId: string, id: string) {
    const row = await db.selectFrom('time_periods').selectAll().where('venue_id', '=', venueId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Time period');
    return row;
  }

  async function shiftOf(venueId: string, id: string) {
    const row = await db.selectFrom('shifts').selectAll().where('venue_id', '=', venueId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Shift');
    return row;
  }

  async function blackoutOf(venueId: string, id: string) {
    const row = await db.selectFrom('blackouts').selectAll().where('venue_id', '=', venueId).where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Blackout');
    return row;
  }

  /**
   * The stored shift for a full field set: omitted fields take their defaults (time and duration follow
   * the venue, party size starts from the venue's default range, lists are empty, references null).
   */
  async function shiftValues(venue: VenueRow, body: ShiftUpdateBody, days: readonly string[]) {
    const name = requiredText(body.name, 'name');
    const time_type = body.time_type ?? 'default';
    const time_period_id = body.time_period_id ?? null;
    const time_from = body.time_from ?? null;
    const time_to = body.time_to ?? null;
    checkWindow(time_from, time_to);
    if (time_type === 'custom' && !time_period_id && time_from === null) {
      throw badRequest('A custom time_type needs time_period_id or time_from and time_to');
    }
    const schedule_start = body.schedule_start ?? null;
    const schedule_end = body.schedule_end ?? null;
    for (const [field, value] of [
      ['schedule_start', schedule_start],
      ['schedule_end', schedule_end],
    ] as const) {
      if (value !== null && !isCalendarDate(value)) throw badRequest(`${field} is not a valid date`);
    }
    if (schedule_start && schedule_end && schedule_end < schedule_start) throw badRequest('schedule_end must not be before schedule_start');
    const party_size_min = body.party_size_min === undefined ? venue.default_party_min : body.party_size_min;
    const party_size_max = body.party_size_max === undefined ? venue.default_party_max : body.party_size_max;
    if (party_size_min !== null && party_size_max !== null && party_size_min > party_size_max) {
      throw badRequest('party_size_min must not exceed party_size_max');
    }
    const duration_type = body.duration_type ?? 'default';
    const duration_minutes = body.duration_minutes ?? null;
    if (duration_type === 'custom' && duration_minutes === null) throw badRequest('A custom duration_type needs duration_minutes');
    const seating_area_ids = distinct(body.seating_area_ids);
    const table_ids = distinct(body.table_ids);
    const payment_policy_id = body.payment_policy_id ?? null;
    await assertReferences(deps.references, db, venue.id, [
      { field: 'time_period_id', kind: 'time_period', ids: [time_period_id] },
      { field: 'seating_area_ids', kind: 'seating_area', ids: seating_area_ids },
      { field: 'table_ids', kind: 'table', ids: table_ids },
      { field: 'payment_policy_id', kind: 'payment_policy', ids: [payment_policy_id] },
    ]);
    return {
      name,
      days_of_week: JSON.stringify(normaliseDays(days)),
      time_type,
      time_period_id,
      time_from,
      time_to,
      schedule_start,
      schedule_end,
      party_size_min,
      party_size_max,
      seating_area_ids: JSON.stringify(seating_area_ids),
      table_ids: JSON.stringify(table_ids),
      duration_type,
      duration_minutes,
      payment_policy_id,
    };
  }

  function blackoutValues(body: BlackoutBody) {
    for (const field of ['date_from', 'date_to'] as const) {
      if (!isCalendarDate(body[field])) throw badRequest(`${field} is not a valid date`);
    }
    if (body.date_to < body.date_from) throw badRequest('date_to must not be before date_from');
    return {
      date_from: body.date_from,
      date_to: body.date_to,
      description: body.description ?? null,
      // A blackout closes everything unless told otherwise.
      affects_guestlist: toFlag(body.affects_guestlist) ?? 1,
      affects_events: toFlag(body.affects_events) ?? 1,
      affects_reservations: toFlag(body.affects_reservations) ?? 1,
    };
  }

  return {
    async listTimePeriods(venueId: string) {
      const rows = await db.selectFrom('time_periods').selectAll().where('venue_id', '=', venueId).execute();
      // HH:MM compares the same everywhere; names do not (see compareText).
      return rows.sort((a, b) => compareCodePoints(a.time_from, b.time_from) || byName(a, b)).map(toTimePeriod);
    },

    async createTimePeriod(venueId: string, body: Required<TimePeriodBody>) {
      const name = requiredText(body.name, 'name');
      checkWindow(body.time_from, body.time_to);
      const id = newId('tp');
      const at = now();
      const row = { id, venue_id: venueId, name, time_from: body.time_from, time_to: body.time_to, created_at: at, updated_at: at };
      await audited({ action: 'time_period.created', entityType: 'time_period', entityId: id, venueId, after: row }, (trx) =>
        trx.insertInto('time_periods').values(row).execute(),
      );
      return id;
    },

    /** Updates the fields sent; the others keep their value. */
    async updateTimePeriod(venueId: string, id: string, body: TimePeriodBody) {
      const current = await periodOf(venueId, id);
      const name = body.name === undefined ? current.name : requiredText(body.name, 'name');
      const time_from = body.time_from ?? current.time_from;
      const time_to = body.time_to ?? current.time_to;
      checkWindow(time_from, time_to);
      const changes = { name, time_from, time_to };
      await audited(
        { action: 'time_period.updated', entityType: 'time_period', entityId: id, venueId, before: current, after: changes },
        (trx) =>
          trx
            .updateTable('time_periods')
            .set({ ...changes, updated_at: now() })
            .where('venue_id', '=', venueId)
            .where('id', '=', id)
            .execute(),
      );
    },

    /** Shifts that pointed at the period lose the link (foreign key: set null). */
    async deleteTimePeriod(venueId: string, id: string) {
      const current = await periodOf(venueId, id);
      await audited({ action: 'time_period.deleted', entityType: 'time_period', entityId: id, venueId, before: current }, (trx) =>
        trx.deleteFrom('time_periods').where('venue_id', '=', venueId).where('id', '=', id).execute(),
      );
    },

    async listShifts(venueId: string) {
      const rows = await db.selectFrom('shifts').selectAll().where('venue_id', '=', venueId).execute();
      return rows.sort(byName).map(toShift);
    },

    async createShift(venue: VenueRow, body: ShiftUpdateBody & { days_of_week: string[] }) {
      const values = await shiftValues(venue, body, body.days_of_week);
      const id = newId('shf');
      const at = now();
      const row = { id, venue_id: venue.id, ...values, created_at: at, updated_at: at };
      await audited({ action: 'shift.created', entityType: 'shift', entityId: id, venueId: venue.id, after: row }, (trx) =>
        trx.insertInto('shifts').values(row).execute(),
      );
      return id;
    },

    async updateShift(venue: VenueRow, id: string, body: ShiftUpdateBody) {
      const current = await shiftOf(venue.id, id);
      const values = await shiftValues(venue, body, body.days_of_week ?? parseIdArray(current.days_of_week));
      await audited(
        { action: 'shift.updated', entityType: 'shift', entityId: id, venueId: venue.id, before: current, after: values },
        (trx) =>
          trx
            .updateTable('shifts')
            .set({ ...values, updated_at: now() })
            .where('venue_id', '=', venue.id)
            .where('id', '=', id)
            .execute(),
      );
    },

    async deleteShift(venueId: string, id: string) {
      const current = await shiftOf(venueId, id);
      await audited({ action: 'shift.deleted', entityType: 'shift', entityId: id, venueId, before: current }, (trx) =>
        trx.deleteFrom('shifts').where('venue_id', '=', venueId).where('id', '=', id).execute(),
      );
    },

    async listBlackouts(venueId: string) {
      const rows = await db.selectFrom('blackouts').selectAll().where('venue_id', '=', venueId).execute();
      return rows
        .sort(
          (a, b) => compareCodePoints(a.date_from, b.date_from) || compareCodePoints(a.date_to, b.date_to) || compareCodePoints(a.id, b.id),
        )
        .map(toBlackout);
    },

    async createBlackout(venueId: string, body: BlackoutBody) {
      const values = blackoutValues(body);
      const id = newId('blk');
      const at = now();
      const row = { id, venue_id: venueId, ...values, created_at: at, updated_at: at };
      await audited({ action: 'blackout.created', entityType: 'blackout', entityId: id, venueId, after: row }, (trx) =>
        trx.insertInto('blackouts').values(row).execute(),
      );
      return id;
    },

    /** PUT sends the same fields as create; omitted optional ones take their defaults again. */
    async updateBlackout(venueId: string, id: string, body: BlackoutBody) {
      const current = await blackoutOf(venueId, id);
      const values = blackoutValues(body);
      await audited({ action: 'blackout.updated', entityType: 'blackout', entityId: id, venueId, before: current, after: values }, (trx) =>
        trx
          .updateTable('blackouts')
          .set({ ...values, updated_at: now() })
          .where('venue_id', '=', venueId)
          .where('id', '=', id)
          .execute(),
      );
    },

    async deleteBlackout(venueId: string, id: string) {
      const current = await blackoutOf(venueId, id);
      await audited({ action: 'blackout.deleted', entityType: 'blackout', entityId: id, venueId, before: current }, (trx) =>
        trx.deleteFrom('blackouts').where('venue_id', '=', venueId).where('id', '=', id).execute(),
      );
    },
  };
}

export type AvailabilityService = ReturnType<typeof createAvailabilityService>;
