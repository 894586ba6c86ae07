/**
 * The waitlist's rules, pure: which status moves are allowed, the wait quoted to a walk-in from the
 * floor, and which freed slot an online entry is offered.
 *
 * Statuses (docs/waitlist.md):
 * - walk-in: `waiting` → `notified` (told their table is ready) → `seated` (a walk-in booking made from
 *   the list); `waiting`/`notified` → `removed` (left, or taken off by staff) or `no_show` (did not come
 *   back when notified).
 * - online: `waiting` → `offered` (a freed slot held out for a limited time) → `accepting` (the accept
 *   claimed the offer and is booking) → `booked`; an accept whose slot has gone back to `waiting`;
 *   `offered` → `expired` when the offer lapses (the next in line is offered); `waiting`/`offered` →
 *   `left` (the guest, through their link) or `removed` (staff).
 */

export const WAITLIST_KINDS = ['walk_in', 'online'] as const;
export type WaitlistKind = (typeof WAITLIST_KINDS)[number];

export const WAITLIST_STATUSES = [
  'waiting',
  'notified',
  'seated',
  'offered',
  'accepting',
  'booked',
  'expired',
  'left',
  'removed',
  'no_show',
] as const;
export type WaitlistStatus = (typeof WAITLIST_STATUSES)[number];

/** The statuses of a party still in line (shown on the lists, counted in a quote). */
export const OPEN_STATUSES: readonly WaitlistStatus[] = ['waiting', 'notified', 'offered', 'accepting'];

const MOVES: Record<WaitlistKind, Partial<Record<WaitlistStatus, readonly WaitlistStatus[]>>> = {
  walk_in: {
    waiting: ['notified', 'seated', 'removed', 'no_show'],
    notified: ['notified', 'seated', 'removed', 'no_show'],
  },
  online: {
    waiting: ['offered', 'left', 'removed'],
    offered: ['accepting', 'expired', 'left', 'removed'],
    accepting: ['booked', 'waiting'],
  },
};

/** True when an entry of `kind` may move from `from` to `to`. */
export function canMove(kind: WaitlistKind, from: string, to: WaitlistStatus): boolean {
  return (MOVES[kind][from as WaitlistStatus] ?? []).includes(to);
}

/** The statuses an entry of `kind` may move to `to` from (for conditional updates). */
export function movesInto(kind: WaitlistKind, to: WaitlistStatus): WaitlistStatus[] {
  return (Object.entries(MOVES[kind]) as [WaitlistStatus, readonly WaitlistStatus[]][])
    .filter(([, tos]) => tos.includes(to))
    .map(([from]) => from);
}

export interface FloorTable {
  id: string;
  capacity: number;
  minCovers: number;
}

export interface FloorStay {
  tableIds: readonly string[];
  startsAt: Date;
  endsAt: Date;
}

export interface QuoteInput {
  now: Date;
  partySize: number;
  /** How long the party will stay (the venue's booking duration). */
  durationMinutes: number;
  /** The venue's active tables. */
  tables: readonly FloorTable[];
  /** The stays on the floor from now on (seated, booked), each on its tables. */
  stays: readonly FloorStay[];
  /** The party sizes of the walk-ins ahead in line, in order: each takes the first table that fits it. */
  ahead?: readonly number[];
}

/** Quotes are given in steps of this many minutes (rounded up). */
export const QUOTE_STEP_MINUTES = 5;

/**
 * The wait to quote a walk-in, in minutes (0: a table is free now), or null when no single table seats
 * the party. Each table that fits the party is free from the earliest moment (now, or the end of one of
 * its stays) after which it is clear for the party's whole stay; the parties ahead in line take, in
 * order, the table that frees first for them and hold it for their stay. Combinations of tables are not
 * considered (a floor manager joins tables by hand; the quote stays conservative).
 */
export function quoteWait(input: QuoteInput): number | null {
  const durationMs = input.durationMinutes * 60_000;
  const now = input.now.getTime();
  const busy = new Map<string, { from: number; to: number }[]>();
  for (const table of input.tables) busy.set(table.id, []);
  for (const stay of input.stays) {
    for (const tableId of stay.tableIds) busy.get(tableId)?.push({ from: stay.startsAt.getTime(), to: stay.endsAt.getTime() });
  }
  const fits = (table: FloorTable, party: number) => table.capacity >= party && table.minCovers <= party;

  /** The earliest start ≥ now at which the table is clear for a whole stay. */
  function freeFrom(tableId: string): number {
    const stays = busy.get(tableId) ?? [];
    const candidates = [now, ...stays.map((s) => s.to).filter((to) => to > now)].sort((a, b) => a - b);
    for (const start of candidates) {
      if (stays.every((s) => s.to <= start || s.from >= start + durationMs)) return start;
    }
    return Math.max(now, ...stays.map((s) => s.to));
  }

  /** The table that frees first for a party (ties: the smallest table, then the first listed). */
  function firstFor(party: number): { table: FloorTable; at: number } | null {
    let best: { table: FloorTable; at: number } | null = null;
    for (const table of input.tables) {
      if (!fits(table, party)) continue;
      const at = freeFrom(table.id);
      if (!best || at < best.at || (at === best.at && table.capacity < best.table.capacity)) best = { table, at };
    }
    return best;
  }

  for (const party of input.ahead ?? []) {
    const taken = firstFor(party);
    if (taken) busy.get(taken.table.id)!.push({ from: taken.at, to: taken.at + durationMs });
  }
  const mine = firstFor(input.partySize);
  if (!mine) return null;
  const minutes = Math.ceil((mine.at - now) / 60_000);
  return Math.ceil(minutes / QUOTE_STEP_MINUTES) * QUOTE_STEP_MINUTES;
}

export interface OfferableSlot {
  time: string;
  access_rule_id: string;
  available: boolean;
}

/**
 * The slot to offer an online entry: the earliest available slot whose start lies in the guest's window
 * (inclusive, venue-local HH:MM), skipping the times already held out to someone ahead in line.
 */
export function slotToOffer(
  slots: readonly OfferableSlot[],
  window: { from: string; to: string },
  heldTimes: ReadonlySet<string> = new Set(),
): { time: string; access_rule_id: string } | null {
  const found = slots
    .filter((s) => s.available && s.time >= window.from && s.time <= window.to && !heldTimes.has(s.time))
    .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0))[0];
  return found ? { time: found.time, access_rule_id: found.access_rule_id } : null;
}
