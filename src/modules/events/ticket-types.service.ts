/**
 * Ticket types of an event (spec: Ticket type): price, capacity (null: unlimited), order, and the ticket
 * profile and admission group they use, which must be the event venue's own (400 otherwise). The
 * profiles module detaches those references when it deletes the rows (registered in index.ts).
 * Capacity never drops below the tickets active bookings hold, and a ticket type that sold tickets
 * cannot be deleted (409); both are checked under the event's lock, the lock every sale takes.
 */
import type { Db } from '../../db/connect.js';
import { lockKey, withTransaction, type Conn } from '../../db/transaction.js';
import type { AuthInfo } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { References } from '../../platform/references.js';
import { requiredText } from '../../platform/text.js';
import { activeEventBookings } from '../bookings/index.js';
import {
  deleteTicketType,
  insertTicketType,
  ticketsHeld,
  ticketTypeOf,
  ticketTypesOf,
  ticketTypeUsed,
  updateTicketType,
  type TicketTypeRow,
} from './events.repository.js';
import { DEFAULT_MAX_PER_ORDER, type TicketTypeBody } from './events.schemas.js';
import { eventLock, type EventsService } from './events.service.js';

export function toTicketType(row: TicketTypeRow, sold: number) {
  return {
    id: row.id,
    event_id: row.event_id!,
    name: row.name,
    price_pence: row.price_pence,
    capacity: row.capacity,
    sort_order: row.sort_order,
    max_per_order: row.max_per_order,
    admission_rule_group_id: row.admission_rule_group_id,
    ticket_profile_id: row.ticket_profile_id,
    sold,
  };
}

/** Tickets held by the event's active bookings, per ticket type. */
export async function heldTickets(conn: Conn, eventId: string): Promise<Map<string, number>> {
  const active = await activeEventBookings(conn, eventId);
  return ticketsHeld(
    conn,
    eventId,
    active.map((b) => b.id),
  );
}

export function createTicketTypes(deps: { db: Db; clock: Clock; references: References; events: EventsService }) {
  const { db, clock, references, events } = deps;

  async function checkReferences(venueId: string, body: TicketTypeBody): Promise<void> {
    if (body.ticket_profile_id && (await references.missing(db, 'ticket_profile', venueId, [body.ticket_profile_id])).length > 0) {
      throw badRequest("ticket_profile_id does not name one of this venue's ticket profiles");
    }
    if (
      body.admission_rule_group_id &&
      (await references.missing(db, 'admission_group', venueId, [body.admission_rule_group_id])).length > 0
    ) {
      throw badRequest("admission_rule_group_id does not name one of this venue's admission groups");
    }
  }

  async function ticketTypeOrThrow(conn: Conn, eventId: string, id: string): Promise<TicketTypeRow> {
    const row = await ticketTypeOf(conn, eventId, id);
    if (!row) throw notFound('Ticket type');
    return row;
  }

  return {
    async list(auth: AuthInfo, eventId: string) {
      const { event } = await events.reachableEvent(auth, eventId);
      const [rows, held] = await Promise.all([ticketTypesOf(db, [event.id]), heldTickets(db, event.id)]);
      return { data: rows.map((row) => toTicketType(row, held.get(row.id) ?? 0)) };
    },

    async create(auth: AuthInfo, eventId: string, body: TicketTypeBody) {
      const { event } = await events.reachableEvent(auth, eventId);
      await checkReferences(event.venue_id, body);
      const at = clock.now().toISOString();
      const id = newId('tkt');
      await insertTicketType(db, {
        id,
        event_id: event.id,
        venue_id: event.venue_id,
        name: requiredText(body.name, 'name'),
        price_pence: body.price_pence ?? 0,
        capacity: body.capacity ?? null,
        sort_order: body.sort_order ?? 0,
        max_per_order: body.max_per_order ?? DEFAULT_MAX_PER_ORDER,
        admission_rule_group_id: body.admission_rule_group_id ?? null,
        ticket_profile_id: body.ticket_profile_id ?? null,
        created_at: at,
        updated_at: at,
      });
      return { success: true, id };
    },

    async update(auth: AuthInfo, eventId: string, id: string, body: TicketTypeBody) {
      const { event } = await events.reachableEvent(auth, eventId);
      await ticketTypeOrThrow(db, event.id, id);
      await checkReferences(event.venue_id, body);
      await withTransaction(db, async (trx) => {
        await lockKey(db, trx, eventLock(event.id));
        const held = (await heldTickets(trx, event.id)).get(id) ?? 0;
        if (body.capacity !== undefined && body.capacity !== null && body.capacity < held) {
          throw conflict(`capacity cannot be below the ${held} tickets already sold`, { sold: held });
        }
        await updateTicketType(trx, id, {
          name: requiredText(body.name, 'name'),
          ...(body.price_pence !== undefined ? { price_pence: body.price_pence } : {}),
          ...(body.capacity !== undefined ? { capacity: body.capacity } : {}),
          ...(body.sort_order !== undefined ? { sort_order: body.sort_order } : {}),
          ...(body.max_per_order !== undefined ? { max_per_order: body.max_per_order } : {}),
          ...(body.admission_rule_group_id !== undefined ? { admission_rule_group_id: body.admission_rule_group_id } : {}),
          ...(body.ticket_profile_id !== undefined ? { ticket_profile_id: body.ticket_profile_id } : {}),
          updated_at: clock.now().toISOString(),
        });
      });
      return { success: true };
    },

    async remove(auth: AuthInfo, eventId: string, id: string) {
      const { event } = await events.reachableEvent(auth, eventId);
      await withTransaction(db, async (trx) => {
        await lockKey(db, trx, eventLock(event.id));
        await ticketTypeOrThrow(trx, event.id, id);
        if (await ticketTypeUsed(trx, id)) throw conflict('Tickets of this type were sold: it cannot be deleted');
        await deleteTicketType(trx, id);
      });
      return { success: true };
    },
  };
}

export type TicketTypesService = ReturnType<typeof createTicketTypes>;
