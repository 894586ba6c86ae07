/**
 * The stays cache of public answers (`cachedOccupancy`): a window asked again is the same frozen array
 * (so the engine indexes it once), and a booking or a cancellation gives the next ask a new one with
 * the change in it, on both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, type TestApp, type TestOperator } from '../../../../test/helpers/app.js';
import { settleChanges } from '../../../../test/helpers/db.js';
import { insertAccessRule, insertShift } from '../../../../test/helpers/rows.js';
import { bookPublicly, insertTable } from './bookings.test-support.js';
import { cachedOccupancy, withReaching } from './venue-config.js';

let t: TestApp;
let op: TestOperator;
let venueId: string;
let ruleId: string;
const FRIDAY = '2026-06-19';
const FROM = new Date(`${FRIDAY}T12:00:00Z`);
const TO = new Date(`${FRIDAY}T23:59:00Z`);

beforeAll(async () => {
  t = await createTestApp();
  op = await createOperator(t);
  venueId = await insertVenue(t, op.operatorId, { status: 'live' });
  await insertShift(t, venueId, { days_of_week: '["fri"]', time_type: 'custom', time_from: '18:00', time_to: '23:00' });
  ruleId = await insertAccessRule(t, venueId, { name: 'Dinner', rule_type: 'table', days_of_week: '["fri"]' });
  await insertTable(t, venueId, { table_number: 'A', capacity: 2 });
  await insertTable(t, venueId, { table_number: 'B', capacity: 4 });
  // PostgreSQL: this instance's own notifications of those writes arrive after them; let them.
  await settleChanges(t.db);
});
afterAll(async () => t.close());

describe('cachedOccupancy', () => {
  it('answers a window again with the same frozen stays until the venue’s bookings change', async () => {
    const stays = cachedOccupancy(t.ctx.db.changes, t.clock);
    // PostgreSQL: the test files of a worker hand their schema (and its notification channel) on, and the file
    // before may still be announcing its last writes; a notification landing between two asks is a change, so
    // ask until two asks in a row agree (a cache that never kept a window never would).
    let first = await stays(t.ctx.db, venueId, FROM, TO);
    let again = await stays(t.ctx.db, venueId, FROM, TO);
    for (let attempt = 0; attempt < 10 && again !== first; attempt++) {
      await settleChanges(t.db);
      first = await stays(t.ctx.db, venueId, FROM, TO);
      again = await stays(t.ctx.db, venueId, FROM, TO);
    }
    expect(first).toEqual([]);
    expect(Object.isFrozen(first)).toBe(true);
    expect(again).toBe(first);
    // Another window of the same venue is its own array.
    const evening = await stays(t.ctx.db, venueId, new Date(`${FRIDAY}T17:00:00Z`), TO);
    expect(evening).not.toBe(first);

    const booked = await bookPublicly(t, venueId, {
      access_rule_id: ruleId,
      date: FRIDAY,
      time: '19:00',
      party_size: 2,
      guest_name: 'Ann',
      guest_email: 'ann@example.test',
    });
    expect(booked.statusCode, booked.body).toBe(200);
    await settleChanges(t.db);
    const after = await stays(t.ctx.db, venueId, FROM, TO);
    expect(after).not.toBe(first);
    expect(Object.isFrozen(after)).toBe(true);
    expect(after.map((stay) => stay.bookingId)).toEqual([booked.json().booking_id]);
    expect(await stays(t.ctx.db, venueId, FROM, TO)).toBe(after);

    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/api/bookings/${booked.json().booking_id}/staff-cancel`,
      headers: op.headers,
      payload: {},
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await stays(t.ctx.db, venueId, FROM, TO)).toEqual([]);
  });

  it('keeps a window no longer than its time to live, however quiet the venue', async () => {
    const stays = cachedOccupancy(t.ctx.db.changes, t.clock);
    const first = await stays(t.ctx.db, venueId, FROM, TO);
    t.clock.advance(16_000);
    expect(await stays(t.ctx.db, venueId, FROM, TO)).not.toBe(first);
  });
});

describe('withReaching', () => {
  const stay = (bookingId: string, from: string, to: string) => ({
    bookingId,
    tableIds: ['t1'],
    startsAt: new Date(from),
    endsAt: new Date(to),
    covers: 2,
    accessRuleId: null,
  });
  const window = { fromUtc: new Date('2026-06-19T00:00:00Z'), toUtc: new Date('2026-06-21T00:00:00Z') };

  it('adds the stays of other dates that reach into the window, once, and leaves the window as it was when none does', () => {
    const held = [stay('a', '2026-06-19T18:00:00Z', '2026-06-19T20:00:00Z')];
    const others = [
      held[0]!,
      stay('next-day', '2026-06-20T19:00:00Z', '2026-06-20T21:00:00Z'),
      stay('past-midnight', '2026-06-20T23:00:00Z', '2026-06-21T01:00:00Z'),
      stay('after', '2026-06-21T00:00:00Z', '2026-06-21T02:00:00Z'),
      stay('before', '2026-06-18T20:00:00Z', '2026-06-19T00:00:00Z'),
    ];
    expect(withReaching(held, others, window).map((s) => s.bookingId)).toEqual(['a', 'next-day', 'past-midnight']);
    expect(withReaching(held, [held[0]!, others[3]!], window)).toBe(held);
  });
});
