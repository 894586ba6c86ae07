/**
 * `npm run bench`: start-up figures of the compiled runtime (bench/startup.ts), then throughput and
 * latency of hot endpoints on a real server (SQLite by default, or
 * BENCH_DATABASE_URL=postgres://…), seeded with one operator, a venue with 60 tables, blocks and rules,
 * and the booking engine's venue with 2,000 bookings (bench/seed-venue.ts).
 * Each endpoint is driven by autocannon on loopback for BENCH_SECONDS (default 5) with 10 connections,
 * and set against the bare `GET /healthz` of the same server in the same run: ×rps is healthz req/s ÷
 * the endpoint's, ×p50 and ×p99 the endpoint's latency ÷ healthz's (so higher is slower, always).
 * Numbers are for comparing changes on the same machine, not absolute promises.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config.js';
import { createContext } from '../src/context.js';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createOperatorAccount } from '../src/modules/team/accounts.js';
import { BENCH_TURNSTILE_SECRET, bookingScenarios, seedBookingVenue, type Scenario } from './seed-venue.js';
import { printStartup, startupOptionsFromEnv } from './startup.js';

await printStartup(startupOptionsFromEnv());

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maitred-bench-'));
const databaseUrl = process.env.BENCH_DATABASE_URL ?? `sqlite:${path.join(dir, 'bench.db')}`;
const config = loadConfig({
  DATABASE_URL: databaseUrl,
  UPLOADS_DIR: path.join(dir, 'uploads'),
  LOG_LEVEL: 'silent',
  NODE_ENV: 'production',
  RATE_LIMITS: 'login_failures_email=1000000/60,login_failures_ip=1000000/60,public_booking=1000000/60',
  TURNSTILE_SECRET_KEY: BENCH_TURNSTILE_SECRET,
});
const db = openDatabase(config.databaseUrl);
await migrateToLatest(db);
const ctx = createContext(config, db, { log: pino({ level: 'silent' }) });
const app = await buildApp(ctx);
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

const email = `bench-${Date.now()}@example.test`;
await createOperatorAccount(db, { operatorName: 'Bench Ltd', userName: 'Bench', email, password: 'bench-password' }, new Date());
const post = async (url: string, body: unknown, token?: string) => {
  const res = await fetch(base + url, {
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
for (let i = 1; i <= 60; i++)
  tableIds.push((await post(`/api/my-venues/${venueId}/tables`, { table_number: `T${i}`, capacity: 2 + (i % 6) }, token)).id);
await post(
  `/api/my-venues/${venueId}/tables/block`,
  { table_ids: tableIds.slice(0, 10), from: '2026-12-05T18:00', to: '2026-12-05T23:00' },
  token,
);
for (let i = 0; i < 5; i++) await post(`/api/my-venues/${venueId}/access-rules`, { name: `Rule ${i}`, rule_type: 'table' }, token);
const engine = await seedBookingVenue({ base, token, db, now: new Date() });

const auth = { authorization: `Bearer ${token}` };
const scenarios: Scenario[] = [
  { name: 'GET /healthz', opts: { url: `${base}/healthz` } },
  { name: 'GET /api/auth/me', opts: { url: `${base}/api/auth/me`, headers: auth } },
  { name: 'GET /api/my-venues', opts: { url: `${base}/api/my-venues`, headers: auth } },
  {
    name: 'GET tables (60, availability window)',
    opts: { url: `${base}/api/my-venues/${venueId}/tables?date=2026-12-05&time=20:00&duration=120`, headers: auth },
  },
  { name: 'GET access-rules', opts: { url: `${base}/api/my-venues/${venueId}/access-rules`, headers: auth } },
  { name: 'GET public booking-widget-config', opts: { url: `${base}/api/public/venues/${venueId}/booking-widget-config` } },
  {
    name: 'POST /api/auth/login (argon2id)',
    opts: {
      url: `${base}/api/auth/login`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'bench-password' }),
    },
  },
  ...bookingScenarios(base, engine),
];

const { seeded } = engine;
console.log(`Maitred bench: ${db.engine}, ${seconds}s per endpoint, 10 connections, Node ${process.version}`);
console.log(
  `Booking engine venue: ${seeded.bookings} bookings (${Object.entries(seeded.byStatus)
    .map(([status, count]) => `${count} ${status}`)
    .join(', ')}), ${seeded.slots} slot rows, inserted in ${seeded.ms} ms; busy date ${engine.busyDate}\n`,
);
const columns = ['req/s', 'p50 ms', 'p99 ms', 'non-2xx', '×rps', '×p50', '×p99'];
console.log(`${'endpoint'.padEnd(42)} ${columns.map((c) => c.padStart(8)).join(' ')}`);
/** `value` ÷ `base` to one decimal; `-` when `base` is 0 (a 0 ms latency, or no requests answered). */
const times = (value: number, base: number) => (base > 0 ? `${(value / base).toFixed(1)}` : '-');
// The first scenario is the bare route, GET /healthz.
let bare: autocannon.Result | undefined;
for (const scenario of scenarios) {
  const result = await autocannon({ connections: 10, duration: seconds, ...scenario.opts });
  bare ??= result;
  const figures = [
    result.requests.average.toFixed(0),
    String(result.latency.p50),
    String(result.latency.p99),
    String(result.non2xx),
    times(bare.requests.average, result.requests.average),
    times(result.latency.p50, bare.latency.p50),
    times(result.latency.p99, bare.latency.p99),
  ];
  console.log(`${scenario.name.padEnd(42)} ${figures.map((f) => f.padStart(8)).join(' ')}`);
}

await app.close();
await ctx.close();
fs.rmSync(dir, { recursive: true, force: true });
