/**
 * Several instances, the production shape (README: Production topology): two `maitred serve` processes
 * on one PostgreSQL database and one Redis. What instances share reaches both — rate-limit counters
 * (Redis), maintenance mode (the database, re-read once a second) and cache invalidation (the change
 * feed's notifications) — and the background jobs that
 * every instance runs (releasing unpaid bookings, the daily smart-table pass) take effect once.
 * PostgreSQL only: the embedded SQLite default is one instance by design.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { addDays, localToUtc, localToday } from '../../src/domain/venue-time.js';
import { insertBooking, insertTable } from '../../src/modules/bookings/core/bookings.test-support.js';
import { setMaintenance } from '../../src/platform/maintenance.js';
import { createOperator, createTestApp, insertVenue, uniqueEmail, type TestApp } from '../helpers/app.js';
import { ENGINE } from '../helpers/db.js';
import { insertAccessRule, insertShift } from '../helpers/rows.js';
import { startServe, stopServes, type ServeProcess } from '../helpers/serve.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const JOBS_INTERVAL_MS = 200;
/** Failed logins per email from all addresses: the limit the first test exhausts through both servers. */
const EMAIL_FAILURES = 4;

/** `maitred serve` against the test database and the shared Redis, with the jobs' beat and the low email limit. */
const startServer = (databaseUrl: string, uploads: string): Promise<ServeProcess> =>
  startServe({
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    UPLOADS_DIR: uploads,
    JOBS_INTERVAL_MS: String(JOBS_INTERVAL_MS),
    // Only the email's count is low; the address's counters (every request comes from 127.0.0.1) stay out of the way.
    RATE_LIMITS: `login_failures_email=${EMAIL_FAILURES}/60,login_failures_ip=1000/60,login_failures_email_ip=1000/60`,
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 20 ms until it is true; fails after `ms`. */
async function eventually(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(20);
  }
}

/**
 * A fixed-offset zone in which it is now about noon, so that a 06:00 `reassign_time` has passed today
 * and midnight (a new day, so a new run) is hours away whenever the test runs. `Etc/GMT-3` is UTC+3.
 */
function noonZone(now: Date): string {
  const offset = 12 - now.getUTCHours();
  return offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

describe('JOBS_INTERVAL_MS', () => {
  it('is a minute unless set, and between 100 ms and an hour', () => {
    expect(loadConfig({}).jobsIntervalMs).toBe(60_000);
    expect(loadConfig({ JOBS_INTERVAL_MS: '200' }).jobsIntervalMs).toBe(200);
    for (const value of ['50', '3600001', 'soon']) {
      expect(() => loadConfig({ JOBS_INTERVAL_MS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ JOBS_INTERVAL_MS: value })).toThrow(/JOBS_INTERVAL_MS/);
    }
  });
});

describe.runIf(ENGINE === 'postgres')('two server processes, one database, one Redis', () => {
  let t: TestApp;
  let servers: ServeProcess[] = [];
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'maitred-instances-'));

  beforeAll(async () => {
    t = await createTestApp();
    // One after the other: the first start builds the compiled server if it is out of date.
    servers.push(await startServer(t.db.url, uploads));
    servers.push(await startServer(t.db.url, uploads));
  }, 120_000);

  afterAll(async () => {
    await stopServes(servers);
    servers = [];
    await t?.close();
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  it('share rate limits: failed logins alternating between the servers are refused after the shared count', async () => {
    // An email of its own, so no other run's failures count (the counters live in Redis for a minute).
    const email = uniqueEmail('guesser');
    const codes: number[] = [];
    for (let i = 0; i < EMAIL_FAILURES + 2; i++) {
      const res = await fetch(`${servers[i % 2].base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: `wrong-${i}` }),
      });
      codes.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Counted per instance, each would have seen only three failures by the end, under its limit of four.
    expect(codes).toEqual([401, 401, 401, 401, 429, 429]);
  });

  it('run the expiry job once: each unpaid booking past its payment window is released by exactly one instance', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const start = new Date(Date.now() + 3 * 86_400_000);
    start.setUTCHours(19, 0, 0, 0);
    const stay = { starts_at: start.toISOString(), ends_at: new Date(start.getTime() + 2 * 3_600_000).toISOString() };
    // Several, so that the two servers' sweeps overlap on some of them; each holds a table of its own.
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const tableId = await insertTable(t, venueId, { table_number: `E${i}` });
      ids.push(
        await insertBooking(t, op.operatorId, venueId, {
          ...stay,
          status: 'pending_payment',
          payment_status: 'pending',
          guest_email: `unpaid-${i}@example.test`,
          tableIds: [tableId],
        }),
      );
    }
    // Their payment windows pass together, once each holds its slots (the servers sweep meanwhile).
    await t.db.kysely
      .updateTable('bookings')
      .set({ payment_expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where('id', 'in', ids)
      .execute();

    const statuses = () => t.db.kysely.selectFrom('bookings').select(['id', 'status']).where('id', 'in', ids).execute();
    await eventually(async () => (await statuses()).every((b) => b.status === 'expired'), 5_000, 'the unpaid bookings expire');
    // A few more beats of both servers: none releases anything again.
    await sleep(5 * JOBS_INTERVAL_MS);

    const releases = await t.db.kysely
      .selectFrom('booking_history')
      .select(['booking_id', 'from_status', 'to_status'])
      .where('booking_id', 'in', ids)
      .where('action', '=', 'release')
      .execute();
    expect(releases.map((r) => r.booking_id).sort()).toEqual([...ids].sort());
    expect(releases.every((r) => r.from_status === 'pending_payment' && r.to_status === 'expired')).toBe(true);
    const slots = await t.db.kysely.selectFrom('booking_slots').select('booking_id').where('booking_id', 'in', ids).execute();
    expect(slots).toEqual([]);
  });

  it("run a venue's daily smart-table pass once: one claim, each move recorded once", async () => {
    const now = new Date();
    const zone = noonZone(now);
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId, { timezone: zone });
    const tables: Record<string, string> = {};
    for (const [number, capacity] of [
      ['8', 8],
      ['4', 4],
      ['2', 2],
    ] as const)
      tables[number] = await insertTable(t, venueId, { table_number: number, capacity });
    // Tomorrow evening: four on the eight-top, two on the four-top. The pass moves the two to the
    // two-top, then the four to the four-top they left.
    const date = addDays(localToday(now, zone), 1);
    const stayAt = (from: string, to: string) => ({
      booking_date: date,
      start_time: from,
      starts_at: localToUtc(date, from, zone).toISOString(),
      ends_at: localToUtc(date, to, zone).toISOString(),
      duration_minutes: 120,
    });
    const x = await insertBooking(t, op.operatorId, venueId, { ...stayAt('19:00', '21:00'), guest_count: 4, tableIds: [tables[8]] });
    const y = await insertBooking(t, op.operatorId, venueId, { ...stayAt('19:30', '21:30'), guest_count: 2, tableIds: [tables[4]] });
    await t.db.kysely
      .insertInto('smart_table_settings')
      .values({
        venue_id: venueId,
        reassign_enabled: 1,
        reassign_time: '06:00',
        duration_enabled: 0,
        reassign_last_run: null,
        updated_at: now.toISOString(),
      })
      .execute();

    const lastRun = async () =>
      (await t.db.kysely.selectFrom('smart_table_settings').select('reassign_last_run').where('venue_id', '=', venueId).executeTakeFirst())
        ?.reassign_last_run ?? null;
    await eventually(async () => (await lastRun()) !== null, 5_000, 'the pass runs');
    const claimed = await lastRun();
    // Both servers keep checking on their beat; the run is claimed: neither runs it again.
    await sleep(5 * JOBS_INTERVAL_MS);
    expect(await lastRun()).toBe(claimed);

    const moves = await t.db.kysely
      .selectFrom('booking_history')
      .select(['booking_id', 'detail'])
      .where('booking_id', 'in', [x, y])
      .where('action', '=', 'smart_reassign')
      .execute();
    expect(moves.map((m) => [m.booking_id, JSON.parse(m.detail).to]).sort()).toEqual(
      [
        [x, [tables[4]]],
        [y, [tables[2]]],
      ].sort(),
    );
    // And the servers' own account: exactly one of them logged the venue's run.
    const runs = servers.flatMap((s) =>
      s
        .log()
        .split('\n')
        .filter((line) => line.includes('smart-table pass ran') && line.includes(venueId)),
    );
    expect(runs).toHaveLength(1);
  });

  it('share cache invalidation: a booking made through one server shows on the other’s cached availability within a second', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId, { status: 'live' });
    const everyDay = '["mon","tue","wed","thu","fri","sat","sun"]';
    await insertShift(t, venueId, { days_of_week: everyDay, time_type: 'custom', time_from: '18:00', time_to: '23:00' });
    const ruleId = await insertAccessRule(t, venueId, { name: 'Dinner', rule_type: 'table', days_of_week: everyDay });
    await insertTable(t, venueId, { table_number: '1', capacity: 4 });
    // The servers run on the real clock: three weeks ahead is inside the booking window.
    const date = addDays(new Date().toISOString().slice(0, 10), 21);
    const [first, second] = servers;
    const at1900 = async () => {
      const res = await fetch(`${second.base}/api/public/venues/${venueId}/availability?date=${date}&party_size=2`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { slots: { time: string; available: boolean }[] };
      return body.slots.find((slot) => slot.time === '19:00')?.available;
    };
    // Cached on the second server (asked twice: the second answer comes from its cache).
    expect(await at1900()).toBe(true);
    expect(await at1900()).toBe(true);
    const booked = await fetch(`${first.base}/api/public/venues/${venueId}/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        access_rule_id: ruleId,
        rule_type: 'table',
        date,
        time: '19:00',
        party_size: 2,
        guest_name: 'Ivy',
        guest_email: 'ivy@example.test',
      }),
    });
    expect(booked.status).toBe(200);
    const started = Date.now();
    await eventually(async () => (await at1900()) === false, 3_000, 'the second server to see the booking');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('share maintenance mode: switched on in the database, both servers answer 503 within a second', async () => {
    const answers = () => Promise.all(servers.map(async (s) => (await fetch(`${s.base}/api/auth/me`)).status));
    expect(await answers()).toEqual([401, 401]);
    const started = Date.now();
    await setMaintenance(t.db, true);
    try {
      const seen: (number | undefined)[] = [undefined, undefined];
      await eventually(
        async () => {
          const codes = await answers();
          codes.forEach((code, i) => {
            if (code === 503) seen[i] ??= Date.now() - started;
          });
          return seen.every((ms) => ms !== undefined);
        },
        3_000,
        'both servers in maintenance',
      );
      // Each instance re-reads the flag at most once a second; polling adds a little.
      expect(Math.max(...(seen as number[]))).toBeLessThan(1_500);
    } finally {
      await setMaintenance(t.db, false);
    }
  });
});
