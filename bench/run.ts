/**
 * `npm run bench`: start-up figures of the compiled runtime (bench/startup.ts), then throughput and
 * latency of hot endpoints on a real server (SQLite by default, or
 * BENCH_DATABASE_URL=postgres://…), seeded with one operator, a venue with 60 tables, blocks and rules.
 * Each endpoint is driven by autocannon on loopback for BENCH_SECONDS (default 5) with 10 connections.
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
  RATE_LIMITS: 'login_failures_email=1000000/60,login_failures_ip=1000000/60',
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

const auth = { authorization: `Bearer ${token}` };
const scenarios: { name: string; opts: autocannon.Options }[] = [
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
];

console.log(`Maitred bench: ${db.engine}, ${seconds}s per endpoint, 10 connections, Node ${process.version}\n`);
console.log(`${'endpoint'.padEnd(42)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'non-2xx'.padStart(8)}`);
for (const scenario of scenarios) {
  const result = await autocannon({ connections: 10, duration: seconds, ...scenario.opts });
  console.log(
    `${scenario.name.padEnd(42)} ${result.requests.average.toFixed(0).padStart(9)} ${String(result.latency.p50).padStart(8)} ${String(result.latency.p99).padStart(8)} ${String(result.non2xx).padStart(8)}`,
  );
}

await app.close();
await ctx.close();
fs.rmSync(dir, { recursive: true, force: true });
