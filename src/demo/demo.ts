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
 * Given the database and clock, it also gets a week of reservations (demo-bookings.ts) and gift vouchers
 * in each status (demo-vouchers.ts). Later modules (guests, events) extend it the same way.
 */
import type { App } from '../platform/module.js';
import type { Db } from '../db/connect.js';
import type { Clock } from '../platform/clock.js';
import type { Payments } from '../modules/payments/index.js';
import { addWeekOfBookings, CLOSED } from './demo-bookings.js';
import { addDemoVouchers } from './demo-vouchers.js';
import { addDemoEvents } from './demo-events.js';
import { addDemoGuests } from './demo-guests.js';
import { demoLogo } from './logo.js';

export const DEMO_EMAIL = 'demo@maitred.local';
/** Known on purpose: the demo is for looking around locally. `demo` refuses to run in production. */
export const DEMO_PASSWORD = 'maitred-demo';
const DEMO_OPERATOR = 'Night Owl Hospitality Ltd';
export const DEMO_VENUE = 'The Night Owl';
const DEMO_TIMEZONE = 'Europe/London';
/** The venue's Christmas blackout: no bookings are seeded on those days. */

export interface DemoResult {
  email: string;
  password: string;
  operator_id: string;
  venue_id: string;
  created: boolean;
  widgets: Record<string, string | null>;
  /** Each enabled widget's loader snippet. */
  embed: Record<string, string>;
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
  /** Under the simulated provider, tonight's card hold is authorised with its test card (demo-bookings.ts). */
  payments?: Pick<Payments, 'providerName' | 'confirmSimulated'>;
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
  await addWeekOfBookings(api, services, { id: venueId, operatorId, timezone: DEMO_TIMEZONE });
  await addDemoVouchers(api, services, { id: venueId, operatorId, timezone: DEMO_TIMEZONE });
  await addDemoEvents(api, services, { id: venueId, timezone: DEMO_TIMEZONE });
  await addDemoGuests(api, services, { id: venueId, operatorId, timezone: DEMO_TIMEZONE });
  // Each widget's page (null while it is off, as the public combo config shows them).
  const settings = (
    await api.get<{ data: Record<string, { enabled: boolean; url: string; embed: { iframe: string; loader: string } }> }>(
      `/api/my-venues/${venueId}/widget-settings`,
    )
  ).data;
  const enabled = Object.entries(settings).filter(([, widget]) => widget.enabled);
  const widgets = Object.fromEntries(Object.entries(settings).map(([type, widget]) => [type, widget.enabled ? widget.url : null]));
  // The loader snippet of each widget that is on: what the venue pastes into its own site.
  const embed = Object.fromEntries(enabled.map(([type, widget]) => [type, widget.embed.loader]));
  return { email: DEMO_EMAIL, password: DEMO_PASSWORD, operator_id: operatorId, venue_id: venueId, created: !existing, widgets, embed };
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
    tables: 'Tables are held for 15 minutes after the booked time. Dinner bookings pay a £10 deposit per guest.',
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
    display_description: 'Seasonal small plates; a £10 deposit per guest holds your table, refunded in full up to 24 hours before.',
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
    free_guest_list_value: 60,
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
    font_key: 'sans',
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
