/**
 * The bookings reads (and the one narrow write) the guest CRM needs, handed to the guests module by the
 * composition root: a guest's bookings at an operator's venues, per-guest figures, booking activity, the
 * co-booking relation behind the guest network, and the anonymising of a guest's personal fields on an
 * operator's bookings (erasure). Every function is scoped by operator and, where given, by venue ids.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import { kyselyOf, type Conn } from '../../../db/transaction.js';
import type { CrmBooking, CrmBookingEvent } from '../../guests/index.js';

/** Bookings that say nothing about a guest's visit together with others: they never happened. */
const NOT_TOGETHER = ['cancelled', 'rejected', 'expired', 'door_rejected'];

/** Money a booking took from its guest, net of refunds (a paid deposit may leave captured_pence 0). */
const NET_PAID = sql<number>`(case when captured_pence > 0 then captured_pence when payment_status in ('paid', 'partially_refunded', 'refunded') then deposit_pence else 0 end) - refunded_pence`;

/** One booking of a guest's own account (the account module's "my bookings" and "my tickets"). */
export interface AccountBooking {
  id: string;
  operator_id: string;
  venue_id: string;
  kind: string;
  status: string;
  event_id: string | null;
  reference: string | null;
  guest_count: number;
  booking_date: string;
  start_time: string | null;
  duration_minutes: number | null;
  starts_at: string | null;
  deposit_pence: number;
  total_pence: number;
  created_at: string;
}

/**
 * A guest's own bookings across every operator (the account module; docs/account.md): linked to the
 * user, or made with the user's (verified) email address. The caller proves the address: only a signed-in
 * guest's own email is ever passed. Newest date first.
 */
export async function accountBookings(conn: Conn, userId: string, email: string): Promise<AccountBooking[]> {
  const address = email.trim().toLowerCase();
  return kyselyOf(conn)
    .selectFrom('bookings')
    .select([
      'id',
      'operator_id',
      'venue_id',
      'kind',
      'status',
      'event_id',
      'reference',
      'guest_count',
      'booking_date',
      'start_time',
      'duration_minutes',
      'starts_at',
      'deposit_pence',
      'total_pence',
      'created_at',
    ])
    .where((eb) => eb.or([eb('user_id', '=', userId), eb(sql`lower(guest_email)`, '=', address)]))
    .orderBy('booking_date', 'desc')
    .orderBy('start_time', 'desc')
    .orderBy('id')
    .execute();
}

/** A guest's bookings at the operator's venues (`venueIds` null: all of them), newest date first. */
export async function guestBookings(
  conn: Conn,
  operatorId: string,
  venueIds: readonly string[] | null,
  userId: string,
): Promise<CrmBooking[]> {
  let query = kyselyOf(conn)
    .selectFrom('bookings')
    .select([
      'id',
      'venue_id',
      'kind',
      'status',
      'guest_count',
      'booking_date',
      'start_time',
      'guest_name',
      'guest_email',
      'guest_phone',
      'notes',
      'total_pence',
      'created_at',
      'checked_in_at',
      'cancelled_at',
    ])
    .select(NET_PAID.as('paid_pence'))
    .where('operator_id', '=', operatorId)
    .where('user_id', '=', userId);
  if (venueIds) query = query.where('venue_id', 'in', venueIds.length > 0 ? [...venueIds] : ['']);
  const rows = await query.orderBy('booking_date', 'desc').orderBy('created_at', 'desc').orderBy('id').execute();
  return rows.map((row) => ({ ...row, paid_pence: Number(row.paid_pence) }));
}

export interface GuestBookingFigures {
  user_id: string;
  total_bookings: number;
  visits: number;
  no_shows: number;
  cancellations: number;
  door_rejections: number;
  spend_pence: number;
  last_visit_date: string | null;
}

/** Per-guest booking figures at the operator's venues, for a page of guests (one grouped query). */
export async function guestBookingFigures(
  conn: Conn,
  operatorId: string,
  venueIds: readonly string[] | null,
  userIds: readonly string[],
): Promise<Map<string, GuestBookingFigures>> {
  const out = new Map<string, GuestBookingFigures>();
  if (userIds.length === 0) return out;
  const count = (status: string) => sql<number>`sum(case when status = ${status} then 1 else 0 end)`;
  let query = kyselyOf(conn)
    .selectFrom('bookings')
    .select((eb) => [
      'user_id',
      eb.fn.countAll<number>().as('total_bookings'),
      count('checked_in').as('visits'),
      count('no_show').as('no_shows'),
      count('cancelled').as('cancellations'),
      count('door_rejected').as('door_rejections'),
      sql<number>`sum(${NET_PAID})`.as('spend_pence'),
      sql<string | null>`max(case when status = 'checked_in' then booking_date end)`.as('last_visit_date'),
    ])
    .where('user_id', 'in', [...new Set(userIds)])
    .where('operator_id', '=', operatorId);
  if (venueIds) query = query.where('venue_id', 'in', venueIds.length > 0 ? [...venueIds] : ['']);
  for (const row of await query.groupBy('user_id').execute()) {
    if (!row.user_id) continue;
    out.set(row.user_id, {
      user_id: row.user_id,
      total_bookings: Number(row.total_bookings),
      visits: Number(row.visits ?? 0),
      no_shows: Number(row.no_shows ?? 0),
      cancellations: Number(row.cancellations ?? 0),
      door_rejections: Number(row.door_rejections ?? 0),
      spend_pence: Number(row.spend_pence ?? 0),
      last_visit_date: row.last_visit_date ?? null,
    });
  }
  return out;
}

/** The latest `limit` history entries of a guest's bookings at the operator's venues, newest first. */
export async function guestBookingActivity(
  conn: Conn,
  operatorId: string,
  venueIds: readonly string[] | null,
  userId: string,
  limit: number,
): Promise<CrmBookingEvent[]> {
  let query = kyselyOf(conn)
    .selectFrom('booking_history')
    .innerJoin('bookings', 'bookings.id', 'booking_history.booking_id')
    .select([
      'booking_history.booking_id',
      'bookings.venue_id',
      'bookings.booking_date',
      'booking_history.action',
      'booking_history.to_status',
      'booking_history.at',
    ])
    .where('bookings.operator_id', '=', operatorId)
    .where('bookings.user_id', '=', userId);
  if (venueIds) query = query.where('bookings.venue_id', 'in', venueIds.length > 0 ? [...venueIds] : ['']);
  return query.orderBy('booking_history.at', 'desc').orderBy('booking_history.id', 'desc').limit(limit).execute();
}

/** Two guests and the number of distinct dates they booked together (same venue, date and start time). */
export interface CoBooking {
  a: string;
  b: string;
  dates: number;
}

/**
 * Pairs of guests who booked together on at least `minDates` distinct dates since `sinceDate`: bookings
 * (not cancelled, rejected, expired or refused at the door) at the same venue, on the same date, with the
 * same start time. With `userIds`, the pairs of those guests (`a` one of them, `b` anyone, both ways);
 * without, each pair once (`a` < `b`). At most `limit` pairs, the strongest first.
 */
export async function coBookings(
  conn: Conn,
  operatorId: string,
  options: { venueIds: readonly string[] | null; userIds?: readonly string[]; sinceDate: string; minDates: number; limit: number },
): Promise<CoBooking[]> {
  const k = kyselyOf(conn);
  let query = k
    .selectFrom('bookings as b1')
    .innerJoin('bookings as b2', (join) =>
      join
        .onRef('b2.venue_id', '=', 'b1.venue_id')
        .onRef('b2.booking_date', '=', 'b1.booking_date')
        .on(sql<SqlBool>`coalesce(b2.start_time, '') = coalesce(b1.start_time, '')`),
    )
    .select((eb) => [
      'b1.user_id as a',
      'b2.user_id as b',
      sql<number>`count(distinct b1.booking_date)`.as('dates'),
      eb.fn.max('b1.booking_date').as('latest'),
    ])
    .where('b1.operator_id', '=', operatorId)
    .where('b1.booking_date', '>=', options.sinceDate)
    .where('b1.status', 'not in', NOT_TOGETHER)
    .where('b2.status', 'not in', NOT_TOGETHER)
    .where('b2.user_id', 'is not', null)
    .where('b1.user_id', 'is not', null);
  const pair: Expression<SqlBool> = options.userIds ? sql<SqlBool>`b2.user_id <> b1.user_id` : sql<SqlBool>`b1.user_id < b2.user_id`;
  query = query.where(pair);
  if (options.userIds) query = query.where('b1.user_id', 'in', options.userIds.length > 0 ? [...options.userIds] : ['']);
  if (options.venueIds) query = query.where('b1.venue_id', 'in', options.venueIds.length > 0 ? [...options.venueIds] : ['']);
  const rows = await query
    .groupBy(['b1.user_id', 'b2.user_id'])
    .having(sql`count(distinct b1.booking_date)`, '>=', options.minDates)
    .orderBy(sql`count(distinct b1.booking_date)`, 'desc')
    .orderBy('latest', 'desc')
    .orderBy('a')
    .orderBy('b')
    .limit(options.limit)
    .execute();
  return rows.map((row) => ({ a: row.a as string, b: row.b as string, dates: Number(row.dates) }));
}

/**
 * Erasure of a guest from an operator's records: its bookings' personal fields (name, email, phone,
 * notes, and the guest's name in their history) are replaced and the link to the guest's account is cut;
 * the bookings and their money stay.
 * Answers the bookings changed.
 */
export async function anonymiseGuestBookings(conn: Conn, operatorId: string, userId: string, now: Date): Promise<number> {
  const k = kyselyOf(conn);
  await k
    .updateTable('booking_history')
    .set({ actor_id: null, actor_name: 'Erased guest' })
    .where('actor_kind', '=', 'guest')
    .where('booking_id', 'in', (eb) =>
      eb.selectFrom('bookings').select('id').where('operator_id', '=', operatorId).where('user_id', '=', userId),
    )
    .execute();
  const result = await k
    .updateTable('bookings')
    .set({ guest_name: 'Erased guest', guest_email: null, guest_phone: null, notes: null, user_id: null, updated_at: now.toISOString() })
    .where('operator_id', '=', operatorId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
