/**
 * A venue's booking figures per venue-local date over a range (an extension beyond the spec, for the
 * operator portal's Numbers page): covers, bookings, no-shows, cancellations, deposits taken and ticket
 * sales for each date, and the covers of each start time (the portal groups them into the venue's shifts).
 */
import { sql } from 'kysely';
import { Type, type Static } from 'typebox';
import { DateTime } from 'luxon';
import { kyselyOf, type Conn } from '../../../db/transaction.js';
import { venueOf, type GuardFactory } from '../../../platform/auth-guard.js';
import { badRequest } from '../../../platform/errors.js';
import { DateString, errorResponses } from '../../../platform/http.js';
import type { RoutePlugin } from '../../../platform/module.js';

/** The longest range one call answers (a quarter). */
export const MAX_FIGURE_DAYS = 92;

/** Statuses of a reservation that is (or was) going ahead: its guests are covers. */
const COVER_STATUSES = ['pending', 'pending_payment', 'approved', 'confirmed', 'checked_in'];
/** Payment states in which a deposit was taken from the guest (some of it may since have been given back). */
const TAKEN = ['paid', 'captured', 'partially_refunded', 'refunded'];

export const FiguresQuery = Type.Object({
  from: DateString,
  to: { ...DateString, description: 'the last date of the range (inclusive), at most 92 days after `from`' },
});

const Day = Type.Object({
  date: Type.String({ description: 'venue-local date' }),
  bookings: Type.Integer({ description: 'reservations (not event tickets) going ahead: pending, approved, confirmed or checked in' }),
  covers: Type.Integer({ description: 'the guests of those reservations' }),
  no_shows: Type.Integer({ description: 'reservations marked no-show' }),
  no_show_covers: Type.Integer({ description: 'the guests of those' }),
  cancelled: Type.Integer({ description: 'reservations cancelled or rejected' }),
  deposits_pence: Type.Integer({ description: 'deposits and captured card holds taken on reservations of the date, in pence' }),
  deposits_refunded_pence: Type.Integer({ description: 'what of them was given back, in pence' }),
  tickets: Type.Integer({ description: 'event tickets of the date (guests of event bookings going ahead)' }),
  ticket_pence: Type.Integer({ description: 'what those event bookings cost, in pence' }),
});

export const VenueFigures = Type.Object({
  venue: Type.Object({ id: Type.String(), name: Type.String(), timezone: Type.String() }),
  from: Type.String(),
  to: Type.String(),
  days: Type.Array(Day, { description: 'every date of the range in order, with zeros where nothing happened' }),
  times: Type.Array(
    Type.Object({ date: Type.String(), start_time: Type.String({ description: 'HH:MM venue-local' }), covers: Type.Integer() }),
    { description: 'covers of reservations going ahead per date and start time (for shifts); reservations without a time are left out' },
  ),
});
export type VenueFigures = Static<typeof VenueFigures>;
type DayFigures = Static<typeof Day>;

/** Every date from `from` to `to` inclusive; a 400 when the range is not a real one of at most MAX_FIGURE_DAYS days. */
function datesOf(from: string, to: string): string[] {
  const start = DateTime.fromISO(from, { zone: 'utc' });
  const end = DateTime.fromISO(to, { zone: 'utc' });
  if (!start.isValid) throw badRequest('from is not a date');
  if (!end.isValid) throw badRequest('to is not a date');
  const days = Math.round(end.diff(start, 'days').days) + 1;
  if (days < 1) throw badRequest('to must not be before from');
  if (days > MAX_FIGURE_DAYS) throw badRequest(`The range can be at most ${MAX_FIGURE_DAYS} days`);
  return Array.from({ length: days }, (_, i) => start.plus({ days: i }).toFormat('yyyy-LL-dd'));
}

/** The figures of `venue` for the dates `from` … `to` (venue-local booking dates). */
export async function venueFigures(
  db: Conn,
  venue: { id: string; name: string; timezone: string },
  from: string,
  to: string,
): Promise<VenueFigures> {
  const dates = datesOf(from, to);
  const rows = await kyselyOf(db)
    .selectFrom('bookings')
    .select([
      'booking_date',
      'start_time',
      'kind',
      'status',
      'payment_status',
      (eb) => eb.fn.countAll<number>().as('count'),
      (eb) => eb.fn.sum<number>('guest_count').as('guests'),
      (eb) => eb.fn.sum<number>('total_pence').as('total'),
      (eb) => eb.fn.sum<number>(sql`case when captured_pence > 0 then captured_pence else deposit_pence end`).as('taken'),
      (eb) => eb.fn.sum<number>('refunded_pence').as('refunded'),
    ])
    .where('venue_id', '=', venue.id)
    .where('booking_date', '>=', from)
    .where('booking_date', '<=', to)
    .groupBy(['booking_date', 'start_time', 'kind', 'status', 'payment_status'])
    .execute();

  const days = new Map<string, DayFigures>(
    dates.map((date) => [
      date,
      {
        date,
        bookings: 0,
        covers: 0,
        no_shows: 0,
        no_show_covers: 0,
        cancelled: 0,
        deposits_pence: 0,
        deposits_refunded_pence: 0,
        tickets: 0,
        ticket_pence: 0,
      },
    ]),
  );
  const times = new Map<string, { date: string; start_time: string; covers: number }>();
  for (const row of rows) {
    const day = days.get(row.booking_date);
    if (!day) continue;
    const count = Number(row.count);
    const guests = Number(row.guests ?? 0);
    const going = COVER_STATUSES.includes(row.status);
    if (row.kind === 'event') {
      if (going) {
        day.tickets += guests;
        day.ticket_pence += Number(row.total ?? 0);
      }
      continue;
    }
    if (going) {
      day.bookings += count;
      day.covers += guests;
      if (row.start_time) {
        const key = `${row.booking_date} ${row.start_time}`;
        const slot = times.get(key) ?? { date: row.booking_date, start_time: row.start_time, covers: 0 };
        slot.covers += guests;
        times.set(key, slot);
      }
    } else if (row.status === 'no_show') {
      day.no_shows += count;
      day.no_show_covers += guests;
    } else if (row.status === 'cancelled' || row.status === 'rejected') {
      day.cancelled += count;
    }
    if (TAKEN.includes(row.payment_status)) {
      day.deposits_pence += Number(row.taken ?? 0);
      day.deposits_refunded_pence += Number(row.refunded ?? 0);
    }
  }
  return {
    venue: { id: venue.id, name: venue.name, timezone: venue.timezone },
    from,
    to,
    days: [...days.values()],
    times: [...times.values()].sort((a, b) => a.date.localeCompare(b.date) || a.start_time.localeCompare(b.start_time)),
  };
}

export const venueFiguresRoutes: RoutePlugin<{ guard: GuardFactory; db: Conn }> = async (app, { guard, db }) => {
  app.get(
    '/api/my-venues/:venueId/stats/daily',
    {
      schema: {
        summary: "A venue's booking figures per date over a range",
        description:
          'Extension (operator portal, Numbers). For each venue-local date from `from` to `to` (inclusive, at most 92 days): ' +
          'reservations going ahead and their covers, no-shows, cancellations, deposits taken and given back, and event tickets ' +
          'sold; and the covers per start time, which the portal groups into the venue’s shifts. Needs `stats` read.',
        tags: ['bookings'],
        security: [{ bearer: [] }],
        params: Type.Object({ venueId: Type.String() }),
        querystring: FiguresQuery,
        response: { 200: VenueFigures, ...errorResponses(400, 401, 403, 404) },
      },
      onRequest: guard({ permission: 'stats:read', venueParam: 'venueId' }),
    },
    async (request) => venueFigures(db, venueOf(request), request.query.from, request.query.to),
  );
};
