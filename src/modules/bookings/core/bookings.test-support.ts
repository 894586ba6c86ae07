/**
 * Test factories of the bookings module: venue tables, and booking rows as the booking engine leaves
 * them (tables in `booking_tables`, slots in `booking_slots` while active), inserted directly so that
 * staff tests do not depend on the public booking flow.
 */
import type { Insertable } from 'kysely';
import type { TestApp } from '../../../../test/helpers/app.js';
import { insertVenueRow } from '../../../../test/helpers/app.js';
import { isActive } from '../../../domain/booking-status.js';
import { newId } from '../../../platform/ids.js';
import type { BookingsTable } from './bookings.table.js';
import { slotsOf } from './slots.js';

/** A table of the venue (active, 4 seats unless told). */
export function insertTable(
  t: TestApp,
  venueId: string,
  fields: { table_number: string; capacity?: number; status?: string },
): Promise<string> {
  return insertVenueRow(
    t,
    'venue_tables',
    venueId,
    { capacity: 4, min_covers: 1, status: 'active', table_type: 'standard', ...fields },
    'tbl',
  );
}

export interface BookingFixture extends Partial<Omit<Insertable<BookingsTable>, 'id' | 'operator_id' | 'venue_id'>> {
  /** Tables the booking holds for its stay. */
  tableIds?: string[];
}

/**
 * A table booking of the venue: 2 guests on 2026-06-20 19:00–21:00 UTC (status `confirmed`) unless told;
 * with `tableIds` it holds them, with slots while its status is active. Returns its id.
 */
export async function insertBooking(t: TestApp, operatorId: string, venueId: string, fixture: BookingFixture = {}): Promise<string> {
  const { tableIds = [], ...fields } = fixture;
  const id = newId('bkg');
  const at = t.clock.now().toISOString();
  const startsAt = fields.starts_at === undefined ? '2026-06-20T19:00:00.000Z' : fields.starts_at;
  const endsAt = fields.ends_at === undefined ? '2026-06-20T21:00:00.000Z' : fields.ends_at;
  const row = {
    id,
    operator_id: operatorId,
    venue_id: venueId,
    kind: 'table',
    status: 'confirmed',
    user_id: null,
    event_id: null,
    access_rule_id: null,
    booking_date: startsAt ? startsAt.slice(0, 10) : '2026-06-20',
    start_time: startsAt ? startsAt.slice(11, 16) : null,
    duration_minutes: startsAt && endsAt ? (Date.parse(endsAt) - Date.parse(startsAt)) / 60_000 : null,
    guest_count: 2,
    guest_name: 'Ada Lovelace',
    guest_email: 'ada@example.test',
    guest_phone: '+44 7700 900123',
    rule_type: 'table',
    source: 'staff',
    created_at: at,
    updated_at: at,
    ...fields,
    starts_at: startsAt,
    ends_at: endsAt,
  };
  await t.db.kysely.insertInto('bookings').values(row).execute();
  if (tableIds.length > 0 && startsAt && endsAt) {
    await t.db.kysely
      .insertInto('booking_tables')
      .values(tableIds.map((tableId) => ({ booking_id: id, table_id: tableId, venue_id: venueId, starts_at: startsAt, ends_at: endsAt })))
      .execute();
    if (isActive(row.status)) {
      const slots = slotsOf(new Date(startsAt), new Date(endsAt));
      await t.db.kysely
        .insertInto('booking_slots')
        .values(tableIds.flatMap((tableId) => slots.map((slot) => ({ table_id: tableId, slot, booking_id: id, venue_id: venueId }))))
        .execute();
    }
  }
  return id;
}

/** The slots a booking holds, per table. */
export async function slotsHeld(t: TestApp, bookingId: string): Promise<Record<string, number[]>> {
  const rows = await t.db.kysely
    .selectFrom('booking_slots')
    .select(['table_id', 'slot'])
    .where('booking_id', '=', bookingId)
    .orderBy('table_id')
    .orderBy('slot')
    .execute();
  const out: Record<string, number[]> = {};
  for (const row of rows) (out[row.table_id] ??= []).push(row.slot);
  return out;
}

/** A public booking through the API (the whole engine), for a table rule's slot; the answer as sent. */
export function bookPublicly(
  t: TestApp,
  venueId: string,
  slot: { access_rule_id: string; date: string; time: string; party_size: number; guest_name: string; guest_email: string },
) {
  return t.app.inject({ method: 'POST', url: `/api/public/venues/${venueId}/book`, payload: { rule_type: 'table', ...slot } });
}
