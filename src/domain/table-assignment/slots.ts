/**
 * The 15-minute slot model behind table occupancy. The database makes a double booking impossible with
 * one unique row per (table, slot) a stay touches; these helpers compute those slot keys, and the
 * conflict test the assignment code uses, so that code and constraint always agree.
 *
 * A slot key is the number of whole 15-minute periods since the Unix epoch (an integer, about 2 million
 * today): compact, sortable, and storable in an `integer` column on both engines. Keys are counted in UTC,
 * yet they fall on venue-local quarter hours too, because every UTC offset in use is a whole number of
 * quarter hours (Nepal's +05:45 and the Chatham Islands' +12:45 included), on both sides of a DST change.
 *
 * Slot rounding is deliberate: a stay claims every slot it touches, so two stays that do not overlap to
 * the minute but share a slot (one ending 21:10, the next starting 21:00) conflict. The constraint cannot
 * tell them apart, and the code must refuse what the constraint would refuse, or an assignment it offers
 * would fail on insert. Bookings start on the 15-minute grid, so this only arises when a duration is not a
 * multiple of 15 minutes (smart duration adds 10 minutes per guest above four); the table then frees up
 * at the next quarter hour, which is also when a new party could realistically sit down.
 */

export const SLOT_MINUTES = 15;
const SLOT_MS = SLOT_MINUTES * 60_000;

/** A stay on a table: the half-open window [startsAt, endsAt) in UTC instants. */
export interface Stay {
  startsAt: Date;
  endsAt: Date;
}

/** An integer: whole 15-minute periods since the Unix epoch. */
export type SlotKey = number;

function millisOf(instant: Date): number {
  const ms = instant.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('invalid date in a stay');
  return ms;
}

/** The slot an instant falls in (an instant on a quarter hour opens that quarter's slot). */
export function slotKeyOf(instant: Date): SlotKey {
  return Math.floor(millisOf(instant) / SLOT_MS);
}

/** The instant a slot begins. */
export function slotStartOf(key: SlotKey): Date {
  return new Date(key * SLOT_MS);
}

/** The first and last slot a stay touches, or undefined for an empty or reversed stay (it holds nothing). */
export function slotSpanOf(startsAt: Date, endsAt: Date): { first: SlotKey; last: SlotKey } | undefined {
  const start = millisOf(startsAt);
  const end = millisOf(endsAt);
  if (end <= start) return undefined;
  return { first: Math.floor(start / SLOT_MS), last: Math.ceil(end / SLOT_MS) - 1 };
}

/**
 * Every slot the stay [startsAt, endsAt) touches, ascending: 19:10–21:10 claims 19:00, 19:15, …, 21:00;
 * 19:00–21:00 claims 19:00 … 20:45 (the end is exclusive, so the 21:00 slot stays free). An empty or
 * reversed stay claims no slot.
 */
export function slotKeysOf(startsAt: Date, endsAt: Date): SlotKey[] {
  const span = slotSpanOf(startsAt, endsAt);
  const keys: SlotKey[] = [];
  if (span) for (let key = span.first; key <= span.last; key++) keys.push(key);
  return keys;
}

/**
 * Exact, to-the-millisecond overlap of half-open stays: one ending at 20:00 and one starting at 20:00 do
 * not overlap, and an empty stay overlaps nothing (it holds no time, as it claims no slot).
 */
export function staysOverlap(a: Stay, b: Stay): boolean {
  const [aStart, aEnd, bStart, bEnd] = [millisOf(a.startsAt), millisOf(a.endsAt), millisOf(b.startsAt), millisOf(b.endsAt)];
  return aStart < aEnd && bStart < bEnd && aStart < bEnd && bStart < aEnd;
}

/**
 * Whether two stays claim a common slot: the conflict the database enforces, and so the one assignment
 * uses. It implies `staysOverlap` and adds the slot-rounding cases (a 21:10 end against a 21:00 start).
 */
export function staysShareSlot(a: Stay, b: Stay): boolean {
  const span = slotSpanOf(b.startsAt, b.endsAt);
  return span !== undefined && claimsSlotIn(a, span);
}

/** `staysShareSlot` against a stay whose slot span is already known (worked out once for many holds). */
export function claimsSlotIn(hold: Stay, span: { first: SlotKey; last: SlotKey }): boolean {
  const start = millisOf(hold.startsAt);
  const end = millisOf(hold.endsAt);
  return end > start && Math.floor(start / SLOT_MS) <= span.last && span.first <= Math.ceil(end / SLOT_MS) - 1;
}
