/**
 * Seating a booking at tables, shared by the public flow, the staff floor and the smart-table pass:
 * choosing the best free tables for a stay (the engine's candidates, ranked by the pure assignment),
 * checking that named tables are free, and writing a booking's tables and 15-minute slots.
 */
import { freeCandidates, GrownFromStays, isAppendOnly, type Candidate, type Occupancy } from '../../../domain/availability/index.js';
import { addHold, chooseTables, type SeatingCandidate, type TableHolds } from '../../../domain/table-assignment/index.js';
import { isActive, refusedMoveMessage } from '../../../domain/booking-status.js';
import type { Conn } from '../../../db/transaction.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import { conflict, notFound } from '../../../platform/errors.js';
import { blocksBetween, floorplanRecords, type TableRecord } from '../../tables/index.js';
import type { BookingRow } from './booking-store.js';
import { tablesTakenBetween } from './bookings.repository.js';
import { insertBookingTables, releaseTables } from './booking-writes.js';
import { claimSlots, TABLE_TAKEN_MESSAGE } from './slots.js';
import { loadVenueConfig, occupancyBetween, serviceWindow, type LoadedVenue } from './venue-config.js';

export interface Stay {
  startsAt: Date;
  endsAt: Date;
}

export const tableNames = (tables: readonly { table_number: string }[]) =>
  `${tables.length === 1 ? 'Table' : 'Tables'} ${tables.map((t) => t.table_number).join(', ')}`;

/** Each loaded configuration's seating candidates, by the engine's candidate (made once per unit, engine.ts). */
const seatings = new WeakMap<LoadedVenue, WeakMap<Candidate, SeatingCandidate>>();

/** The engine's candidates as the assignment ranks them (areas and labels from the floorplan), each made once per configuration. */
export function seatingOf(loaded: LoadedVenue, candidates: readonly Candidate[]): SeatingCandidate[] {
  let known = seatings.get(loaded);
  if (!known) seatings.set(loaded, (known = new WeakMap()));
  let area: Map<string, string | null> | undefined;
  let label: Map<string, string> | undefined;
  return candidates.map((c) => {
    let seating = known.get(c);
    if (!seating) {
      area ??= new Map(loaded.floorplan.tables.map((t) => [t.id, t.seating_area_id]));
      label ??= new Map(loaded.floorplan.tables.map((t) => [t.id, t.table_number]));
      const areas = c.tableIds.map((id) => area!.get(id)).filter((a): a is string => Boolean(a));
      seating = {
        id: c.id,
        kind: c.kind,
        tableIds: c.tableIds,
        capacity: c.capacity,
        areaIds: [...new Set(areas)],
        label: c.tableIds.map((id) => label!.get(id) ?? id).join('+'),
      };
      known.set(c, seating);
    }
    return seating;
  });
}

/** Adds a stay's holds on its tables to `holds`. */
function addStayHolds(holds: Map<string, Stay[]>, stay: Occupancy[number]): void {
  for (const tableId of stay.tableIds) addHold(holds, tableId, stay);
}

/** Every hold on the venue's tables, grouped by table: the blocks, and the stays but `excludeBookingId`'s. */
function groupedHolds(loaded: LoadedVenue, occupancy: Occupancy, excludeBookingId?: string): Map<string, Stay[]> {
  const holds = new Map<string, Stay[]>();
  for (const block of loaded.config.blocks) addHold(holds, block.tableId, { startsAt: block.fromUtc, endsAt: block.toUtc });
  for (const stay of occupancy) if (stay.bookingId !== excludeBookingId) addStayHolds(holds, stay);
  return holds;
}

/** Each loaded configuration's holds of append-only stays (a booking batch's day), grown as the stays are. */
const grownHolds = new WeakMap<LoadedVenue, GrownFromStays<Map<string, Stay[]>>>();

/**
 * Every hold on the venue's tables grouped by table, as the assignment reads it, but `excludeBookingId`'s
 * (a booking being moved). A booking batch's day (append-only stays) is grouped once and each placement's
 * stay added to it, instead of every stay grouped again for each placement.
 */
export function holdsOf(loaded: LoadedVenue, occupancy: Occupancy, excludeBookingId?: string): TableHolds {
  if (excludeBookingId !== undefined || !isAppendOnly(occupancy)) return groupedHolds(loaded, occupancy, excludeBookingId);
  let grown = grownHolds.get(loaded);
  if (!grown) grownHolds.set(loaded, (grown = new GrownFromStays((stays) => groupedHolds(loaded, stays), addStayHolds)));
  return grown.of(occupancy);
}

/**
 * The best free seating for a party over a stay, on the whole floor (staff seat outside the access
 * rules' grid): the smallest fitting table or combination that leaves the evening least broken up.
 * Null when nothing free seats the party. `excludeBookingId`: the booking being moved, whose own
 * tables count as free.
 */
export async function bestSeating(
  conn: Conn,
  venue: VenueRow,
  request: { date: string; stay: Stay; partySize: number; excludeBookingId?: string },
): Promise<SeatingCandidate | null> {
  const window = serviceWindow(venue, request.date, request.date);
  const [loaded, occupancy] = await Promise.all([
    loadVenueConfig(conn, venue, request.date),
    occupancyBetween(conn, venue.id, window.fromUtc, window.toUtc),
  ]);
  const candidates = freeCandidates(loaded.config, occupancy, {
    startsAt: request.stay.startsAt,
    endsAt: request.stay.endsAt,
    partySize: request.partySize,
    excludeBookingId: request.excludeBookingId,
  });
  return chooseTables({
    candidates: seatingOf(loaded, candidates),
    partySize: request.partySize,
    stay: request.stay,
    occupied: holdsOf(loaded, occupancy, request.excludeBookingId),
  });
}

/** The stay of a booking that holds tables: active, timed and not closed (409 naming why otherwise). */
export function stayOf(booking: BookingRow, what: string): Stay {
  if (!isActive(booking.status)) throw conflict(refusedMoveMessage(booking.status, what), { status: booking.status });
  if (!booking.starts_at || !booking.ends_at) throw conflict(`This booking has no table time: it cannot be ${what}`);
  if (booking.closed_at) throw conflict(`This booking's table was closed: it cannot be ${what}`);
  return { startsAt: new Date(booking.starts_at), endsAt: new Date(booking.ends_at) };
}

/**
 * 409 unless every table is free for [startsAt, endsAt): no other active stay holds it and no block
 * covers it. The slots' primary key decides in the end (claimSlots); this names the tables.
 */
export async function checkTablesFree(
  conn: Conn,
  booking: Pick<BookingRow, 'id' | 'venue_id'>,
  tables: readonly TableRecord[],
  startsAt: Date,
  endsAt: Date,
): Promise<void> {
  const ids = tables.map((t) => t.id);
  const taken = await tablesTakenBetween(conn, booking.venue_id, ids, startsAt, endsAt, { excludeBookingId: booking.id });
  if (taken.size > 0) {
    const names = tableNames(tables.filter((t) => taken.has(t.id)));
    throw conflict(`${TABLE_TAKEN_MESSAGE}: ${names}`, { table_ids: [...taken] });
  }
  const blocked = new Set((await blocksBetween(conn, booking.venue_id, startsAt, endsAt)).map((b) => b.table_id));
  const blockedTables = tables.filter((t) => blocked.has(t.id));
  if (blockedTables.length > 0) {
    throw conflict(`${tableNames(blockedTables)} ${blockedTables.length === 1 ? 'is' : 'are'} blocked at that time`, {
      table_ids: blockedTables.map((t) => t.id),
    });
  }
}

/**
 * The tables staff name for a stay, checked: the venue's (404 otherwise), active, seating the party
 * together, and free and unblocked for the stay (409 naming the tables otherwise). Answers them.
 */
/**
 * Tables named by staff: each a `tbl_…` id or the table's number as printed on the floor (`6`, `T6`),
 * resolved against the venue's tables (an unknown one stays as given, so the caller's 404 names it).
 */
export async function resolveTableRefs(conn: Conn, venueId: string, refs: readonly string[]): Promise<string[]> {
  const plan = await floorplanRecords(conn, venueId);
  const ids = new Set(plan.tables.map((t) => t.id));
  const byNumber = new Map(plan.tables.map((t) => [t.table_number.trim().toLowerCase(), t.id]));
  return refs.map((ref) => (ids.has(ref) ? ref : (byNumber.get(ref.trim().toLowerCase()) ?? ref)));
}

export async function namedTablesFree(
  conn: Conn,
  booking: Pick<BookingRow, 'id' | 'venue_id'>,
  ids: readonly string[],
  partySize: number,
  stay: Stay,
): Promise<TableRecord[]> {
  const plan = await floorplanRecords(conn, booking.venue_id);
  const byId = new Map(plan.tables.map((t) => [t.id, t]));
  const tables = ids.map((tableId) => byId.get(tableId));
  if (tables.some((t) => !t)) throw notFound('Table');
  const chosen = tables as TableRecord[];
  const inactive = chosen.filter((t) => t.status !== 'active');
  if (inactive.length > 0) throw conflict(`${tableNames(inactive)} ${inactive.length === 1 ? 'is' : 'are'} not active`);
  const seats = chosen.reduce((sum, t) => sum + t.capacity, 0);
  if (seats < partySize) throw conflict(`${tableNames(chosen)} seat ${seats}: the booking is for ${partySize}`);
  await checkTablesFree(conn, booking, chosen, stay.startsAt, stay.endsAt);
  return chosen;
}

/** Re-writes the booking's tables and slots for [startsAt, endsAt) (an active booking's; none when `tableIds` is empty). */
export async function holdTables(
  conn: Conn,
  booking: Pick<BookingRow, 'id' | 'venue_id'>,
  tableIds: readonly string[],
  startsAt: Date,
  endsAt: Date,
): Promise<void> {
  await releaseTables(conn, booking.id);
  if (tableIds.length === 0) return;
  await insertBookingTables(conn, booking, tableIds, startsAt, endsAt);
  await claimSlots(conn, { id: booking.id, venueId: booking.venue_id }, tableIds, startsAt, endsAt);
}
