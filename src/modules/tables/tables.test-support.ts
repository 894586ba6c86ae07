/** Shared set-up of the tables module's tests: tables and areas through the API, bookings inserted directly. */
import { expect } from 'vitest';
import type { TestApp, TestOperator, VenueApi } from '../../../test/helpers/app.js';
import { newId } from '../../platform/ids.js';

export async function createTable(v: VenueApi, body: Record<string, unknown>): Promise<string> {
  const res = await v.post('/tables', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id;
}

export async function createArea(v: VenueApi, name: string): Promise<string> {
  const res = await v.post('/seating-areas', { name });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id;
}

/** A table booking holding `tableIds` from `startsAt` to `endsAt` (UTC instants), until the booking engine makes them. */
export async function insertBooking(
  t: TestApp,
  op: TestOperator,
  venueId: string,
  tableIds: string[],
  startsAt: string,
  endsAt: string,
  status = 'confirmed',
): Promise<string> {
  const id = newId('bkg');
  const at = t.clock.now().toISOString();
  await t.db.kysely
    .insertInto('bookings')
    .values({
      id,
      operator_id: op.operatorId,
      venue_id: venueId,
      kind: 'table',
      status,
      user_id: null,
      event_id: null,
      access_rule_id: null,
      booking_date: startsAt.slice(0, 10),
      start_time: null,
      duration_minutes: null,
      starts_at: startsAt,
      ends_at: endsAt,
      guest_name: 'Guest',
      guest_email: null,
      guest_phone: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  for (const tableId of tableIds) {
    await t.db.kysely
      .insertInto('booking_tables')
      .values({ booking_id: id, table_id: tableId, venue_id: venueId, starts_at: startsAt, ends_at: endsAt })
      .execute();
  }
  return id;
}
