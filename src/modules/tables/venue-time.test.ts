// A table’s is_blocked and is_taken in a window of venue-local time, and blocks entered in venue time,
// including the days the clocks change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, setupVenue, type TestApp } from '../../../test/helpers/app.js';
import { createTable, insertBooking } from './tables.test-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('table availability in a window', () => {
  it('adds is_blocked from overlapping blocks and is_taken from active bookings, in venue time', async () => {
    // Europe/London in June is UTC+1: 19:00 local is 18:00Z. Default duration 120 minutes.
    const { op, venueId, api: v } = await setupVenue(t);
    const free = await createTable(v, { table_number: '1' });
    const blocked = await createTable(v, { table_number: '2' });
    const taken = await createTable(v, { table_number: '3' });
    const cancelled = await createTable(v, { table_number: '4' });
    const later = await createTable(v, { table_number: '5' });
    const endsAtStart = await createTable(v, { table_number: '6' });

    await v.post('/tables/block', { table_ids: [blocked], from: '2026-06-20T20:30', to: '2026-06-20T22:00' });
    await v.post('/tables/block', { table_ids: [endsAtStart], from: '2026-06-20T17:00', to: '2026-06-20T19:00' });
    await insertBooking(t, op, venueId, [taken], '2026-06-20T17:30:00.000Z', '2026-06-20T18:30:00.000Z');
    await insertBooking(t, op, venueId, [cancelled], '2026-06-20T18:00:00.000Z', '2026-06-20T20:00:00.000Z', 'cancelled');
    await insertBooking(t, op, venueId, [later], '2026-06-20T20:00:00.000Z', '2026-06-20T22:00:00.000Z');

    const res = await v.get('/tables?date=2026-06-20&time=19:00');
    expect(res.statusCode, res.body).toBe(200);
    const state = Object.fromEntries(res.json().data.map((row: any) => [row.id, [row.is_blocked, row.is_taken]]));
    expect(state).toEqual({
      [free]: [false, false],
      [blocked]: [true, false], // 19:30Z–21:00Z block overlaps 18:00Z–20:00Z
      [taken]: [false, true],
      [cancelled]: [false, false], // cancelled bookings hold nothing
      [later]: [false, false], // starts exactly when the window ends
      [endsAtStart]: [false, false], // ends exactly when the window starts
    });

    const short = await v.get('/tables?date=2026-06-20&time=19:00&duration=60');
    const shortState = Object.fromEntries(short.json().data.map((row: any) => [row.id, row.is_blocked]));
    expect(shortState[blocked]).toBe(false);

    const longer = await v.get('/tables?date=2026-06-20&time=19:00&duration=200');
    const longState = Object.fromEntries(longer.json().data.map((row: any) => [row.id, row.is_taken]));
    expect(longState[later]).toBe(true);
  });

  it('uses the venue default duration and time zone', async () => {
    const { venueId, api: v } = await setupVenue(t, { timezone: 'America/New_York', default_booking_duration: 30 });
    const table = await createTable(v, { table_number: '1' });
    // 19:00 in New York (EDT, UTC−4) is 23:00Z; the block starts 23:20Z.
    await v.post('/tables/block', { table_ids: [table], from: '2026-06-20T23:20:00Z', to: '2026-06-21T01:00:00Z' });
    const at = (query: string) => v.get(`/tables?${query}`).then((res) => res.json().data[0].is_blocked);
    expect(await at('date=2026-06-20&time=19:00')).toBe(true);
    expect(await at('date=2026-06-20&time=18:30')).toBe(false); // 22:30Z–23:00Z with the 30-minute default
    expect(venueId).toBeTruthy();
  });

  it('refuses incomplete or invalid window queries', async () => {
    const { api: v } = await setupVenue(t);
    for (const query of [
      'date=2026-06-20',
      'time=19:00',
      'duration=60',
      'date=2026-02-30&time=19:00',
      'date=2026-06-20&time=25:00',
      'date=2026-06-20&time=19:00&duration=0',
    ]) {
      expect((await v.get(`/tables?${query}`)).statusCode, query).toBe(400);
    }
  });
});

describe('daylight-saving days (Europe/London)', () => {
  it('a block entered in venue time on the autumn change day is blocked at the same wall-clock time in the list', async () => {
    // 2026-10-25: clocks go back at 02:00 BST, so 01:00–02:00 happens twice; both sides take the first.
    const { api: v } = await setupVenue(t);
    const table = await createTable(v, { table_number: '1' });
    const block = await v.post('/tables/block', { table_ids: [table], from: '2026-10-25T01:00', to: '2026-10-25T01:30' });
    expect(block.statusCode, block.body).toBe(200);
    expect((await v.get('/tables/blocks')).json().data[0]).toMatchObject({
      blocked_from: '2026-10-25T00:00:00.000Z',
      blocked_to: '2026-10-25T00:30:00.000Z',
    });
    const at = async (query: string) => (await v.get(`/tables?${query}`)).json().data[0].is_blocked;
    expect(await at('date=2026-10-25&time=01:00&duration=30')).toBe(true);
    expect(await at('date=2026-10-25&time=01:15&duration=10')).toBe(true);
    expect(await at('date=2026-10-25&time=01:30&duration=30')).toBe(false);
    expect(await at('date=2026-10-25&time=00:30&duration=30')).toBe(false);

    // PATCH parses the same way.
    const id = block.json().ids[0];
    expect((await v.patch(`/tables/blocks/${id}`, { blocked_to: '2026-10-25T01:45' })).statusCode).toBe(200);
    expect((await v.get('/tables/blocks')).json().data[0].blocked_to).toBe('2026-10-25T00:45:00.000Z');
  });

  it('on the spring change day the window is real minutes and blocks land on the right instant', async () => {
    // 2026-03-29: 01:00 GMT jumps to 02:00 BST. 00:30 local is 00:30Z; 03:00 local is 02:00Z.
    const { op, venueId, api: v } = await setupVenue(t);
    const blocked = await createTable(v, { table_number: '1' });
    const taken = await createTable(v, { table_number: '2' });
    await v.post('/tables/block', { table_ids: [blocked], from: '2026-03-29T03:00', to: '2026-03-29T04:00' });
    await insertBooking(t, op, venueId, [taken], '2026-03-29T02:15:00.000Z', '2026-03-29T04:15:00.000Z');
    const state = async (query: string) =>
      Object.fromEntries(
        (await v.get(`/tables?${query}`)).json().data.map((row: any) => [row.table_number, [row.is_blocked, row.is_taken]]),
      );
    // 00:30Z–02:00Z: ends exactly where the block starts and before the booking.
    expect(await state('date=2026-03-29&time=00:30&duration=90')).toEqual({ 1: [false, false], 2: [false, false] });
    // 00:30Z–02:30Z: two real hours reach both.
    expect(await state('date=2026-03-29&time=00:30&duration=120')).toEqual({ 1: [true, false], 2: [false, true] });
    // A skipped wall-clock time (01:30) moves forward to 02:30 BST = 01:30Z, like a block at 01:30 would.
    expect(await state('date=2026-03-29&time=01:30&duration=30')).toEqual({ 1: [false, false], 2: [false, false] });
    expect(await state('date=2026-03-29&time=01:30&duration=31')).toEqual({ 1: [true, false], 2: [false, false] });
    expect((await v.get('/tables/blocks')).json().data[0]).toMatchObject({
      blocked_from: '2026-03-29T02:00:00.000Z',
      blocked_to: '2026-03-29T03:00:00.000Z',
    });
  });

  it('refuses offsets that no place on earth uses', async () => {
    const { api: v } = await setupVenue(t);
    const table = await createTable(v, { table_number: '1' });
    expect(
      (await v.post('/tables/block', { table_ids: [table], from: '2026-06-20T19:00+25:00', to: '2026-06-21T19:00Z' })).statusCode,
    ).toBe(400);
    expect((await v.post('/tables/block', { table_ids: [table], from: '2026-06-20T19:00Z', to: '2026-06-20T24:00' })).statusCode).toBe(400);
    expect((await v.get('/tables/blocks')).json().data).toEqual([]);
  });
});
