/**
 * The guest-facing booking engine: availability, the floorplan with per-table availability, booking
 * (with an optional deposit or card hold), finalize, and the booking's QR code.
 *
 * A booking is made in one serialised transaction (SQLite: one writer; PostgreSQL: an advisory lock per
 * venue): the slot is re-checked with the engine against the stays committed so far, tables are chosen,
 * and their 15-minute slots are claimed; booking_slots' primary key refuses a double booking even if
 * that check were skipped or another instance raced. A deposit booking waits `pending_payment` on a
 * payment intent for PAYMENT_WINDOW_MS, keeping its table, and is released when unpaid (finalize, the
 * provider's expiry event, or the expiry job).
 */
import type { Logger } from 'pino';
import { availabilityWithNextDates, slotFree, type Candidate, type Occupancy } from '../../domain/availability/index.js';
import { QR_TOKEN_TTL_MS, signQrToken } from '../../domain/booking-tokens/index.js';
import { chooseTables } from '../../domain/table-assignment/index.js';
import { depositRequirement, holdAmount, PAYMENT_POLICY_DEFAULTS, type PaymentPolicyTerms } from '../../domain/payment-policy.js';
import { addDays, localToUtc } from '../../domain/venue-time.js';
import type { Db } from '../../db/connect.js';
import { lockKey, withTransaction, type Conn } from '../../db/transaction.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import type { BotCheck } from '../../platform/bot-check.js';
import type { Clock } from '../../platform/clock.js';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Mail } from '../../platform/mail/mail.js';
import { qrDataUrl } from '../../platform/qr-image.js';
import type { RateLimits } from '../../platform/rate-limit.js';
import { VenueCache } from '../../platform/venue-cache.js';
import { guestForEmail } from '../auth/index.js';
import type { AccessRuleRecord } from '../availability/index.js';
import { bundlePrices } from '../catalogue/index.js';
import type { Payments } from '../payments/index.js';
import { paymentPolicyTerms } from '../profiles/index.js';
import { pricelistPrices } from '../tables/index.js';
import { bookingOrThrow, changeStatus, type BookingRow } from './booking-store.js';
import type { DoorKeys } from './door-keys.js';
import { recordHistory, SYSTEM, type Actor } from './history.js';
import { idempotent, pruneIdempotencyKeys } from './idempotency.js';
import { bookingMails } from './booking-mail.js';
import { occupiedOf, seatingOf } from './seating.js';
import { claimSlots } from './slots.js';
import { cachedOccupancy, cachedVenueConfig, occupancyBetween, serviceWindow, type LoadedVenue } from './venue-config.js';

/** How long an unpaid deposit booking keeps its table. */
export const PAYMENT_WINDOW_MS = 15 * 60_000;
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
  | { ok: true; booking_id: string; status: string }
  | { requires_payment: true; payment_client_secret: string; booking_id: string; payment_intent_id: string };

const guestActor = (body: { guest_name: string }, userId: string | null): Actor => ({ kind: 'guest', id: userId, name: body.guest_name });

export function createPublicBookings(deps: PublicDeps) {
  const { db, clock, payments, doorKeys } = deps;
  const mails = bookingMails({ mail: deps.mail, doorKeys, publicBaseUrl: deps.publicBaseUrl });
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
      }
      const deposit = await depositOf(trx, venue, rule, tableIds, loaded, body);
      // A signed-in guest books as themselves; anyone else is matched to (or becomes) a guest record by email.
      const userId =
        request.userId ?? (await guestForEmail(trx, { name: body.guest_name, email: body.guest_email, phone: body.guest_phone }, now));
      const id = newId('bkg');
      const at = now.toISOString();
      const status = deposit.type === 'none' ? 'confirmed' : 'pending_payment';
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
          status_changed_at: at,
          created_at: at,
          updated_at: at,
        })
        .execute();
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
    if (created.deposit_type === 'none') return { ok: true, booking_id: created.booking_id, status: created.status };
    return requestPayment(venue, created.booking_id);
  }

  /** The payment intent of a deposit booking: created once (the provider's idempotency key), then reused. */
  async function requestPayment(venue: VenueRow, bookingId: string): Promise<BookAnswer> {
    const booking = await bookingOrThrow(db, bookingId);
    if (booking.status !== 'pending_payment') throw conflict(`This booking is ${booking.status.replace('_', ' ')}`);
    let intent;
    try {
      intent = await payments.createIntent({
        amountPence: booking.deposit_pence,
        capture: booking.deposit_type === 'hold' ? 'manual' : 'automatic',
        metadata: { kind: 'booking_deposit', booking_id: booking.id },
        idempotencyKey: `booking-deposit-${booking.id}`,
        operatorId: venue.operator_id,
        venueId: venue.id,
        description: `${venue.name}: ${booking.booking_date} ${booking.start_time ?? ''}`.trim(),
      });
    } catch (error) {
      // Without a payment the table must not stay held: release it now.
      await withTransaction(db, (trx) => release(trx, booking, 'payment_unavailable')).catch(() => undefined);
      throw error;
    }
    if (booking.payment_intent_id !== intent.id) {
      await db.kysely
        .updateTable('bookings')
        .set({ payment_intent_id: intent.id, updated_at: clock.now().toISOString() })
        .where('id', '=', booking.id)
        .execute();
    }
    return {
      requires_payment: true,
      payment_client_secret: intent.client_secret ?? '',
      booking_id: booking.id,
      payment_intent_id: intent.id,
    };
  }

  /** Releases an unpaid booking: expired, its slots freed. A booking no longer awaiting payment is left alone. */
  async function release(trx: Kysely<Database>, booking: BookingRow, why: string): Promise<BookingRow> {
    const current = await bookingOrThrow(trx, booking.id);
    if (current.status !== 'pending_payment') return current;
    return changeStatus(trx, current, {
      to: 'expired',
      action: 'expired',
      historyAction: 'release',
      actor: SYSTEM,
      now: clock.now(),
      set: { payment_status: 'released' },
      detail: { reason: why },
    });
  }

  /** Confirms a paid deposit booking (finalize, webhook); a booking no longer awaiting payment is left alone. */
  async function confirmPaid(trx: Kysely<Database>, bookingId: string, held: boolean, via: string): Promise<BookingRow> {
    const current = await bookingOrThrow(trx, bookingId);
    if (current.status !== 'pending_payment') return current;
    const confirmed = await changeStatus(trx, current, {
      to: 'confirmed',
      action: 'confirmed',
      historyAction: 'payment_confirmed',
      actor: SYSTEM,
      now: clock.now(),
      set: { payment_status: held ? 'held' : 'paid', payment_expires_at: null },
      detail: { via },
    });
    const venue = await deps.liveVenue(trx, confirmed.venue_id);
    if (venue) await mails.confirmation(trx, venue, confirmed);
    return confirmed;
  }

  async function finalize(venueId: string, bookingId: string) {
    const venue = await venueOrThrow(venueId);
    const booking = await bookingOrThrow(db, bookingId).catch(() => undefined);
    if (!booking || booking.venue_id !== venue.id) throw notFound('Booking');
    if (booking.status === 'pending_payment' && booking.payment_intent_id) {
      const intent = await payments.retrieveIntent(booking.payment_intent_id, { operatorId: venue.operator_id, venueId: venue.id });
      if (intent.status === 'succeeded' || intent.status === 'requires_capture') {
        // withTransaction: the confirmation mail queued inside is delivered right after the commit.
        const done = await withTransaction(db, (trx) => confirmPaid(trx, booking.id, intent.status === 'requires_capture', 'finalize'));
        return { ok: true, booking_id: done.id, status: done.status };
      }
      if (intent.status !== 'processing') {
        const released = await withTransaction(db, (trx) => release(trx, booking, 'payment_not_completed'));
        await payments
          .cancelIntent(intent.id, {
            idempotencyKey: `booking-release-${booking.id}`,
            scope: { operatorId: venue.operator_id, venueId: venue.id },
          })
          .catch(() => undefined);
        return { ok: false, booking_id: released.id, status: released.status };
      }
    }
    const current = await bookingOrThrow(db, booking.id);
    return { ok: current.status !== 'expired' && current.status !== 'cancelled', booking_id: current.id, status: current.status };
  }

  async function qr(venueId: string, bookingId: string) {
    const venue = await venueOrThrow(venueId);
    const booking = await bookingOrThrow(db, bookingId).catch(() => undefined);
    if (!booking || booking.venue_id !== venue.id || NO_QR.has(booking.status)) throw notFound('Booking');
    const key = await doorKeys.keyOf(venue.id);
    const issuedAt = clock.now();
    const token = signQrToken({ bookingId: booking.id, venueId: venue.id, issuedAt, ttlMs: QR_TOKEN_TTL_MS }, key.privateKey);
    return { qr_code: await qrDataUrl(token), issued_at: issuedAt.getTime(), expires_in_ms: QR_TOKEN_TTL_MS, qr_token: token };
  }

  /** Releases deposit bookings whose payment window has passed; safe with several instances (conditional updates). */
  async function expireUnpaid(limit = 100): Promise<number> {
    const now = clock.now();
    const due = await db.kysely
      .selectFrom('bookings')
      .selectAll()
      .where('status', '=', 'pending_payment')
      .where('payment_expires_at', '<', now.toISOString())
      .orderBy('payment_expires_at')
      .limit(limit)
      .execute();
    let released = 0;
    for (const booking of due) {
      try {
        const after = await withTransaction(db, (trx) => release(trx, booking, 'payment_window_passed'));
        if (after.status === 'expired') released += 1;
        if (booking.payment_intent_id) {
          await payments
            .cancelIntent(booking.payment_intent_id, { idempotencyKey: `booking-release-${booking.id}` })
            .catch(() => undefined);
        }
      } catch (error) {
        if (!(error instanceof AppError && error.status === 409))
          deps.log.error({ err: error, bookingId: booking.id }, 'releasing an unpaid booking failed');
      }
    }
    // Answers to Idempotency-Keys past their 24 hours go with the same sweep.
    await pruneIdempotencyKeys(db, now);
    return released;
  }

  /** The `booking_deposit` fulfilments (decisions: Inbound payment webhook). */
  function registerFulfilments() {
    payments.fulfilments.register('booking_deposit', {
      completed: async (trx, session) => {
        const id = session.metadata.booking_id;
        if (!id || !(await trx.selectFrom('bookings').select('id').where('id', '=', id).executeTakeFirst())) return 'ignored';
        await confirmPaid(trx, id, false, 'webhook');
      },
      expired: async (trx, session) => {
        const id = session.metadata.booking_id;
        const booking = id ? await trx.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirst() : undefined;
        if (!booking) return 'ignored';
        await release(trx, booking, 'checkout_expired');
      },
    });
  }

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
