/**
 * The bench's crowd scenarios (docs/performance.md, "Under a crowd"), on the server the other rows use:
 *
 * - crowd: 50 connections booking distinct free slots of a 60-table venue for BENCH_SECONDS;
 * - table drop: 2,000 guests over 200 connections asking for the four evening times of one date at a
 *   venue with 100 bookable places (25 tables of two, four two-hour sittings): exactly 100 booked, no
 *   table held twice, every refusal a 409 naming alternatives;
 * - ticket on-sale: 5,000 purchase attempts (1–4 tickets each, max 4 per order) over 200 connections
 *   for an event with 500 free tickets: exactly 500 sold;
 * - neighbour: the booking engine venue's cached availability and `/api/auth/me`, 10 connections each
 *   driven from a process of its own, alone and while drops run back to back on the drop venue (each on a
 *   new date).
 *
 * Each prints its figures with its target and whether it was met. The venues are made through the
 * server's API as the Owner; the checks read the database directly.
 */
import fs from 'node:fs';
import { sql } from 'kysely';
import type { Db } from '../src/db/connect.js';
import { addDays } from '../src/domain/venue-time.js';
import { drive, driveInChild, quantile, type Answer, type Call } from './driver.js';
import { BENCH_METRICS_TOKEN, seedFetch } from './server.js';

const TIMEZONE = 'Europe/London';
const WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const CROWD_TABLES = 60;
const DROP_TABLES = 25;
const DROP_TIMES = ['16:00', '18:00', '20:00', '22:00'];
const DROP_GUESTS = 2000;
const ONSALE_TICKETS = 500;
const ONSALE_ATTEMPTS = 5000;
const CROWD_CONNECTIONS = 50;
const RUSH_CONNECTIONS = 200;

export interface Target {
  name: string;
  /** What was measured, in words and figures. */
  value: string;
  target: string;
  met: boolean;
}

function api(base: string, token: string) {
  const call = async (method: 'POST' | 'PUT', url: string, body: unknown) => {
    const res = await seedFetch(base + url, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, any>>;
  };
  return { id: async (url: string, body: unknown) => (await call('POST', url, body)).id as string, put: call.bind(null, 'PUT') };
}

/** A live venue with `tables` tables of `capacity` and one table rule over [from, to], two-hour stays, bookable a year ahead. */
async function tableVenue(base: string, token: string, name: string, tables: number, capacity: number, from: string, to: string) {
  const http = api(base, token);
  const venueId = await http.id('/api/my-venues', {
    name,
    address: '3 Bench Street, London',
    venue_type: 'restaurant',
    timezone: TIMEZONE,
    default_booking_duration: 120,
    default_party_min: 1,
    default_party_max: 8,
    booking_start_value: 365,
    booking_start_unit: 'days',
    opening_hours: Object.fromEntries(WEEK.map((d) => [d, [{ open: '10:00', close: '02:00' }]])),
    tables_enabled: true,
  });
  const venue = `/api/my-venues/${venueId}`;
  for (let i = 1; i <= tables; i++) await http.id(`${venue}/tables`, { table_number: `C${i}`, capacity });
  const ruleId = await http.id(`${venue}/access-rules`, {
    name: 'Tables',
    rule_type: 'table',
    days_of_week: WEEK,
    time_from: from,
    time_to: to,
    duration_enabled: true,
    duration_minutes: 120,
  });
  await http.put(`${venue}/status`, { status: 'live' });
  return { venueId, ruleId };
}

const bookBody = (ruleId: string, date: string, time: string, n: number, party = 2) =>
  JSON.stringify({
    access_rule_id: ruleId,
    rule_type: 'table',
    date,
    time,
    party_size: party,
    guest_name: `Crowd Guest ${n}`,
    guest_email: `crowd-${n}@example.test`,
    turnstile_token: 'bench',
  });

/** Non-200 answers by status, e.g. `409 ×3, 503 ×1` (none: `none`). */
function statuses(answers: readonly Answer[]): string {
  const counts = new Map<number, number>();
  for (const a of answers) if (a.status !== 200) counts.set(a.status, (counts.get(a.status) ?? 0) + 1);
  return counts.size === 0 ? 'none' : [...counts].map(([status, n]) => `${status} ×${n}`).join(', ');
}

/** A process's CPU time so far in ms, user and system (the kernel's work for its calls), from /proc (NaN elsewhere). */
function cpuMs(pid: number): { user: number; system: number } {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return { user: (Number(fields[11]) * 1000) / 100, system: (Number(fields[12]) * 1000) / 100 };
  } catch {
    return { user: NaN, system: NaN };
  }
}

/**
 * The bytes a process has handed to write calls so far (`wchar` in /proc: the database's WAL, checkpoints
 * into the database file, and its HTTP answers), NaN elsewhere.
 */
function writtenBytes(pid: number): number {
  try {
    return Number(/^wchar: (\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

/** The server's CPU time and bytes written per answer over `run`, e.g. `1.9 ms server CPU, 9.1 KB written per answer`. */
async function withCpu<T extends { answers: readonly Answer[] }>(pid: number, run: () => Promise<T>): Promise<T & { cpu: string }> {
  const before = { cpu: cpuMs(pid), written: writtenBytes(pid) };
  const result = await run();
  const answers = Math.max(1, result.answers.length);
  const after = cpuMs(pid);
  const user = (after.user - before.cpu.user) / answers;
  const system = (after.system - before.cpu.system) / answers;
  const written = (writtenBytes(pid) - before.written) / answers;
  const cpu = Number.isNaN(user) ? 'n/a' : `${(user + system).toFixed(2)} ms server CPU (${system.toFixed(2)} of it system)`;
  return { ...result, cpu: Number.isNaN(written) ? `${cpu} per answer` : `${cpu}, ${(written / 1024).toFixed(1)} KB written per answer` };
}

/** The server's count of booking (or ticket) transactions and the purchases they held so far (its /metrics). */
async function bookingBatches(base: string, kind: 'booking' | 'ticket' = 'booking'): Promise<{ batches: number; held: number }> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } })).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return { batches: value(`maitred_${kind}_batch_size_count`), held: value(`maitred_${kind}_batch_size_sum`) };
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
const clock = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Active bookings of a venue holding the same table at overlapping times (0 unless something sold a table twice). */
async function doubleBookings(db: Db, venueId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*) as n from booking_tables x
      join bookings a on a.id = x.booking_id
      join booking_tables y on y.table_id = x.table_id and y.booking_id > x.booking_id
      join bookings b on b.id = y.booking_id
    where a.venue_id = ${venueId} and b.venue_id = ${venueId}
      and a.status in ('confirmed', 'pending_payment') and b.status in ('confirmed', 'pending_payment')
      and a.starts_at < b.ends_at and b.starts_at < a.ends_at`.execute(db.kysely);
  return Number(rows[0]?.n ?? 0);
}

async function activeBookings(db: Db, venueId: string, date: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('bookings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('venue_id', '=', venueId)
    .where('booking_date', '=', date)
    .where('status', 'in', ['confirmed', 'pending_payment'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether a refusal names somewhere else to go: nearest times that day or the next dates with room. */
function refusedWithAlternatives(answer: Answer): boolean {
  if (answer.status !== 409 || !answer.body) return false;
  const body = JSON.parse(answer.body) as { alternatives?: { times?: unknown[]; dates?: unknown[] } };
  return (body.alternatives?.times?.length ?? 0) + (body.alternatives?.dates?.length ?? 0) > 0;
}

function printTable(title: string, rows: [string, string][]) {
  console.log(title);
  for (const [name, value] of rows) console.log(`  ${name.padEnd(44)} ${value}`);
}

export interface CrowdSetup {
  crowd: { venueId: string; ruleId: string };
  drop: { venueId: string; ruleId: string };
  event: { eventId: string; ticketTypeId: string };
}

/** The three venues' worth of set-up through the API: the crowd venue, the drop venue and an event on sale at the drop venue. */
export async function seedCrowd(base: string, token: string, today: string): Promise<CrowdSetup> {
  const crowd = await tableVenue(base, token, 'Crowd Canteen', CROWD_TABLES, 4, '12:00', '22:00');
  // The rule's last start is before its end time: 22:00 is the last sitting.
  const drop = await tableVenue(base, token, 'Drop Dining', DROP_TABLES, 2, DROP_TIMES[0], '22:15');
  const http = api(base, token);
  const eventId = await http.id('/api/my-events', {
    venue_id: drop.venueId,
    name: 'On-sale Night',
    event_date: addDays(today, 200),
    start_time: '21:00',
    status: 'approved',
  });
  const ticketTypeId = await http.id(`/api/my-events/${eventId}/ticket-types`, {
    name: 'General admission',
    price_pence: 0,
    capacity: ONSALE_TICKETS,
    max_per_order: 4,
  });
  return { crowd, drop, event: { eventId, ticketTypeId } };
}

export interface CrowdContext {
  base: string;
  db: Db;
  today: string;
  seconds: number;
  engine: 'sqlite' | 'postgres';
  setup: CrowdSetup;
  /** The server's process, whose CPU time each scenario reads (Linux). */
  pid: number;
  /** The neighbours' requests: cached availability of another venue, and the Owner's /me. */
  neighbours: { name: string; call: Call }[];
}

/** Runs the four scenarios; answers each target with its figure. */
export async function runCrowd(ctx: CrowdContext, selected: (name: string) => boolean): Promise<Target[]> {
  const targets: Target[] = [];
  if (selected('crowd')) targets.push(...(await crowdScenario(ctx)));
  if (selected('drop')) targets.push(...(await dropScenario(ctx, addDays(ctx.today, 30), 'table drop')));
  if (selected('on-sale')) targets.push(...(await onSaleScenario(ctx)));
  if (selected('neighbour')) targets.push(...(await neighbourScenario(ctx)));
  return targets;
}

async function crowdScenario(ctx: CrowdContext): Promise<Target[]> {
  const { venueId, ruleId } = ctx.setup.crowd;
  // 40 starts a day (12:00–21:45), four bookings of two at each: at most 32 two-hour stays overlap, on 60 tables.
  const perStart = 4;
  const starts = 40;
  const firstDate = addDays(ctx.today, 2);
  const call = (n: number): Call => {
    const start = Math.floor(n / perStart);
    const date = addDays(firstDate, Math.floor(start / starts));
    return {
      method: 'POST',
      path: `/api/public/venues/${venueId}/book`,
      body: bookBody(ruleId, date, clock(12 * 60 + 15 * (start % starts)), n),
    };
  };
  const batchesBefore = await bookingBatches(ctx.base);
  const run = await withCpu(ctx.pid, () =>
    drive({ base: ctx.base, connections: CROWD_CONNECTIONS, durationMs: ctx.seconds * 1000, call, keepBodies: true }),
  );
  const batchesAfter = await bookingBatches(ctx.base);
  const perBatch = (batchesAfter.held - batchesBefore.held) / Math.max(1, batchesAfter.batches - batchesBefore.batches);
  const refused = run.answers.find((a) => a.status !== 200);
  if (refused) console.log(`  (first refusal: ${refused.status} ${refused.body?.slice(0, 200)})`);
  const ok = run.answers.filter((a) => a.status === 200);
  const rate = (ok.length / run.elapsedMs) * 1000;
  const p99 = quantile(run.answers, 0.99);
  const floor = ctx.engine === 'sqlite' ? 2000 : 1500;
  printTable(`crowd: ${CROWD_CONNECTIONS} connections booking distinct free slots for ${ctx.seconds} s`, [
    ['bookings', `${ok.length} (${rate.toFixed(0)}/s), other answers: ${statuses(run.answers)}`],
    ['latency', `p50 ${ms(quantile(run.answers, 0.5))}, p99 ${ms(p99)}`],
    ['cost', run.cpu],
    ['bookings per transaction (group commit)', perBatch.toFixed(1)],
    ['double bookings', String(await doubleBookings(ctx.db, venueId))],
  ]);
  return [
    { name: 'crowd: bookings/s', value: `${rate.toFixed(0)}/s`, target: `≥ ${floor}/s`, met: rate >= floor },
    { name: 'crowd: p99', value: ms(p99), target: '< 100 ms', met: p99 < 100 },
    {
      name: 'crowd: every answer a booking',
      value: `${run.answers.length - ok.length} not`,
      target: '0',
      met: ok.length === run.answers.length,
    },
  ];
}

interface DropOutcome {
  booked: Answer[];
  refused: Answer[];
  other: Answer[];
  fullAfterMs: number;
  withAlternatives: number;
  cpu: string;
}

/** One drop: DROP_GUESTS guests at once for the four sittings of `date`. */
async function drop(ctx: CrowdContext, date: string, round = 0): Promise<DropOutcome> {
  const { venueId, ruleId } = ctx.setup.drop;
  const run = await withCpu(ctx.pid, () =>
    drive({
      base: ctx.base,
      connections: RUSH_CONNECTIONS,
      total: DROP_GUESTS,
      keepBodies: true,
      call: (n) => ({
        method: 'POST',
        path: `/api/public/venues/${venueId}/book`,
        body: bookBody(ruleId, date, DROP_TIMES[n % DROP_TIMES.length], round * DROP_GUESTS + n),
      }),
    }),
  );
  const booked = run.answers.filter((a) => a.status === 200);
  const refused = run.answers.filter((a) => a.status === 409);
  const other = run.answers.filter((a) => a.status !== 200 && a.status !== 409);
  return {
    booked,
    refused,
    other,
    cpu: run.cpu,
    fullAfterMs: Math.max(0, ...booked.map((a) => a.at)),
    withAlternatives: refused.filter(refusedWithAlternatives).length,
  };
}

async function dropScenario(ctx: CrowdContext, date: string, label: string): Promise<Target[]> {
  const capacity = DROP_TABLES * DROP_TIMES.length;
  const outcome = await drop(ctx, date);
  const stored = await activeBookings(ctx.db, ctx.setup.drop.venueId, date);
  const doubles = await doubleBookings(ctx.db, ctx.setup.drop.venueId);
  const all = [...outcome.booked, ...outcome.refused, ...outcome.other];
  const p99 = quantile(all, 0.99);
  printTable(`${label}: ${DROP_GUESTS} guests over ${RUSH_CONNECTIONS} connections for ${capacity} places (${date})`, [
    [
      'booked (200)',
      `${outcome.booked.length}, stored ${stored}, p50 ${ms(quantile(outcome.booked, 0.5))}, p99 ${ms(quantile(outcome.booked, 0.99))}`,
    ],
    [
      'refused (409)',
      `${outcome.refused.length}, with alternatives ${outcome.withAlternatives}, p50 ${ms(quantile(outcome.refused, 0.5))}, p99 ${ms(quantile(outcome.refused, 0.99))}`,
    ],
    ['other answers', statuses(outcome.other)],
    ['venue full after', ms(outcome.fullAfterMs)],
    ['cost', outcome.cpu],
    ['double bookings', String(doubles)],
  ]);
  return [
    {
      name: 'drop: exactly the capacity booked',
      value: `${outcome.booked.length} answered, ${stored} stored`,
      target: String(capacity),
      met: outcome.booked.length === capacity && stored === capacity,
    },
    { name: 'drop: double bookings', value: String(doubles), target: '0', met: doubles === 0 },
    {
      name: 'drop: every refusal a 409 with alternatives',
      value: `${outcome.withAlternatives} of ${outcome.refused.length + outcome.other.length}`,
      target: 'all',
      met: outcome.other.length === 0 && outcome.withAlternatives === outcome.refused.length,
    },
    { name: 'drop: p99 of every answer', value: ms(p99), target: '< 500 ms', met: p99 < 500 },
  ];
}

async function onSaleScenario(ctx: CrowdContext): Promise<Target[]> {
  const { eventId, ticketTypeId } = ctx.setup.event;
  const quantities = [2, 4, 1, 3];
  const batchesBefore = await bookingBatches(ctx.base, 'ticket');
  const run = await withCpu(ctx.pid, () =>
    drive({
      base: ctx.base,
      connections: RUSH_CONNECTIONS,
      total: ONSALE_ATTEMPTS,
      call: (n) => ({
        method: 'POST',
        path: `/api/public/events/${eventId}/create-intent`,
        body: JSON.stringify({
          selection: { kind: 'ticket', ticket_type_id: ticketTypeId, quantity: quantities[n % quantities.length] },
          guest_name: `Fan ${n}`,
          guest_email: `fan-${n}@example.test`,
          turnstile_token: 'bench',
        }),
      }),
    }),
  );
  const { rows } = await sql<{ sold: number }>`
    select coalesce(sum(t.quantity), 0) as sold from event_tickets t join bookings b on b.id = t.booking_id
    where t.ticket_type_id = ${ticketTypeId} and b.status in ('confirmed', 'pending_payment', 'pending', 'approved', 'checked_in')`.execute(
    ctx.db.kysely,
  );
  const sold = Number(rows[0]?.sold ?? 0);
  const batchesAfter = await bookingBatches(ctx.base, 'ticket');
  const perBatch = (batchesAfter.held - batchesBefore.held) / Math.max(1, batchesAfter.batches - batchesBefore.batches);
  const ok = run.answers.filter((a) => a.status === 200);
  const refused = run.answers.filter((a) => a.status === 409);
  const other = run.answers.length - ok.length - refused.length;
  const p99 = quantile(run.answers, 0.99);
  printTable(`ticket on-sale: ${ONSALE_ATTEMPTS} attempts over ${RUSH_CONNECTIONS} connections for ${ONSALE_TICKETS} tickets`, [
    ['orders (200)', `${ok.length}, p50 ${ms(quantile(ok, 0.5))}, p99 ${ms(quantile(ok, 0.99))}`],
    ['refused (409)', `${refused.length}, p50 ${ms(quantile(refused, 0.5))}, p99 ${ms(quantile(refused, 0.99))}`],
    ['other answers', statuses(run.answers.filter((a) => a.status !== 409))],
    ['tickets sold', String(sold)],
    ['sold out after', ms(Math.max(0, ...ok.map((a) => a.at)))],
    ['cost', run.cpu],
    ['purchases per transaction (group commit)', perBatch.toFixed(1)],
  ]);
  return [
    {
      name: 'on-sale: exactly the tickets sold',
      value: String(sold),
      target: String(ONSALE_TICKETS),
      met: sold === ONSALE_TICKETS && other === 0,
    },
    { name: 'on-sale: p99 of every answer', value: ms(p99), target: '< 500 ms', met: p99 < 500 },
  ];
}

/**
 * Drives one request from a process of its own (bench/neighbour-driver.ts): the neighbour's clients are not
 * the drop's, and must not share its event loop.
 */
const driveApart = (task: { base: string; call: Call; connections: number; durationMs: number }) =>
  driveInChild<{ answered: number; failed: number; elapsedMs: number; p99: number }>(
    new URL('./neighbour-driver.ts', import.meta.url),
    task,
  );

async function neighbourScenario(ctx: CrowdContext): Promise<Target[]> {
  const seconds = Math.max(2, Math.min(ctx.seconds, 5));
  const measure = async (call: Call) => {
    const run = await driveApart({ base: ctx.base, call, connections: 10, durationMs: seconds * 1000 });
    if (run.failed > 0) throw new Error(`neighbour ${call.path}: ${run.failed} answers were not 200`);
    return { rate: (run.answered / run.elapsedMs) * 1000, p99: run.p99 };
  };
  const rows: [string, string][] = [];
  const targets: Target[] = [];
  let round = 100;
  for (const neighbour of ctx.neighbours) {
    const alone = await measure(neighbour.call);
    // Drops back to back, each on a new date, for as long as the neighbour is measured.
    let dropping = true;
    const firstRound = round;
    const drops = (async () => {
      while (dropping) await drop(ctx, addDays(ctx.today, 40 + round), round++);
    })();
    const during = await measure(neighbour.call);
    dropping = false;
    await drops;
    const share = during.rate / alone.rate;
    rows.push([
      neighbour.name,
      `alone ${alone.rate.toFixed(0)}/s p99 ${ms(alone.p99)}; during drops ${during.rate.toFixed(0)}/s p99 ${ms(during.p99)} (${(share * 100).toFixed(0)} %); ${round - firstRound} drops of ${DROP_GUESTS} guests ran`,
    ]);
    targets.push({
      name: `neighbour: ${neighbour.name}`,
      value: `${(share * 100).toFixed(0)} % of alone`,
      target: '≥ 50 %',
      met: share >= 0.5,
    });
  }
  printTable(`neighbour: 10 connections on another venue, alone and while drops run (${seconds} s each)`, rows);
  return targets;
}
