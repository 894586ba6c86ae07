/**
 * What an event's organisers read (spec: Events, stats and bookings): the stats (bookings by status,
 * committed guests, revenue, a daily timeline and the latest bookings, plus tickets per type) and the
 * door list with each booking's tickets, and what cancelling the event would cancel and refund (read only).
 * The figures are the bookings module's; the tickets are ours.
 */
import type { Db } from '../../db/connect.js';
import type { AuthInfo } from '../../platform/auth-guard.js';
import { eventBookingStats, eventCancellationPreview, eventDoorList } from '../bookings/index.js';
import { ticketsOfEvent, ticketTypesOf } from './events.repository.js';
import type { EventsService } from './events.service.js';
import { heldTickets } from './ticket-types.service.js';

export function createEventInsights(deps: { db: Db; events: EventsService }) {
  const { db, events } = deps;

  return {
    async stats(auth: AuthInfo, id: string) {
      const { event, venue } = await events.reachableEvent(auth, id);
      const [figures, types, held] = await Promise.all([
        eventBookingStats(db, event.id, venue.timezone),
        ticketTypesOf(db, [event.id]),
        heldTickets(db, event.id),
      ]);
      return {
        capacity: event.guest_list_capacity,
        event_mode: event.event_mode,
        ...figures,
        tickets: types.map((type) => ({ ticket_type_id: type.id, name: type.name, capacity: type.capacity, sold: held.get(type.id) ?? 0 })),
      };
    },

    async doorList(auth: AuthInfo, id: string) {
      const { event } = await events.reachableEvent(auth, id);
      const [rows, tickets, types] = await Promise.all([
        eventDoorList(db, event.id),
        ticketsOfEvent(db, event.id),
        ticketTypesOf(db, [event.id]),
      ]);
      const ticketOf = new Map(tickets.map((ticket) => [ticket.booking_id, ticket]));
      const nameOf = new Map(types.map((type) => [type.id, type.name]));
      return {
        data: rows.map((row) => {
          const ticket = ticketOf.get(row.id);
          return {
            ...row,
            ticket_type_id: ticket?.ticket_type_id ?? null,
            ticket_name: ticket ? (nameOf.get(ticket.ticket_type_id) ?? null) : null,
            quantity: ticket?.quantity ?? 0,
          };
        }),
      };
    },

    /** What `PATCH …/status { status: 'cancelled' }` would do now, booking by booking, with each booking's tickets. */
    async cancellationPreview(auth: AuthInfo, id: string) {
      const { event } = await events.reachableEvent(auth, id);
      const [preview, tickets, types] = await Promise.all([
        eventCancellationPreview(db, event.id),
        ticketsOfEvent(db, event.id),
        ticketTypesOf(db, [event.id]),
      ]);
      const ticketOf = new Map(tickets.map((ticket) => [ticket.booking_id, ticket]));
      const nameOf = new Map(types.map((type) => [type.id, type.name]));
      return {
        event_id: event.id,
        status: event.status,
        ...preview,
        bookings: preview.bookings.map((row) => {
          const ticket = ticketOf.get(row.id);
          return {
            ...row,
            ticket_name: ticket ? (nameOf.get(ticket.ticket_type_id) ?? null) : null,
            quantity: ticket?.quantity ?? 0,
          };
        }),
      };
    },
  };
}

export type EventInsights = ReturnType<typeof createEventInsights>;
