/**
 * Whether a public booking's slot can be had, with the engine (domain/availability, domain/table-assignment):
 * `slotOf` (the rule and its slot, 409 in the guest's own words when not), `chosenTables` (the tables a stay
 * gets), `bookableTableIds` (what the public floorplan offers), and the pre-check before any transaction
 * (`createPrecheck`): one ask's outcome against the cached picture, worked out once and shared by every
 * request asking the same while nothing of the venue changes.
 */
import {
  bookingOpensAt,
  computeAvailability,
  slotFree,
  type Candidate,
  type Occupancy,
  type SlotReason,
} from '../../../domain/availability/index.js';
import { peopleDate, peopleInstant } from '../../../domain/people-dates.js';
import { chooseTables, rankCandidates } from '../../../domain/table-assignment/index.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import { AppError, badRequest, conflict, notFound } from '../../../platform/errors.js';
import { metrics } from '../../../platform/metrics.js';
import { VenueCache } from '../../../platform/venue-cache.js';
import type { AccessRuleRecord } from '../../availability/index.js';
import { holdsOf, seatingOf } from '../core/seating.js';
import type { LoadedVenue } from '../core/venue-config.js';
import { nearestFirst, withAlternatives, type Alternatives } from './alternatives.js';
import type { PublicContext } from './public-context.js';
import type { BookBody } from './public.schemas.js';

const SLOT_TAKEN_MESSAGE = 'That time is no longer available';

type Stay = { startsAt: Date; endsAt: Date };

/**
 * How long a pre-check's outcome may be reused without a change of the venue. The cached picture itself
 * lives up to a minute; this bounds what depends on the clock alone (a cutoff passing, a horizon opening).
 */
const PRECHECK_TTL_MS = 1_000;

/**
 * The pre-check: is the asked slot free in the cached picture (config and stays, no transaction)? A
 * refusal is thrown with its alternatives; `undefined` lets the booking on to the transaction, which
 * re-checks. Under a drop, thousands ask for the same few times: the outcome of one (venue, date, rule,
 * time, party, table) is worked out once (concurrent asks share it) and reused until the venue changes
 * (the change feed: any booking written or cancelled, on any instance) or PRECHECK_TTL_MS pass.
 */
export function createPrecheck(ctx: PublicContext, alternatives: Alternatives) {
  const outcomes = new VenueCache<AppError | number>(ctx.db.changes, ctx.clock, { ttlMs: PRECHECK_TTL_MS, maxEntries: 10_000 });

  /** The refusal, or how many free tables and combinations would seat the party (Infinity for a guest list). */
  async function check(venue: VenueRow, body: BookBody, now: Date): Promise<AppError | number> {
    try {
      let free = Infinity;
      await withAlternatives(alternatives, venue, body, 'cached', async () => {
        const { loaded, occupancy } = await ctx.dayState(ctx.db, venue, body.date);
        const { rule, check } = slotOf(loaded, occupancy, body, now);
        if (rule.rule_type === 'table') {
          const stay = { startsAt: check.slot.starts_at, endsAt: check.slot.ends_at };
          chosenTables(loaded, rule, check.candidates, occupancy, stay, body);
          free = check.candidates.length;
        }
      });
      return free;
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
  }

  /**
   * Throws the refusal when the cached picture shows the slot taken; otherwise answers how many free
   * units (tables and combinations) could seat the party in it, an upper bound of the bookings it can still take.
   */
  return async function precheck(venue: VenueRow, body: BookBody, now: Date): Promise<number> {
    const key = [body.date, body.access_rule_id, body.rule_type, body.time, body.party_size, body.table_id ?? ''].join('\u0000');
    let worked = false;
    const refusal = await outcomes.get(venue.id, key, () => {
      worked = true;
      return check(venue, body, now);
    });
    if (typeof refusal === 'number') return refusal;
    // Counted once per refusal, as withAlternatives counts the one that worked it out.
    if (!worked && refusal.status === 409 && refusal.extra.alternatives) metrics.soldOut('booking', 'cached');
    throw new AppError(refusal.status, refusal.message, refusal.extra, refusal.headers);
  };
}

/** The access rule the guest chose (404 when unknown or opted out) and its slot, re-checked against the stays read in the transaction (409 when taken). */
export function slotOf(loaded: LoadedVenue, occupancy: Occupancy, body: BookBody, now: Date) {
  const rule = loaded.rules.find((r) => r.id === body.access_rule_id);
  if (!rule || rule.app_opt_out) throw notFound('Access rule');
  if (rule.rule_type !== body.rule_type) throw badRequest(`rule_type must be ${rule.rule_type} for this access rule`);
  const check = slotFree(loaded.config, occupancy, {
    date: body.date,
    time: body.time,
    accessRuleId: rule.id,
    partySize: body.party_size,
    now,
  });
  if (!check.available) throw slotRefusal(loaded, occupancy, rule, body, now, check.reason, check.slot?.starts_at ?? null);
  return { rule, check };
}

/**
 * Why a slot cannot be booked, each reason in its own words (decisions: Guest journey polish): a party
 * the rule or the floor can never seat is told to call the venue; a date beyond the booking horizon
 * names the day its bookings open; a time off the rule's grid offers the nearest bookable ones. The
 * status stays 409 and `reason` the engine's; the extra fields are extensions.
 */
function slotRefusal(
  loaded: LoadedVenue,
  occupancy: Occupancy,
  rule: AccessRuleRecord,
  body: BookBody,
  now: Date,
  reason: SlotReason,
  startsAt: Date | null,
) {
  const zone = loaded.config.timezone;
  if (reason === 'party_size' || (reason === 'no_table' && !seatsEver(loaded, rule, body))) {
    const largest = largestParty(loaded, rule);
    if (body.party_size > largest) {
      return conflict(`We cannot take a party of ${body.party_size} online (at most ${largest}): please call us to book.`, {
        reason: 'party_size',
        max_party_size: largest,
      });
    }
    // Outside a shift's own party limits (or below the minimum): not this time, whatever the room.
    if (reason === 'party_size')
      return conflict(`We cannot take a party of ${body.party_size} online at this time: please call us to book.`, { reason });
  }
  if (reason === 'horizon' && startsAt) {
    const opens = bookingOpensAt(loaded.config, rule.id, startsAt);
    const when = opens ? peopleInstant(opens, zone) : null;
    return conflict(
      when ? `Bookings for ${peopleDate(body.date)} open on ${when}.` : `Bookings for ${peopleDate(body.date)} are not open yet.`,
      { reason, ...(opens ? { opens_at: opens.toISOString() } : {}) },
    );
  }
  if (reason === 'closed' && !startsAt) {
    const nearest = nearestTimes(loaded, occupancy, rule, body, now);
    if (nearest.length > 0) {
      return conflict(`${body.time} is not a time we take bookings for: the nearest are ${nearest.join(' and ')}.`, {
        reason: 'not_a_slot',
        nearest_times: nearest,
      });
    }
    return conflict(`We do not take bookings for ${peopleDate(body.date)} at ${body.time}.`, { reason });
  }
  if (reason === 'cutoff') return conflict(`${body.time} on ${peopleDate(body.date)} can no longer be booked online.`, { reason });
  return conflict(SLOT_TAKEN_MESSAGE, { reason });
}

/** The largest party the rule takes and its seating could ever hold (tables or combinations), whatever is booked. */
function largestParty(loaded: LoadedVenue, rule: AccessRuleRecord): number {
  // The rule's own limit, else the venue's default (a shift's own limit is told apart by the caller).
  const ruleMax = rule.party_size_enabled && rule.party_size_max ? rule.party_size_max : loaded.config.defaults.partyMax;
  if (rule.rule_type !== 'table') return ruleMax;
  const seating = loaded.config.accessRules.find((r) => r.id === rule.id);
  const areas = new Set(seating?.seatingEnabled ? seating.seatingAreaIds : []);
  const ids = new Set(seating?.seatingEnabled ? seating.tableIds : []);
  const open = areas.size + ids.size === 0;
  const inRule = (t: { id: string; seatingAreaId: string | null; status: string }) =>
    t.status === 'active' && (open || ids.has(t.id) || (t.seatingAreaId !== null && areas.has(t.seatingAreaId)));
  const tables = loaded.config.tables.filter(inRule);
  const tableIds = new Set(tables.map((t) => t.id));
  const combos = loaded.config.combinations.filter((c) => c.tableIds.every((id) => tableIds.has(id)));
  const floorMax = Math.max(0, ...tables.map((t) => t.capacity), ...combos.map((c) => c.capacity));
  return Math.min(ruleMax, floorMax);
}

const seatsEver = (loaded: LoadedVenue, rule: AccessRuleRecord, body: BookBody) => largestParty(loaded, rule) >= body.party_size;

/** The rule's two bookable times nearest to the one asked for on that date (none when the rule has none that day). */
function nearestTimes(loaded: LoadedVenue, occupancy: Occupancy, rule: AccessRuleRecord, body: BookBody, now: Date): string[] {
  const type = rule.rule_type === 'table' ? 'tables' : 'guestlist';
  const day = computeAvailability(loaded.config, occupancy, { date: body.date, partySize: body.party_size, type, now });
  return day.slots
    .filter((slot) => slot.available && slot.access_rule_id === rule.id)
    .map((slot) => slot.time)
    .sort(nearestFirst(body.time))
    .slice(0, 2)
    .sort();
}

/** The tables a table rule's booking gets against `occupancy`: 409 when none fits (or the guest's pick is taken). */
export function chosenTables(
  loaded: LoadedVenue,
  rule: AccessRuleRecord,
  candidates: Candidate[],
  occupancy: Occupancy,
  stay: Stay,
  body: BookBody,
) {
  const chosen = pickTables(loaded, rule, candidates, occupancy, stay, body.party_size, body.table_id);
  if (!chosen && body.table_id) {
    const label = loaded.floorplan.tables.find((t) => t.id === body.table_id)?.table_number;
    // A picked table refused while others are free: its own reason, so the widget asks for another table.
    const others = pickTables(loaded, rule, candidates, occupancy, stay, body.party_size);
    throw conflict(
      label ? `Table ${label} is not free at that time: please choose another table.` : 'That table is not available for this booking',
      { reason: others ? 'table_taken' : 'no_table' },
    );
  }
  if (!chosen) throw conflict(SLOT_TAKEN_MESSAGE, { reason: 'no_table' });
  return chosen.tableIds;
}

/** The tables for a new stay: a guest's pick, else the best fit with the least fragmentation. */
function pickTables(
  loaded: LoadedVenue,
  rule: AccessRuleRecord,
  candidates: Candidate[],
  occupancy: Occupancy,
  stay: Stay,
  partySize: number,
  tableId?: string,
) {
  return chooseTables({
    candidates: seatingOf(loaded, candidates),
    partySize,
    stay,
    occupied: holdsOf(loaded, occupancy),
    guestPick: guestPickOf(rule, tableId ?? null),
  });
}

const guestPickOf = (rule: AccessRuleRecord, requestedTableId: string | null) =>
  rule.table_assignment_mode === 'guest_pick' ? { areaIds: rule.guest_pick_area_ids, requestedTableId } : undefined;

/**
 * The single tables a booking under `rule` would be given now if the guest picked them: exactly the
 * tables `pickTables` accepts as `table_id`, so the public floorplan offers nothing booking refuses.
 */
export function bookableTableIds(
  loaded: LoadedVenue,
  rule: AccessRuleRecord,
  candidates: Candidate[],
  occupancy: Occupancy,
  stay: Stay,
  partySize: number,
): Set<string> {
  const ranked = rankCandidates({
    candidates: seatingOf(loaded, candidates),
    partySize,
    stay,
    occupied: holdsOf(loaded, occupancy),
    guestPick: guestPickOf(rule, null),
  });
  return new Set(ranked.filter((r) => r.candidate.kind === 'table').map((r) => r.candidate.id));
}
