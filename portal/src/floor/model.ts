/** What the floor draws, derived from the API's records: rows by area, pills with their states, pacing. */
import type { Area, Block, Booking, Table } from './data';
import { flagsOf } from './flags.js';
import { clockMinutes, DAY_MINUTES, SNAP, serviceMinute, venueLocal } from './time';

export const ROW_HEIGHT = 44;
export const GROUP_HEIGHT = 28;
export const PX_PER_MINUTE = 2;
export const LABEL_WIDTH = 112;
export const DEFAULT_DURATION = 120;

export type Row =
  | { kind: 'group'; key: string; name: string; tables: number; covers: string; y: number }
  | { kind: 'table'; key: string; table: Table; index: number; y: number };

export interface Layout {
  rows: Row[];
  tableRows: Table[];
  tableIndex: Map<string, number>;
  rowY: number[];
  height: number;
}

const byNumber = (a: Table, b: Table) => a.table_number.localeCompare(b.table_number, 'en', { numeric: true });

export function layoutRows(tables: Table[], areas: Area[]): Layout {
  const groups = [...areas].sort((a, b) => a.name.localeCompare(b.name)).map((area) => ({ id: area.id as string | null, name: area.name }));
  groups.push({ id: null, name: 'Other tables' });
  const known = new Set(areas.map((a) => a.id));
  const rows: Row[] = [];
  const tableRows: Table[] = [];
  const rowY: number[] = [];
  let y = 0;
  for (const group of groups) {
    const members = tables
      .filter((t) => t.status === 'active' && (known.has(t.seating_area_id ?? '') ? t.seating_area_id : null) === group.id)
      .sort(byNumber);
    if (members.length === 0) continue;
    const min = Math.min(...members.map((t) => t.min_covers || 1));
    const max = members.reduce((sum, t) => sum + t.capacity, 0);
    rows.push({ kind: 'group', key: `g-${group.id ?? 'none'}`, name: group.name, tables: members.length, covers: `${min}–${max}`, y });
    y += GROUP_HEIGHT;
    for (const table of members) {
      rows.push({ kind: 'table', key: table.id, table, index: tableRows.length, y });
      rowY.push(y);
      tableRows.push(table);
      y += ROW_HEIGHT;
    }
  }
  return { rows, tableRows, tableIndex: new Map(tableRows.map((t, i) => [t.id, i])), rowY, height: y };
}

export const SHOWN_STATUSES = new Set(['pending', 'pending_payment', 'approved', 'confirmed', 'checked_in', 'no_show']);
const ACTIVE = new Set(['pending', 'pending_payment', 'approved', 'confirmed', 'checked_in']);
export const isActive = (status: string) => ACTIVE.has(status);

export const STATUS: Record<string, { label: string; icon: string }> = {
  pending: { label: 'Pending', icon: '◔' },
  pending_payment: { label: 'Awaiting payment', icon: '¤' },
  approved: { label: 'Approved', icon: '✓' },
  confirmed: { label: 'Confirmed', icon: '✓' },
  checked_in: { label: 'Seated', icon: '●' },
  no_show: { label: 'No-show', icon: '✕' },
  cancelled: { label: 'Cancelled', icon: '✕' },
  rejected: { label: 'Rejected', icon: '✕' },
  door_rejected: { label: 'Turned away', icon: '✕' },
  expired: { label: 'Expired', icon: '✕' },
};

export interface Placed {
  booking: Booking;
  start: number;
  duration: number;
  conflict: boolean;
  tooSmall: boolean;
  /** Marked late by staff (`lifecycle.late`), or still not here 15 minutes after the start. */
  late: boolean;
  /** Here but not yet seated (`lifecycle.arrived` on a booking not checked in). */
  arrived: boolean;
  /** Seated and the table closed (`closed_at`): the table is free again. */
  closed: boolean;
  flags: string[];
}

/** The day's bookings placed on the grid, with conflicts (two on a table at once) and too-small tables. */
export function placeBookings(
  bookings: Booking[],
  tables: Map<string, Table>,
  day: string,
  now: { day: string; minute: number },
): Placed[] {
  const placed: Placed[] = [];
  for (const booking of bookings) {
    if (!SHOWN_STATUSES.has(booking.status) || !booking.start_time) continue;
    const start = serviceMinute(day, booking.booking_date, booking.start_time);
    if (start < 0 || start >= DAY_MINUTES) continue;
    const waiting = ['pending', 'approved', 'confirmed'].includes(booking.status);
    const arrived = waiting && Boolean(booking.lifecycle.arrived);
    const closed = booking.status === 'checked_in' && Boolean(booking.closed_at);
    const late = waiting && !arrived && (Boolean(booking.lifecycle.late) || (now.day === day && now.minute > start + 15));
    const seats = booking.table_ids.reduce((sum, id) => sum + (tables.get(id)?.capacity ?? 0), 0);
    placed.push({
      booking,
      start,
      duration: booking.duration_minutes ?? DEFAULT_DURATION,
      conflict: false,
      tooSmall: booking.table_ids.length > 0 && seats < booking.guest_count,
      late,
      arrived,
      closed,
      flags: flagsOf(booking, { late, arrived, closed }),
    });
  }
  const byTable = new Map<string, Placed[]>();
  for (const p of placed) {
    if (!isActive(p.booking.status)) continue;
    for (const id of p.booking.table_ids) byTable.set(id, [...(byTable.get(id) ?? []), p]);
  }
  for (const list of byTable.values()) {
    list.sort((a, b) => a.start - b.start);
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length && list[j].start < list[i].start + list[i].duration; j++) {
        list[i].conflict = true;
        list[j].conflict = true;
      }
  }
  return placed;
}

export interface PlacedBlock {
  block: Block;
  start: number;
  end: number;
}

export function placeBlocks(blocks: Block[], day: string, timeZone: string): PlacedBlock[] {
  return blocks
    .map((block) => {
      const from = venueLocal(new Date(block.blocked_from), timeZone);
      const to = venueLocal(new Date(block.blocked_to), timeZone);
      return {
        block,
        start: Math.max(0, serviceMinute(day, from.date, from.time)),
        end: Math.min(DAY_MINUTES, serviceMinute(day, to.date, to.time)),
      };
    })
    .filter((b) => b.end > b.start && b.end > 0 && b.start < DAY_MINUTES);
}

/** Covers arriving in each 15-minute step of the service day (active and seated bookings). */
export function pacing(placed: Placed[]): number[] {
  const steps = new Array<number>(DAY_MINUTES / SNAP).fill(0);
  for (const p of placed) if (isActive(p.booking.status)) steps[Math.floor(p.start / SNAP)] += p.booking.guest_count;
  return steps;
}

export interface ShiftTotal {
  name: string;
  from: string;
  to: string;
  covers: number;
  bookings: number;
}

export function shiftTotals(placed: Placed[], shifts: { name: string; time_from?: string | null; time_to?: string | null }[], day: string) {
  const seen = new Set<string>();
  const totals: ShiftTotal[] = [];
  for (const shift of shifts) {
    if (!shift.time_from || !shift.time_to) continue;
    const key = `${shift.name}|${shift.time_from}|${shift.time_to}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const from = serviceMinute(day, day, shift.time_from);
    let to = serviceMinute(day, day, shift.time_to);
    if (to <= from) to += DAY_MINUTES;
    const inside = placed.filter((p) => isActive(p.booking.status) && p.start >= from && p.start < to);
    totals.push({
      name: shift.name,
      from: shift.time_from,
      to: shift.time_to,
      covers: inside.reduce((s, p) => s + p.booking.guest_count, 0),
      bookings: inside.length,
    });
  }
  return totals.sort((a, b) => clockMinutes(a.from) - clockMinutes(b.from));
}
