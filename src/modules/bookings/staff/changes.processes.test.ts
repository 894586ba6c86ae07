/**
 * The live floor stream across instances: two `maitred serve` processes share one PostgreSQL database;
 * a floor open on one hears of a booking a guest makes through the other (the change feed's
 * LISTEN/NOTIFY). PostgreSQL only: the embedded SQLite default is one instance by design.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, insertVenue, insertVenueRow, type TestApp } from '../../../../test/helpers/app.js';
import { ENGINE } from '../../../../test/helpers/db.js';
import { insertAccessRule, insertShift } from '../../../../test/helpers/rows.js';
import { startServe, stopServes, type ServeProcess } from '../../../../test/helpers/serve.js';
import { addDays } from '../../../domain/venue-time.js';
import { openStream, type OpenStream } from './changes.test-support.js';

const EVERY_DAY = '["mon","tue","wed","thu","fri","sat","sun"]';

describe.runIf(ENGINE === 'postgres')('the live floor stream across two server processes', () => {
  let t: TestApp;
  let servers: ServeProcess[] = [];
  let stream: OpenStream | undefined;
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'maitred-live-'));

  beforeAll(async () => {
    t = await createTestApp();
    // The background jobs' beat is made rare, so that nothing but the booking writes while the test listens.
    const env = { DATABASE_URL: t.db.url, UPLOADS_DIR: uploads, JOBS_INTERVAL_MS: '3600000' };
    servers.push(await startServe(env));
    servers.push(await startServe(env));
  }, 120_000);

  afterAll(async () => {
    // Stopped with the stream still open: a graceful shutdown ends it rather than waiting on it.
    await stopServes(servers);
    stream?.close();
    servers = [];
    await t?.close();
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  it('a booking made through one server reaches a stream open on the other', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId, { status: 'live' });
    await insertShift(t, venueId, { days_of_week: EVERY_DAY, time_type: 'custom', time_from: '18:00', time_to: '23:00' });
    const ruleId = await insertAccessRule(t, venueId, { name: 'Dinner', rule_type: 'table', days_of_week: EVERY_DAY });
    await insertVenueRow(
      t,
      'venue_tables',
      venueId,
      { table_number: '1', capacity: 4, min_covers: 1, status: 'active', table_type: 'standard' },
      'tbl',
    );

    // Signed in through the server (on the real clock: the test app's session is dated by its fixed clock).
    const login = await fetch(`${servers[0].base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: op.email, password: op.password }),
    });
    const { token } = (await login.json()) as { token: string };
    stream = await openStream(`${servers[0].base}/api/my-venues/${venueId}/changes`, { authorization: `Bearer ${token}` });
    expect(stream.status).toBe(200);
    await stream.settle(1000);

    // The servers run on the real clock: a date three weeks ahead is inside the booking window.
    const date = addDays(new Date().toISOString().slice(0, 10), 21);
    const res = await fetch(`${servers[1].base}/api/public/venues/${venueId}/book`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        access_rule_id: ruleId,
        rule_type: 'table',
        date,
        time: '19:00',
        party_size: 2,
        guest_name: 'Remote Guest',
        guest_email: 'remote@example.test',
      }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await stream.nextEvent(5000)).toEqual({ event: 'bookings', data: { venue_id: venueId } });
  }, 60_000);
});
