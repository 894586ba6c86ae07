/**
 * `npm run bench:ceiling`: the single-machine ceiling of a booking write, measured the way the crowd
 * scenario is (bench/crowd.ts: 50 connections on loopback, each request a distinct slot): a bare Fastify
 * route (no validation, no engine, no mail rendering) that writes what a booking writes, rows of the same
 * size into tables with the same indexes as ours (the booking, its table, eight 15-minute slots, a history
 * row and a 3 KB outbox row), with prepared statements, on SQLite (WAL, synchronous NORMAL, as we run it)
 * and, with BENCH_DATABASE_URL=postgres://…, on PostgreSQL. Each engine is measured with one transaction
 * per request and with group commit (the requests of one turn of the event loop in one transaction).
 * What our route does on top of this is what the product adds to the physical write.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import pg from 'pg';
import { loadSqlite } from '../src/db/connect.js';
import { drive, quantile } from './driver.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const OUTBOX_BYTES = 3_000;

const SCHEMA = [
  `create table bookings (id text primary key, venue_id text not null, booking_date text not null, start_time text,
     starts_at text, ends_at text, guest_name text, guest_email text, status text, created_at text)`,
  `create index bookings_venue_date_idx on bookings (venue_id, booking_date)`,
  `create table booking_tables (booking_id text not null, table_id text not null, starts_at text, ends_at text, primary key (booking_id, table_id))`,
  `create table booking_slots (table_id text not null, slot bigint not null, booking_id text not null, primary key (table_id, slot))`,
  `create index booking_slots_booking_idx on booking_slots (booking_id)`,
  `create table booking_history (id text primary key, booking_id text not null, at text, detail text)`,
  `create table mail_outbox (id text primary key, recipient text, body text, status text, created_at text)`,
];

interface Writer {
  write(bookings: { n: number }[]): Promise<void>;
  close(): Promise<void>;
}

const rowsOf = (n: number) => {
  const id = `bkg_${n}_${Math.random().toString(36).slice(2)}`;
  const table = `tbl_${n % 60}`;
  const slot0 = Math.floor(n / 60) * 8;
  return { id, table, slots: Array.from({ length: 8 }, (_, i) => slot0 + i), at: new Date().toISOString() };
};

function sqliteWriter(file: string): Writer {
  const Sqlite = loadSqlite();
  const db = new Sqlite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  for (const statement of SCHEMA) db.exec(statement);
  const booking = db.prepare(
    `insert into bookings values (?, 'ven_1', '2027-01-01', '19:00', ?, ?, 'Guest', 'guest@example.test', 'confirmed', ?)`,
  );
  const table = db.prepare(`insert into booking_tables values (?, ?, ?, ?)`);
  const slot = db.prepare(`insert into booking_slots values (?, ?, ?)`);
  const history = db.prepare(`insert into booking_history values (?, ?, ?, '{"action":"create"}')`);
  const outbox = db.prepare(`insert into mail_outbox values (?, 'guest@example.test', ?, 'kept', ?)`);
  const body = 'x'.repeat(OUTBOX_BYTES);
  const writeAll = db.transaction((bookings: { n: number }[]) => {
    for (const { n } of bookings) {
      const r = rowsOf(n);
      booking.run(r.id, r.at, r.at, r.at);
      table.run(r.id, r.table, r.at, r.at);
      for (const s of r.slots) slot.run(r.table, s, r.id);
      history.run(`h_${r.id}`, r.id, r.at);
      outbox.run(`m_${r.id}`, body, r.at);
    }
  });
  db.exec('begin immediate');
  db.exec('commit');
  return {
    write: async (bookings) => {
      writeAll.immediate(bookings);
    },
    close: async () => {
      db.close();
    },
  };
}

async function postgresWriter(url: string): Promise<Writer> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const schema = `ceiling_${process.pid}`;
  await pool.query(`create schema ${schema}`);
  pool.on('connect', (client) => void client.query(`set search_path to ${schema}`));
  const setup = await pool.connect();
  await setup.query(`set search_path to ${schema}`);
  for (const statement of SCHEMA) await setup.query(statement);
  setup.release();
  const body = 'x'.repeat(OUTBOX_BYTES);
  return {
    async write(bookings) {
      const client = await pool.connect();
      try {
        await client.query(`set search_path to ${schema}`);
        await client.query('begin');
        await client.query({ name: 'lock', text: `select pg_advisory_xact_lock(hashtextextended('venue-bookings:ven_1', 0))` });
        for (const { n } of bookings) {
          const r = rowsOf(n);
          await client.query({
            name: 'booking',
            text: `insert into bookings values ($1, 'ven_1', '2027-01-01', '19:00', $2, $2, 'Guest', 'guest@example.test', 'confirmed', $2)`,
            values: [r.id, r.at],
          });
          await client.query({ name: 'table', text: 'insert into booking_tables values ($1, $2, $3, $3)', values: [r.id, r.table, r.at] });
          await client.query({
            name: 'slots',
            text: 'insert into booking_slots select $1, s, $2 from unnest($3::bigint[]) s',
            values: [r.table, r.id, r.slots],
          });
          await client.query({
            name: 'history',
            text: `insert into booking_history values ($1, $2, $3, '{}')`,
            values: [`h_${r.id}`, r.id, r.at],
          });
          await client.query({
            name: 'outbox',
            text: `insert into mail_outbox values ($1, 'guest@example.test', $2, 'kept', $3)`,
            values: [`m_${r.id}`, body, r.at],
          });
        }
        await client.query('commit');
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.query(`drop schema ${schema} cascade`);
      await pool.end();
    },
  };
}

/** The route: one transaction per request, or the requests of one turn of the event loop together. */
async function measure(writer: Writer, grouped: boolean) {
  const app = Fastify();
  let queue: { n: number; done: (error?: unknown) => void }[] | null = null;
  /** Writes the requests queued in this turn of the event loop together. */
  const flush = async () => {
    const batch = queue!;
    queue = null;
    try {
      await writer.write(batch);
      for (const item of batch) item.done();
    } catch (error) {
      for (const item of batch) item.done(error);
    }
  };
  const groupedWrite = (n: number) =>
    new Promise<void>((resolve, reject) => {
      const done = (error?: unknown) => (error ? reject(error) : resolve());
      if (queue) return void queue.push({ n, done });
      queue = [{ n, done }];
      setImmediate(() => void flush());
    });
  app.post('/book', async (request) => {
    const { n } = request.body as { n: number };
    if (grouped) await groupedWrite(n);
    else await writer.write([{ n }]);
    return { ok: true, booking_id: `bkg_${n}` };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  let offset = grouped ? 10_000_000 : 0;
  const cpu0 = process.cpuUsage();
  const run = await drive({
    base: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    durationMs: seconds * 1000,
    call: () => ({ method: 'POST', path: '/book', body: JSON.stringify({ n: offset++ }) }),
  });
  const cpu = process.cpuUsage(cpu0);
  await app.close();
  const ok = run.answers.filter((a) => a.status === 200).length;
  return {
    rate: (ok / run.elapsedMs) * 1000,
    p99: quantile(run.answers, 0.99),
    failed: run.answers.length - ok,
    cpuPer: (cpu.user + cpu.system) / 1000 / Math.max(1, run.answers.length),
  };
}

const url = process.env.BENCH_DATABASE_URL;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maitred-ceiling-'));
console.log(
  `Booking-write ceiling: ${url ? 'postgres' : 'sqlite'}, ${CONNECTIONS} connections, ${seconds} s each, Node ${process.version}`,
);
console.log('(the load generator runs in this process too: its CPU is part of the figure)');
try {
  for (const grouped of [false, true]) {
    const writer = url ? await postgresWriter(url) : sqliteWriter(path.join(dir, `ceiling-${grouped}.db`));
    const result = await measure(writer, grouped);
    await writer.close();
    console.log(
      `${(grouped ? 'group commit' : 'one transaction per request').padEnd(30)} ${result.rate.toFixed(0).padStart(6)} bookings/s   p99 ${result.p99.toFixed(0)} ms   ` +
        `${result.cpuPer.toFixed(2)} ms CPU per request (server and load generator)   failed ${result.failed}`,
    );
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
