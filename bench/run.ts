/**
 * `npm run bench`: start-up figures of the compiled runtime (bench/startup.ts), then throughput and
 * latency of hot endpoints on the compiled server (`bin/maitred serve`) in a process of its own (SQLite
 * by default, or BENCH_DATABASE_URL=postgres://…; `npm run bench:postgres` makes and drops a database
 * for it), seeded with one operator, a small venue with 40 tables, blocks and rules, and the booking
 * engine's venue with 2,000 bookings (bench/seed-venue.ts); last, the server's resident memory (VmRSS,
 * and its peak VmHWM, from /proc/<pid>/status) right after its last scenario, and again at the end of the
 * whole bench, once it has been quiet for QUIET_GC_MS and a second and a half (the target's reading): the
 * server's alone, since the seeding and autocannon run in this process.
 * The uncached availability scenario runs on a second server process on the same database, started
 * with AVAILABILITY_CACHE_MS=0 once the first one's scenarios are done.
 * Each endpoint is driven by autocannon on loopback for BENCH_SECONDS (default 5) with 10 connections,
 * and set against the bare `GET /healthz` of the same server process in the same run: ×rps is healthz
 * req/s ÷ the endpoint's, ×p50 and ×p99 the endpoint's latency ÷ healthz's (so higher is slower, always).
 * BENCH_ONLY=availability,book runs only the endpoints whose names contain one of the words (healthz
 * always runs, as the ceiling; `startup` names the start-up figures).
 * Numbers are for comparing changes on the same machine, not absolute promises.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../src/config/config.js';
import { readEnv } from '../src/config/env.js';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { addDays, localToday } from '../src/domain/venue-time.js';
import { createOperatorAccount } from '../src/modules/team/accounts.js';
import { runCrowd, seedCrowd, type Target } from './crowd.js';
import { BENCH_TURNSTILE_SECRET, bookingScenarios, seedBookingVenue, type Scenario } from './seed-venue.js';
import { rosterScenarios, seedRoster, timeRosterPages } from './seed-roster.js';
import { seedFetch, startServer, type BenchServer, type Memory } from './server.js';
import { printStartup, startupOptionsFromEnv } from './startup.js';

/** BENCH_ONLY's words, lower-cased; empty: everything runs. */
const only = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((word) => word.trim().toLowerCase())
  .filter(Boolean);
const selected = (name: string) => only.length === 0 || only.some((word) => name.toLowerCase().includes(word));

if (selected('startup')) await printStartup(startupOptionsFromEnv());

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
/** The small venue's tables: the authenticated list scenario answers this many rows. */
const SMALL_VENUE_TABLES = 40;
/** The issue's target for the server's resident memory after the bench. */
const RSS_TARGET_MB = 150;
/** The servers' QUIET_GC_MS, read as they read it (its default unless this environment sets it). */
const QUIET_GC_MS = loadConfig(readEnv()).quietGcMs;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maitred-bench-'));
const databaseUrl = process.env.BENCH_DATABASE_URL ?? `sqlite:${path.join(dir, 'bench.db')}`;
/** Both servers' environment (over this process's). */
const serverEnv = {
  DATABASE_URL: databaseUrl,
  UPLOADS_DIR: path.join(dir, 'uploads'),
  // Warnings and errors only: request logs would be part of what is measured.
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
  // The bench logs in, and books, far more often than the limits allow anyone.
  RATE_LIMITS: 'login_failures_email=1000000/60,login_failures_ip=1000000/60,public_booking=1000000/60,event_tickets=1000000/60',
  TURNSTILE_SECRET_KEY: BENCH_TURNSTILE_SECRET,
  PAYMENT_WEBHOOK_SECRET: 'whsec_bench',
};

// This process prepares the database the servers open: migrated, and the operator account made.
const db = openDatabase(databaseUrl);
await migrateToLatest(db);
const email = `bench-${Date.now()}@example.test`;
const { operatorId } = await createOperatorAccount(
  db,
  { operatorName: 'Bench Ltd', userName: 'Bench', email, password: 'bench-password' },
  new Date(),
);

const servers: BenchServer[] = [];
const cleanUp = async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
};
// Stopped by postgres.ts or Ctrl-C: the servers go too, not left running on their own.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanUp().finally(() => process.exit(1)));

/** Starts the servers (kept in `servers` to be stopped), seeds, runs the scenarios and prints. */
async function bench(): Promise<void> {
  // The cache a deployment runs with, whatever this shell's AVAILABILITY_CACHE_MS says ('' is the default).
  const cached = await startServer({ ...serverEnv, AVAILABILITY_CACHE_MS: '' });
  servers.push(cached);

  const post = async (url: string, body: unknown, token?: string) => {
    const res = await seedFetch(cached.base + url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, any>>;
  };
  const { token } = await post('/api/auth/login', { email, password: 'bench-password' });
  const { id: venueId } = await post('/api/my-venues', { name: 'Bench Venue', address: '1 Bench Street' }, token);
  const tableIds: string[] = [];
  for (let i = 1; i <= SMALL_VENUE_TABLES; i++)
    tableIds.push((await post(`/api/my-venues/${venueId}/tables`, { table_number: `T${i}`, capacity: 2 + (i % 6) }, token)).id);
  // A block on the date the windowed table list asks about, nine days ahead.
  const blockDate = addDays(localToday(new Date(), 'Europe/London'), 9);
  await post(
    `/api/my-venues/${venueId}/tables/block`,
    { table_ids: tableIds.slice(0, 10), from: `${blockDate}T18:00`, to: `${blockDate}T23:00` },
    token,
  );
  for (let i = 0; i < 5; i++) await post(`/api/my-venues/${venueId}/access-rules`, { name: `Rule ${i}`, rule_type: 'table' }, token);
  // The venue goes through the server's API; its bookings this process inserts straight into the
  // database. On SQLite the server never hears of those writes (its change feed sees its own
  // statements only; PostgreSQL's notifications would reach it), so they must be in before it caches
  // anything of the venue: no availability or floorplan request has reached it yet, and none may
  // before this line. The second server starts later, on the seeded database.
  const engine = await seedBookingVenue({ base: cached.base, token, db, now: new Date() });
  // The guest CRM's case (bench/seed-roster.ts): 50,000 roster guests, their pages timed one at a time.
  const roster = selected('roster') ? await seedRoster(db, operatorId, venueId, new Date()) : undefined;
  const middleCursor = roster ? await timeRosterPages(cached.base, token, roster.ms) : '';

  const crowdWords = ['crowd', 'drop', 'on-sale', 'neighbour'];
  const crowdChosen = crowdWords.some(selected);
  const crowdSetup = crowdChosen ? await seedCrowd(cached.base, token, engine.today) : undefined;

  const auth = { authorization: `Bearer ${token}` };
  const tables = `/api/my-venues/${venueId}/tables`;
  const bare: Scenario = { name: 'GET /healthz (bare JSON route)', path: '/healthz' };
  const measured: Scenario[] = [
    { name: 'GET /api/auth/me', path: '/api/auth/me', opts: { headers: auth } },
    { name: 'GET /api/my-venues', path: '/api/my-venues', opts: { headers: auth } },
    { name: `GET tables list (${SMALL_VENUE_TABLES} rows)`, path: tables, opts: { headers: auth } },
    {
      name: `GET tables (${SMALL_VENUE_TABLES}, taken at a time)`,
      path: `${tables}?date=${blockDate}&time=20:00&duration=120`,
      opts: { headers: auth },
    },
    { name: 'GET access-rules', path: `/api/my-venues/${venueId}/access-rules`, opts: { headers: auth } },
    { name: 'GET public widget config', path: `/api/public/venues/${engine.venueId}/booking-widget-config` },
    ...bookingScenarios(engine),
    ...(roster ? rosterScenarios(token, middleCursor) : []),
    {
      name: 'POST /api/auth/login (argon2id)',
      path: '/api/auth/login',
      opts: {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'bench-password' }),
      },
    },
  ];
  const chosen = measured.filter((scenario) => selected(scenario.name));
  if (only.length > 0 && chosen.length === 0 && !crowdChosen) {
    if (selected('startup')) return;
    throw new Error(`BENCH_ONLY=${process.env.BENCH_ONLY} names no scenario; they are: startup, ${measured.map((m) => m.name).join('; ')}`);
  }
  const uncached = chosen.filter((scenario) => scenario.uncached);

  const { seeded } = engine;
  console.log(`Maitred bench: ${db.engine}, ${seconds}s per endpoint, 10 connections, Node ${process.version}`);
  console.log(
    `Booking engine venue: ${seeded.bookings} bookings (${Object.entries(seeded.byStatus)
      .map(([status, count]) => `${count} ${status}`)
      .join(
        ', ',
      )}), ${seeded.slots} slot rows, inserted in ${seeded.ms} ms; busy date ${engine.busyDate} (${engine.busyBookings} active bookings)\n`,
  );
  const columns = ['req/s', 'p50 ms', 'p99 ms', 'non-2xx', '×rps', '×p50', '×p99'];
  console.log(`${'endpoint'.padEnd(42)} ${columns.map((c) => c.padStart(8)).join(' ')}`);
  /** `value` ÷ `base` to one decimal; `-` when `base` is 0 (a 0 ms latency, or no requests answered). */
  const times = (value: number, base: number) => (base > 0 ? `${(value / base).toFixed(1)}` : '-');

  /** Runs the bare route on `server`, then each scenario, set against that bare route; prints a row each. */
  /** Each row's req/s, by name, with the bare route's of the same server under `bare:<n>`. */
  const rates = new Map<string, number>();
  const runOn = async (server: BenchServer, scenarios: Scenario[], label: string) => {
    let ceiling: autocannon.Result | undefined;
    for (const scenario of [bare, ...scenarios]) {
      const result = await autocannon({ connections: 10, duration: seconds, url: server.base + scenario.path, ...scenario.opts });
      ceiling ??= result;
      rates.set(scenario === bare ? `bare:${label}` : scenario.name, result.requests.average);
      const figures = [
        result.requests.average.toFixed(0),
        String(result.latency.p50),
        String(result.latency.p99),
        String(result.non2xx),
        times(ceiling.requests.average, result.requests.average),
        times(result.latency.p50, ceiling.latency.p50),
        times(result.latency.p99, ceiling.latency.p99),
      ];
      console.log(`${scenario.name.padEnd(42)} ${figures.map((f) => f.padStart(8)).join(' ')}`);
    }
  };

  console.log(`— server 1 (pid ${cached.pid}), availability cache on (AVAILABILITY_CACHE_MS default, 15000):`);
  await runOn(
    cached,
    chosen.filter((s) => !s.uncached),
    '1',
  );
  const targets: Target[] = [];
  if (crowdSetup) {
    console.log(`\n— server 1 under a crowd (bench/crowd.ts):`);
    const cachedAvailability = `/api/public/venues/${engine.venueId}/availability?date=${engine.busyDate}&party_size=2`;
    targets.push(
      ...(await runCrowd(
        {
          base: cached.base,
          pid: cached.pid,
          db,
          today: engine.today,
          seconds,
          engine: db.engine,
          setup: crowdSetup,
          neighbours: [
            { name: 'cached availability', call: { method: 'GET', path: cachedAvailability } },
            { name: 'GET /api/auth/me', call: { method: 'GET', path: '/api/auth/me', headers: auth } },
          ],
        },
        selected,
      )),
    );
  }
  const memory: [string, Memory][] = [['server 1 (availability cache on), right after its last scenario', cached.memory()]];
  const lastRequestAt = performance.now();
  const snapshot = await cached.heapSnapshot();
  if (snapshot) console.log(`server 1 heap snapshot: ${snapshot}`);
  if (uncached.length > 0) {
    const plain = await startServer({ ...serverEnv, AVAILABILITY_CACHE_MS: '0' });
    servers.push(plain);
    console.log(`— server 2 (pid ${plain.pid}), AVAILABILITY_CACHE_MS=0, same database; ratios against its own /healthz:`);
    await runOn(plain, uncached, '2');
    memory.push(['server 2 (AVAILABILITY_CACHE_MS=0)', plain.memory()]);
  }
  // Server 1 again at the end of the whole bench, once it has been quiet long enough to give back what its
  // bursts left (QUIET_GC_MS, platform/quiet-gc.ts, and a second for V8 to release the pages).
  const settleMs = QUIET_GC_MS + 1500 - (performance.now() - lastRequestAt);
  if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
  const settled = cached.memory();
  memory.push(['server 1 at the end of the bench (quiet since its last)', settled]);

  const mb = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? 'n/a' : `${value.toFixed(0)} MB`);
  console.log(`\nServer memory after its last scenario (VmRSS and peak VmHWM from /proc/<pid>/status; target RSS ≤ ${RSS_TARGET_MB} MB):`);
  for (const [name, { rssMb, peakMb, anonMb, fileMb }] of memory)
    console.log(
      `${name.padEnd(66)} RSS ${mb(rssMb).padStart(7)}   peak ${mb(peakMb).padStart(7)}   (anonymous ${mb(anonMb)}, files ${mb(fileMb)})`,
    );

  // The ratios with a target, each against its own server's bare route.
  const ratio = (name: string, server: '1' | '2', floor: number) => {
    const rate = [...rates.entries()].find(([row]) => row.startsWith(name))?.[1];
    const bareRate = rates.get(`bare:${server}`);
    if (rate === undefined || !bareRate) return;
    const share = rate / bareRate;
    targets.push({
      name: `${name}: share of bare`,
      value: `${(share * 100).toFixed(1)} %`,
      target: `≥ ${floor * 100} %`,
      met: share >= floor,
    });
  };
  ratio('GET /api/auth/me', '1', 0.25);
  ratio('GET tables list', '1', 0.15);
  ratio('GET availability, 30 dates (uncached)', '2', 0.1);
  const rss = settled.rssMb;
  if (!Number.isNaN(rss))
    targets.push({ name: 'server 1 RSS after the bench', value: mb(rss), target: `≤ ${RSS_TARGET_MB} MB`, met: rss <= RSS_TARGET_MB });
  console.log(`\nTargets (${db.engine}):`);
  for (const t of targets) console.log(`${t.name.padEnd(46)} ${t.value.padStart(26)}   ${t.target.padEnd(10)} ${t.met ? 'met' : 'MISSED'}`);
}

try {
  await bench();
} finally {
  await cleanUp();
}
