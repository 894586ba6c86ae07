/**
 * A promoter's own events (docs/promoters.md): a promoter submits an event to a venue that accepted them
 * (the promoters module checks the agreement), and it arrives as `pending_venue_approval` for the venue to
 * approve or reject with the spec's endpoints. The promoter edits it while it is pending, and withdraws
 * (deletes) it while pending or rejected; afterwards it is the venue's to change. Every read and write is
 * scoped by the promoter: another promoter's event is simply not found (404).
 */
import type { Db } from '../../db/connect.js';
import { kyselyOf, lockKey, withTransaction, type Conn } from '../../db/transaction.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { conflict, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { eventFigures } from '../bookings/index.js';
import { deleteEvent, insertEvent, updateEvent, type EventRow } from './events.repository.js';
import type { EventCreateBody, EventRecord, EventUpdateBody } from './events.schemas.js';
import { editableFields, eventLock, refuseClash, toEvent, venueEventsLock } from './events.service.js';

export type SubmissionBody = Omit<EventCreateBody, 'status'>;
export type SubmissionUpdateBody = Omit<EventUpdateBody, 'status' | 'venue_id'>;

const ofPromoter = (conn: Conn, promoterId: string) =>
  kyselyOf(conn).selectFrom('events').selectAll().where('promoter_id', '=', promoterId);

/** The pending submissions of promoters at a venue, oldest first (for the venue's promoters page). */
export async function venueSubmissions(conn: Conn, venueId: string): Promise<EventRow[]> {
  return kyselyOf(conn)
    .selectFrom('events')
    .selectAll()
    .where('venue_id', '=', venueId)
    .where('promoter_id', 'is not', null)
    .where('status', '=', 'pending_venue_approval')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function createOrganiserEvents(deps: {
  db: Db;
  clock: Clock;
  venueNames(operatorId: string, venueIds: readonly string[]): Promise<{ id: string; name: string }[]>;
}) {
  const { db, clock } = deps;

  async function own(conn: Conn, promoterId: string, id: string): Promise<EventRow> {
    const event = await ofPromoter(conn, promoterId).where('id', '=', id).executeTakeFirst();
    if (!event) throw notFound('Event');
    return event;
  }

  async function records(rows: EventRow[]): Promise<EventRecord[]> {
    const names = new Map<string, string>();
    for (const operatorId of new Set(rows.map((row) => row.operator_id))) {
      const venueIds = [...new Set(rows.filter((row) => row.operator_id === operatorId).map((row) => row.venue_id))];
      for (const venue of await deps.venueNames(operatorId, venueIds)) names.set(venue.id, venue.name);
    }
    const figures = await eventFigures(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => toEvent(row, names.get(row.venue_id) ?? '', figures.get(row.id)?.committed_guests ?? 0));
  }

  return {
    async list(promoterId: string) {
      const rows = await ofPromoter(db, promoterId).orderBy('event_date').orderBy('id').execute();
      return { data: await records(rows) };
    },

    async get(promoterId: string, id: string) {
      return { data: (await records([await own(db, promoterId, id)]))[0]! };
    },

    /** A new submission at `venue` (the agreement already checked): `pending_venue_approval`, which holds the date. */
    async submit(promoterId: string, venue: VenueRow, body: SubmissionBody) {
      const fields = editableFields(body);
      const at = clock.now().toISOString();
      const id = newId('evt');
      await withTransaction(db, async (trx) => {
        await lockKey(db, trx, venueEventsLock(venue.id));
        await refuseClash(trx, venue.id, fields.event_date!);
        await insertEvent(trx, {
          ...fields,
          id,
          operator_id: venue.operator_id,
          venue_id: venue.id,
          promoter_id: promoterId,
          name: fields.name!,
          event_date: fields.event_date!,
          status: 'pending_venue_approval',
          status_changed_at: at,
          created_at: at,
          updated_at: at,
        });
      });
      return { success: true, id };
    },

    /** Edits a submission while it is `pending_venue_approval` (409 afterwards). */
    async update(promoterId: string, id: string, body: SubmissionUpdateBody) {
      const event = await own(db, promoterId, id);
      const fields = editableFields(body);
      await withTransaction(db, async (trx) => {
        await lockKey(db, trx, venueEventsLock(event.venue_id));
        await lockKey(db, trx, eventLock(id));
        const current = await own(trx, promoterId, id);
        if (current.status !== 'pending_venue_approval') {
          throw conflict(`This event is ${current.status.replace(/_/g, ' ')}: only a submission awaiting the venue can be edited`, {
            status: current.status,
          });
        }
        if (fields.event_date !== undefined && fields.event_date !== current.event_date)
          await refuseClash(trx, event.venue_id, fields.event_date, id);
        await updateEvent(trx, id, { ...fields, updated_at: clock.now().toISOString() });
      });
      return { success: true };
    },

    /** Withdraws a submission that is pending or rejected (it never had bookings then); 409 otherwise. */
    async remove(promoterId: string, id: string) {
      await own(db, promoterId, id);
      await withTransaction(db, async (trx) => {
        await lockKey(db, trx, eventLock(id));
        const current = await own(trx, promoterId, id);
        if (current.status !== 'pending_venue_approval' && current.status !== 'rejected') {
          throw conflict('Only a pending or rejected submission can be withdrawn');
        }
        const figures = (await eventFigures(trx, [id])).get(id);
        if (figures && figures.total > 0) throw conflict('The event has bookings');
        await deleteEvent(trx, id);
      });
      return { success: true };
    },
  };
}

export type OrganiserEvents = ReturnType<typeof createOrganiserEvents>;
