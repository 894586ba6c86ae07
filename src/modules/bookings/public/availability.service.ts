/**
 * The public availability and floorplan answers (routes in availability.routes.ts): a venue's slots for a
 * date and party, and its tables with per-table availability at a time. Both are the same for every
 * guest, so each is served from the venue cache; booking re-checks in its own transaction whatever these said.
 */
import { availabilityWithNextDates, slotFree } from '../../../domain/availability/index.js';
import { addDays, localToUtc } from '../../../domain/venue-time.js';
import { withAbsoluteUploads } from '../../../platform/uploads.js';
import { VenueCache } from '../../../platform/venue-cache.js';
import type { AccessRuleRecord } from '../../availability/index.js';
import { bookableTableIds } from './slot-check.js';
import type { PublicContext } from './public-context.js';

export interface AvailabilityQuery {
  date: string;
  party_size: number;
  type: 'tables' | 'guestlist';
}

export interface FloorplanQuery {
  date: string;
  time: string;
  party_size: number;
  rule_id?: string;
}

type Floors = (venueId: string) => Promise<unknown[]>;

export function createAvailabilityAnswers(ctx: PublicContext) {
  const { db, clock } = ctx;
  /** The venue cache, or with `answerCacheMs` 0 a stand-in that computes every answer. */
  const answerCache = <T>(): Pick<VenueCache<T>, 'get'> =>
    ctx.deps.answerCacheMs > 0
      ? new VenueCache<T>(db.changes, clock, { ttlMs: ctx.deps.answerCacheMs })
      : { get: (_venueId, _key, compute) => compute() };
  const slotAnswers = answerCache<Awaited<ReturnType<typeof computeAvailability>>>();
  const floorplanAnswers = answerCache<Awaited<ReturnType<typeof computeFloorplan>>>();

  /**
   * A venue's slots for a date and party, served from the venue cache: any write to the venue's data
   * (a booking, a cancellation, a block, its configuration) invalidates it before that write returns,
   * other instances within the change notification's delay, and answers live at most `answerCacheMs`
   * (15 s by default; cutoffs move with the clock). Booking re-checks in its own transaction whatever
   * this said.
   */
  function availability(venueId: string, query: AvailabilityQuery) {
    return slotAnswers.get(venueId, `${query.date}|${query.party_size}|${query.type}`, () => computeAvailability(ctx, venueId, query));
  }

  /** The floorplan with per-table availability, cached like availability. */
  function floorplan(venueId: string, query: FloorplanQuery, floors: Floors) {
    const key = `${query.date}|${query.time}|${query.party_size}|${query.rule_id ?? ''}`;
    return floorplanAnswers.get(venueId, key, () => computeFloorplan(ctx, venueId, query, floors));
  }

  return { availability, floorplan };
}

async function computeAvailability(ctx: PublicContext, venueId: string, query: AvailabilityQuery) {
  const venue = await ctx.venueOrThrow(venueId);
  const now = ctx.clock.now();
  const { loaded, occupancy } = await ctx.dayState(ctx.db, venue, query.date, addDays(query.date, 14));
  const ask = { date: query.date, partySize: query.party_size, type: query.type, now };
  const { availability: result, nextDates } = availabilityWithNextDates(loaded.config, occupancy, { ...ask, days: 14 });
  const visible = new Set(loaded.rules.filter((r) => !r.app_opt_out).map((r) => r.id));
  const rules = loaded.rules.filter((r) => result.access_rule_ids.includes(r.id) && visible.has(r.id));
  return {
    venue: { id: venue.id, name: venue.name, timezone: venue.timezone },
    date: result.date,
    party_size: result.party_size,
    type: result.type,
    slots: result.slots
      .filter((s) => visible.has(s.access_rule_id))
      .map((s) => ({ time: s.time, access_rule_id: s.access_rule_id, available: s.available })),
    party_too_large: result.party_too_large,
    next_available_dates: nextDates,
    // Served as a pre-serialised string (availability.routes.ts): upload paths are made absolute here.
    rules: rules.map((rule) => withAbsoluteUploads(publicRule(rule), ctx.deps.publicBaseUrl) as ReturnType<typeof publicRule>),
    bundle_ids: result.bundle_ids,
  };
}

async function computeFloorplan(ctx: PublicContext, venueId: string, query: FloorplanQuery, floors: Floors) {
  const venue = await ctx.venueOrThrow(venueId);
  const { loaded, occupancy } = await ctx.dayState(ctx.db, venue, query.date);
  const startsAt = localToUtc(query.date, query.time, venue.timezone);
  let endsAt = new Date(startsAt.getTime() + venue.default_booking_duration * 60_000);
  let allowed: Set<string> | null = null;
  const rule = query.rule_id ? loaded.rules.find((r) => r.id === query.rule_id) : undefined;
  if (query.rule_id) {
    const check = slotFree(loaded.config, occupancy, {
      date: query.date,
      time: query.time,
      accessRuleId: query.rule_id,
      partySize: query.party_size,
      now: ctx.clock.now(),
    });
    if (check.slot) endsAt = check.slot.ends_at;
    // With a rule, `available` is what booking would do: the tables it accepts as the guest's pick now.
    allowed =
      check.available && check.slot && rule
        ? bookableTableIds(loaded, rule, check.candidates, occupancy, { startsAt: check.slot.starts_at, endsAt }, query.party_size)
        : new Set();
  }
  const busy = new Set<string>();
  for (const stay of occupancy) if (stay.startsAt < endsAt && stay.endsAt > startsAt) for (const id of stay.tableIds) busy.add(id);
  for (const block of loaded.config.blocks) if (block.fromUtc < endsAt && block.toUtc > startsAt) busy.add(block.tableId);
  return {
    floors: await floors(venue.id),
    tables: loaded.floorplan.tables.map((t) => ({
      id: t.id,
      table_number: t.table_number,
      capacity: t.capacity,
      min_covers: t.min_covers,
      table_type: t.table_type,
      seating_area_id: t.seating_area_id,
      floor_id: t.floor_id,
      available: t.status === 'active' && !busy.has(t.id) && t.capacity >= query.party_size && (allowed === null || allowed.has(t.id)),
    })),
  };
}

function publicRule(rule: AccessRuleRecord) {
  return {
    id: rule.id,
    name: rule.name,
    rule_type: rule.rule_type,
    table_assignment_mode: rule.table_assignment_mode,
    guest_pick_area_ids: rule.guest_pick_area_ids,
    display_title: rule.display_enabled ? rule.display_title : null,
    display_description: rule.display_enabled ? rule.display_description : null,
    display_image_url: rule.display_enabled ? rule.display_image_url : null,
    bundle_ids: rule.bundles_enabled ? rule.bundle_ids : [],
  };
}
