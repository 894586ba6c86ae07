/**
 * The guest-facing booking engine: availability, the floorplan with per-table availability, booking
 * (with an optional deposit or card hold: its payment, finalize and release are in deposits.ts), and the
 * booking's QR code.
 *
 * A booking is made in one serialised transaction (SQLite: one writer; PostgreSQL: an advisory lock per
 * venue): the slot is re-checked with the engine against the stays committed so far, tables are chosen,
 * and their 15-minute slots are claimed; booking_slots' primary key refuses a double booking even if
 * that check were skipped or another instance raced. A deposit booking waits `pending_payment` on a
 * payment intent for PAYMENT_WINDOW_MS, keeping its table, and is released when unpaid (finalize, the
 * provider's expiry event, or the expiry job).
 */
import type { Logger } from 'pino';
import { availabilityWithNextDates, slotFree, type Candidate, type Occupancy } from '../../../domain/availability/index.js';
import { QR_TOKEN_TTL_MS, signQrToken } from '../../../domain/booking-tokens/index.js';
import { chooseTables } from '../../../domain/table-assignment/index.js';
import { depositRequirement, holdAmount, PAYMENT_POLICY_DEFAULTS, type PaymentPolicyTerms } from '../../../domain/payment-policy.js';
import { addDays, localToUtc } from '../../../domain/venue-time.js';
import type { Db } from '../../../db/connect.js';
import { lockKey, type Conn } from '../../../db/transaction.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import type { BotCheck } from '../../../platform/bot-check.js';
import type { Clock } from '../../../platform/clock.js';
import { badRequest, conflict, notFound, paymentRequired } from '../../../platform/errors.js';
import { newId } from '../../../platform/ids.js';
import type { Mail } from '../../../platform/mail/mail.js';
import { qrDataUrl } from '../../../platform/qr-image.js';
import type { RateLimits } from '../../../platform/rate-limit.js';
import { VenueCache } from '../../../platform/venue-cache.js';
import { guestForEmail } from '../../auth/index.js';
import { joinRoster } from '../../guests/index.js';
import type { AccessRuleRecord } from '../../availability/index.js';
import { bundlePrices } from '../../catalogue/index.js';
import type { Payments } from '../../payments/index.js';
import { paymentPolicyTerms } from '../../profiles/index.js';
import { pricelistPrices } from '../../tables/index.js';
import { bookingOrThrow, findBooking } from '../core/booking-store.js';
import type { DoorKeys } from '../core/door-keys.js';
import { recordHistory, type Actor } from '../core/history.js';
import { idempotent } from '../core/idempotency.js';
import { bookingMails } from '../core/booking-mail.js';
import { assertFreePlaces, assertRoom, committedCovers } from '../guestlist/guestlist-capacity.js';
import { termsOfRule } from '../guestlist/guestlist-terms.js';
import { createDeposits, type PaymentRequest } from './deposits.js';
import { occupiedOf, seatingOf } from '../core/seating.js';
import { claimSlots } from '../core/slots.js';
import { checkUnpaidHolds, PAYMENT_WINDOW_MS } from '../core/unpaid-holds.js';
import { cachedOccupancy, cachedVenueConfig, occupancyBetween, serviceWindow, type LoadedVenue } from '../core/venue-config.js';

export const SLOT_TAKEN_MESSAGE = 'That time is no longer available';
/** Statuses that get no QR code (decisions: a QR code for every booking not cancelled, rejected or expired). */
const NO_QR = new Set(['cancelled', 'rejected', 'expired']);

export interface BookBody {
  access_rule_id: string;
  rule_type: string;
  date: string;
  time: string;
  party_size: number;
  bundle_selections?: { bundle_id: string; quantity: number }[];
  guest_name: string;
  guest_email: string;
  guest_phone?: string;
  turnstile_token?: string;
  table_id?: string;
}

export interface PublicDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  payments: Payments;
  mail: Mail;
  botCheck: BotCheck;
  rateLimits: RateLimits;
  doorKeys: DoorKeys;
  publicBaseUrl: string;
  /** A live venue by id (the venues module's), read on `conn`. */
  liveVenue(conn: Conn, venueId: string): Promise<VenueRow | undefined>;
  /**
   * How long a cached availability or floorplan answer may be served without a change (cutoffs move
   * with the clock): AVAILABILITY_CACHE_MS. 0: no cache, every request computes its answer.
   */
  answerCacheMs: number;
}

export type BookAnswer =
  { ok: true; booking_id: string; status: string; manage_url: string } | (PaymentRequest & { amount_pence: number; manage_url: string });

const guestActor = (body: { guest_name: string }, userId: string | null): Actor => ({ kind: 'guest', id: userId, name: body.guest_name });

export function createPublicBookings(deps: PublicDeps) {
  const { db, clock, payments, doorKeys } = deps;
  const mails = bookingMails({ mail: deps.mail, doorKeys, publicBaseUrl: deps.publicBaseUrl });
  const deposits = createDeposits({ db, clock, log: deps.log, payments, mails, liveVenue: deps.liveVenue, venueOrThrow });
  const venueConfig = cachedVenueConfig(db.changes, clock);
  const cachedStays = cachedOccupancy(db.changes, clock);
  /** The venue cache, or with `answerCacheMs` 0 a stand-in that computes every answer. */
  const answerCache = <T>(): Pick<VenueCache<T>, 'get'> =>
    deps.answerCacheMs > 0
      ? new VenueCache<T>(db.changes, clock, { ttlMs: deps.answerCacheMs })
      : { get: (_venueId, _key, compute) => compute() };
  const slotAnswers = answerCache<Awaited<ReturnType<typeof computeAvailabilityAnswer>>>();
  const floorplanAnswers = answerCache<Awaited<ReturnType<typeof computeFloorplan>>>();

  async function venueOrThrow(venueId: string): Promise<VenueRow> {
    const venue = await deps.liveVenue(db, venueId);
    if (!venue) throw notFound('Venue');
    return venue;
  }

  /**
   * The configuration and stays of the service dates [first, last]: inside a transaction (`trx`, the
   * booking path) the stays are read afresh; outside one, from the stays cache.
   */
  async function dayState(
    conn: Db | Kysely<Database>,
    venue: VenueRow,
    first: string,
    last = first,
  ): Promise<{ loaded: LoadedVenue; occupancy: Occupancy }> {
    const window = serviceWindow(venue, first, last);
    const [loaded, occupancy] = await Promise.all([
      venueConfig(conn, venue, first, last),
      conn === db
        ? cachedStays(db, venue.id, window.fromUtc, window.toUtc)
        : occupancyBetween(conn, venue.id, window.fromUtc, window.toUtc),
    ]);
    return { loaded, occupancy };
  }

  /**
   * A venue's slots for a date and party, served from the venue cache: any write to the venue's data
   * (a booking, a cancellation, a block, its configuration) invalidates it before that write returns,
   * other instances within the change notification's delay, and answers live at most `answerCacheMs`
   * (15 s by default; cutoffs move with the clock). Booking re-checks in its own transaction whatever
   * this said.
   */
  function availability(venueId: string, query: { date: string; party_size: number; type: 'tables' | 'guestlist' }) {
    return slotAnswers.get(venueId, `${query.date}|${query.party_size}|${query.type}`, () => computeAvailabilityAnswer(venueId, query));
  }

  async function computeAvailabilityAnswer(venueId: string, query: { date: string; party_size: number; type: 'tables' | 'guestlist' }) {
    const venue = await venueOrThrow(venueId);
    const now = clock.now();
    const { loaded, occupancy } = await dayState(db, venue, query.date, addDays(query.date, 14));
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
      rules: rules.map(publicRule),
      bundle_ids: result.bundle_ids,
    };
  }

  /** The floorplan with per-table availability, cached like availability. */
  function floorplan(
    venueId: string,
    query: { date: string; time: string; party_size: number; rule_id?: string },
    floors: (venueId: string) => Promise<unknown[]>,
  ) {
    const key = `${query.date}|${query.time}|${query.party_size}|${query.rule_id ?? ''}`;
    return floorplanAnswers.get(venueId, key, () => computeFloorplan(venueId, query, floors));
  }

  async function computeFloorplan(
    venueId: string,
    query: { date: string; time: string; party_size: number; rule_id?: string },
    floors: (venueId: string) => Promise<unknown[]>,
  ) {
    const venue = await venueOrThrow(venueId);
    const { loaded, occupancy } = await dayState(db, venue, query.date);
    const startsAt = localToUtc(query.date, query.time, venue.timezone);
    let endsAt = new Date(startsAt.getTime() + venue.default_booking_duration * 60_000);
    let allowed: Set<string> | null = null;
    if (query.rule_id) {
      const check = slotFree(loaded.config, occupancy, {
        date: query.date,
        time: query.time,
        accessRuleId: query.rule_id,
        partySize: query.party_size,
        now: clock.now(),
      });
      if (check.slot) endsAt = check.slot.ends_at;
      allowed = new Set(check.available ? check.candidates.filter((c) => c.kind === 'table').flatMap((c) => c.tableIds) : []);
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

  /** The tables for a new stay: a guest's pick, else the best fit with the least fragmentation. */
  function pickTables(
    loaded: LoadedVenue,
    rule: AccessRuleRecord,
    candidates: Candidate[],
    occupancy: Occupancy,
    stay: { startsAt: Date; endsAt: Date },
    partySize: number,
    tableId?: string,
  ) {
    const guestPick =
      rule.table_assignment_mode === 'guest_pick' ? { areaIds: rule.guest_pick_area_ids, requestedTableId: tableId ?? null } : undefined;
    return chooseTables({ candidates: seatingOf(loaded, candidates), partySize, stay, occupied: occupiedOf(loaded, occupancy), guestPick });
  }

  /** What the deposit or hold of a booking comes to under its rule's payment policy (0: none). */
  async function depositOf(
    conn: Kysely<Database>,
    venue: VenueRow,
    rule: AccessRuleRecord,
    tableIds: readonly string[],
    loaded: LoadedVenue,
    body: BookBody,
  ) {
    const policy: PaymentPolicyTerms =
      (rule.payment_policy_id ? await paymentPolicyTerms(conn, venue.id, rule.payment_policy_id) : null) ?? PAYMENT_POLICY_DEFAULTS;
    const selections = body.bundle_selections ?? [];
    const prices = await bundlePrices(
      conn,
      venue.id,
      selections.map((s) => s.bundle_id),
    );
    for (const s of selections) {
      if (!prices.has(s.bundle_id) || !rule.bundles_enabled || !rule.bundle_ids.includes(s.bundle_id))
        throw badRequest(`Bundle ${s.bundle_id} is not offered with this booking`);
    }
    const requirement = depositRequirement(policy);
    if (!requirement.required) return { policy, type: 'none' as const, pence: 0 };
    const list = rule.pricelist_id ? await pricelistPrices(conn, venue.id, rule.pricelist_id) : null;
    const tables = loaded.floorplan.tables.filter((t) => tableIds.includes(t.id));
    // The price list's price is per cover (decisions: hold amount); a combination takes its dearest table's
    // price and the sum of its tables' minimum covers.
    const pricePence = Math.max(0, ...tables.map((t) => list?.byTable.get(t.id) ?? list?.defaultPence ?? 0));
    const minCovers = tables.reduce((sum, t) => sum + t.min_covers, 0) || null;
    const bundlesPence = selections.reduce((sum, s) => sum + prices.get(s.bundle_id)! * s.quantity, 0);
    const pence = holdAmount({ pricePence, minCovers, partySize: body.party_size, bundlesPence });
    return { policy, type: requirement.mode!, pence };
  }

  /**
   * Counts a booking attempt from a client address (decisions: rate limits), 429 over the limit. The
   * route calls it before the body is parsed, so a burst of any kind is refused cheaply.
   */
  async function countAttempt(ip: string): Promise<void> {
    await deps.rateLimits.hit('public_booking', ip);
  }

  async function book(
    venueId: string,
    body: BookBody,
    request: { ip: string; idempotencyKey?: string; userId: string | null },
  ): Promise<BookAnswer> {
    if (!request.userId) await deps.botCheck.verify(body.turnstile_token, request.ip);
    const venue = await venueOrThrow(venueId);
    const now = clock.now();
    const { turnstile_token: _token, ...keyed } = body;
    const created = await idempotent(db, { scope: `book:${venue.id}`, key: request.idempotencyKey, body: keyed, now }, async (trx) => {
      await lockKey(db, trx, `venue-bookings:${venue.id}`);
      const { loaded, occupancy } = await dayState(trx, venue, body.date);
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
      if (!check.available) throw conflict(SLOT_TAKEN_MESSAGE, { reason: check.reason });
      const stay = { startsAt: check.slot.starts_at, endsAt: check.slot.ends_at };
      let tableIds: readonly string[] = [];
      if (rule.rule_type === 'table') {
        const chosen = pickTables(loaded, rule, check.candidates, occupancy, stay, body.party_size, body.table_id);
        if (!chosen)
          throw conflict(body.table_id ? 'That table is not available for this booking' : SLOT_TAKEN_MESSAGE, { reason: 'no_table' });
        tableIds = chosen.tableIds;
      } else {
        await checkFreeGuestlist(trx, venue, rule, body.date, body.party_size);
      }
      const deposit = await depositOf(trx, venue, rule, tableIds, loaded, body);
      // A signed-in guest books as themselves; anyone else is matched to (or becomes) a guest record by email.
      const userId = request.userId ?? (await guestForEmail(trx, { name: body.guest_name, email: body.guest_email }, now));
      const id = newId('bkg');
      const at = now.toISOString();
      const status = deposit.type === 'none' ? 'confirmed' : 'pending_payment';
      if (status === 'pending_payment') {
        await checkUnpaidHolds(db, trx, { venueId: venue.id, address: request.ip, email: body.guest_email, now });
      }
      await trx
        .insertInto('bookings')
        .values({
          id,
          operator_id: venue.operator_id,
          venue_id: venue.id,
          kind: rule.rule_type === 'table' ? 'table' : 'guestlist',
          rule_type: rule.rule_type,
          status,
          user_id: userId,
          access_rule_id: rule.id,
          booking_date: body.date,
          start_time: body.time,
          duration_minutes: check.durationMinutes,
          starts_at: stay.startsAt.toISOString(),
          ends_at: stay.endsAt.toISOString(),
          guest_count: body.party_size,
          guest_name: body.guest_name,
          guest_email: body.guest_email,
          guest_phone: body.guest_phone ?? null,
          total_pence: deposit.pence,
          bundle_selections: JSON.stringify(body.bundle_selections ?? []),
          payment_policy_id: rule.payment_policy_id,
          deposit_type: deposit.type,
          deposit_pence: deposit.pence,
          payment_status: deposit.type === 'none' ? 'none' : 'requires_payment',
          payment_expires_at: deposit.type === 'none' ? null : new Date(now.getTime() + PAYMENT_WINDOW_MS).toISOString(),
          hold_address: status === 'pending_payment' ? request.ip : null,
          status_changed_at: at,
          created_at: at,
          updated_at: at,
        })
        .execute();
      await joinRoster(trx, { operatorId: venue.operator_id, venueId: venue.id, userId, at: now, phone: body.guest_phone });
      if (tableIds.length > 0) {
        await trx
          .insertInto('booking_tables')
          .values(
            tableIds.map((tableId) => ({
              booking_id: id,
              table_id: tableId,
              venue_id: venue.id,
              starts_at: stay.startsAt.toISOString(),
              ends_at: stay.endsAt.toISOString(),
            })),
          )
          .execute();
        await claimSlots(trx, { id, venueId: venue.id }, tableIds, stay.startsAt, stay.endsAt);
      }
      await recordHistory(
        trx,
        id,
        guestActor(body, request.userId),
        { action: 'create', toStatus: status, detail: { table_ids: tableIds, deposit_pence: deposit.pence } },
        now,
      );
      if (status === 'confirmed') await mails.confirmation(trx, venue, await bookingOrThrow(trx, id));
      return { booking_id: id, status, deposit_type: deposit.type, deposit_pence: deposit.pence };
    });
    // The guest's manage page, for the widget's confirmation (the mail carries the same link).
    const manage_url = await mails.manageUrl(db, await bookingOrThrow(db, created.booking_id));
    if (created.deposit_type === 'none') return { ok: true, booking_id: created.booking_id, status: created.status, manage_url };
    return { ...(await deposits.requestPayment(venue, created.booking_id)), amount_pence: created.deposit_pence, manage_url };
  }

  /**
   * A public booking on a guest list takes a free place only (decisions: Guest list): the list's and the
   * door's capacity as for every guest-list booking, and the free list's own places; paid entry and
   * queue skip are bought with keys through guestlist-bookings (402 here). Runs under the venue lock.
   */
  async function checkFreeGuestlist(trx: Conn, venue: VenueRow, rule: AccessRuleRecord, date: string, party: number) {
    const terms = await termsOfRule(trx, venue, rule);
    const covers = await committedCovers(trx, venue.id, date, rule.id);
    assertRoom(terms.maxCovers, venue, covers, party);
    if (!terms.pricing.free) {
      throw paymentRequired('This guest list has no free entry: join it with keys (guestlist-bookings)', { reason: 'keys_required' });
    }
    assertFreePlaces(terms.pricing.free.places, covers, party);
  }

  async function qr(venueId: string, bookingId: string) {
    const venue = await venueOrThrow(venueId);
    const booking = await findBooking(db, bookingId);
    if (!booking || booking.venue_id !== venue.id || NO_QR.has(booking.status)) throw notFound('Booking');
    const key = await doorKeys.keyOf(venue.id);
    const issuedAt = clock.now();
    const token = signQrToken({ bookingId: booking.id, venueId: venue.id, issuedAt, ttlMs: QR_TOKEN_TTL_MS }, key.privateKey);
    return { qr_code: await qrDataUrl(token), issued_at: issuedAt.getTime(), expires_in_ms: QR_TOKEN_TTL_MS, qr_token: token };
  }

  const { finalize, expireUnpaid, registerFulfilments } = deposits;
  return { availability, floorplan, countAttempt, book, finalize, qr, expireUnpaid, registerFulfilments };
}

export type PublicBookings = ReturnType<typeof createPublicBookings>;

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
