/**
 * Nothing a guest was told is booked is lost when the server dies mid-drop, on both engines: a
 * `maitred serve` process takes a crowd of bookings (group commit writes them in batches), is killed with
 * SIGKILL while answers are still coming, and a new process on the same database starts. Every booking
 * acknowledged with a 200 is there, confirmed, on its tables, with its confirmation mail queued; no table
 * is held twice; and the new process goes on booking.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, insertVenueRow, type TestApp } from '../../../../test/helpers/app.js';
import { insertAccessRule, insertShift } from '../../../../test/helpers/rows.js';
import { startServe, stopServes, type ServeProcess } from '../../../../test/helpers/serve.js';
import { addDays, localToday } from '../../../domain/venue-time.js';

const EVERY_DAY = '["mon","tue","wed","thu","fri","sat","sun"]';
const TABLES = 30;
const TIMES = ['18:00', '18:15', '18:30', '18:45', '19:00', '19:15', '19:30', '19:45', '20:00'];

describe('a drop cut short by SIGKILL', () => {
  let t: TestApp;
  let venueId: string;
  let ruleId: string;
  const servers: ServeProcess[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    const op = await createOperator(t);
    venueId = await insertVenue(t, op.operatorId, { status: 'live', timezone: 'Europe/London' });
    await insertShift(t, venueId, { days_of_week: EVERY_DAY, time_type: 'custom', time_from: '18:00', time_to: '23:00' });
    ruleId = await insertAccessRule(t, venueId, { name: 'Dinner', rule_type: 'table', days_of_week: EVERY_DAY });
    for (let i = 1; i <= TABLES; i++)
      await insertVenueRow(
        t,
        'venue_tables',
        venueId,
        { table_number: String(i), capacity: 2, min_covers: 1, status: 'active', table_type: 'standard' },
        'tbl',
      );
  }, 60_000);

  afterAll(async () => {
    await stopServes(servers);
    await t.close();
  });

  const env = () => ({ DATABASE_URL: t.db.url, RATE_LIMITS: 'public_booking=100000/60', LOG_LEVEL: 'info' });

  it('keeps every acknowledged booking', async () => {
    const first = await startServe(env());
    servers.push(first);
    // The server runs on the real clock: a date two weeks ahead, venue-local.
    const date = addDays(localToday(new Date(), 'Europe/London'), 14);
    const acknowledged: string[] = [];
    let killed = false;
    let sent = 0;
    const guest = async () => {
      while (!killed && sent < 400) {
        const n = sent++;
        const res = await fetch(`${first.base}/api/public/venues/${venueId}/book`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            access_rule_id: ruleId,
            rule_type: 'table',
            date,
            time: TIMES[n % TIMES.length],
            party_size: 2,
            guest_name: `Guest ${n}`,
            guest_email: `drop${n}@example.test`,
          }),
        }).catch(() => undefined); // In flight when the process died: never acknowledged, so nothing is owed.
        if (res?.status === 200) acknowledged.push(((await res.json()) as { booking_id: string }).booking_id);
        // Killed once a good part of the drop is answered, with requests of the next batches in flight.
        if (acknowledged.length >= 25 && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 40 }, guest));
    expect(killed).toBe(true);
    await new Promise<void>((resolve) =>
      first.child.exitCode !== null || first.child.signalCode !== null ? resolve() : first.child.once('exit', () => resolve()),
    );

    // A new process on the same database (SQLite: it recovers the write-ahead log).
    const second = await startServe(env());
    servers.push(second);
    const stored = await t.db.kysely
      .selectFrom('bookings')
      .select(['id', 'status'])
      .where('venue_id', '=', venueId)
      .where('id', 'in', acknowledged)
      .execute();
    expect(stored).toHaveLength(acknowledged.length);
    expect(stored.every((b) => b.status === 'confirmed')).toBe(true);
    const tables = await t.db.kysely.selectFrom('booking_tables').select('booking_id').where('booking_id', 'in', acknowledged).execute();
    expect(new Set(tables.map((r) => r.booking_id)).size).toBe(acknowledged.length);
    const mails = await t.db.kysely
      .selectFrom('mail_outbox')
      .select('recipient')
      .where('recipient', 'like', 'drop%@example.test')
      .execute();
    expect(mails.length).toBeGreaterThanOrEqual(acknowledged.length);
    // No table held twice at overlapping times, whatever was in flight when the process died.
    const slots = await t.db.kysely.selectFrom('booking_slots').select(['table_id', 'slot']).where('venue_id', '=', venueId).execute();
    expect(new Set(slots.map((s) => `${s.table_id}|${s.slot}`)).size).toBe(slots.length);

    const after = await fetch(`${second.base}/api/public/venues/${venueId}/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        access_rule_id: ruleId,
        rule_type: 'table',
        date,
        time: '22:00',
        party_size: 2,
        guest_name: 'After',
        guest_email: 'after@example.test',
      }),
    });
    expect(after.status).toBe(200);
  }, 120_000);
});
