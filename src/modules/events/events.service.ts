/**
 * Events for operators (spec: Event, Events): create with the same-day clash rule, edit under the edit
 * rules, delete, the listing request and withdrawal, the conflict check and the paged lists. Status moves
 * are event-status.ts's. Every event is reached through its venue: an event at a venue the caller
 * cannot reach is a 404, exactly like one that does not exist.
 *
 * Writes that depend on the event's bookings run in one transaction holding the event's lock (PostgreSQL
 * advisory lock; SQLite has one writer), the same lock a ticket sale takes, so an edit and a sale never
 * interleave; a create or move to `approved` also takes the venue's events lock for the clash check.
 */
import type { Logger } from 'pino';
import { isCalendarDate } from '../../domain/venue-time.js';
import type { Db } from '../../db/connect.js';
import { lockKey, withTransaction, type Conn } from '../../db/transaction.js';
import type { AuthInfo, VenueRow } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { cursorPage, offsetPage, pageRequest } from '../../platform/paging.js';
import { clearableText, requiredText } from '../../platform/text.js';
import { activeEventBookings, eventFigures, venueDayReservations, type EventBookings } from '../bookings/index.js';
import {
  DATE_HOLDING,
  dateHolders,
  deleteEvent,
  eventById,
  eventKey,
  eventOfOperator,
  insertEvent,
  pageOfEvents,
  updateEvent,
  type EventRow,
} from './events.repository.js';
import type { EventCreateBody, EventListQuery, EventRecord, EventUpdateBody } from './events.schemas.js';

export interface EventsDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  eventBookings: EventBookings;
  /** The venue when the caller may reach it (404 otherwise): the guard's. */
  reachableVenue(auth: AuthInfo, venueId: string): Promise<VenueRow>;
  /** The caller's venue ids (the role's scope applied). */
  reachableVenueIds(auth: AuthInfo): Promise<string[]>;
  /** Names of the account's venues (the venues module's). */
  venueNames(operatorId: string, venueIds: readonly string[]): Promise<{ id: string; name: string }[]>;
  /** A venue of the account (the venues module's), for an organiser's event. */
  accountVenue(operatorId: string, venueId: string): Promise<VenueRow | undefined>;
  /** The venue when the promoter holds an active agreement with it (the promoters module's). */
  promoterVenue(promoterId: string, venueId: string): Promise<VenueRow | undefined>;
}

/** A promoter (an organiser outside the venue's account) is reached only by their own events (decisions: Promoters). */
const isPromoter = (auth: AuthInfo) => auth.user.role === 'promoter';

export const CLASH_MESSAGE = 'Another event is already approved or pending at this venue on that date';
export const eventLock = (id: string) => `event:${id}`;
export const venueEventsLock = (venueId: string) => `venue-events:${venueId}`;

export function parseAttribution(text: string | null) {
  return text ? (JSON.parse(text) as { photographer: string; photographer_url: string; unsplash_url: string }) : null;
}

export function toEvent(row: EventRow, venueName: string, committedGuests: number): EventRecord {
  return {
    id: row.id,
    venue_id: row.venue_id,
    venue_name: venueName,
    name: row.name,
    event_date: row.event_date,
    start_time: row.start_time,
    end_time: row.end_time,
    last_entry_time: row.last_entry_time,
    event_type: row.event_type,
    event_genre: row.event_genre,
    description: row.description,
    guest_list_capacity: row.guest_list_capacity,
    committed_guests: committedGuests,
    status: row.status,
    visibility: row.visibility,
    event_mode: row.event_mode,
    image_url: row.image_url,
    image_attribution: parseAttribution(row.image_attribution),
    app_listing_status: row.app_listing_status,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** 409 with `{ conflict: { event_id, name } }` when another event holds the venue's date (spec: Errors rule 4). */
export async function refuseClash(conn: Conn, venueId: string, date: string, excludeId?: string): Promise<void> {
  const [holder] = await dateHolders(conn, venueId, date, excludeId);
  if (holder) throw conflict(CLASH_MESSAGE, { conflict: { event_id: holder.id, name: holder.name } });
}

const checkDate = (date: string) => {
  if (!isCalendarDate(date)) throw badRequest('event_date must be a real calendar date');
  return date;
};

/** The editable fields of a body, normalised for storage (only those sent). */
export function editableFields(body: Omit<EventUpdateBody, 'status' | 'venue_id'>): Partial<EventRow> {
  const out: Partial<EventRow> = {};
  if (body.name !== undefined) out.name = requiredText(body.name, 'name');
  if (body.event_date !== undefined) out.event_date = checkDate(body.event_date);
  for (const key of ['start_time', 'end_time', 'last_entry_time'] as const) if (body[key] !== undefined) out[key] = body[key] || null;
  for (const key of ['event_type', 'event_genre', 'description', 'image_url'] as const) {
    if (body[key] !== undefined) out[key] = clearableText(body[key]) ?? null;
  }
  if (body.guest_list_capacity !== undefined) out.guest_list_capacity = body.guest_list_capacity;
  if (body.image_attribution !== undefined) out.image_attribution = body.image_attribution ? JSON.stringify(body.image_attribution) : null;
  else if (body.image_url !== undefined) out.image_attribution = null;
  return out;
}

export function createEventsService(deps: EventsDeps) {
  const { db, clock } = deps;

  /** The caller's event and its venue; 404 for an event of another account or outside the role's venues. */
  async function reachableEvent(auth: AuthInfo, id: string): Promise<{ event: EventRow; venue: VenueRow }> {
    if (isPromoter(auth)) {
      const own = await eventById(db, id);
      const venue = own && own.promoter_id === auth.user.id ? await deps.accountVenue(own.operator_id, own.venue_id) : undefined;
      if (!own || !venue) throw notFound('Event');
      return { event: own, venue };
    }
    const event = auth.operatorId ? await eventOfOperator(db, auth.operatorId, id) : undefined;
    if (!event) throw notFound('Event');
    const venue = await deps.reachableVenue(auth, event.venue_id).catch(() => {
      throw notFound('Event');
    });
    return { event, venue };
  }

  async function records(auth: AuthInfo, rows: EventRow[]): Promise<EventRecord[]> {
    const venueIds = [...new Set(rows.map((row) => row.venue_id))];
    const [names, figures] = await Promise.all([
      deps.venueNames(auth.operatorId!, venueIds),
      eventFigures(
        db,
        rows.map((row) => row.id),
      ),
    ]);
    const nameOf = new Map(names.map((venue) => [venue.id, venue.name]));
    return rows.map((row) => toEvent(row, nameOf.get(row.venue_id) ?? '', figures.get(row.id)?.committed_guests ?? 0));
  }

  async function list(auth: AuthInfo, venueIds: string[], query: EventListQuery) {
    if (query.page !== undefined && query.offset !== undefined) throw badRequest('Send either page or offset, not both');
    const limit = query.limit ?? 50;
    const offset = query.page !== undefined ? (query.page - 1) * limit : query.offset;
    const page = pageRequest({ ...query, limit, offset }, 3);
    const { rows, total } = await pageOfEvents(db, venueIds, page);
    if (page.mode === 'offset') return offsetPage(await records(auth, rows), total, page);
    const found = cursorPage(rows, page.limit, eventKey);
    return { ...found, data: await records(auth, found.data) };
  }

  return {
    reachableEvent,

    async get(auth: AuthInfo, id: string) {
      const { event } = await reachableEvent(auth, id);
      return { data: (await records(auth, [event]))[0] };
    },

    async listMine(auth: AuthInfo, query: EventListQuery) {
      return list(auth, await deps.reachableVenueIds(auth), query);
    },

    async listOfVenue(auth: AuthInfo, venue: VenueRow, query: EventListQuery) {
      return list(auth, [venue.id], query);
    },

    async create(auth: AuthInfo, body: EventCreateBody) {
      const venue = await deps.reachableVenue(auth, body.venue_id);
      const fields = editableFields(body);
      const status = body.status ?? 'draft';
      const at = clock.now().toISOString();
      const id = newId('evt');
      await withTransaction(db, async (trx) => {
        await lockKey(db, trx, venueEventsLock(venue.id));
        if (status === 'approved') await refuseClash(trx, venue.id, body.event_date);
        await insertEvent(trx, {
          ...fields,
          id,
          operator_id: venue.operator_id,
          venue_id: venue.id,
          name: fields.name!,
          event_date: fields.event_date!,
          status,
          status_changed_at: at,
          created_at: at,
          updated_at: at,
        });
      });
      // Creating an event never cancels the venue's other reservations (decisions: Events).
      return { success: true, id, cancelled_bookings: 0 };
    },

    /** Applies the edit rules (spec: Event edit rules) under the event's lock. */
    async update(auth: AuthInfo, id: string, body: EventUpdateBody) {
      const { event, venue } = await reachableEvent(auth, id);
      if (body.venue_id !== undefined && body.venue_id !== event.venue_id)
        throw badRequest('venue_id cannot be changed once the event exists');
      const fields = editableFields(body);
      await withTransaction(db, async (trx) => {
        await lockKey(db, trx, venueEventsLock(venue.id));
        await lockKey(db, trx, eventLock(id));
        const current = (await eventOfOperator(trx, event.operator_id, id))!;
        const moves = (['event_date', 'start_time', 'end_time', 'last_entry_time'] as const).filter(
          (key) => fields[key] !== undefined && fields[key] !== current[key],
        );
        const active = await activeEventBookings(trx, id);
        if (moves.length > 0 && active.length > 0) {
          throw conflict(`The event has bookings: its ${moves.join(', ').replace(/_/g, ' ')} can no longer change`);
        }
        if (fields.guest_list_capacity !== undefined && fields.guest_list_capacity !== null) {
          const committed = (await eventFigures(trx, [id])).get(id)!.committed_guests;
          if (fields.guest_list_capacity < committed) {
            throw conflict(`guest_list_capacity cannot be below the ${committed} guests already committed`, {
              committed_guests: committed,
            });
          }
        }
        if (
          fields.event_date !== undefined &&
          fields.event_date !== current.event_date &&
          (DATE_HOLDING as readonly string[]).includes(current.status)
        ) {
          await refuseClash(trx, venue.id, fields.event_date, id);
        }
        await updateEvent(trx, id, { ...fields, updated_at: clock.now().toISOString() });
      });
      return { success: true };
    },

    /** Only an unpublished event (any status but approved) without any booking; 409 otherwise. */
    async remove(auth: AuthInfo, id: string) {
      await reachableEvent(auth, id);
      await withTransaction(db, async (trx) => {
        await lockKey(db, trx, eventLock(id));
        const figures = (await eventFigures(trx, [id])).get(id)!;
        if (figures.total > 0) throw conflict('The event has bookings: cancel it instead of deleting it', { bookings: figures.total });
        const current = await eventOfOperator(trx, auth.operatorId!, id);
        if (!current) throw notFound('Event');
        if (current.status === 'approved') throw conflict('The event is published: set it back to draft before deleting it');
        await deleteEvent(trx, id);
      });
      return { success: true };
    },

    async requestListing(auth: AuthInfo, id: string) {
      const { event } = await reachableEvent(auth, id);
      if (event.status !== 'approved') throw conflict('Only an approved event can be listed');
      await updateEvent(db, id, { app_listing_status: 'pending', updated_at: clock.now().toISOString() });
      return { app_listing_status: 'pending' };
    },

    async withdrawListing(auth: AuthInfo, id: string) {
      const { event } = await reachableEvent(auth, id);
      if (event.app_listing_status !== 'pending') throw conflict('Only a pending listing request can be withdrawn');
      await updateEvent(db, id, { app_listing_status: 'none', updated_at: clock.now().toISOString() });
      return { success: true };
    },

    async conflictCheck(auth: AuthInfo, query: { venue_id: string; date: string; exclude_event_id?: string }) {
      const venue = isPromoter(auth)
        ? await deps.promoterVenue(auth.user.id, query.venue_id)
        : await deps.reachableVenue(auth, query.venue_id);
      if (!venue) throw notFound('Venue');
      checkDate(query.date);
      const [holders, affected] = await Promise.all([
        dateHolders(db, venue.id, query.date, query.exclude_event_id),
        venueDayReservations(db, venue.id, query.date),
      ]);
      return {
        has_event_conflict: holders.length > 0,
        // A promoter learns that the date is taken, but sees only their own events by name.
        events: holders
          .filter((row) => !isPromoter(auth) || row.promoter_id === auth.user.id)
          .map((row) => ({ id: row.id, name: row.name, status: row.status })),
        affected_bookings: affected.bookings,
        affected_guests: affected.guests,
      };
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
