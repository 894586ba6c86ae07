/**
 * The online waitlist: a guest asks for a date that is full (a party size and a window of start times)
 * and leaves their contact details; the offer pass (`runOffers`, a background job) offers a freed slot to
 * the first in line whose window and party it fits, for `offerMinutes`, by mail (and text message);
 * the guest accepts through their link, which books the slot through the public booking path (deposits
 * included); an offer that lapses is `expired` and the next in line is offered.
 *
 * Races: every status change is a conditional update (waitlist.repository.ts `moveEntry`): the accept
 * claims `offered → accepting` while the offer is live, so of two racing accepts one books; offers of one
 * venue and date are made one at a time, under a lock, so one freed table is never held out twice.
 */
import type { ExpressionBuilder } from 'kysely';
import { signWaitlistToken, verifyWaitlistToken } from '../../domain/booking-tokens/index.js';
import { addDays, isCalendarDate, utcToLocal } from '../../domain/venue-time.js';
import { movesInto, slotToOffer } from '../../domain/waitlist.js';
import type { Database } from '../../db/schema.js';
import { lockKey, withTransaction, type Conn } from '../../db/transaction.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { clearableText, requiredText } from '../../platform/text.js';
import { guestForEmail } from '../auth/index.js';
import type { BookAnswer } from '../bookings/index.js';
import type { WaitlistDeps } from './waitlist-deps.js';
import { waitlistMessages } from './waitlist-messages.js';
import { entriesOn, entryById, moveEntry, positions, type EntryRow } from './waitlist.repository.js';
import type { GuestEntry, JoinBody } from './waitlist.schemas.js';

/** An online guest may wait for at most this many days ahead. */
const MAX_DAYS_AHEAD = 366;

export function createOnlineWaitlist(deps: WaitlistDeps) {
  const { db, clock, log } = deps;
  const messages = waitlistMessages(deps);

  async function linkOf(conn: Conn, entryId: string): Promise<string> {
    const token = signWaitlistToken(entryId, await deps.linkSecret(conn));
    return `${deps.publicBaseUrl}/widget/manage?token=${encodeURIComponent(token)}`;
  }

  /** The entry and venue a guest's link names; 404 for anything else (a forged link learns nothing). */
  async function fromToken(token: string): Promise<{ row: EntryRow; venue: VenueRow }> {
    const id = verifyWaitlistToken(token, await deps.linkSecret());
    const row = id ? await entryById(db, id) : undefined;
    const venue = row?.kind === 'online' ? await deps.liveVenue(db, row.venue_id) : undefined;
    if (!row || !venue) throw notFound('Waitlist entry');
    return { row, venue };
  }

  async function positionOf(row: EntryRow): Promise<number | null> {
    return positions(await entriesOn(db, row.venue_id, row.date, 'online')).get(row.id) ?? null;
  }

  /** Offers the first waiting entry of a venue's date that a free slot fits, unless an offer there is still open. */
  async function offerFor(venue: VenueRow, date: string, now: Date): Promise<string | undefined> {
    const rows = await entriesOn(db, venue.id, date, 'online');
    if (rows.some((r) => r.status === 'offered' || r.status === 'accepting')) return undefined;
    const answers = new Map<number, Awaited<ReturnType<WaitlistDeps['availability']>>>();
    for (const row of rows.filter((r) => r.status === 'waiting')) {
      let answer = answers.get(row.party_size);
      if (!answer) {
        answer = await deps.availability(venue.id, { date, party_size: row.party_size, type: 'tables' });
        answers.set(row.party_size, answer);
      }
      const slot = slotToOffer(answer.slots, { from: row.time_from ?? '00:00', to: row.time_to ?? '23:59' });
      if (!slot) continue;
      return withTransaction(db, async (trx) => {
        // One open offer per venue and date, whichever instance or request makes it.
        await lockKey(db, trx, `waitlist-offers:${venue.id}:${date}`);
        const open = await trx
          .selectFrom('waitlist_entries')
          .select('id')
          .where('venue_id', '=', venue.id)
          .where('date', '=', date)
          .where('kind', '=', 'online')
          .where('status', 'in', ['offered', 'accepting'])
          .executeTakeFirst();
        if (open) return undefined;
        const expiresAt = new Date(now.getTime() + deps.offerMinutes * 60_000);
        const moved = await moveEntry(trx, row.id, ['waiting'], 'offered', now, {
          offer_time: slot.time,
          offer_access_rule_id: slot.access_rule_id,
          offer_expires_at: expiresAt.toISOString(),
          offers_made: row.offers_made + 1,
        });
        if (!moved) return undefined;
        await messages.offer(trx, venue, row, { time: slot.time, minutes: deps.offerMinutes }, await linkOf(trx, row.id));
        return row.id;
      });
    }
    return undefined;
  }

  return {
    /** Counts a join from a client address against the public booking limit (before the body is parsed). */
    countAttempt: async (ip: string): Promise<void> => {
      await deps.rateLimits.hit('public_booking', ip);
    },

    /** A guest joins a date's online waitlist (bot-checked); mailed their link. */
    async join(venueId: string, body: JoinBody, ip: string) {
      await deps.botCheck.verify(body.turnstile_token, ip);
      const venue = await deps.liveVenue(db, venueId);
      if (!venue) throw notFound('Venue');
      const now = clock.now();
      const today = utcToLocal(now, venue.timezone).date;
      if (!isCalendarDate(body.date)) throw badRequest('date must be a real calendar date');
      if (body.date < today) throw badRequest('date must not be in the past');
      if (body.date > addDays(today, MAX_DAYS_AHEAD)) throw badRequest(`date must be within ${MAX_DAYS_AHEAD} days`);
      if (body.time_from > body.time_to) throw badRequest('time_from must not be after time_to');
      const name = requiredText(body.guest_name, 'guest_name');
      const email = body.guest_email.trim().toLowerCase();
      const id = newId('wle');
      const row = await withTransaction(db, async (trx) => {
        await lockKey(db, trx, `waitlist-join:${venue.id}:${body.date}`);
        const twice = await trx
          .selectFrom('waitlist_entries')
          .select('id')
          .where('venue_id', '=', venue.id)
          .where('date', '=', body.date)
          .where('kind', '=', 'online')
          .where('guest_email', '=', email)
          .where('status', 'in', ['waiting', 'offered', 'accepting'])
          .executeTakeFirst();
        if (twice) throw conflict('You are already on the waitlist for that date', { reason: 'already_waiting' });
        const at = now.toISOString();
        const entry = {
          id,
          venue_id: venue.id,
          kind: 'online',
          status: 'waiting',
          party_size: body.party_size,
          guest_name: name,
          guest_email: email,
          guest_phone: clearableText(body.guest_phone) ?? null,
          notes: clearableText(body.notes) ?? null,
          date: body.date,
          time_from: body.time_from,
          time_to: body.time_to,
          quoted_minutes: null,
          offer_time: null,
          offer_access_rule_id: null,
          offer_expires_at: null,
          offers_made: 0,
          notified_at: null,
          booking_id: null,
          status_changed_at: at,
          created_at: at,
          updated_at: at,
        };
        await trx.insertInto('waitlist_entries').values(entry).execute();
        await messages.joined(trx, venue, entry, await linkOf(trx, id));
        return entry;
      });
      return { success: true, id, status: row.status, position: (await positionOf(row)) ?? 1, manage_url: await linkOf(db, id) };
    },

    /** What a guest's link shows: their place, and the offer while it is open. */
    async view(token: string): Promise<GuestEntry> {
      const { row, venue } = await fromToken(token);
      const live = row.status === 'offered' && row.offer_expires_at !== null && row.offer_expires_at > clock.now().toISOString();
      return {
        venue: { id: venue.id, name: venue.name },
        status: row.status as GuestEntry['status'],
        position: await positionOf(row),
        party_size: row.party_size,
        guest_name: row.guest_name,
        date: row.date,
        time_from: row.time_from,
        time_to: row.time_to,
        offer: live ? { time: row.offer_time!, expires_at: row.offer_expires_at! } : null,
        booking_id: row.booking_id,
      };
    },

    /** The guest leaves the list (while waiting or offered); leaving twice is fine. */
    async leave(token: string): Promise<{ success: true }> {
      const { row } = await fromToken(token);
      if (row.status === 'left') return { success: true };
      if (!(await moveEntry(db, row.id, movesInto('online', 'left'), 'left', clock.now())))
        throw conflict(`This entry is no longer on the list (${row.status})`, { status: row.status });
      return { success: true };
    },

    /**
     * The guest accepts their offer: claimed `offered → accepting` while it is live (one of racing accepts
     * wins; the others 409), then booked through the public path under an Idempotency-Key of the offer. A
     * slot taken meanwhile (the offer does not hold the table) puts the entry back to `waiting`, in its place.
     */
    async accept(token: string, request: { ip: string; turnstileToken?: string }): Promise<BookAnswer> {
      const { row, venue } = await fromToken(token);
      const now = clock.now();
      if (!row.offer_time || !row.offer_access_rule_id) throw conflict('There is no table on offer', { status: row.status });
      const claimed = await moveEntry(db, row.id, ['offered'], 'accepting', now, {}, { offerLiveAt: now });
      if (!claimed) {
        const again = (await entryById(db, row.id))!;
        const why = again.status === 'offered' || again.status === 'expired' ? 'This offer has expired' : 'This offer is no longer open';
        throw conflict(why, { status: again.status === 'offered' ? 'expired' : again.status });
      }
      try {
        const userId = await guestForEmail(db, { name: row.guest_name, email: row.guest_email! }, now);
        const answer = await deps.book(
          venue.id,
          {
            access_rule_id: row.offer_access_rule_id,
            rule_type: 'table',
            date: row.date,
            time: row.offer_time,
            party_size: row.party_size,
            guest_name: row.guest_name,
            guest_email: row.guest_email!,
            ...(row.guest_phone ? { guest_phone: row.guest_phone } : {}),
            ...(request.turnstileToken ? { turnstile_token: request.turnstileToken } : {}),
          },
          { ip: request.ip, idempotencyKey: `waitlist-offer:${row.id}:${row.offers_made}`, userId },
        );
        await moveEntry(db, row.id, ['accepting'], 'booked', clock.now(), { booking_id: answer.booking_id });
        return answer;
      } catch (error) {
        await moveEntry(db, row.id, ['accepting'], 'waiting', clock.now(), {
          offer_time: null,
          offer_access_rule_id: null,
          offer_expires_at: null,
        });
        if (error instanceof AppError && error.status === 409)
          throw conflict('That table has just gone; you keep your place on the waitlist', { status: 'waiting' });
        throw error;
      }
    },

    /**
     * The offer pass (a background job on one instance per beat): lapsed offers expire, entries of past
     * dates expire, then each venue's date with waiting guests and no open offer offers its first fitting
     * entry a free slot. Answers the ids offered.
     */
    async runOffers(): Promise<string[]> {
      const now = clock.now();
      const lapsedOffer = (eb: ExpressionBuilder<Database, 'waitlist_entries'>) =>
        eb.and([eb('kind', '=', 'online'), eb('status', '=', 'offered'), eb('offer_expires_at', '<=', now.toISOString())]);
      // Venue by venue, and only where an offer lapsed: a write naming no venue marks every venue changed
      // (db/change-feed.ts), and on every beat that emptied every venue's caches on every instance.
      const lapsed = await db.kysely.selectFrom('waitlist_entries').select('venue_id').distinct().where(lapsedOffer).execute();
      for (const { venue_id: venueId } of lapsed) {
        await db.kysely
          .updateTable('waitlist_entries')
          .set({ status: 'expired', status_changed_at: now.toISOString(), updated_at: now.toISOString() })
          .where('venue_id', '=', venueId)
          .where(lapsedOffer)
          .execute();
      }
      const dates = await db.kysely
        .selectFrom('waitlist_entries')
        .select(['venue_id', 'date'])
        .distinct()
        .where('kind', '=', 'online')
        .where('status', '=', 'waiting')
        .orderBy('venue_id')
        .orderBy('date')
        .execute();
      const offered: string[] = [];
      const venues = new Map<string, VenueRow | undefined>();
      for (const { venue_id: venueId, date } of dates) {
        if (!venues.has(venueId)) venues.set(venueId, await deps.liveVenue(db, venueId));
        const venue = venues.get(venueId);
        if (!venue) continue;
        if (date < utcToLocal(now, venue.timezone).date) {
          await db.kysely
            .updateTable('waitlist_entries')
            .set({ status: 'expired', status_changed_at: now.toISOString(), updated_at: now.toISOString() })
            .where('venue_id', '=', venueId)
            .where('date', '=', date)
            .where('kind', '=', 'online')
            .where('status', '=', 'waiting')
            .execute();
          continue;
        }
        try {
          const id = await offerFor(venue, date, now);
          if (id) offered.push(id);
        } catch (error) {
          log.error({ err: error, venueId, date }, 'waitlist offer failed');
        }
      }
      return offered;
    },
  };
}

export type OnlineWaitlist = ReturnType<typeof createOnlineWaitlist>;
