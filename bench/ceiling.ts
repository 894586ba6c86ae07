/**
 * `npm run bench:ceiling`: the single-machine ceiling of a booking write, measured the way the crowd
 * scenario is (bench/crowd.ts: 50 connections on loopback, each request a distinct slot): a bare Fastify
 * route (no validation, no engine, no mail rendering) that writes what a booking writes, rows of the same
 * size into tables with the same indexes as ours (the booking, its table, eight 15-minute slots, a history
 * row and a 3 KB outbox row), with prepared statements, on SQLite (WAL, synchronous NORMAL, as we run it)
 * and, with BENCH_DATABASE_URL=postgres://…, on PostgreSQL. Each engine is measured with one transaction
 * per request and with group commit (one batch in flight at a time, what arrives meanwhile written together in the next, at most 16 a transaction, as the product's); on
 * PostgreSQL also with group commit written as one multi-row statement per table per batch (a round trip
 * per table per batch instead of per booking: the least a batch can cost there). The load generator runs
 * in its own process (bench/ceiling-driver.ts), so the route has its event loop and, on this 2-core
 * machine, about one core to itself; the CPU figure is the route's process alone.
 * What our route does on top of this is what the product adds to the physical write.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import pg from 'pg';
import { loadSqlite } from '../src/db/connect.js';
import { driveInChild } from './driver.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const OUTBOX_BYTES = 3_000;
/** Bookings written in one transaction at most, as the product's public booking path (book.service.ts). */
const MAX_BATCH = 16;

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

async function postgresWriter(url: string, multiRow = false): Promise<Writer> {
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
        if (multiRow) {
          await writeRows(
            client,
            bookings.map(({ n }) => rowsOf(n)),
            body,
          );
          await client.query('commit');
          return;
        }
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

/** A batch's rows as one statement per table (arrays unnested), each named and prepared once per connection. */
async function writeRows(client: pg.PoolClient, rows: ReturnType<typeof rowsOf>[], body: string): Promise<void> {
  const ids = rows.map((r) => r.id);
  const at = rows.map((r) => r.at);
  await client.query({
    name: 'bookings-many',
    text: `insert into bookings select id, 'ven_1', '2027-01-01', '19:00', at, at, 'Guest', 'guest@example.test', 'confirmed', at
           from unnest($1::text[], $2::text[]) as t(id, at)`,
    values: [ids, at],
  });
  await client.query({
    name: 'tables-many',
    text: 'insert into booking_tables select id, tbl, at, at from unnest($1::text[], $2::text[], $3::text[]) as t(id, tbl, at)',
    values: [ids, rows.map((r) => r.table), at],
  });
  await client.query({
    name: 'slots-many',
    text: 'insert into booking_slots select * from unnest($1::text[], $2::bigint[], $3::text[])',
    values: [rows.flatMap((r) => r.slots.map(() => r.table)), rows.flatMap((r) => r.slots), rows.flatMap((r) => r.slots.map(() => r.id))],
  });
  await client.query({
    name: 'history-many',
    text: `insert into booking_history select 'h_' || id, id, at, '{}' from unnest($1::text[], $2::text[]) as t(id, at)`,
    values: [ids, at],
  });
  await client.query({
    name: 'outbox-many',
    text: `insert into mail_outbox select 'm_' || id, 'guest@example.test', $3, 'kept', at from unnest($1::text[], $2::text[]) as t(id, at)`,
    values: [ids, at, body],
  });
}

/** The route: one transaction per request, or group commit. */
async function measure(writer: Writer, grouped: boolean) {
  const app = Fastify();
  // Group commit as the product's (db/group-commit.ts): one batch of the venue in flight at a time; what
  // arrives meanwhile waits for the next, at most MAX_BATCH bookings a transaction.
  const queue: { n: number; done: (error?: unknown) => void }[] = [];
  let writing = false;
  const pump = async () => {
    if (writing || queue.length === 0) return;
    writing = true;
    const batch = queue.splice(0, MAX_BATCH);
    try {
      await writer.write(batch);
      for (const item of batch) item.done();
    } catch (error) {
      for (const item of batch) item.done(error);
    } finally {
      writing = false;
      setImmediate(() => void pump());
    }
  };
  const groupedWrite = (n: number) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ n, done: (error?: unknown) => (error ? reject(error) : resolve()) });
      if (queue.length === 1) setImmediate(() => void pump());
    });
  app.post('/book', async (request) => {
    const { n } = request.body as { n: number };
    if (grouped) await groupedWrite(n);
    else await writer.write([{ n }]);
    return { ok: true, booking_id: `bkg_${n}` };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  const cpu0 = process.cpuUsage();
  const run = await driveApart({ port, offset: offset++ * 10_000_000, connections: CONNECTIONS, durationMs: seconds * 1000 });
  const cpu = process.cpuUsage(cpu0);
  await app.close();
  return {
    rate: (run.ok / run.elapsedMs) * 1000,
    p99: run.p99,
    failed: run.answered - run.ok,
    cpuPer: (cpu.user + cpu.system) / 1000 / Math.max(1, run.answered),
  };
}
let offset = 0;

/** Runs the load generator in a child process (its CPU is not the route's) and waits for its figures. */
const driveApart = (task: { port: number; offset: number; connections: number; durationMs: number }) =>
  driveInChild<{ ok: number; answered: number; elapsedMs: number; p99: number }>(new URL('./ceiling-driver.ts', import.meta.url), task);

const url = process.env.BENCH_DATABASE_URL;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maitred-ceiling-'));
console.log(
  `Booking-write ceiling: ${url ? 'postgres' : 'sqlite'}, ${CONNECTIONS} connections, ${seconds} s each, Node ${process.version}`,
);
console.log("(the load generator runs in a process of its own; the CPU figure is the route's process alone)");
const modes = [
  { name: 'one transaction per request', grouped: false, multiRow: false },
  { name: 'group commit', grouped: true, multiRow: false },
  ...(url ? [{ name: 'group commit, multi-row', grouped: true, multiRow: true }] : []),
];
try {
  for (const mode of modes) {
    const writer = url ? await postgresWriter(url, mode.multiRow) : sqliteWriter(path.join(dir, `ceiling-${mode.grouped}.db`));
    const result = await measure(writer, mode.grouped);
    await writer.close();
    console.log(
      `${mode.name.padEnd(30)} ${result.rate.toFixed(0).padStart(6)} bookings/s   p99 ${result.p99.toFixed(0)} ms   ` +
        `${result.cpuPer.toFixed(2)} ms CPU per request (the route's process)   failed ${result.failed}`,
    );
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
