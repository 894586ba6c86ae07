/**
 * No double booking across server instances: two `maitred serve` processes share one PostgreSQL
 * database (the production shape), and 50 guests race for the one table through both at once. Exactly
 * one booking is made; the others are told the time is taken. PostgreSQL only: the embedded SQLite
 * default is one instance by design (decisions: running several instances).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, insertVenueRow, type TestApp } from '../../../../test/helpers/app.js';
import { ENGINE } from '../../../../test/helpers/db.js';
import { startCluster, type Cluster } from '../../../../test/helpers/serve.js';
import { insertAccessRule, insertShift } from '../../../../test/helpers/rows.js';
import { addDays } from '../../../domain/venue-time.js';

const EVERY_DAY = '["mon","tue","wed","thu","fri","sat","sun"]';

describe.runIf(ENGINE === 'postgres')('two server processes, one database', () => {
  let t: TestApp;
  let cluster: Cluster;
  let venueId: string;
  let ruleId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const op = await createOperator(t);
    venueId = await insertVenue(t, op.operatorId, { status: 'live' });
    await insertShift(t, venueId, { days_of_week: EVERY_DAY, time_type: 'custom', time_from: '18:00', time_to: '23:00' });
    ruleId = await insertAccessRule(t, venueId, { name: 'Dinner', rule_type: 'table', days_of_week: EVERY_DAY });
    await insertVenueRow(
      t,
      'venue_tables',
      venueId,
      { table_number: '1', capacity: 4, min_covers: 1, status: 'active', table_type: 'standard' },
      'tbl',
    );
    // The booking limit out of the race's way.
    cluster = await startCluster(2, { DATABASE_URL: t.db.url, RATE_LIMITS: 'public_booking=1000/60' });
  }, 120_000);

  afterAll(async () => {
    await cluster.stop();
    await t.close();
  });

  it('50 concurrent bookings for the one table through both servers give exactly one booking', async () => {
    // The servers run on the real clock: a date three weeks ahead is inside the booking window.
    const date = addDays(new Date().toISOString().slice(0, 10), 21);
    const answers = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        return cluster.call(i, 'POST', `/api/public/venues/${venueId}/book`, {
          access_rule_id: ruleId,
          rule_type: 'table',
          date,
          time: '19:00',
          party_size: 2,
          guest_name: `Racer ${i}`,
          guest_email: `racer${i}@example.test`,
        });
      }),
    );
    const codes = answers.map((a) => a.status);
    expect(
      codes.filter((c) => c === 200),
      JSON.stringify(answers.filter((a) => a.status !== 409)),
    ).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    const rows = await t.db.kysely.selectFrom('bookings').select('id').where('venue_id', '=', venueId).execute();
    expect(rows).toHaveLength(1);
    const slots = await t.db.kysely.selectFrom('booking_slots').select('booking_id').where('venue_id', '=', venueId).execute();
    expect(new Set(slots.map((s) => s.booking_id))).toEqual(new Set([rows[0].id]));
  }, 60_000);
});
