/**
 * The demo venue's guest CRM: months of history for a few regulars (visits, a no-show, a cancellation),
 * seeded through the bookings module like the week of reservations; a small network (regulars who came
 * together on several evenings: the connection relation of docs/guests.md); guest tags, global and for
 * the venue; and a walk-in record seated at the bar. Tags and the walk-in go through the API as the demo
 * Owner. Only a roster without the demo walk-in gets them, so a second run adds nothing.
 */
import { addDays, localToUtc, localToday } from '../domain/venue-time.js';
import { seedDemoBookings, type SeedBooking } from '../modules/bookings/index.js';
import type { Db } from '../db/connect.js';
import type { Clock } from '../platform/clock.js';
import { CLOSED } from './demo-bookings.js';
import type { DemoApi } from './demo-vouchers.js';

const WALK_IN = 'Walter Finch';
const MINUTE = 60_000;

const email = (name: string) => `${name.toLowerCase().replace(/'/g, '').replace(/ /g, '.')}@example.test`;

/** Evenings some weeks back: who came, at what time, and at which tables (one table per guest). */
const EVENINGS: { weeksBack: number; time: string; guests: [string, string][]; outcome?: 'no_show' | 'cancelled' }[] = [
  {
    weeksBack: 16,
    time: '19:00',
    guests: [
      ['Amelia Hughes', '3'],
      ['Oliver Bennett', '4'],
    ],
  },
  {
    weeksBack: 13,
    time: '19:30',
    guests: [
      ['Amelia Hughes', '5'],
      ['Oliver Bennett', '6'],
      ['Priya Sharma', '7'],
    ],
  },
  {
    weeksBack: 11,
    time: '20:00',
    guests: [
      ['Priya Sharma', '8'],
      ['James Okafor', '9'],
    ],
  },
  {
    weeksBack: 9,
    time: '19:00',
    guests: [
      ['Amelia Hughes', '3'],
      ['Oliver Bennett', '4'],
    ],
  },
  {
    weeksBack: 8,
    time: '20:00',
    guests: [
      ['Priya Sharma', '8'],
      ['James Okafor', '9'],
    ],
  },
  {
    weeksBack: 7,
    time: '19:30',
    guests: [
      ['Amelia Hughes', '5'],
      ['Priya Sharma', '7'],
    ],
  },
  {
    weeksBack: 6,
    time: '18:30',
    guests: [
      ['Sophie Turner', '1'],
      ['Mohammed Rahman', '2'],
    ],
  },
  {
    weeksBack: 5,
    time: '18:30',
    guests: [
      ['Sophie Turner', '1'],
      ['Mohammed Rahman', '2'],
    ],
  },
  { weeksBack: 4, time: '20:30', guests: [['Charlotte Evans', '10']], outcome: 'no_show' },
  {
    weeksBack: 3,
    time: '19:00',
    guests: [
      ['Amelia Hughes', '3'],
      ['Oliver Bennett', '4'],
    ],
  },
  { weeksBack: 3, time: '21:00', guests: [['Daniel Kowalski', '11']], outcome: 'cancelled' },
];

const TAGS: { guest: string; scope: 'global' | 'venue'; tags: string[] }[] = [
  { guest: 'Amelia Hughes', scope: 'global', tags: ['VIP', 'Regular'] },
  { guest: 'Oliver Bennett', scope: 'global', tags: ['Regular', 'Wine lover'] },
  { guest: 'Priya Sharma', scope: 'venue', tags: ['Window seat'] },
  { guest: 'James Okafor', scope: 'venue', tags: ['Nut allergy'] },
  { guest: 'Charlotte Evans', scope: 'global', tags: ['Deposit required'] },
];

function history(now: Date, zone: string, tableId: (n: string) => string, ruleId: string): SeedBooking[] {
  const today = localToday(now, zone);
  return EVENINGS.flatMap((evening) => {
    const date = addDays(today, -7 * evening.weeksBack);
    if (date >= CLOSED.from && date <= CLOSED.to) return [];
    const startsAt = localToUtc(date, evening.time, zone);
    const createdAt = new Date(startsAt.getTime() - 3 * 24 * 60 * MINUTE);
    return evening.guests.map(([name, table], i): SeedBooking => {
      const outcome = evening.outcome;
      const moves: SeedBooking['moves'] =
        outcome === 'cancelled'
          ? [{ to: 'cancelled', at: new Date(startsAt.getTime() - 24 * 60 * MINUTE), reason: 'Guest called to cancel' }]
          : outcome === 'no_show'
            ? [{ to: 'no_show', at: new Date(startsAt.getTime() + 30 * MINUTE) }]
            : [{ to: 'checked_in', at: new Date(startsAt.getTime() + (5 + i) * MINUTE) }];
      return {
        date,
        time: evening.time,
        durationMinutes: 120,
        tableIds: [tableId(table)],
        accessRuleId: ruleId,
        partySize: 2,
        guest: { name, email: email(name), phone: null },
        notes: null,
        source: 'staff',
        initialStatus: 'confirmed',
        createdAt: new Date(createdAt.getTime() + i * MINUTE),
        moves,
      };
    });
  });
}

/** Adds the CRM demo data once (after the week of bookings, whose guests it shares). */
export async function addDemoGuests(
  api: DemoApi,
  services: { db: Db; clock: Clock },
  venue: { id: string; operatorId: string; timezone: string },
): Promise<void> {
  const base = `/api/my-venues/${venue.id}`;
  const search = async (q: string) =>
    (await api.get<{ data: { id: string; name: string }[] }>(`/api/my-guests/search?q=${encodeURIComponent(q)}`)).data;
  if ((await search(WALK_IN)).length > 0) return;

  const tables = (await api.get<{ data: { id: string; table_number: string }[] }>(`${base}/tables`)).data;
  const rules = (await api.get<{ data: { id: string; name: string }[] }>(`${base}/access-rules`)).data;
  const rule = rules.find((r) => r.name === 'Dinner tables');
  if (!rule) throw new Error('demo: the venue has no Dinner tables rule');
  const tableId = (n: string) => {
    const table = tables.find((t) => t.table_number === n);
    if (!table) throw new Error(`demo: the venue has no table ${n}`);
    return table.id;
  };
  const { user } = await api.get<{ user: { id: string; name: string } }>('/api/auth/me');
  await seedDemoBookings(
    services.db,
    venue,
    { kind: 'staff', id: user.id, name: user.name },
    history(services.clock.now(), venue.timezone, tableId, rule.id),
  );

  for (const entry of TAGS) {
    const [guest] = await search(email(entry.guest));
    if (!guest) throw new Error(`demo: ${entry.guest} is not in the roster`);
    await api.put(`/api/my-guests/${guest.id}/tags`, {
      scope: entry.scope,
      ...(entry.scope === 'venue' ? { venue_id: venue.id } : {}),
      tags: entry.tags,
    });
  }
  const walkIn = await api.post<{ id: string }>(`${base}/guests/walk-in`, { name: WALK_IN, phone: '+44 7700 900999' });
  await api.put(`/api/my-guests/${walkIn.id}/tags`, { scope: 'venue', venue_id: venue.id, tags: ['Bar regular'] });
}
