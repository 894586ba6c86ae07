/**
 * A public booking (POST /api/public/venues/:venueId/book, routes in book.routes.ts), in the steps a
 * reader can take one at a time: `book` checks the caller and runs `placeBooking` once per
 * Idempotency-Key; `placeBooking` runs in one serialised transaction (SQLite: one writer; PostgreSQL: an
 * advisory lock per venue): `slotOf` (slot-check.ts) re-checks the slot with the engine against the stays committed so far,
 * `tablesFor` chooses tables (or `checkFreeGuestlist` the list's room), `depositOf` prices the deposit,
 * and the row, its tables and their 15-minute slots are written; booking_slots' primary key refuses a
 * double booking even if that check were skipped or another instance raced. A deposit booking waits
 * `pending_payment` on a payment intent for PAYMENT_WINDOW_MS, keeping its table (deposits.ts).
 */
import type { Kysely } from 'kysely';
import { appendOnlyStays, type Candidate, type Occupancy } from '../../../domain/availability/index.js';
import { textableNumber } from '../../../domain/reminder-schedule.js';
import { depositRequirement, holdAmount, PAYMENT_POLICY_DEFAULTS, type PaymentPolicyTerms } from '../../../domain/payment-policy.js';
import type { Database } from '../../../db/schema.js';
import { DeferredRows } from '../../../db/deferred-rows.js';
import { GroupCommit, type JobControl } from '../../../db/group-commit.js';
import { afterCommit, lockKey, type Conn } from '../../../db/transaction.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import { AppError, badRequest, paymentRequired } from '../../../platform/errors.js';
import { orderedId } from '../../../platform/ids.js';
import { metrics } from '../../../platform/metrics.js';
import { recordConsent } from '../../../platform/sms/consent.js';
import { batchGuestRecord, guestRecordsByEmail, NEW_GUEST_RECORDS, type GuestRecord } from '../../auth/index.js';
import type { AccessRuleRecord } from '../../availability/index.js';
import { bundlePrices } from '../../catalogue/index.js';
import { paymentPolicyTerms } from '../../profiles/index.js';
import { pricelistPrices } from '../../tables/index.js';
import { bookingOrThrow } from '../core/booking-store.js';
import { insertBooking } from '../core/booking-writes.js';
import { depositLines, type DepositLine } from '../core/deposit-lines.js';
import { recordHistory, type Actor } from '../core/history.js';
import { answeredOnce, idempotentIn, type IdempotentRequest } from '../core/idempotency.js';
import { checkUnpaidHolds, PAYMENT_WINDOW_MS } from '../core/unpaid-holds.js';
import type { LoadedVenue } from '../core/venue-config.js';
import { assertFreePlaces, assertRoom, committedCovers } from '../guestlist/guestlist-capacity.js';
import { termsOfRule } from '../guestlist/guestlist-terms.js';
import { withAlternatives, type Alternatives } from './alternatives.js';
import type { Deposits, PaymentRequest } from './deposits.js';
import type { PublicContext } from './public-context.js';
import type { BookBody } from './public.schemas.js';
import { chosenTables, createPrecheck, slotOf } from './slot-check.js';

export type BookAnswer =
  | { ok: true; booking_id: string; reference: string; status: string; manage_url: string }
  | (PaymentRequest & { reference: string; amount_pence: number; breakdown: DepositLine[]; manage_url: string });

export interface BookRequest {
  ip: string;
  idempotencyKey?: string;
  userId: string | null;
}

type Stay = { startsAt: Date; endsAt: Date };

const guestActor = (body: { guest_name: string }, userId: string | null): Actor => ({ kind: 'guest', id: userId, name: body.guest_name });

/**
 * What a batch of placements shares: the configuration and the stays of each date asked, read once in its
 * transaction, and (a batch of several) the rows its confirmed table bookings leave to be written together.
 */
interface BatchDays {
  days: Map<string, Promise<{ loaded: LoadedVenue; occupancy: Occupancy[number][] }>>;
  /** Each date's stays as read, with the batch's placements on that date added (what `keepStays` keeps after the commit). */
  read: Map<string, Occupancy[number][]>;
  /** Every stay the batch placed, whatever its date. */
  placed: Occupancy[number][];
  /** SQLite: the file's data version, read under the transaction's write lock (`keepStays`, `ctx.dayState`). */
  dataVersion?: number;
  rows?: DeferredRows;
  /** (A batch of several) the guest records of its placements' emails, read together; new ones as they are made. */
  guests?: Map<string, GuestRecord | null>;
}

interface Placement {
  venue: VenueRow;
  body: BookBody;
  request: BookRequest;
  /** Its Idempotency-Key's scope, key and hashed body, and the instant it is booked at. */
  idempotency: IdempotentRequest;
}

/**
 * Bookings of one venue arriving together are written in one transaction (db/group-commit.ts); at most this
 * many. SQLite's commit (the log's append) is the batch's fixed cost, so larger batches pay (crowd: 16 →
 * 32, 772–805 → 856–882 bookings/s); on PostgreSQL 32 was no faster and held the venue's lock longer.
 */
const MAX_BATCH = { sqlite: 32, postgres: 16 } as const;

/**
 * A slot's placements let on to the transaction at once: as many as the cached picture has free tables
 * for, and up to twice that but no more than this (`inFlightFor`: one table left lets two on). Under a
 * drop, the rest wait for the batch being written and are then mostly refused from the cached picture,
 * instead of queueing behind the writes only to be refused by the transaction's re-check (the tail of a
 * drop's refusals). A crowd asking for different times never waits.
 */
const MIN_IN_FLIGHT = 8;

const slotKey = (venueId: string, body: BookBody) => [venueId, body.date, body.access_rule_id, body.time].join('\u0000');

/**
 * The booking function of the public engine: refusals from the cached picture before any transaction,
 * placements of one venue written together (group commit), each re-checked in the transaction against
 * the stays committed and the placements before it.
 */
export function createBooker(ctx: PublicContext, deposits: Deposits, alternatives: Alternatives) {
  const precheck = createPrecheck(ctx, alternatives);
  const placements = new GroupCommit<Placement, Placed['answer'], BatchDays>(ctx.db, {
    maxBatch: MAX_BATCH[ctx.db.engine],
    onBatch: (size) => metrics.bookingBatch(size),
    // A placement refuses (409, 400, 429) only before it writes (placeBooking's checks come first): no savepoints.
    isolation: 'refusals-first',
    isRefusal: (error) => error instanceof AppError && error.status < 500,
    async begin(trx, venueId, jobs) {
      // First the venue's lock (PostgreSQL: every instance's placements at this venue queue here, then the
      // idempotency keys' locks are taken one job at a time, always after it).
      await lockKey(ctx.db, trx, `venue-bookings:${venueId}`);
      const keep = ctx.keepDayStays;
      const dataVersion = keep && ctx.db.dataVersion?.();
      const batch: BatchDays = { days: new Map(), read: new Map(), placed: [], dataVersion };
      if (keep && dataVersion !== undefined) afterCommit(trx, () => keepStays(keep, jobs[0]!.venue, batch, dataVersion));
      if (jobs.length === 1) return batch;
      // A batch of several: its guests' records read together (a read: refusals still come before any write).
      const emails = jobs.filter((job) => !job.request.userId).map((job) => job.body.guest_email);
      return Object.assign(batch, { rows: new DeferredRows([NEW_GUEST_RECORDS]), guests: await guestRecordsByEmail(trx, emails) });
    },
    async end(trx, batch) {
      await batch.rows?.write(trx);
    },
    async run(trx, placement, batch, control) {
      const { venue, body, request, idempotency } = placement;
      const { now } = idempotency;
      let day = batch.days.get(body.date);
      if (!day) {
        // SQLite: the picture the batch before kept, when nothing has changed since; otherwise read.
        day = ctx.dayState(trx, venue, body.date, body.date, batch.dataVersion).then(({ loaded, occupancy }) => {
          // The batch's own copy, which its placements only append to (appended.ts): indexed once, then grown.
          const ours = appendOnlyStays([...occupancy]);
          batch.read.set(body.date, ours);
          return { loaded, occupancy: ours };
        });
        batch.days.set(body.date, day);
      }
      const { loaded, occupancy } = await day;
      let placed: Placed | undefined;
      const answer = await idempotentIn(ctx.db, trx, idempotency, async () => {
        placed = await placeBooking(ctx, trx, { venue, loaded, occupancy, body, request, now, batch, control });
        return placed.answer;
      });
      // Written: the placements after it in this batch see its stay.
      if (placed) {
        occupancy.push(placed.stay);
        batch.placed.push(placed.stay);
      }
      return answer;
    },
  });

  /** Books, once per Idempotency-Key: a confirmed booking, or one awaiting its deposit (answered with the payment to make). */
  async function book(venueId: string, body: BookBody, request: BookRequest): Promise<BookAnswer> {
    const textable = textableNumber(body.guest_phone);
    if (body.sms_consent && !textable) throw badRequest('sms_consent needs guest_phone in international format, e.g. +447700900123');
    if (!request.userId) await ctx.deps.botCheck.verify(body.turnstile_token, request.ip);
    const venue = await ctx.venueOrThrow(venueId);
    const now = ctx.clock.now();
    // The key's scope is the route and venue; its hash covers the body less the bot-check token.
    const { turnstile_token: _token, ...keyed } = body;
    const idempotency = { scope: `book:${venue.id}`, key: request.idempotencyKey, body: keyed, now };
    const created = await answeredOnce(ctx.db, idempotency, async () => {
      // A slot the cached picture already shows taken is refused here, before any transaction: under a
      // crowd, refusals never queue behind the writes (and share one engine pass). The transaction re-checks what passes.
      const free = await precheck(venue, body, now);
      // More guests already on their way to the transaction for this slot than it has room for: wait for the
      // venue's batch being written, then ask the cached picture again (most are then refused from it).
      const release = await placements.admit(venue.id, slotKey(venue.id, body), {
        amount: 1,
        floor: MIN_IN_FLIGHT,
        room: free,
        recheck: () => precheck(venue, body, ctx.clock.now()),
      });
      try {
        return await withAlternatives(alternatives, venue, body, 'transaction', () =>
          placements.submit(venue.id, { venue, body, request, idempotency }),
        );
      } finally {
        release();
      }
    });
    // The guest's manage page, for the widget's confirmation (the mail carries the same link).
    // A confirmed booking's answer carries what they need; a deposit's breakdown (or an answer kept before
    // it carried them) reads the booking.
    if (created.deposit_type === 'none' && created.reference !== undefined && created.starts_at !== undefined) {
      const booked = { id: created.booking_id, starts_at: created.starts_at, booking_date: body.date };
      const manage_url = await ctx.mails.manageUrl(ctx.db, booked);
      return { ok: true, booking_id: created.booking_id, reference: created.reference, status: created.status, manage_url };
    }
    const row = await bookingOrThrow(ctx.db, created.booking_id);
    const manage_url = await ctx.mails.manageUrl(ctx.db, row);
    const reference = row.reference ?? row.id;
    if (created.deposit_type === 'none') return { ok: true, booking_id: created.booking_id, reference, status: created.status, manage_url };
    const breakdown = await depositLines(ctx.db, row);
    const payment = await deposits.requestPayment(venue, created.booking_id);
    return { ...payment, reference, amount_pence: created.deposit_pence, breakdown, manage_url };
  }

  return { book };
}

/**
 * Right after a batch commits (synchronously, in its afterCommit hook): each date it read is kept as the
 * cached picture (SQLite: ctx.keepDayStays), with the stays the batch placed on other dates that reach
 * into that date's window, so the next pre-check answers without reading the stays again.
 */
function keepStays(keep: NonNullable<PublicContext['keepDayStays']>, venue: VenueRow, batch: BatchDays, dataVersion: number): void {
  for (const [date, occupancy] of batch.read) keep(venue, date, occupancy, batch.placed, dataVersion);
}

interface Placed {
  answer: {
    booking_id: string;
    status: string;
    deposit_type: 'none' | 'deposit' | 'hold';
    deposit_pence: number;
    /** What the answer's manage link and reference need, so a confirmed booking is not read again after its commit (absent from answers kept before they were added). */
    reference?: string;
    starts_at?: string;
  };
  /** The stay it holds (a guest list's holds covers, no tables). */
  stay: Occupancy[number];
}

/** One placement in its batch's transaction. */
interface Placing {
  venue: VenueRow;
  loaded: LoadedVenue;
  /** The stays committed and those placed before it in the batch. */
  occupancy: Occupancy;
  body: BookBody;
  request: BookRequest;
  now: Date;
  batch: BatchDays;
  control: JobControl;
}

/**
 * The booking itself, under the venue's lock: first checked, seated and priced (every refusal is thrown
 * there, before anything is written), then written with its history (and mail when confirmed). A
 * confirmed table booking in a batch of several leaves its rows to the batch's multi-row statements:
 * nothing later in the batch reads them (a guest list's capacity reads guest-list bookings, the unpaid
 * holds' limit reads bookings awaiting payment; both are written at once).
 */
async function placeBooking(ctx: PublicContext, trx: Kysely<Database>, placing: Placing): Promise<Placed> {
  const { venue, loaded, occupancy, body, request, now } = placing;
  const { rule, check } = slotOf(loaded, occupancy, body, now);
  const stay = { startsAt: check.slot.starts_at, endsAt: check.slot.ends_at };
  const tableIds = await tablesFor(trx, venue, loaded, rule, check.candidates, occupancy, stay, body);
  const deposit = await depositOf(trx, venue, rule, tableIds, loaded, body);
  const status = deposit.type === 'none' ? 'confirmed' : 'pending_payment';
  if (status === 'pending_payment') {
    await checkUnpaidHolds(ctx.db, trx, { venueId: venue.id, address: request.ip, email: body.guest_email, now });
  }
  placing.control.decided();
  const deferred = status === 'confirmed' && rule.rule_type === 'table' ? placing.batch.rows : undefined;
  // A signed-in guest books as themselves; anyone else is matched to (or becomes) a guest record by email.
  const guest = request.userId
    ? undefined
    : await batchGuestRecord(trx, placing.batch.guests, deferred, { name: body.guest_name, email: body.guest_email }, now);
  const userId = request.userId ?? guest?.id ?? null;
  const id = orderedId('bkg');
  const at = now.toISOString();
  const row = {
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
  };
  const reference = await insertBooking(
    trx,
    {
      row,
      roster: { operatorId: venue.operator_id, venueId: venue.id, userId, at: now, phone: body.guest_phone, guest: guest ?? undefined },
      tables: { tableIds, startsAt: stay.startsAt, endsAt: stay.endsAt },
    },
    deferred,
  );
  await recordHistory(
    trx,
    id,
    guestActor(body, request.userId),
    { action: 'create', toStatus: status, detail: { table_ids: tableIds, deposit_pence: deposit.pence } },
    now,
    deferred,
  );
  // The guest's answer to texts is kept with the booking, so its confirmation text (now or when the
  // deposit is paid) follows it.
  const phone = textableNumber(body.guest_phone);
  if (body.sms_consent !== undefined && phone)
    await recordConsent(trx, {
      operatorId: venue.operator_id,
      channel: 'sms',
      address: phone,
      granted: body.sms_consent,
      source: 'booking',
      now,
    });
  // The confirmation from what was just written (no re-read), rendered when sent (core/booking-mail.ts).
  if (status === 'confirmed') await ctx.mails.deferredConfirmation(trx, venue, { ...row, reference }, deferred);
  return {
    answer: { booking_id: id, status, deposit_type: deposit.type, deposit_pence: deposit.pence, reference, starts_at: row.starts_at },
    stay: {
      bookingId: id,
      tableIds: [...tableIds],
      startsAt: stay.startsAt,
      endsAt: stay.endsAt,
      covers: body.party_size,
      accessRuleId: rule.id,
    },
  };
}

/** A table rule's tables (409 when none fits); a guest-list rule holds none, but its list must have room. */
async function tablesFor(
  trx: Conn,
  venue: VenueRow,
  loaded: LoadedVenue,
  rule: AccessRuleRecord,
  candidates: Candidate[],
  occupancy: Occupancy,
  stay: Stay,
  body: BookBody,
): Promise<readonly string[]> {
  if (rule.rule_type !== 'table') {
    await checkFreeGuestlist(trx, venue, rule, body.date, body.party_size);
    return [];
  }
  return chosenTables(loaded, rule, candidates, occupancy, stay, body);
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
