/**
 * The walk-in waitlist: parties at the door, each quoted a wait from the floor (domain/waitlist.ts
 * `quoteWait`: the venue's active tables and the stays on them from now on, after the parties ahead),
 * told when their table is ready, and seated from the list as a walk-in booking through the bookings
 * module's staff path (its serialised transaction, tables checked and held there).
 */
import { OPEN_STATUSES, movesInto, quoteWait, type WaitlistKind } from '../../domain/waitlist.js';
import { isCalendarDate, utcToLocal } from '../../domain/venue-time.js';
import { withTransaction, type Conn } from '../../db/transaction.js';
import type { AuthInfo, VenueRow } from '../../platform/auth-guard.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { clearableText, requiredText } from '../../platform/text.js';
import { occupancyBetween } from '../bookings/index.js';
import { floorplanRecords } from '../tables/index.js';
import type { WaitlistDeps } from './waitlist-deps.js';
import { waitlistMessages, type Channel } from './waitlist-messages.js';
import { entriesOn, entryOf, moveEntry, positions, toEntry, type EntryRow } from './waitlist.repository.js';
import type { Entry, ListQuery, SeatBody, WalkInBody } from './waitlist.schemas.js';

/** The floor is read this far ahead for a quote: no wait is quoted beyond it. */
const QUOTE_HORIZON_MS = 12 * 3_600_000;

export function createWalkIns(deps: WaitlistDeps) {
  const { db, clock } = deps;
  const messages = waitlistMessages(deps);

  const today = (venue: VenueRow, now: Date) => utcToLocal(now, venue.timezone).date;

  /** A quote function over the floor as it is now (one read of tables and stays). */
  async function floorQuote(conn: Conn, venue: VenueRow, now: Date) {
    const [floor, stays] = await Promise.all([
      floorplanRecords(conn, venue.id),
      occupancyBetween(conn, venue.id, now, new Date(now.getTime() + QUOTE_HORIZON_MS)),
    ]);
    const tables = floor.tables
      .filter((t) => t.status === 'active')
      .map((t) => ({ id: t.id, capacity: t.capacity, minCovers: t.min_covers }));
    return (partySize: number, ahead: number[]) =>
      quoteWait({ now, partySize, durationMinutes: venue.default_booking_duration, tables, stays, ahead });
  }

  /** The open walk-ins' party sizes, in line order. */
  const openParties = (rows: readonly EntryRow[]) =>
    rows.filter((r) => r.kind === 'walk_in' && OPEN_STATUSES.includes(r.status as never)).map((r) => r.party_size);

  async function walkInOrThrow(conn: Conn, venue: VenueRow, id: string): Promise<EntryRow> {
    const row = await entryOf(conn, venue.id, id);
    if (!row) throw notFound('Waitlist entry');
    return row;
  }

  return {
    /** A day's lists (today by default), in line order, the open walk-ins with their wait from the floor now. */
    async list(venue: VenueRow, query: ListQuery): Promise<{ data: Entry[] }> {
      const now = clock.now();
      const date = query.date ?? today(venue, now);
      if (!isCalendarDate(date)) throw badRequest('date must be a real calendar date');
      const rows = await entriesOn(db, venue.id, date, query.kind as WaitlistKind | undefined);
      const placed = positions(rows);
      const quote = date === today(venue, now) ? await floorQuote(db, venue, now) : undefined;
      const ahead: number[] = [];
      const data: Entry[] = [];
      for (const row of rows) {
        const position = placed.get(row.id) ?? null;
        let estimated: number | null = null;
        if (row.kind === 'walk_in' && position !== null && quote) {
          estimated = quote(row.party_size, [...ahead]);
          ahead.push(row.party_size);
        }
        if (position !== null || query.all === true) data.push(toEntry(row, now, position, estimated));
      }
      return { data };
    },

    /** The wait a new walk-in of `partySize` would be quoted now (after everyone in line). */
    async quote(venue: VenueRow, partySize: number): Promise<{ minutes: number | null; fits: boolean }> {
      const now = clock.now();
      const rows = await entriesOn(db, venue.id, today(venue, now), 'walk_in');
      const minutes = (await floorQuote(db, venue, now))(partySize, openParties(rows));
      return { minutes, fits: minutes !== null };
    },

    /** A party joins the walk-in list, quoted its wait. */
    async add(venue: VenueRow, body: WalkInBody): Promise<{ success: true; id: string; quoted_minutes: number | null }> {
      const name = requiredText(body.guest_name, 'guest_name');
      const now = clock.now();
      const date = today(venue, now);
      const id = newId('wle');
      const quoted = await withTransaction(db, async (trx) => {
        const rows = await entriesOn(trx, venue.id, date, 'walk_in');
        const minutes = (await floorQuote(trx, venue, now))(body.party_size, openParties(rows));
        const at = now.toISOString();
        await trx
          .insertInto('waitlist_entries')
          .values({
            id,
            venue_id: venue.id,
            kind: 'walk_in',
            status: 'waiting',
            party_size: body.party_size,
            guest_name: name,
            guest_email: clearableText(body.guest_email) ?? null,
            guest_phone: clearableText(body.guest_phone) ?? null,
            notes: clearableText(body.notes) ?? null,
            date,
            time_from: null,
            time_to: null,
            quoted_minutes: minutes,
            offer_time: null,
            offer_access_rule_id: null,
            offer_expires_at: null,
            notified_at: null,
            booking_id: null,
            status_changed_at: at,
            created_at: at,
            updated_at: at,
          })
          .execute();
        return minutes;
      });
      return { success: true, id, quoted_minutes: quoted };
    },

    /** Tells a walk-in their table is ready (text message with a phone, mail with an email); again if asked again. */
    async notify(venue: VenueRow, id: string): Promise<{ success: true; channels: Channel[] }> {
      const now = clock.now();
      return withTransaction(db, async (trx) => {
        const row = await walkInOrThrow(trx, venue, id);
        if (row.kind !== 'walk_in') throw badRequest('Only a walk-in is notified; an online guest is offered a slot');
        const moved = await moveEntry(trx, row.id, movesInto('walk_in', 'notified'), 'notified', now, { notified_at: now.toISOString() });
        if (!moved) throw conflict(`This party is no longer waiting (${row.status})`, { status: row.status });
        return { success: true as const, channels: await messages.tableReady(trx, venue, row, now) };
      });
    },

    /**
     * Seats a walk-in from the list: a walk-in booking (checked in now) through the bookings module's
     * staff path, under an Idempotency-Key of the entry, so two racing seats make one booking; then the
     * entry is `seated` with that booking. 409 when no table is free (the entry keeps its place).
     */
    async seat(auth: AuthInfo, venue: VenueRow, id: string, body: SeatBody): Promise<{ success: true; booking_id: string }> {
      const row = await walkInOrThrow(db, venue, id);
      if (row.kind !== 'walk_in') throw badRequest('Only a walk-in is seated from the list; an online guest books through their offer');
      if (row.status === 'seated' && row.booking_id) return { success: true, booking_id: row.booking_id };
      if (!movesInto('walk_in', 'seated').includes(row.status as never))
        throw conflict(`This party is no longer waiting (${row.status})`, { status: row.status });
      const booking = await deps.seatWalkIn(
        auth,
        venue,
        {
          walk_in: true,
          party_size: row.party_size,
          guest_name: row.guest_name,
          guest_email: row.guest_email,
          guest_phone: row.guest_phone,
          notes: row.notes,
          ...(body.table_ids ? { table_ids: body.table_ids } : {}),
          ...(body.duration_minutes ? { duration_minutes: body.duration_minutes } : {}),
        },
        `waitlist-seat:${row.id}`,
      );
      const now = clock.now();
      const moved = await moveEntry(db, row.id, movesInto('walk_in', 'seated'), 'seated', now, { booking_id: booking.id });
      if (!moved) {
        const again = await walkInOrThrow(db, venue, id);
        if (again.booking_id !== booking.id) throw conflict(`This party is no longer waiting (${again.status})`, { status: again.status });
      }
      return { success: true, booking_id: booking.id };
    },

    /** Takes an entry off its list: `removed`, or a walk-in's `no_show`. */
    async remove(venue: VenueRow, id: string, noShow: boolean): Promise<{ success: true }> {
      const row = await walkInOrThrow(db, venue, id);
      if (noShow && row.kind !== 'walk_in')
        throw badRequest('no_show is for walk-ins; an online guest who does not come is the booking’s no-show');
      const to = noShow ? 'no_show' : 'removed';
      if (!(await moveEntry(db, row.id, movesInto(row.kind as WaitlistKind, to), to, clock.now())))
        throw conflict(`This entry is no longer on the list (${row.status})`, { status: row.status });
      return { success: true };
    },
  };
}

export type WalkIns = ReturnType<typeof createWalkIns>;
