/**
 * `maitred demo`: a demo operator with one fully configured venue, built the way a real client builds it —
 * through the HTTP API as the demo account's Owner (in-process `inject`), so every validation and side
 * effect applies exactly as for anyone else. Idempotent: when the demo venue is already there, nothing is
 * created again and the same login and widget URLs are returned.
 *
 * The venue, "The Night Owl" in London, is live with two floors (20 tables, 3 combinations, seating
 * areas), lunch and dinner periods and shifts, three access rules (tables at lunch and dinner with a
 * deposit for larger parties, and a guest list), list and table profiles, an admission group, payment and
 * booking policies, a price list with overrides, a bundle, a promo code, branding and its widgets on.
 * Given the database and clock, it also gets a week of reservations (two days back to five ahead, in
 * every state a floor sees), seeded through the bookings module (`seedDemoBookings`) rather than the API:
 * a booking made through the API is made now, while these carry the times they would have had (made days
 * before, approved, checked in at their start, cancelled or marked no-show), history included.
 * Later modules (guests, events, vouchers) extend it here.
 */
import type { App } from '../app.js';
import type { Db } from '../db/connect.js';
import { addDays, localToUtc, localToday } from '../domain/venue-time.js';
import { seedDemoBookings, type SeedBooking } from '../modules/bookings/index.js';
import type { Clock } from '../platform/clock.js';
import { addDemoVouchers } from './demo-vouchers.js';
import { demoLogo } from './logo.js';

export const DEMO_EMAIL = 'demo@maitred.local';
/** Known on purpose: the demo is for looking around locally. `demo` refuses to run in production. */
export const DEMO_PASSWORD = 'maitred-demo';
const DEMO_OPERATOR = 'Night Owl Hospitality Ltd';
const DEMO_VENUE = 'The Night Owl';
const DEMO_TIMEZONE = 'Europe/London';
/** The venue's Christmas blackout: no bookings are seeded on those days. */
const CLOSED = { from: '2026-12-25', to: '2026-12-26' };

export interface DemoResult {
  email: string;
  password: string;
  operator_id: string;
  venue_id: string;
  created: boolean;
  widgets: Record<string, string | null>;
}

/** A small API client over `inject` that fails loudly with the route and the answer. */
function client(app: App, token?: string) {
  // The answers are the API's documented shapes; callers name the part they read.
  const call = async <T>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object): Promise<T> => {
    const res = await app.inject({
      method,
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload ? { payload } : {}),
    });
    if (res.statusCode !== 200 && res.statusCode !== 201) throw new Error(`demo: ${method} ${url} answered ${res.statusCode}: ${res.body}`);
    return res.json<T>();
  };
  return {
    get: <T>(url: string) => call<T>('GET', url),
    post: <T = unknown>(url: string, payload?: object) => call<T>('POST', url, payload),
    put: (url: string, payload: object) => call<unknown>('PUT', url, payload),
    /** A create: its new id. */
    id: async (url: string, payload: object) => (await call<{ id: string }>('POST', url, payload)).id,
  };
}

type Client = ReturnType<typeof client>;

async function login(app: App): Promise<Client> {
  const { token } = await client(app).post<{ token: string }>('/api/auth/login', { email: DEMO_EMAIL, password: DEMO_PASSWORD });
  return client(app, token);
}

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const WEEKEND = ['fri', 'sat'];

/** Ground floor: tables 1–12 in three rows; terrace: tables 20–27. */
const GROUND = Array.from({ length: 12 }, (_, i) => ({
  number: String(i + 1),
  capacity: i < 4 ? 2 : i < 10 ? 4 : 8,
  min: i < 4 ? 1 : i < 10 ? 2 : 5,
  type: i >= 10 ? 'booth' : 'standard',
  x: 80 + (i % 4) * 140,
  y: 80 + Math.floor(i / 4) * 140,
}));
const TERRACE = Array.from({ length: 8 }, (_, i) => ({
  number: String(20 + i),
  capacity: i < 6 ? 4 : 6,
  min: i < 6 ? 2 : 3,
  type: 'high',
  x: 80 + (i % 4) * 140,
  y: 80 + Math.floor(i / 4) * 160,
}));

const canvas = (tables: typeof GROUND, label: string) => [
  { type: 'text', x: 20, y: 20, text: label },
  ...tables.map((t) => ({
    type: 'table',
    tableNumber: t.number,
    tableType: t.type,
    minCovers: t.min,
    maxCovers: t.capacity,
    shape: t.capacity > 4 ? 'rect' : 'round',
    size: t.capacity > 4 ? 'large' : 'medium',
    x: t.x,
    y: t.y,
  })),
];

/** What the week of bookings is written with: the application's own database and clock (its context). */
export interface DemoServices {
  db: Db;
  clock: Clock;
}

/**
 * Creates (or finds) the demo account, venue and configuration; returns the login and widget URLs. A
 * venue without bookings also gets its week of bookings around `services.clock`'s today.
 */
export async function runDemo(
  app: App,
  createOperator: (input: { operatorName: string; userName: string; email: string; password: string }) => Promise<unknown>,
  services: DemoServices,
): Promise<DemoResult> {
  let api: Client;
  try {
    api = await login(app);
  } catch {
    await createOperator({ operatorName: DEMO_OPERATOR, userName: 'Demo Owner', email: DEMO_EMAIL, password: DEMO_PASSWORD });
    api = await login(app);
  }
  const operatorId = (await api.get<{ id: string }>('/api/my-operator')).id;
  const existing = (await api.get<{ data: { id: string; name: string; status: string }[] }>('/api/my-venues')).data.find(
    (v) => v.name === DEMO_VENUE && v.status === 'live',
  );
  const venueId = existing?.id ?? (await buildVenue(api));
  await addWeekOfBookings(api, services, operatorId, venueId);
  await addDemoVouchers(api, services, { id: venueId, operatorId, timezone: DEMO_TIMEZONE });
  // Each widget's page (null while it is off, as the public combo config shows them).
  const settings = (await api.get<{ data: Record<string, { enabled: boolean; url: string }> }>(`/api/my-venues/${venueId}/widget-settings`))
    .data;
  const widgets = Object.fromEntries(Object.entries(settings).map(([type, widget]) => [type, widget.enabled ? widget.url : null]));
  return { email: DEMO_EMAIL, password: DEMO_PASSWORD, operator_id: operatorId, venue_id: venueId, created: !existing, widgets };
}

async function buildVenue(api: Client): Promise<string> {
  const venueId = await api.id('/api/my-venues', {
    name: DEMO_VENUE,
    address: '12 Hoxton Square, London N1 6NU',
    venue_type: 'restaurant',
    food_types: ['Modern British', 'Small plates'],
    phone: '+44 20 7946 0321',
    email: 'hello@nightowl.example',
    backdoor_capacity: 40,
    last_entry_time: '23:30',
    max_plus_ones: 3,
    opening_hours: Object.fromEntries(DAYS.map((d) => [d, [{ open: '12:00', close: WEEKEND.includes(d) ? '01:00' : '23:30' }]])),
    default_booking_duration: 120,
    default_party_min: 1,
    default_party_max: 10,
    booking_start_value: 60,
    booking_start_unit: 'days',
    booking_cutoff_value: 2,
    booking_cutoff_unit: 'hours',
    website: 'https://nightowl.example',
    description: 'A late-night dining room and cocktail bar off Hoxton Square: seasonal plates, natural wine and DJs at the weekend.',
    marketing_sender_name: 'The Night Owl',
    marketing_reply_to: 'hello@nightowl.example',
    instagram_url: 'https://instagram.com/nightowl.example',
    timezone: DEMO_TIMEZONE,
    guest_list_enabled: true,
    tables_enabled: true,
  });
  const base = `/api/my-venues/${venueId}`;
  await api.post(`/api/venues/${venueId}/logo`, { data: await demoLogo() });

  // Floorplan: areas, two floors whose canvas creates the tables, combinations.
  const areas = {
    main: await api.id(`${base}/seating-areas`, { name: 'Main room' }),
    booths: await api.id(`${base}/seating-areas`, { name: 'Booths' }),
    terrace: await api.id(`${base}/seating-areas`, { name: 'Terrace' }),
  };
  await api.id(`${base}/floors`, { name: 'Ground floor', sort_order: 0, canvas_data: canvas(GROUND, 'Ground floor') });
  await api.id(`${base}/floors`, { name: 'Terrace', sort_order: 1, canvas_data: canvas(TERRACE, 'Terrace') });
  const tables = (await api.get<{ data: { id: string; table_number: string }[] }>(`${base}/tables`)).data;
  const table = (n: string) => tables.find((t) => t.table_number === n)!.id;
  await api.post(`${base}/tables/set-area`, {
    table_ids: GROUND.filter((t) => t.type !== 'booth').map((t) => table(t.number)),
    seating_area_id: areas.main,
  });
  await api.post(`${base}/tables/set-area`, { table_ids: ['11', '12'].map(table), seating_area_id: areas.booths });
  await api.post(`${base}/tables/set-area`, { table_ids: TERRACE.map((t) => table(t.number)), seating_area_id: areas.terrace });
  await api.post(`${base}/tables/combos`, { name: 'Window 1+2', table_ids: [table('1'), table('2')] });
  await api.post(`${base}/tables/combos`, { name: 'Centre 5+6+7', table_ids: [table('5'), table('6'), table('7')] });
  await api.post(`${base}/tables/combos`, { name: 'Terrace long table', table_ids: [table('20'), table('21'), table('22')] });

  // Money: price list, payment policies, booking policies, a bundle, a promo code.
  const pricelist = await api.id(`${base}/pricelists`, { name: 'Standard deposits', default_price_pence: 1000 });
  for (const n of ['11', '12']) await api.put(`${base}/pricelists/${pricelist}/tables/${table(n)}`, { price_pence: 2500 });
  const deposit = await api.id(`${base}/payment-policies`, {
    name: 'Deposit, refundable to 24 h',
    deposit_type: 'deposit',
    refund_type: 'full',
    cancel_type: 'cutoff',
    cancel_cutoff_value: 24,
    cancel_cutoff_unit: 'hours',
  });
  await api.id(`${base}/payment-policies`, {
    name: 'Card hold for large groups',
    deposit_type: 'hold',
    refund_type: 'none',
    cancel_type: 'anytime',
  });
  await api.put(`${base}/booking-policies`, {
    tables: 'Tables are held for 15 minutes after the booked time. Parties of 6 or more pay a deposit.',
    guest_list: 'Guest list closes at 23:00. Smart casual; the door has the final say.',
    events: 'Tickets are non-refundable unless the event is cancelled.',
  });
  const bundle = await api.id(`${base}/bundles`, { name: 'Celebration', applicable_profiles: ['tables'] });
  await api.post(`${base}/bundles/${bundle}/items`, { name: 'Bottle of Champagne', price: 6500, max_qty: 3 });
  await api.post(`${base}/bundles/${bundle}/items`, { name: 'Birthday cake', price: 2500, max_qty: 1 });
  await api.post(`${base}/promo-codes`, { name: 'Welcome', code: 'WELCOME10', discount_pct: 10, max_uses: 500 });

  // Profiles and admission.
  const group = await api.id(`${base}/admission-groups`, { name: 'Regulars', sort_order: 0 });
  await api.post(`${base}/admission-groups/${group}/rules`, {
    name: 'Five visits: skip the queue',
    cond_bookings_enabled: true,
    cond_bookings_min: 5,
    act_autoapprove_enabled: true,
  });
  const listProfile = await api.id(`${base}/list-profiles`, {
    name: 'Weekend guest list',
    admission_rule_group_id: group,
    max_covers_enabled: true,
    max_covers: 120,
  });
  const tableProfile = await api.id(`${base}/table-profiles`, {
    name: 'Dinner tables',
    payment_policy_id: deposit,
    pricelist_id: pricelist,
    bundle_ids: [bundle],
    seating_area_ids: [areas.main, areas.booths],
  });

  // Availability: periods, shifts, access rules.
  const lunch = await api.id(`${base}/time-periods`, { name: 'Lunch', time_from: '12:00', time_to: '15:00' });
  const dinner = await api.id(`${base}/time-periods`, { name: 'Dinner', time_from: '17:30', time_to: '23:00' });
  await api.id(`${base}/shifts`, {
    name: 'Lunch service',
    days_of_week: DAYS,
    time_type: 'custom',
    time_period_id: lunch,
    duration_type: 'custom',
    duration_minutes: 90,
  });
  await api.id(`${base}/shifts`, {
    name: 'Dinner service',
    days_of_week: DAYS,
    time_type: 'custom',
    time_period_id: dinner,
    payment_policy_id: deposit,
  });
  await api.id(`${base}/access-rules`, {
    name: 'Lunch tables',
    rule_type: 'table',
    days_of_week: DAYS,
    time_from: '12:00',
    time_to: '15:00',
    party_size_enabled: true,
    party_size_min: 1,
    party_size_max: 6,
    duration_enabled: true,
    duration_minutes: 90,
  });
  await api.id(`${base}/access-rules`, {
    name: 'Dinner tables',
    rule_type: 'table',
    days_of_week: DAYS,
    time_from: '17:30',
    time_to: '23:00',
    party_size_enabled: true,
    party_size_min: 1,
    party_size_max: 10,
    seating_enabled: true,
    seating_area_ids: [areas.main, areas.booths, areas.terrace],
    bundles_enabled: true,
    bundle_ids: [bundle],
    display_enabled: true,
    display_title: 'Dinner',
    display_description: 'Seasonal small plates; parties of 6+ pay a £10 deposit per table.',
    table_assignment_mode: 'guest_pick',
    guest_pick_area_ids: [areas.terrace],
    pricelist_id: pricelist,
    payment_policy_id: deposit,
    table_profile_id: tableProfile,
  });
  await api.id(`${base}/access-rules`, {
    name: 'Weekend guest list',
    rule_type: 'guestlist',
    days_of_week: WEEKEND,
    time_from: '22:00',
    time_to: '03:00',
    free_guest_list_enabled: true,
    free_guest_list_value: 0,
    queue_skip_price_enabled: true,
    queue_skip_price_value: 1500,
    max_covers_enabled: true,
    max_covers: 120,
    list_profile_id: listProfile,
  });
  await api.id(`${base}/blackouts`, { date_from: CLOSED.from, date_to: CLOSED.to, description: 'Closed for Christmas' });

  // Look and widgets.
  await api.put(`${base}/branding`, {
    theme: 'midnight',
    accent_color: '#d4a017',
    bg_color: '#14131a',
    text_color: '#f4f1ea',
    font_key: 'serif',
  });
  await api.put(`${base}/widget-theme`, {
    theme_mode: 'detailed',
    show_map: true,
    show_about: true,
    show_tandc: true,
    show_info_card: true,
    show_contact: true,
  });
  for (const type of ['bookings', 'events', 'combo']) await api.put(`${base}/widget-settings/${type}`, { enabled: true });

  await api.put(`/api/my-venues/${venueId}/status`, { status: 'live' });
  return venueId;
}

// ---- The week of bookings ----

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
function demoWeek(now: Date, tableId: (n: string) => string, ruleId: Record<keyof typeof MEALS, string>): SeedBooking[] {
  const today = localToday(now, DEMO_TIMEZONE);
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
        ...storyOf(i, Boolean(sitting.anchor), localToUtc(date, time, DEMO_TIMEZONE), now),
      });
    });
  }
  return week;
}

/** Seeds the week when the venue has no bookings yet (so a second run adds nothing). */
async function addWeekOfBookings(api: Client, services: DemoServices, operatorId: string, venueId: string): Promise<void> {
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
  const week = demoWeek(services.clock.now(), (n) => find(tables, (t) => t.table_number === n, `table ${n}`).id, {
    lunch: find(rules, (r) => r.name === MEALS.lunch.rule, MEALS.lunch.rule).id,
    dinner: find(rules, (r) => r.name === MEALS.dinner.rule, MEALS.dinner.rule).id,
  });
  await seedDemoBookings(
    services.db,
    { id: venueId, operatorId, timezone: DEMO_TIMEZONE },
    { kind: 'staff', id: user.id, name: user.name },
    week,
  );
}
