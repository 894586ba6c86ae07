/**
 * The booking-engine bench's venue and its scenarios (`npm run bench`): a live venue with 40 tables of 2
 * to 10 seats in four areas, 6 combinations, 4 shifts covering the week, 8 access rules (one with a
 * deposit policy, one guest list) and 2,000 bookings over 60 days (ten days back to fifty ahead, Fridays
 * and Saturdays twice as busy) in the states a floor sees.
 *
 * The venue, its floorplan, availability and policy go through the HTTP API as its Owner: about 70
 * requests, and every validation applies. The bookings are inserted directly, in batches inside one
 * transaction (2,000 through the API would take longer than the bench itself), with exactly the rows
 * the engine leaves: the booking, its tables in `booking_tables`, one `booking_slots` row per table and
 * 15-minute slot while it is active (pending, approved, confirmed, checked in), and its history. They are
 * placed by a seeded generator so every run seeds the same venue relative to today, and no two bookings
 * share a table at the same time (the slots' primary key would refuse it anyway).
 */
import type autocannon from 'autocannon';
import type { Insertable } from 'kysely';
import { chunked } from '../src/db/batch.js';
import type { Db } from '../src/db/connect.js';
import { withTransaction } from '../src/db/transaction.js';
import { demoLogo } from '../src/demo/logo.js';
import { addDays, dayOfWeek, localToday, localToUtc } from '../src/domain/venue-time.js';
import type {
  BookingHistoryTable,
  BookingsTable,
  BookingSlotsTable,
  BookingTablesTable,
} from '../src/modules/bookings/core/bookings.table.js';
import { slotsOf } from '../src/modules/bookings/core/slots.js';
import { newId } from '../src/platform/ids.js';
import { seedFetch } from './server.js';

export interface Scenario {
  name: string;
  /** Path and query of the request; the origin of the server it runs on is put in front. */
  path: string;
  /** autocannon's options besides the URL (method, headers, a `setupRequest` per request). */
  opts?: Omit<autocannon.Options, 'url'>;
  /** Runs on the second server, started with AVAILABILITY_CACHE_MS=0 (and set against its own /healthz). */
  uncached?: boolean;
}

/** The Turnstile test secret that always passes (CONTRACT §3): the bench server is given it, and any token passes. */
export const BENCH_TURNSTILE_SECRET = '1x0000000000000000000000000000000AA';

const TIMEZONE = 'Europe/London';
const BOOKINGS = 2000;
const DAYS = 60;
const PAST_DAYS = 10;
/** The venue's booking horizon: the write scenario books the days between the seeded ones and it. */
const HORIZON_DAYS = 365;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32): the same seed, the same venue. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---- The venue ----

type Area = 'main' | 'bar' | 'terrace' | 'private';
const AREA_NAMES: Record<Area, string> = { main: 'Main room', bar: 'Bar', terrace: 'Terrace', private: 'Private room' };

interface TableSpec {
  number: string;
  capacity: number;
  area: Area;
}

const TABLES: TableSpec[] = [
  ...Array.from({ length: 18 }, (_, i) => ({ number: `T${i + 1}`, capacity: [2, 2, 4, 4, 4, 6][i % 6], area: 'main' as const })),
  ...Array.from({ length: 8 }, (_, i) => ({ number: `B${i + 1}`, capacity: 2, area: 'bar' as const })),
  ...[2, 2, 4, 4, 4, 6, 6, 8].map((capacity, i) => ({ number: `P${i + 1}`, capacity, area: 'terrace' as const })),
  ...[6, 6, 8, 8, 10, 10].map((capacity, i) => ({ number: `R${i + 1}`, capacity, area: 'private' as const })),
];
const minCoversOf = (capacity: number) => (capacity <= 4 ? 1 : capacity <= 6 ? 2 : capacity - 4);

const COMBOS = [
  ['T3', 'T4'],
  ['T9', 'T10'],
  ['T15', 'T16', 'T17'],
  ['B1', 'B2'],
  ['P3', 'P4', 'P5'],
  ['R5', 'R6'],
];

const SHIFTS = [
  { name: 'Brunch', days_of_week: ['sat', 'sun'], time_from: '10:00', time_to: '12:00' },
  { name: 'Lunch', days_of_week: WEEK, time_from: '12:00', time_to: '17:00' },
  { name: 'Dinner', days_of_week: ['mon', 'tue', 'wed', 'thu', 'sun'], time_from: '17:00', time_to: '23:00' },
  { name: 'Late dinner', days_of_week: ['fri', 'sat'], time_from: '17:00', time_to: '02:00' },
];

/**
 * The table rules bookings are seeded under (`weight`: their share), plus two that are not: the
 * private room's deposit rule (no seeded booking needs a payment) and the weekend guest list.
 */
interface RuleSpec {
  name: string;
  days: string[];
  from: string;
  to: string;
  party: [number, number];
  /** Length of stay; the venue's 120 minutes when unset. */
  minutes?: number;
  area?: Area;
  weight: number;
}

/** `Tables` is also the rule the write scenario books: every day, noon to 22:00, no payment. */
const TABLE_RULES: RuleSpec[] = [
  { name: 'Tables', days: WEEK, from: '12:00', to: '22:00', party: [1, 6], weight: 40 },
  { name: 'Weekend brunch', days: ['sat', 'sun'], from: '10:00', to: '12:00', party: [1, 8], minutes: 90, weight: 8 },
  {
    name: 'Bar lunch',
    days: ['mon', 'tue', 'wed', 'thu', 'fri'],
    from: '12:00',
    to: '14:30',
    party: [1, 2],
    minutes: 60,
    area: 'bar',
    weight: 10,
  },
  { name: 'Group dinner', days: WEEK, from: '18:00', to: '22:00', party: [5, 10], minutes: 150, weight: 12 },
  { name: 'Weekend late tables', days: ['fri', 'sat'], from: '22:00', to: '23:30', party: [2, 8], weight: 8 },
  { name: 'Terrace', days: WEEK, from: '12:00', to: '20:00', party: [1, 6], minutes: 90, area: 'terrace', weight: 18 },
];

/** What `seedBookingVenue` made and the scenarios need. */
export interface BookingVenue {
  venueId: string;
  /** The `Tables` rule, booked by the write scenario. */
  ruleId: string;
  /** The upcoming date with the most active bookings, and how many it has. */
  busyDate: string;
  busyBookings: number;
  today: string;
  seeded: { bookings: number; slots: number; byStatus: Record<string, number>; ms: number };
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
  return {
    id: async (url: string, body: unknown) => (await call('POST', url, body)).id as string,
    post: (url: string, body: unknown) => call('POST', url, body),
    put: (url: string, body: unknown) => call('PUT', url, body),
  };
}

/** Builds the venue through the API as the signed-in Owner (`token`), then seeds its bookings into `db`. */
export async function seedBookingVenue(options: { base: string; token: string; db: Db; now: Date }): Promise<BookingVenue> {
  const http = api(options.base, options.token);
  const venueId = await http.id('/api/my-venues', {
    name: 'Bench Brasserie',
    address: '2 Bench Street, London',
    venue_type: 'restaurant',
    phone: '+44 20 7946 0000',
    email: 'hello@brasserie.example',
    backdoor_capacity: 20,
    last_entry_time: '23:00',
    timezone: TIMEZONE,
    default_booking_duration: 120,
    default_party_min: 1,
    default_party_max: 10,
    booking_start_value: HORIZON_DAYS,
    booking_start_unit: 'days',
    opening_hours: Object.fromEntries(WEEK.map((d) => [d, [{ open: '10:00', close: ['fri', 'sat'].includes(d) ? '02:00' : '23:30' }]])),
    tables_enabled: true,
    guest_list_enabled: true,
  });
  const base = `/api/my-venues/${venueId}`;
  await http.post(`/api/venues/${venueId}/logo`, { data: await demoLogo() });

  const areaIds = {} as Record<Area, string>;
  for (const area of Object.keys(AREA_NAMES) as Area[]) areaIds[area] = await http.id(`${base}/seating-areas`, { name: AREA_NAMES[area] });
  const tableIds = new Map<string, string>();
  for (const t of TABLES) {
    tableIds.set(
      t.number,
      await http.id(`${base}/tables`, { table_number: t.number, capacity: t.capacity, min_covers: minCoversOf(t.capacity) }),
    );
  }
  for (const area of Object.keys(AREA_NAMES) as Area[]) {
    const ids = TABLES.filter((t) => t.area === area).map((t) => tableIds.get(t.number)!);
    await http.post(`${base}/tables/set-area`, { table_ids: ids, seating_area_id: areaIds[area] });
  }
  for (const combo of COMBOS)
    await http.post(`${base}/tables/combos`, { name: combo.join('+'), table_ids: combo.map((n) => tableIds.get(n)!) });

  for (const shift of SHIFTS) await http.id(`${base}/shifts`, { ...shift, time_type: 'custom' });
  const deposit = await http.id(`${base}/payment-policies`, {
    name: 'Private room deposit',
    deposit_type: 'deposit',
    refund_type: 'full',
    cancel_type: 'anytime',
  });
  const pricelist = await http.id(`${base}/pricelists`, { name: 'Private room', default_price_pence: 2000 });
  const ruleIds = new Map<string, string>();
  for (const rule of TABLE_RULES) {
    ruleIds.set(
      rule.name,
      await http.id(`${base}/access-rules`, {
        name: rule.name,
        rule_type: 'table',
        days_of_week: rule.days,
        time_from: rule.from,
        time_to: rule.to,
        party_size_enabled: true,
        party_size_min: rule.party[0],
        party_size_max: rule.party[1],
        ...(rule.minutes ? { duration_enabled: true, duration_minutes: rule.minutes } : {}),
        ...(rule.area ? { seating_enabled: true, seating_area_ids: [areaIds[rule.area]] } : {}),
      }),
    );
  }
  await http.id(`${base}/access-rules`, {
    name: 'Private dining',
    rule_type: 'table',
    days_of_week: ['fri', 'sat'],
    time_from: '19:00',
    time_to: '22:00',
    party_size_enabled: true,
    party_size_min: 6,
    party_size_max: 10,
    seating_enabled: true,
    seating_area_ids: [areaIds.private],
    payment_policy_id: deposit,
    pricelist_id: pricelist,
  });
  await http.id(`${base}/access-rules`, {
    name: 'Late bar guest list',
    rule_type: 'guestlist',
    days_of_week: ['fri', 'sat'],
    time_from: '22:00',
    time_to: '02:00',
    max_covers_enabled: true,
    max_covers: 80,
  });
  await http.put(`${base}/status`, { status: 'live' });

  const seeded = await seedBookings(options.db, { id: venueId, tableIds, ruleIds }, options.now);
  return { venueId, ruleId: ruleIds.get('Tables')!, ...seeded };
}

// ---- The bookings ----

interface Unit {
  tableIds: string[];
  capacity: number;
  minCovers: number;
}

const PARTY_SIZES = [2, 2, 2, 2, 3, 4, 4, 4, 5, 6, 6, 7, 8, 10];
const FIRST = ['Amelia', 'Oliver', 'Priya', 'James', 'Sophie', 'Mohammed', 'Charlotte', 'Daniel', 'Isla', 'Arjun', 'Grace', 'Lucas'];
const LAST = ['Hughes', 'Bennett', 'Sharma', 'Okafor', 'Turner', 'Rahman', 'Evans', 'Kowalski', 'Campbell', 'Patel', 'Morgan', 'Silva'];

/** Which tables and combinations may seat a rule's bookings: its area's, or every one. */
function unitsOf(rule: RuleSpec, tableIds: Map<string, string>): Unit[] {
  const inArea = (n: string) => !rule.area || TABLES.find((t) => t.number === n)!.area === rule.area;
  const tables = TABLES.filter((t) => inArea(t.number)).map((t) => ({
    tableIds: [tableIds.get(t.number)!],
    capacity: t.capacity,
    minCovers: minCoversOf(t.capacity),
  }));
  const combos = COMBOS.filter((combo) => combo.every(inArea)).map((combo) => {
    const specs = combo.map((n) => TABLES.find((t) => t.number === n)!);
    return {
      tableIds: combo.map((n) => tableIds.get(n)!),
      capacity: specs.reduce((sum, t) => sum + t.capacity, 0),
      minCovers: specs.reduce((sum, t) => sum + minCoversOf(t.capacity), 0),
    };
  });
  return [...tables, ...combos];
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const clockOf = (minutes: number) => `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/**
 * Places BOOKINGS bookings and inserts them. Each is a rule that runs on its date, a party the rule
 * takes, a start on the 15-minute grid of the rule's window, and the smallest free table or combination
 * of the rule's tables that seats the party; a booking that finds none is tried elsewhere.
 */
async function seedBookings(
  db: Db,
  venue: { id: string; tableIds: Map<string, string>; ruleIds: Map<string, string> },
  now: Date,
): Promise<Omit<BookingVenue, 'venueId' | 'ruleId'>> {
  const started = Date.now();
  const random = prng(20_260_615);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const today = localToday(now, TIMEZONE);
  const dates = Array.from({ length: DAYS }, (_, i) => addDays(today, i - PAST_DAYS));
  const dateWeights = dates.map((d) => (['fri', 'sat'].includes(dayOfWeek(d)) ? 2 : 1));
  const weightedDate = () => {
    let r = random() * dateWeights.reduce((a, b) => a + b, 0);
    for (let i = 0; i < dates.length; i++) if ((r -= dateWeights[i]) < 0) return dates[i];
    return dates.at(-1)!;
  };
  const units = new Map(TABLE_RULES.map((rule) => [rule.name, unitsOf(rule, venue.tableIds)]));
  const busy = new Map<string, [number, number][]>();
  const free = (unit: Unit, start: number, end: number) =>
    unit.tableIds.every((id) => (busy.get(id) ?? []).every(([s, e]) => e <= start || s >= end));
  const operator = await db.kysely.selectFrom('venues').select('operator_id').where('id', '=', venue.id).executeTakeFirstOrThrow();

  const bookings: Insertable<BookingsTable>[] = [];
  const bookingTables: Insertable<BookingTablesTable>[] = [];
  const slots: Insertable<BookingSlotsTable>[] = [];
  const history: Insertable<BookingHistoryTable>[] = [];
  const byStatus: Record<string, number> = {};
  const activeByDate = new Map<string, number>();

  while (bookings.length < BOOKINGS) {
    const date = weightedDate();
    const rules = TABLE_RULES.filter((r) => r.days.includes(dayOfWeek(date)));
    let r = random() * rules.reduce((sum, rule) => sum + rule.weight, 0);
    const rule = rules.find((candidate) => (r -= candidate.weight) < 0) ?? rules[0];
    const sizes = PARTY_SIZES.filter((p) => p >= rule.party[0] && p <= rule.party[1]);
    const party = sizes.length > 0 ? pick(sizes) : rule.party[0];
    const windowStart = minutesOf(rule.from);
    const windowEnd = minutesOf(rule.to) > windowStart ? minutesOf(rule.to) : minutesOf(rule.to) + 24 * 60;
    const time = clockOf(windowStart + 15 * Math.floor(random() * ((windowEnd - windowStart) / 15)));
    // Starts after midnight belong to the service date but fall on the next calendar day.
    const startsAt = localToUtc(minutesOf(time) < windowStart ? addDays(date, 1) : date, time, TIMEZONE);
    const minutes = rule.minutes ?? 120;
    const start = startsAt.getTime();
    const end = start + minutes * MINUTE;
    // Best fit first (fewest seats, then fewest tables), ties in a random order.
    const unit = units
      .get(rule.name)!
      .filter((u) => u.capacity >= party && u.minCovers <= party)
      .map((u) => ({ u, key: random() }))
      .sort((a, b) => a.u.capacity - b.u.capacity || a.u.tableIds.length - b.u.tableIds.length || a.key - b.key)
      .map(({ u }) => u)
      .find((u) => free(u, start, end));
    if (!unit) continue;
    for (const id of unit.tableIds) {
      if (!busy.has(id)) busy.set(id, []);
      busy.get(id)!.push([start, end]);
    }

    const n = bookings.length;
    // Half an hour after its start a booking has been checked in, or marked a no-show.
    const past = start + 30 * MINUTE <= now.getTime();
    const roll = random();
    const status = past
      ? roll < 0.8
        ? 'checked_in'
        : roll < 0.88
          ? 'no_show'
          : 'cancelled'
      : roll < 0.6
        ? 'confirmed'
        : roll < 0.75
          ? 'pending'
          : roll < 0.88
            ? 'approved'
            : 'cancelled';
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    const active = ['pending', 'approved', 'confirmed', 'checked_in'].includes(status);
    if (active && !past) activeByDate.set(date, (activeByDate.get(date) ?? 0) + 1);

    const id = newId('bkg');
    const created = new Date(Math.min(start - (1 + Math.floor(random() * 21)) * DAY, now.getTime() - (n + 1) * MINUTE));
    const initial = status === 'pending' || status === 'approved' ? 'pending' : 'confirmed';
    const moved =
      status === 'checked_in'
        ? { at: new Date(start + 5 * MINUTE), action: 'check_in' }
        : status === 'no_show'
          ? { at: new Date(start + 30 * MINUTE), action: 'set_status' }
          : status === 'cancelled'
            ? { at: new Date((created.getTime() + Math.min(start, now.getTime())) / 2), action: 'staff_cancel' }
            : status === 'approved'
              ? { at: new Date(Math.min(created.getTime() + 2 * 60 * MINUTE, now.getTime())), action: 'approve' }
              : null;
    const changedAt = (moved?.at ?? created).toISOString();
    const name = `${pick(FIRST)} ${pick(LAST)}`;
    const source = party >= 7 || random() < 0.2 ? 'staff' : 'widget';
    bookings.push({
      id,
      operator_id: operator.operator_id,
      venue_id: venue.id,
      kind: 'table',
      rule_type: 'table',
      status,
      user_id: null,
      event_id: null,
      access_rule_id: venue.ruleIds.get(rule.name)!,
      booking_date: date,
      start_time: time,
      duration_minutes: minutes,
      starts_at: startsAt.toISOString(),
      ends_at: new Date(end).toISOString(),
      guest_count: party,
      guest_name: name,
      guest_email: `${name.toLowerCase().replace(' ', '.')}.${n}@example.test`,
      guest_phone: `+44 7700 900${String(n % 1000).padStart(3, '0')}`,
      source,
      status_changed_at: changedAt,
      checked_in_at: status === 'checked_in' ? changedAt : null,
      cancelled_at: status === 'cancelled' ? changedAt : null,
      cancel_reason: status === 'cancelled' ? 'Guest called to cancel' : null,
      created_at: created.toISOString(),
      updated_at: changedAt,
    });
    for (const tableId of unit.tableIds) {
      bookingTables.push({
        booking_id: id,
        table_id: tableId,
        venue_id: venue.id,
        starts_at: startsAt.toISOString(),
        ends_at: new Date(end).toISOString(),
      });
      if (active)
        for (const slot of slotsOf(startsAt, new Date(end))) slots.push({ table_id: tableId, slot, booking_id: id, venue_id: venue.id });
    }
    history.push({
      id: newId('bkh'),
      booking_id: id,
      at: created.toISOString(),
      actor_kind: source === 'staff' ? 'staff' : 'guest',
      actor_id: null,
      actor_name: source === 'staff' ? 'Bench' : name,
      action: 'create',
      from_status: null,
      to_status: initial,
      detail: JSON.stringify({ table_ids: unit.tableIds, deposit_pence: 0 }),
    });
    if (moved) {
      history.push({
        id: newId('bkh'),
        booking_id: id,
        at: changedAt,
        actor_kind: 'staff',
        actor_id: null,
        actor_name: 'Bench',
        action: moved.action,
        from_status: initial,
        to_status: status,
        detail: '{}',
      });
    }
  }

  await withTransaction(db, async (trx) => {
    for (const chunk of chunked(bookings)) await trx.insertInto('bookings').values(chunk).execute();
    for (const chunk of chunked(bookingTables)) await trx.insertInto('booking_tables').values(chunk).execute();
    for (const chunk of chunked(slots)) await trx.insertInto('booking_slots').values(chunk).execute();
    for (const chunk of chunked(history)) await trx.insertInto('booking_history').values(chunk).execute();
  });
  const [busyDate, busyBookings] = [...activeByDate].filter(([d]) => d > today).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
  return { busyDate, busyBookings, today, seeded: { bookings: bookings.length, slots: slots.length, byStatus, ms: Date.now() - started } };
}

// ---- The scenarios ----

/** Dates of the seeded range that the availability scenario cycles through, from today on. */
const CYCLED_DATES = 30;

/**
 * The booking engine's hot paths on the seeded venue: public availability for a party of 2 on its
 * busiest upcoming date (the cached path: the server's answer cache serves all but the first request),
 * and cycling through 30 dates of the seeded range on the server without that cache (each request the
 * next date, every one computed); its public floorplan on the busy date at 20:00 (cached like
 * availability); and public bookings (bot check on, always-pass secret), each for a slot no other
 * request takes: the `Tables` rule's 40 starts a day on dates past the seeded 60 days, one after another.
 */
export function bookingScenarios(venue: BookingVenue): Scenario[] {
  const publicBase = `/api/public/venues/${venue.venueId}`;
  const availabilityOf = (date: string) => `/api/public/venues/${venue.venueId}/availability?date=${date}&party_size=2`;
  const cycled = Array.from({ length: CYCLED_DATES }, (_, i) => addDays(venue.today, i));
  let nextDate = 0;

  const startsPerDay = 40;
  const firstDay = DAYS - PAST_DAYS + 1;
  const firstDate = addDays(venue.today, firstDay);
  // The last bookable date is today + HORIZON_DAYS − 1 (its 21:45 is inside the horizon).
  const dates = HORIZON_DAYS - firstDay;
  let next = 0;
  const nextBody = () => {
    // Past the last distinct slot it would come round again: 409s, counted as non-2xx.
    const n = next++ % (dates * startsPerDay);
    return JSON.stringify({
      access_rule_id: venue.ruleId,
      rule_type: 'table',
      date: addDays(firstDate, Math.floor(n / startsPerDay)),
      time: clockOf(12 * 60 + 15 * (n % startsPerDay)),
      party_size: 2,
      guest_name: `Bench Guest ${n}`,
      guest_email: `bench-guest-${n}@example.test`,
      turnstile_token: 'bench',
    });
  };
  return [
    { name: 'GET availability, one date (cached)', path: availabilityOf(venue.busyDate) },
    {
      name: `GET availability, ${CYCLED_DATES} dates (uncached)`,
      path: availabilityOf(cycled[0]),
      opts: { requests: [{ setupRequest: (request) => ({ ...request, path: availabilityOf(cycled[nextDate++ % cycled.length]) }) }] },
      uncached: true,
    },
    { name: 'GET public floorplan, one date (cached)', path: `${publicBase}/floorplan?date=${venue.busyDate}&time=20:00&party_size=2` },
    {
      name: 'POST public book (distinct slots)',
      path: `${publicBase}/book`,
      opts: {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        requests: [{ setupRequest: (request) => ({ ...request, body: nextBody() }) }],
      },
    },
  ];
}
