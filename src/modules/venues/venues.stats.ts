/**
 * Venue and account figures computed from bookings and payments: the venue stats page and `my-stats`
 * (the account dashboard can reuse `operatorStats`). Dates and windows are venue-local.
 */
import { DateTime } from 'luxon';
import type { Db } from '../../db/connect.js';
import { kyselyOf } from '../../db/transaction.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import { revenuePence } from '../payments/index.js';
import type { VenueBookingFacts } from './booking-facts.js';

const PENDING = ['pending', 'pending_payment'];
const APPROVED = ['approved', 'confirmed', 'checked_in'];
const CHART_DAYS = 14;

/** The venue-local periods the figures are cut by, as local dates and UTC instants. */
export function statsWindows(now: Date, zone: string) {
  const local = DateTime.fromJSDate(now, { zone });
  const instant = (dt: DateTime) => dt.toJSDate().toISOString();
  const date = (dt: DateTime) => dt.toFormat('yyyy-LL-dd');
  const month = local.startOf('month');
  return {
    today: date(local),
    todayStart: instant(local.startOf('day')),
    weekStart: instant(local.startOf('week')),
    monthStart: instant(month),
    nextMonthStart: instant(month.plus({ months: 1 })),
    monthFirstDate: date(month),
    nextMonthFirstDate: date(month.plus({ months: 1 })),
    chartFrom: date(local.minus({ days: CHART_DAYS - 1 })),
  };
}

export async function venueStats(db: Db, bookings: VenueBookingFacts, venue: VenueRow, now: Date) {
  const w = statsWindows(now, venue.timezone);
  const revenueSince = (from?: string) => revenuePence(db, { operatorId: venue.operator_id, venueId: venue.id, from });

  const [today, week, month, alltime, figures] = await Promise.all([
    revenueSince(w.todayStart),
    revenueSince(w.weekStart),
    revenueSince(w.monthStart),
    revenueSince(undefined),
    bookings.venueBookingFigures(db, venue.id, { today: w.today, chartFrom: w.chartFrom }),
  ]);

  const countOf = (statuses: string[]) =>
    figures.byStatus.filter((row) => statuses.includes(row.status)).reduce((sum, row) => sum + row.count, 0);
  return {
    venue: { id: venue.id, name: venue.name },
    revenue: { today, week, month, alltime },
    bookings: {
      pending: countOf(PENDING),
      approved: countOf(APPROVED),
      cancelled: countOf(['cancelled']),
      total: figures.byStatus.reduce((sum, row) => sum + row.count, 0),
      today_count: figures.todayCount,
    },
    unique_guests: figures.uniqueGuests,
    chart: figures.chart,
  };
}

/**
 * Account-wide figures over the venues a caller reaches (`venueScope` null: every venue of the account),
 * defined as the account dashboard defines them: guests are distinct people with a booking that was not
 * called off, and revenue is this month's. "This month" is each venue's own local month.
 */
export async function operatorStats(
  db: Db,
  bookings: VenueBookingFacts,
  query: { operatorId: string; venueScope: string[] | null },
  now: Date,
) {
  const { operatorId } = query;
  let venuesQuery = kyselyOf(db).selectFrom('venues').select(['id', 'timezone']).where('operator_id', '=', operatorId);
  if (query.venueScope) venuesQuery = venuesQuery.where('id', 'in', query.venueScope.length > 0 ? query.venueScope : ['']);
  const venues = await venuesQuery.execute();
  if (venues.length === 0) return { venues: 0, total_guests: 0, month_guests: 0, revenue: 0 };
  const ids = venues.map((v) => v.id);

  // Venues in different zones may be in different months (around midnight on the 1st).
  const months = new Map<string, { firstDate: string; nextFirstDate: string; from: string; to: string; ids: string[] }>();
  for (const venue of venues) {
    const w = statsWindows(now, venue.timezone);
    const month = months.get(w.monthStart) ?? {
      firstDate: w.monthFirstDate,
      nextFirstDate: w.nextMonthFirstDate,
      from: w.monthStart,
      to: w.nextMonthStart,
      ids: [],
    };
    month.ids.push(venue.id);
    months.set(w.monthStart, month);
  }

  const ranges = [...months.values()].map((m) => ({ venueIds: m.ids, fromDate: m.firstDate, toDate: m.nextFirstDate }));
  const guests = (inMonth: boolean) => bookings.distinctGuests(db, operatorId, ids, inMonth ? ranges : undefined);

  const monthRevenue = async () => {
    const [only] = months.values();
    if (!query.venueScope && months.size === 1) return revenuePence(db, { operatorId, from: only.from, to: only.to });
    const parts = await Promise.all(
      [...months.values()].flatMap((m) => m.ids.map((venueId) => revenuePence(db, { operatorId, venueId, from: m.from, to: m.to }))),
    );
    return parts.reduce((a, b) => a + b, 0);
  };

  const [total_guests, month_guests, revenue] = await Promise.all([guests(false), guests(true), monthRevenue()]);
  return { venues: venues.length, total_guests, month_guests, revenue };
}
