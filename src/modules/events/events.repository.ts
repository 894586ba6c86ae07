/** Kysely functions over the events module's tables, always scoped by operator, venue or event. */
import { sql, type Insertable, type Selectable } from 'kysely';
import { kyselyOf, type Conn } from '../../db/transaction.js';
import { afterKey, type KeyValue, type PageRequest, textKey } from '../../platform/paging.js';
import type { EventsTable, EventTicketsTable, TicketTypesTable } from './events.table.js';

export type EventRow = Selectable<EventsTable>;
export type TicketTypeRow = Selectable<TicketTypesTable>;
export type TicketRow = Selectable<EventTicketsTable>;

/** Statuses that hold a venue's date: an approved event, or one a promoter submitted for approval. */
export const DATE_HOLDING = ['approved', 'pending_venue_approval'] as const;

export async function eventOfOperator(conn: Conn, operatorId: string, id: string): Promise<EventRow | undefined> {
  return kyselyOf(conn).selectFrom('events').selectAll().where('id', '=', id).where('operator_id', '=', operatorId).executeTakeFirst();
}

export async function eventById(conn: Conn, id: string): Promise<EventRow | undefined> {
  return kyselyOf(conn).selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Approved or pending events of the venue on the date (but `excludeId`), oldest first. */
export async function dateHolders(conn: Conn, venueId: string, date: string, excludeId?: string): Promise<EventRow[]> {
  return kyselyOf(conn)
    .selectFrom('events')
    .selectAll()
    .where('venue_id', '=', venueId)
    .where('event_date', '=', date)
    .where('status', 'in', [...DATE_HOLDING])
    .$if(excludeId !== undefined, (q) => q.where('id', '!=', excludeId!))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function insertEvent(conn: Conn, row: Insertable<EventsTable>): Promise<void> {
  await kyselyOf(conn).insertInto('events').values(row).execute();
}

export async function updateEvent(conn: Conn, id: string, set: Partial<EventRow>): Promise<void> {
  await kyselyOf(conn).updateTable('events').set(set).where('id', '=', id).execute();
}

/** Moves an event from `from` to `to`; false when it was no longer `from` (a concurrent move won). */
export async function moveEvent(conn: Conn, id: string, from: string, to: string, at: string): Promise<boolean> {
  const result = await kyselyOf(conn)
    .updateTable('events')
    .set({ status: to, status_changed_at: at, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteEvent(conn: Conn, id: string): Promise<void> {
  await kyselyOf(conn).deleteFrom('events').where('id', '=', id).execute();
}

/** A page of the events of `venueIds`, by date, start time and id. */
export async function pageOfEvents(conn: Conn, venueIds: readonly string[], page: PageRequest) {
  const k = kyselyOf(conn);
  if (venueIds.length === 0) return { rows: [] as EventRow[], total: 0 };
  const filtered = k.selectFrom('events').where('venue_id', 'in', [...venueIds]);
  const keys = [sql.ref('event_date'), textKey('start_time'), sql.ref('id')];
  const ordered = filtered.selectAll().orderBy('event_date').orderBy(keys[1]).orderBy('id');
  if (page.mode === 'offset') {
    const [rows, count] = await Promise.all([
      ordered.limit(page.limit).offset(page.offset).execute(),
      filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }
  const rows = await ordered
    .$if(page.after !== null, (q) => q.where(afterKey(keys, page.after!)))
    .limit(page.limit + 1)
    .execute();
  return { rows, total: 0 };
}

export const eventKey = (row: EventRow): KeyValue[] => [row.event_date, row.start_time ?? '', row.id];

/** Approved events of a venue from `fromDate` on (the public what's-on listing). */
export async function upcomingApproved(conn: Conn, venueId: string, fromDate: string, limit = 100): Promise<EventRow[]> {
  return kyselyOf(conn)
    .selectFrom('events')
    .selectAll()
    .where('venue_id', '=', venueId)
    .where('status', '=', 'approved')
    .where('visibility', '=', 'public')
    .where('event_date', '>=', fromDate)
    .orderBy('event_date')
    .orderBy(textKey('start_time'))
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function ticketTypesOf(conn: Conn, eventIds: readonly string[]): Promise<TicketTypeRow[]> {
  if (eventIds.length === 0) return [];
  return kyselyOf(conn)
    .selectFrom('ticket_types')
    .selectAll()
    .where('event_id', 'in', [...eventIds])
    .orderBy('sort_order')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function ticketTypeOf(conn: Conn, eventId: string, id: string): Promise<TicketTypeRow | undefined> {
  return kyselyOf(conn).selectFrom('ticket_types').selectAll().where('id', '=', id).where('event_id', '=', eventId).executeTakeFirst();
}

export async function insertTicketType(conn: Conn, row: Insertable<TicketTypesTable>): Promise<void> {
  await kyselyOf(conn).insertInto('ticket_types').values(row).execute();
}

export async function updateTicketType(conn: Conn, id: string, set: Partial<TicketTypeRow>): Promise<void> {
  await kyselyOf(conn).updateTable('ticket_types').set(set).where('id', '=', id).execute();
}

export async function deleteTicketType(conn: Conn, id: string): Promise<void> {
  await kyselyOf(conn).deleteFrom('ticket_types').where('id', '=', id).execute();
}

/** Re-points (or clears) a reference column of a venue's ticket types (the profiles module deleted or replaced rows). */
export async function repointTicketTypes(
  conn: Conn,
  column: 'ticket_profile_id' | 'admission_rule_group_id',
  venueId: string,
  remap: ReadonlyMap<string, string | null>,
  now: string,
): Promise<void> {
  for (const [from, to] of remap) {
    if (from === to) continue;
    await kyselyOf(conn)
      .updateTable('ticket_types')
      .set({ [column]: to, updated_at: now })
      .where(column, '=', from)
      .where('venue_id', '=', venueId)
      .execute();
  }
}

export async function insertTicket(conn: Conn, row: TicketRow): Promise<void> {
  await kyselyOf(conn).insertInto('event_tickets').values(row).execute();
}

export async function ticketOfBooking(conn: Conn, bookingId: string): Promise<TicketRow | undefined> {
  return kyselyOf(conn).selectFrom('event_tickets').selectAll().where('booking_id', '=', bookingId).executeTakeFirst();
}

export async function ticketsOfEvent(conn: Conn, eventId: string): Promise<TicketRow[]> {
  return kyselyOf(conn).selectFrom('event_tickets').selectAll().where('event_id', '=', eventId).execute();
}

/** Tickets per ticket type held by the given (active) bookings of an event. */
export async function ticketsHeld(conn: Conn, eventId: string, activeBookingIds: readonly string[]): Promise<Map<string, number>> {
  const held = new Map<string, number>();
  if (activeBookingIds.length === 0) return held;
  const active = new Set(activeBookingIds);
  for (const ticket of await ticketsOfEvent(conn, eventId)) {
    if (active.has(ticket.booking_id)) held.set(ticket.ticket_type_id, (held.get(ticket.ticket_type_id) ?? 0) + ticket.quantity);
  }
  return held;
}

/** Whether any ticket (of any booking, active or not) names the ticket type. */
export async function ticketTypeUsed(conn: Conn, ticketTypeId: string): Promise<boolean> {
  const row = await kyselyOf(conn)
    .selectFrom('event_tickets')
    .select('booking_id')
    .where('ticket_type_id', '=', ticketTypeId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The ticket lines of a guest's own event bookings (the account module's "my tickets"), with each event's name and times. */
export async function accountTickets(conn: Conn, bookingIds: readonly string[]) {
  if (bookingIds.length === 0) return [];
  return kyselyOf(conn)
    .selectFrom('event_tickets')
    .innerJoin('events', 'events.id', 'event_tickets.event_id')
    .leftJoin('ticket_types', 'ticket_types.id', 'event_tickets.ticket_type_id')
    .select([
      'event_tickets.booking_id',
      'event_tickets.event_id',
      'events.name as event_name',
      'events.event_date',
      'events.start_time',
      'events.end_time',
      'ticket_types.name as ticket_type_name',
      'event_tickets.quantity',
      'event_tickets.unit_price_pence',
      'event_tickets.qr_token',
    ])
    .where('event_tickets.booking_id', 'in', [...new Set(bookingIds)])
    .orderBy('event_tickets.created_at')
    .execute();
}
