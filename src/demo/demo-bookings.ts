/**
 * The demo venue's week of reservations (two days back to five ahead, in every state a floor sees; today
 * and tomorrow also a couple without a table, and tonight a block),
 * seeded through the bookings module (`seedDemoBookings`) rather than the API: a booking made through the
 * API is made now, while these carry the times they would have had (made days before, approved, checked
 * in at their start, cancelled or marked no-show), history included. Only a venue without bookings gets
 * them, so a second run adds nothing.
 */
import type { Db } from '../db/connect.js';
import { addDays, localToUtc, localToday, utcToLocal } from '../domain/venue-time.js';
import { seedDemoBookings, type SeedBooking } from '../modules/bookings/index.js';
import type { Clock } from '../platform/clock.js';
import type { Payments } from '../modules/payments/index.js';
import type { DemoApi } from './demo-vouchers.js';

/** The days the demo venue is closed (its blackout): no bookings then. */
export const CLOSED = { from: '2026-12-25', to: '2026-12-26' };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The access rule each meal is booked under, and its length of stay (the rule's, else the venue's 120 minutes). */
const MEALS = { lunch: { rule: 'Lunch tables', minutes: 90 }, dinner: { rule: 'Dinner tables', minutes: 120 } };

interface Sitting {
  meal: keyof typeof MEALS;
  time: string;
  tables: string[];
  party: number;
  /**
   * Every day and never cancelled: the booths, the centre and the terrace long table taken from about
   * 19:00, so a party of eight finds the evening full (what a busy night looks like in availability).
   */
  anchor?: boolean;
}

/** A day's reservations by table; no two share a table at the same time, so any subset of them is a valid day. */
const SITTINGS: Sitting[] = [
  { meal: 'lunch', time: '12:00', tables: ['1'], party: 2 },
  { meal: 'lunch', time: '12:30', tables: ['5'], party: 4 },
  { meal: 'lunch', time: '13:00', tables: ['20'], party: 3 },
  { meal: 'lunch', time: '13:15', tables: ['26'], party: 6 },
  { meal: 'lunch', time: '13:30', tables: ['2'], party: 2 },
  { meal: 'dinner', time: '17:30', tables: ['3'], party: 2 },
  { meal: 'dinner', time: '18:00', tables: ['8'], party: 4 },
  { meal: 'dinner', time: '18:30', tables: ['6'], party: 4, anchor: true },
  { meal: 'dinner', time: '19:00', tables: ['11'], party: 8, anchor: true },
  { meal: 'dinner', time: '19:00', tables: ['12'], party: 7, anchor: true },
  { meal: 'dinner', time: '19:15', tables: ['20', '21', '22'], party: 8, anchor: true },
  { meal: 'dinner', time: '19:30', tables: ['1', '2'], party: 4 },
  { meal: 'dinner', time: '20:00', tables: ['4'], party: 2 },
  { meal: 'dinner', time: '20:30', tables: ['9'], party: 3 },
  { meal: 'dinner', time: '21:00', tables: ['5'], party: 4 },
  { meal: 'dinner', time: '21:15', tables: ['24'], party: 4 },
  { meal: 'dinner', time: '21:30', tables: ['27'], party: 5 },
];

const GUESTS = [
  'Amelia Hughes',
  'Oliver Bennett',
  'Priya Sharma',
  'James Okafor',
  'Sophie Turner',
  'Mohammed Rahman',
  'Charlotte Evans',
  'Daniel Kowalski',
  "Siobhan O'Neill",
  'Thomas Wright',
  'Isla Campbell',
  'Arjun Patel',
  'Grace Morgan',
  'Lucas Silva',
  'Hannah Fischer',
  'Kwame Mensah',
  'Emily Clarke',
  'Ravi Gupta',
  'Chloe Martin',
  'George Adeyemi',
  'Freya Lindqvist',
  'Samuel Cohen',
  'Mia Rossi',
  'Benjamin Walker',
  'Zara Ahmed',
  'William Davies',
  'Aisha Bello',
  'Harry Thompson',
  'Yuki Tanaka',
  'Eleanor Price',
];

const NOTES = [null, 'Birthday: a candle on dessert, please', null, 'Nut allergy', null, 'Window table if possible', 'Anniversary'];
const CANCEL_REASONS = ['Guest called to cancel', 'Change of plans; they will rebook', 'Illness in the party'];

const clockPlus = (time: string, minutes: number) => {
  const total = Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5)) + minutes;
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
};

/**
 * What became of booking `i` by `now`: started ones were mostly checked in (some no-shows, some
 * cancelled beforehand); upcoming ones are confirmed, awaiting approval, approved or cancelled. Large
 * parties wait for the venue's approval. Every move happens after the booking was made and by `now`.
 */
function storyOf(i: number, anchor: boolean, startsAt: Date, now: Date): Pick<SeedBooking, 'initialStatus' | 'createdAt' | 'moves'> {
  const start = startsAt.getTime();
  const at = now.getTime();
  const createdAt = new Date(Math.min(start - (1 + (i % 9)) * DAY - (i % 5) * HOUR, at - (30 + i) * MINUTE));
  const approve = { to: 'approved' as const, at: new Date(Math.min(createdAt.getTime() + 3 * HOUR, at)) };
  const cancel = {
    to: 'cancelled' as const,
    at: new Date((createdAt.getTime() + Math.min(start, at)) / 2),
    reason: CANCEL_REASONS[i % CANCEL_REASONS.length],
  };
  if (start <= at) {
    const checkIn = { to: 'checked_in' as const, at: new Date(Math.min(start + 7 * MINUTE, at)) };
    if (anchor) return { initialStatus: 'pending', createdAt, moves: [approve, checkIn] };
    if (i % 6 === 2 && start + 30 * MINUTE <= at) {
      return { initialStatus: 'confirmed', createdAt, moves: [{ to: 'no_show', at: new Date(start + 30 * MINUTE) }] };
    }
    if (i % 6 === 4) return { initialStatus: 'confirmed', createdAt, moves: [cancel] };
    return { initialStatus: 'confirmed', createdAt, moves: [checkIn] };
  }
  if (anchor) {
    if (i % 3 === 0) return { initialStatus: 'pending', createdAt, moves: [] };
    if (i % 3 === 1) return { initialStatus: 'pending', createdAt, moves: [approve] };
    return { initialStatus: 'confirmed', createdAt, moves: [] };
  }
  if (i % 6 === 1) return { initialStatus: 'pending', createdAt, moves: [] };
  if (i % 6 === 3) return { initialStatus: 'pending', createdAt, moves: [approve] };
  if (i % 6 === 4) return { initialStatus: 'confirmed', createdAt, moves: [cancel] };
  return { initialStatus: 'confirmed', createdAt, moves: [] };
}

/**
 * The week around `now` (venue-local today − 2 … today + 5): the day's sittings, a few left out on
 * quieter days, all a quarter of an hour later on every other day. Lunches are mostly booked online;
 * dinners are taken by phone (the dinner rule's deposit is for online bookings).
 */
function demoWeek(now: Date, zone: string, tableId: (n: string) => string, ruleId: Record<keyof typeof MEALS, string>): SeedBooking[] {
  const today = localToday(now, zone);
  const week: SeedBooking[] = [];
  for (let day = -2; day <= 5; day++) {
    const date = addDays(today, day);
    if (date >= CLOSED.from && date <= CLOSED.to) continue;
    SITTINGS.forEach((sitting, j) => {
      if (!sitting.anchor && (j + day + 10) % 5 === 0) return;
      const i = week.length;
      const time = clockPlus(sitting.time, ((day + 2) % 2) * 15);
      const name = GUESTS[(i * 7) % GUESTS.length];
      const meal = MEALS[sitting.meal];
      week.push({
        date,
        time,
        durationMinutes: meal.minutes,
        tableIds: sitting.tables.map(tableId),
        accessRuleId: ruleId[sitting.meal],
        partySize: sitting.party,
        guest: {
          name,
          email: `${name.toLowerCase().replace(/'/g, '').replace(/ /g, '.')}@example.test`,
          phone: `+44 7700 900${String(100 + i).padStart(3, '0')}`,
        },
        notes: NOTES[i % NOTES.length],
        source: sitting.meal === 'dinner' || i % 4 === 0 ? 'staff' : 'widget',
        ...storyOf(i, Boolean(sitting.anchor), localToUtc(date, time, zone), now),
      });
    });
    // Today and tomorrow also have a couple of reservations without a table yet (the floor's unassigned strip).
    if (day === 0 || day === 1) {
      for (const [time, party] of [
        ['19:45', 2],
        ['20:45', 3],
      ] as const) {
        const i = week.length;
        const name = GUESTS[(i * 11) % GUESTS.length];
        week.push({
          date,
          time,
          durationMinutes: MEALS.dinner.minutes,
          tableIds: [],
          accessRuleId: ruleId.dinner,
          partySize: party,
          guest: { name, email: `${name.toLowerCase().replace(/'/g, '').replace(/ /g, '.')}@example.test`, phone: null },
          notes: 'Seat when a table frees up',
          source: 'staff',
          initialStatus: 'confirmed',
          createdAt: new Date(now.getTime() - (2 + i) * HOUR),
          moves: [],
        });
      }
    }
  }
  return week;
}

/** Seeds the week when the venue has no bookings yet (so a second run adds nothing). */
export async function addWeekOfBookings(
  api: DemoApi,
  services: { db: Db; clock: Clock; payments?: Pick<Payments, 'providerName' | 'confirmSimulated'> },
  venue: { id: string; operatorId: string; timezone: string },
): Promise<void> {
  const venueId = venue.id;
  const base = `/api/my-venues/${venueId}`;
  if ((await api.get<{ total: number }>(`${base}/bookings?limit=1`)).total > 0) return;
  const tables = (await api.get<{ data: { id: string; table_number: string }[] }>(`${base}/tables`)).data;
  const rules = (await api.get<{ data: { id: string; name: string }[] }>(`${base}/access-rules`)).data;
  const { user } = await api.get<{ user: { id: string; name: string } }>('/api/auth/me');
  const find = <T extends object>(rows: T[], match: (row: T) => boolean, what: string): T => {
    const row = rows.find(match);
    if (!row) throw new Error(`demo: the venue has no ${what}`);
    return row;
  };
  const week = demoWeek(services.clock.now(), venue.timezone, (n) => find(tables, (t) => t.table_number === n, `table ${n}`).id, {
    lunch: find(rules, (r) => r.name === MEALS.lunch.rule, MEALS.lunch.rule).id,
    dinner: find(rules, (r) => r.name === MEALS.dinner.rule, MEALS.dinner.rule).id,
  });
  await seedDemoBookings(services.db, venue, { kind: 'staff', id: user.id, name: user.name }, week);
  // Tonight table 7 is held for a private party's set-up: a block on the floor.
  const today = localToday(services.clock.now(), venue.timezone);
  await api.post(`${base}/tables/block`, {
    table_ids: [find(tables, (t) => t.table_number === '7', 'table 7').id],
    from: `${today}T17:30`,
    to: `${today}T19:30`,
    reason: 'Private party set-up',
  });
  await addTonightsFloor(api, services, venue, tables);
}

interface ListedBooking {
  id: string;
  starts_at: string | null;
  table_ids: string[];
}

/**
 * What makes tonight's floor look like a real one beyond the reservations: deposits asked for by card
 * hold on the next two dinners (the first authorised with the simulated provider's test card and taken,
 * the other waiting for the guest's card), and a walk-in seated now at a free table (without a table when
 * none is free).
 */
async function addTonightsFloor(
  api: DemoApi,
  services: { clock: Clock; payments?: Pick<Payments, 'providerName' | 'confirmSimulated'> },
  venue: { id: string; timezone: string },
  tables: { id: string; table_number: string }[],
): Promise<void> {
  const base = `/api/my-venues/${venue.id}`;
  const now = services.clock.now();
  const { date, time } = utcToLocal(now, venue.timezone);
  const payments = services.payments;
  if (payments?.providerName === 'simulated') {
    const day = (await api.get<{ data: ListedBooking[] }>(`${base}/bookings?date=${date}&status=confirmed&limit=200`)).data;
    const upcoming = day.filter((b) => b.starts_at !== null && b.starts_at > now.toISOString() && b.table_ids.length > 0);
    const [held, asked] = upcoming;
    if (held) {
      const hold = await api.post<{ payment_intent_id: string }>(`/api/bookings/${held.id}/hold/request`, { amount_pence: 2000 });
      await payments.confirmSimulated(hold.payment_intent_id, 'pm_card_visa');
      // Taken as the deposit (a booking shows `held` only once staff act on the hold: it is read from the provider then).
      await api.post(`/api/bookings/${held.id}/hold/capture`, {});
    }
    if (asked) await api.post(`/api/bookings/${asked.id}/hold/request`, { amount_pence: 1500 });
  }
  const free = (
    await api.get<{
      data: { id: string; table_number: string; capacity: number; status: string; is_taken?: boolean; is_blocked?: boolean }[];
    }>(`${base}/tables?date=${date}&time=${time}&duration=90`)
  ).data.find((t) => t.status === 'active' && t.capacity >= 2 && !t.is_taken && !t.is_blocked);
  await api.post(`${base}/staff-bookings`, {
    walk_in: true,
    party_size: 2,
    duration_minutes: 90,
    table_ids: free && tables.some((t) => t.id === free.id) ? [free.id] : [],
    guest_name: 'Walk-in (bar)',
    guest_email: 'walk-in@example.test',
    notes: 'Came in off the street',
  });
}
