/**
 * Property test, model-based (fast-check `commands`): random evenings of bookings, cancellations, lock
 * toggles and smart-table passes (plans applied), with every placement decided by this folder's functions,
 * never leave two stays on one table overlapping, neither to the minute nor in a 15-minute slot (the
 * database's unique row per table and slot), and never seat a party on fewer seats than it has or outside
 * its permitted seating. A failure shrinks to a short command sequence on a small floorplan and prints both.
 *
 * The functions under test are pure, so the whole state lives in the model (`Evening`): each command
 * computes with them, checks what it promises, applies the result and re-checks the evening.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GuestPick, type TableStay, chooseTables } from './assign.js';
import { type FloorCombination, type FloorTable, type SeatingRestriction, seatingCandidates } from './candidates.js';
import { type ReassignableStay, planReassignment } from './reassign.js';
import { type Stay, slotKeysOf, staysOverlap, staysShareSlot } from './slots.js';
import { at, combination, table } from './test-support.js';

const RUNS = 200;
const MAX_STEPS = 60;
const AREAS = ['main', 'bar', 'terrace'];

interface Venue {
  tables: FloorTable[];
  combinations: FloorCombination[];
  /** Table blocks: at most one per table. */
  blocks: TableStay[];
}

/** The model: the floorplan and the bookings it holds, where they sit now. */
interface Evening {
  venue: Venue;
  bookings: ReassignableStay[];
  nextBooking: number;
}

const minutesAfter = (base: Date, minutes: number) => new Date(base.getTime() + minutes * 60_000);
const hhmm = (instant: Date) => instant.toISOString().slice(11, 16);
const showStay = ({ startsAt, endsAt }: Stay) => `${hhmm(startsAt)}–${hhmm(endsAt)}`;

/** `value` most of the time, `other` about once in `1 + weight` draws. */
const mostly = <T, U>(value: fc.Arbitrary<T>, other: fc.Arbitrary<U>, weight: number) =>
  fc.oneof({ arbitrary: value, weight }, { arbitrary: other, weight: 1 });

/** A stay starting between 16:00 and 22:00, on the quarter hour but now and then off it, lasting 30 minutes to 4 hours in 5-minute steps. */
const stayArb: fc.Arbitrary<Stay> = fc
  .record({
    quarter: fc.integer({ min: 0, max: 24 }),
    offGrid: mostly(fc.constant(0), fc.integer({ min: 1, max: 14 }), 6),
    fives: fc.integer({ min: 6, max: 48 }),
  })
  .map(({ quarter, offGrid, fives }) => {
    const startsAt = minutesAfter(at('16:00'), 15 * quarter + offGrid);
    return { startsAt, endsAt: minutesAfter(startsAt, 5 * fives) };
  });

/**
 * 3–8 tables `t1`… seating 1–8, now and then inactive or outside any area, a fifth of them blocked once;
 * up to 3 combinations of 2–3 tables (member indexes wrap around the floorplan, so a combination may
 * collapse to one table, which `seatingCandidates` ignores).
 */
const venueArb: fc.Arbitrary<Venue> = fc
  .record({
    tables: fc.array(
      fc.record({
        capacity: fc.integer({ min: 1, max: 8 }),
        status: mostly(fc.constant('active'), fc.constant('inactive'), 9),
        seatingAreaId: mostly(fc.constantFrom(...AREAS), fc.constant(null), 9),
        block: mostly(fc.constant(null), stayArb, 4),
      }),
      { minLength: 3, maxLength: 8 },
    ),
    combinations: fc.array(fc.uniqueArray(fc.nat({ max: 7 }), { minLength: 2, maxLength: 3 }), { maxLength: 3 }),
  })
  .map((spec) => {
    const tables = spec.tables.map(({ block: _block, ...fields }, i) => table(String(i + 1), fields.capacity, fields));
    return {
      tables,
      combinations: spec.combinations.map((members, i) => combination(`c${i}`, ...members.map((m) => tables[m % tables.length].id))),
      blocks: spec.tables.flatMap(({ block }, i) => (block ? [{ tableId: tables[i].id, ...block }] : [])),
    };
  });

const sameTables = (a: readonly string[], b: readonly string[]) => [...a].sort().join() === [...b].sort().join();

function holdsOf(venue: Venue, bookings: readonly ReassignableStay[]): TableStay[] {
  return [...venue.blocks, ...bookings.flatMap((b) => b.tableIds.map((tableId) => ({ tableId, startsAt: b.startsAt, endsAt: b.endsAt })))];
}

/** Fails the run with the message; plain checks, as `expect` in the inner loops would slow every run. */
function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** The invariants that must hold after every step. */
function checkEvening({ venue, bookings }: Evening) {
  const byId = new Map(venue.tables.map((t) => [t.id, t]));
  const holds = holdsOf(venue, bookings);
  const claimed = new Set<string>();
  for (const [i, a] of holds.entries()) {
    for (const key of slotKeysOf(a.startsAt, a.endsAt)) {
      const row = `${a.tableId}@${key}`;
      assert(!claimed.has(row), `slot ${row} claimed twice`);
      claimed.add(row);
    }
    for (const b of holds.slice(i + 1)) assert(a.tableId !== b.tableId || !staysOverlap(a, b), `overlap on ${a.tableId}`);
  }
  for (const b of bookings) {
    assert(new Set(b.tableIds).size === b.tableIds.length, `${b.bookingId} holds a table twice`);
    const seats = b.tableIds.reduce((sum, id) => sum + (byId.get(id)?.capacity ?? 0), 0);
    assert(seats >= b.partySize, `${b.bookingId}: ${seats} seats for ${b.partySize}`);
    const permitted = seatingCandidates(venue.tables, venue.combinations, { partySize: b.partySize, restriction: b.restriction });
    assert(
      permitted.some((c) => sameTables(c.tableIds, b.tableIds)),
      `${b.bookingId} outside its permitted seating`,
    );
  }
}

/** What the runs exercised, so that a generator change that stops reaching a path fails the test. */
const tally = { placed: 0, refused: 0, moves: 0 };

type EveningCommand = fc.Command<Evening, unknown>;

/**
 * How the booking's access rule seats it: automatically, restricted to some areas, or by guest pick among
 * some areas, perhaps of a given table or combination (an index into the venue's tables, then combinations).
 */
type Seating =
  { mode: 'auto' } | { mode: 'restricted'; areaIds: string[] } | { mode: 'guest_pick'; areaIds: string[]; pick: number | null };

/**
 * A new booking through `chooseTables`. For the pass, a guest's own table is locked and guest-pick areas are
 * its restriction; staff lock some bookings too.
 */
class Book implements EveningCommand {
  constructor(
    readonly partySize: number,
    readonly window: Stay,
    readonly seating: Seating,
    readonly staffLock: boolean,
  ) {}

  check() {
    return true;
  }

  run(evening: Evening) {
    const { venue, bookings } = evening;
    const { partySize, window, seating } = this;
    const bookingId = `b${evening.nextBooking++}`;
    const allIds = [...venue.tables.map((t) => t.id), ...venue.combinations.map((c) => c.id)];
    const requestedTableId = seating.mode === 'guest_pick' && seating.pick !== null ? allIds[seating.pick % allIds.length] : undefined;
    const guestPick: GuestPick | undefined = seating.mode === 'guest_pick' ? { areaIds: seating.areaIds, requestedTableId } : undefined;
    const restriction: SeatingRestriction | undefined = seating.mode === 'auto' ? undefined : { seatingAreaIds: seating.areaIds };
    const candidates = seatingCandidates(venue.tables, venue.combinations, {
      partySize,
      restriction: seating.mode === 'restricted' ? restriction : undefined,
    });
    const occupied = holdsOf(venue, bookings);
    const chosen = chooseTables({ candidates, partySize, stay: window, occupied, guestPick });
    // What the booking may take: its permitted seatings (guest-pick areas included), only the picked one if any.
    const allowed = seatingCandidates(venue.tables, venue.combinations, { partySize, restriction }).filter(
      (c) => requestedTableId === undefined || c.id === requestedTableId,
    );
    if (!chosen) {
      tally.refused++;
      for (const c of allowed) {
        assert(
          occupied.some((h) => c.tableIds.includes(h.tableId) && staysShareSlot(h, window)),
          `${c.id} was free for ${bookingId}`,
        );
      }
    } else {
      tally.placed++;
      assert(
        allowed.some((c) => c.id === chosen.id),
        `${bookingId} given ${chosen.id}, which it may not take`,
      );
      const locked = this.staffLock || requestedTableId !== undefined;
      bookings.push({ bookingId, partySize, tableIds: chosen.tableIds, locked, restriction, ...window });
    }
    checkEvening(evening);
  }

  toString() {
    const { seating } = this;
    const how =
      seating.mode === 'auto'
        ? 'auto'
        : `${seating.mode} [${seating.areaIds.join(',')}]${seating.mode === 'guest_pick' && seating.pick !== null ? ` pick #${seating.pick}` : ''}`;
    return `book(${this.partySize} ${showStay(this.window)} ${how}${this.staffLock ? ' locked' : ''})`;
  }
}

/** Bookings are addressed by index (wrapping), so a command stays meaningful while shrinking drops others. */
abstract class OnBooking implements EveningCommand {
  constructor(readonly index: number) {}

  check(evening: Readonly<Evening>) {
    return evening.bookings.length > 0;
  }

  abstract run(evening: Evening): void;
}

class Cancel extends OnBooking {
  override run(evening: Evening) {
    evening.bookings.splice(this.index % evening.bookings.length, 1);
    checkEvening(evening);
  }

  override toString() {
    return `cancel(#${this.index})`;
  }
}

class ToggleLock extends OnBooking {
  override run(evening: Evening) {
    const booking = evening.bookings[this.index % evening.bookings.length];
    booking.locked = !booking.locked;
    checkEvening(evening);
  }

  override toString() {
    return `toggleLock(#${this.index})`;
  }
}

/** Booking i sorted by `keys[i % keys.length]`, ties in reverse: another order the pass might be handed. */
function reorder<T>(items: readonly T[], keys: readonly number[]): T[] {
  return items
    .map((item, i) => ({ item, i, key: keys[i % keys.length] }))
    .sort((a, b) => a.key - b.key || b.i - a.i)
    .map(({ item }) => item);
}

/** The smart-table pass: plan, check the plan, apply it. */
class Reassign implements EveningCommand {
  constructor(readonly orderKeys: number[]) {}

  check() {
    return true;
  }

  run(evening: Evening) {
    const { venue, bookings } = evening;
    const input = { tables: venue.tables, combinations: venue.combinations, fixed: venue.blocks };
    const result = planReassignment({ ...input, stays: bookings });
    expect(planReassignment({ ...input, stays: reorder(bookings, this.orderKeys) }), 'plan independent of input order').toEqual(result);

    const byId = new Map(bookings.map((b) => [b.bookingId, b]));
    const reported = [...result.moves.map((m) => m.bookingId), ...result.blocked.map((b) => b.bookingId)];
    expect([...reported].sort(), 'every booking reported once').toEqual([...byId.keys()].sort());
    let freed = 0;
    for (const move of result.moves) {
      const b = byId.get(move.bookingId)!;
      expect(b.locked, `locked ${b.bookingId} moved`).toBe(false);
      expect(move.from).toEqual(b.tableIds);
      expect(
        move.toCapacity < move.fromCapacity || (move.toCapacity === move.fromCapacity && move.to.length < move.from.length),
        `move of ${b.bookingId} improves`,
      ).toBe(true);
      freed += move.fromCapacity - move.toCapacity;
      b.tableIds = move.to;
      tally.moves++;
    }
    expect(result.seatsFreed, 'seatsFreed sums the moves').toBe(freed);
    expect(result.seatsFreed).toBeGreaterThanOrEqual(0);
    // The pass stops at a fixed point: run again on its own result, it has nothing left to move.
    expect(planReassignment({ ...input, stays: bookings }).moves, 'a second pass moves nothing').toEqual([]);
    checkEvening(evening);
  }

  toString() {
    return `reassign(order ${this.orderKeys.join(',')})`;
  }
}

const areaIdsArb = fc.subarray(AREAS);

const seatingArb: fc.Arbitrary<Seating> = fc.oneof(
  fc.constant({ mode: 'auto' as const }),
  fc.record({ mode: fc.constant('restricted' as const), areaIds: areaIdsArb }),
  fc.record({ mode: fc.constant('guest_pick' as const), areaIds: areaIdsArb, pick: fc.option(fc.nat({ max: 10 }), { freq: 2 }) }),
);

/** Mostly bookings, as an evening fills up; the weights give about 60 % bookings and 15 % passes. */
const commandArb: fc.Arbitrary<EveningCommand> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 10 }), stayArb, seatingArb, mostly(fc.constant(false), fc.constant(true), 4))
      .map(([partySize, window, seating, staffLock]) => new Book(partySize, window, seating, staffLock)),
  },
  { weight: 3, arbitrary: fc.nat().map((index) => new Cancel(index)) },
  { weight: 2, arbitrary: fc.nat().map((index) => new ToggleLock(index)) },
  { weight: 3, arbitrary: fc.array(fc.nat({ max: 99 }), { minLength: 1, maxLength: 12 }).map((keys) => new Reassign(keys)) },
);

describe('random evenings of bookings, passes and cancellations', () => {
  it(`keeps every table free of overlaps and every party seated (${RUNS} runs of up to ${MAX_STEPS} steps)`, () => {
    fc.assert(
      fc.property(venueArb, fc.commands([commandArb], { maxCommands: MAX_STEPS, size: 'max' }), (venue, commands) => {
        fc.modelRun(() => ({ model: { venue, bookings: [], nextBooking: 0 }, real: undefined }), commands);
      }),
      { numRuns: RUNS },
    );
    // The runs must exercise every path: placements, refusals and moves.
    expect(tally.placed).toBeGreaterThan(RUNS);
    expect(tally.refused).toBeGreaterThan(RUNS);
    expect(tally.moves).toBeGreaterThan(RUNS / 20);
  });
});
