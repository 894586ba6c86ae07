/**
 * A table drop through HTTP on both engines: many guests at once for the few tables of one time. Exactly
 * the tables are booked (group commit re-checks each booking against the ones before it in its batch),
 * every other guest gets a 409 naming alternatives, and once the time is full the next guest is refused
 * from the cached picture without a transaction (counted by the refusals metric), and so is a crowd of
 * guests asking for it at once (one engine pass shared); a cancellation frees the time at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, insertVenueRow, type TestApp } from '../../../../test/helpers/app.js';
import { insertAccessRule, insertShift } from '../../../../test/helpers/rows.js';

const TOKEN = 'crowd-metrics-token';
const FRIDAY = '2026-06-19';
const TABLES = 4;
let t: TestApp;
let op: Awaited<ReturnType<typeof createOperator>>;
let venueId: string;
let ruleId: string;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'public_booking=100000/60', METRICS_TOKEN: TOKEN });
  op = await createOperator(t);
  venueId = await insertVenue(t, op.operatorId, { status: 'live' });
  await insertShift(t, venueId, { days_of_week: '["fri"]', time_type: 'custom', time_from: '18:00', time_to: '23:00' });
  ruleId = await insertAccessRule(t, venueId, { name: 'Dinner', rule_type: 'table', days_of_week: '["fri"]' });
  for (let i = 1; i <= TABLES; i++)
    await insertVenueRow(
      t,
      'venue_tables',
      venueId,
      { table_number: String(i), capacity: 2, min_covers: 1, status: 'active', table_type: 'standard' },
      'tbl',
    );
});
afterAll(async () => t.close());

const book = (n: number, time = '20:00') =>
  t.app.inject({
    method: 'POST',
    url: `/api/public/venues/${venueId}/book`,
    remoteAddress: `10.1.${Math.floor(n / 250)}.${n % 250}`,
    payload: {
      access_rule_id: ruleId,
      rule_type: 'table',
      date: FRIDAY,
      time,
      party_size: 2,
      guest_name: `Guest ${n}`,
      guest_email: `crowd${n}@example.test`,
    },
  });

/** The refusals counted so far, by stage. */
async function refusals(): Promise<Record<string, number>> {
  const text = (await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
  const counts: Record<string, number> = { cached: 0, transaction: 0 };
  for (const match of text.matchAll(/^maitred_sold_out_refusals_total\{kind="booking",stage="(\w+)"\} (\d+)/gm))
    counts[match[1]] = Number(match[2]);
  return counts;
}

describe('a table drop', () => {
  it('books exactly the free tables, and refuses everyone else with alternatives', async () => {
    const before = await refusals();
    const answers = await Promise.all(Array.from({ length: 40 }, (_, n) => book(n)));
    // At most 8 guests (more than the 4 free tables) went on to the transaction at once; the others waited for
    // its commit and were refused from the cached picture: few refusals queued behind the writes.
    const after = await refusals();
    expect(after.transaction - before.transaction).toBeLessThanOrEqual(8 - TABLES);
    expect(after.cached - before.cached).toBeGreaterThanOrEqual(40 - 8);
    const booked = answers.filter((a) => a.statusCode === 200);
    const refused = answers.filter((a) => a.statusCode === 409);
    expect(booked).toHaveLength(TABLES);
    expect(refused).toHaveLength(40 - TABLES);
    const active = await t.db.kysely
      .selectFrom('bookings')
      .select(['id'])
      .where('venue_id', '=', venueId)
      .where('status', '=', 'confirmed')
      .execute();
    expect(active).toHaveLength(TABLES);
    // Four stays on four different tables.
    const tables = await t.db.kysely.selectFrom('booking_tables').select('table_id').where('venue_id', '=', venueId).execute();
    expect(new Set(tables.map((r) => r.table_id)).size).toBe(TABLES);
    for (const answer of refused) {
      const body = answer.json();
      expect(body).toMatchObject({ error: 'That time is no longer available', reason: 'no_table' });
      // 20:00 is full: the nearest times are before and after its two hours; the next two Fridays (within the 14 days looked at) have room.
      expect(body.alternatives.times.length).toBeGreaterThan(0);
      for (const alternative of body.alternatives.times) {
        expect(alternative.access_rule_id).toBe(ruleId);
        expect(alternative.time <= '18:00' || alternative.time >= '22:00').toBe(true);
      }
      expect(body.alternatives.dates).toEqual(['2026-06-26', '2026-07-03']);
    }
  });

  it('refuses a full time from the cached picture, before any transaction', async () => {
    const before = await refusals();
    const answer = await book(100);
    expect(answer.statusCode).toBe(409);
    expect(answer.json().alternatives.dates).toEqual(['2026-06-26', '2026-07-03']);
    const after = await refusals();
    expect(after.cached - before.cached).toBe(1);
    expect(after.transaction - before.transaction).toBe(0);
  });

  it('refuses a crowd asking for the full time at once from the cached picture, each with alternatives', async () => {
    const before = await refusals();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, n) => book(300 + n)));
    for (const answer of answers) {
      expect(answer.statusCode).toBe(409);
      expect(answer.json()).toMatchObject({ reason: 'no_table', alternatives: { dates: ['2026-06-26', '2026-07-03'] } });
    }
    const after = await refusals();
    expect(after.cached - before.cached).toBe(30);
    expect(after.transaction - before.transaction).toBe(0);
  });

  it('books a time freed by a cancellation at once: the refusals reused before it end with the change', async () => {
    expect((await book(400)).statusCode).toBe(409);
    const [first] = await t.db.kysely
      .selectFrom('bookings')
      .select('id')
      .where('venue_id', '=', venueId)
      .where('status', '=', 'confirmed')
      .orderBy('id')
      .limit(1)
      .execute();
    const cancelled = await t.app.inject({
      method: 'PATCH',
      url: `/api/bookings/${first.id}/status`,
      headers: op.headers,
      payload: { status: 'cancelled' },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const again = await book(401);
    expect(again.statusCode, again.body).toBe(200);
    expect((await book(402)).statusCode).toBe(409);
  });

  it('still books a free time of the same evening', async () => {
    const answer = await book(200, '22:00');
    expect(answer.statusCode, answer.body).toBe(200);
  });
});
