/**
 * `POST /api/bookings/:id/move`: the floor's drag along the grid. A booking moves to another time (and
 * date), keeping its length, at its own tables, others (a combination together) or none; its slots
 * follow it; refusals name what is in the way; the history records from and to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createStaff, createTestApp, setupVenue, type TestApp, type TestOperator } from '../../../../test/helpers/app.js';
import { localToUtc } from '../../../domain/venue-time.js';
import { insertBooking, insertTable, slotsHeld } from '../core/bookings.test-support.js';
import { slotsOf } from '../core/slots.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const move = (op: { headers: Record<string, string> }, id: string, payload: object) =>
  t.app.inject({ method: 'POST', url: `/api/bookings/${id}/move`, headers: op.headers, payload });

/** A venue (Europe/London) with tables 1 (4 seats), 2 and 3 (2 each), and a booking for two at table 1, 19:00–21:00 on 2026-06-20. */
async function floor() {
  const { op, venueId } = await setupVenue(t);
  const [one, two, three] = [
    await insertTable(t, venueId, { table_number: '1', capacity: 4 }),
    await insertTable(t, venueId, { table_number: '2', capacity: 2 }),
    await insertTable(t, venueId, { table_number: '3', capacity: 2 }),
  ];
  const at = (date: string, time: string) => localToUtc(date, time, 'Europe/London').toISOString();
  const id = await insertBooking(t, op.operatorId, venueId, {
    booking_date: '2026-06-20',
    start_time: '19:00',
    starts_at: at('2026-06-20', '19:00'),
    ends_at: at('2026-06-20', '21:00'),
    tableIds: [one],
  });
  return { op, venueId, id, tables: { one, two, three }, at };
}

describe('POST /api/bookings/:id/move', () => {
  it('moves the time, keeping the length and the tables; the slots follow; history records from and to', async () => {
    const { op, id, tables, at } = await floor();
    const res = await move(op, id, { time: '20:30' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking).toMatchObject({
      booking_date: '2026-06-20',
      start_time: '20:30',
      starts_at: at('2026-06-20', '20:30'),
      ends_at: at('2026-06-20', '22:30'),
      duration_minutes: 120,
      table_ids: [tables.one],
    });
    expect(await slotsHeld(t, id)).toEqual({
      [tables.one]: slotsOf(new Date(at('2026-06-20', '20:30')), new Date(at('2026-06-20', '22:30'))),
    });
    expect(res.json().booking.history.at(-1)).toMatchObject({
      action: 'move',
      detail: {
        from: { date: '2026-06-20', time: '19:00', table_ids: [tables.one] },
        to: { date: '2026-06-20', time: '20:30', table_ids: [tables.one] },
      },
    });
    // The same place again: nothing changes, nothing is recorded.
    const again = await move(op, id, { time: '20:30', date: '2026-06-20' });
    expect(again.json().booking.history).toHaveLength(res.json().booking.history.length);
  });

  it('moves to another date and to other tables together (a combination), or off every table', async () => {
    const { op, id, tables, at } = await floor();
    const res = await move(op, id, { date: '2026-06-21', time: '18:00', table_ids: [tables.two, tables.three, tables.two] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking).toMatchObject({ booking_date: '2026-06-21', start_time: '18:00', starts_at: at('2026-06-21', '18:00') });
    expect([...res.json().booking.table_ids].sort()).toEqual([tables.two, tables.three].sort());
    expect(Object.keys(await slotsHeld(t, id)).sort()).toEqual([tables.two, tables.three].sort());

    const off = await move(op, id, { time: '18:15', table_ids: [] });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().booking).toMatchObject({ start_time: '18:15', table_ids: [] });
    expect(await slotsHeld(t, id)).toEqual({});
  });

  it('refuses a taken, blocked, too small or foreign table, and a booking that is not active', async () => {
    const { op, venueId, id, tables, at } = await floor();
    await insertBooking(t, op.operatorId, venueId, {
      starts_at: at('2026-06-20', '21:00'),
      ends_at: at('2026-06-20', '23:00'),
      tableIds: [tables.two],
    });
    const taken = await move(op, id, { time: '20:00', table_ids: [tables.two] });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ table_ids: [tables.two] });
    // Its own table later that evening is fine (its own slots do not count against it).
    expect((await move(op, id, { time: '19:30' })).statusCode).toBe(200);

    const blocked = await t.app.inject({
      method: 'POST',
      url: `/api/my-venues/${venueId}/tables/block`,
      headers: op.headers,
      payload: { table_ids: [tables.three], from: '2026-06-20T12:00', to: '2026-06-20T14:00' },
    });
    expect(blocked.statusCode, blocked.body).toBe(200);
    const onBlock = await move(op, id, { time: '12:30', table_ids: [tables.three] });
    expect(onBlock.statusCode).toBe(409);
    expect(onBlock.json().error).toMatch(/blocked/);

    const bigger = await insertBooking(t, op.operatorId, venueId, {
      guest_count: 4,
      starts_at: at('2026-06-22', '19:00'),
      ends_at: at('2026-06-22', '21:00'),
    });
    const small = await move(op, bigger, { time: '19:00', table_ids: [tables.three] });
    expect(small.statusCode).toBe(409);
    expect(small.json().error).toMatch(/seat 2/);

    const other = await setupVenue(t);
    const foreignTable = await insertTable(t, other.venueId, { table_number: '9' });
    expect((await move(op, id, { time: '19:00', table_ids: [foreignTable] })).statusCode).toBe(404);

    const cancelled = await insertBooking(t, op.operatorId, venueId, { status: 'cancelled' });
    expect((await move(op, cancelled, { time: '19:00' })).statusCode).toBe(409);
  });

  it('validates the body, and answers 401, 403 and 404 like every staff change', async () => {
    const { op, id } = await floor();
    for (const body of [{}, { time: '25:00' }, { time: '19:00', date: '2026-02-30' }, { time: '19:00', date: 'tomorrow' }]) {
      expect((await move(op, id, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await t.app.inject({ method: 'POST', url: `/api/bookings/${id}/move`, payload: { time: '19:00' } })).statusCode).toBe(401);
    const reader = await createStaff(t, op as TestOperator, { bookings: 'read' });
    expect((await move(reader, id, { time: '19:00' })).statusCode).toBe(403);
    const stranger = await createOperator(t);
    expect((await move(stranger, id, { time: '19:00' })).statusCode).toBe(404);
  });
});
