/**
 * A public booking (POST /api/public/venues/:venueId/book, routes in book.routes.ts), in the steps a
 * reader can take one at a time: `book` checks the caller and runs `placeBooking` once per
 * Idempotency-Key; `placeBooking` runs in one serialised transaction (SQLite: one writer; PostgreSQL: an
 * advisory lock per venue): `slotOf` re-checks the slot with the engine against the stays committed so far,
 * `tablesFor` chooses tables (or `checkFreeGuestlist` the list's room), `depositOf` prices the deposit,
 * and the row, its tables and their 15-minute slots are written; booking_slots' primary key refuses a
 * double booking even if that check were skipped or another instance raced. A deposit booking waits
 * `pending_payment` on a payment intent for PAYMENT_WINDOW_MS, keeping its table (deposits.ts).
 */
import type { Kysely } from 'kysely';
import { slotFree, type Candidate, type Occupancy } from '../../../domain/availability/index.js';
import { chooseTables } from '../../../domain/table-assignment/index.js';
import { depositRequirement, holdAmount, PAYMENT_POLICY_DEFAULTS, type PaymentPolicyTerms } from '../../../domain/payment-policy.js';
import type { Database } from '../../../db/schema.js';
import { lockKey, type Conn } from '../../../db/transaction.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import { badRequest, conflict, notFound, paymentRequired } from '../../../platform/errors.js';
import { newId } from '../../../platform/ids.js';
import { guestForEmail } from '../../auth/index.js';
import type { AccessRuleRecord } from '../../availability/index.js';
import { bundlePrices } from '../../catalogue/index.js';
import { paymentPolicyTerms } from '../../profiles/index.js';
import { pricelistPrices } from '../../tables/index.js';
import { bookingOrThrow } from '../core/booking-store.js';
import { insertBooking } from '../core/booking-writes.js';
import { recordHistory, type Actor } from '../core/history.js';
import { idempotent } from '../core/idempotency.js';
import { occupiedOf, seatingOf } from '../core/seating.js';
import { checkUnpaidHolds, PAYMENT_WINDOW_MS } from '../core/unpaid-holds.js';
import type { LoadedVenue } from '../core/venue-config.js';
import { assertFreePlaces, assertRoom, committedCovers } from '../guestlist/guestlist-capacity.js';
import { termsOfRule } from '../guestlist/guestlist-terms.js';
import type { Deposits, PaymentRequest } from './deposits.js';
import type { PublicContext } from './public-context.js';
import type { BookBody } from './public.schemas.js';

export const SLOT_TAKEN_MESSAGE = 'That time is no longer available';

export type BookAnswer =
  { ok: true; booking_id: string; status: string; manage_url: string } | (PaymentRequest & { amount_pence: number; manage_url: string });

export interface BookRequest {
  ip: string;
  idempotencyKey?: string;
  userId: string | null;
}

type Stay = { startsAt: Date; endsAt: Date };

const guestActor = (body: { guest_name: string }, userId: string | null): Actor => ({ kind: 'guest', id: userId, name: body.guest_name });

/** Books, once per Idempotency-Key: a confirmed booking, or one awaiting its deposit (answered with the payment to make). */
export async function book(
  ctx: PublicContext,
  deposits: Deposits,
  venueId: string,
  body: BookBody,
  request: BookRequest,
): Promise<BookAnswer> {
  if (!request.userId) await ctx.deps.botCheck.verify(body.turnstile_token, request.ip);
  const venue = await ctx.venueOrThrow(venueId);
  const now = ctx.clock.now();
  const { turnstile_token: _token, ...keyed } = body;
  const created = await idempotent(ctx.db, { scope: `book:${venue.id}`, key: request.idempotencyKey, body: keyed, now }, (trx) =>
    placeBooking(ctx, trx, venue, body, request, now),
  );
  // The guest's manage page, for the widget's confirmation (the mail carries the same link).
  const manage_url = await ctx.mails.manageUrl(ctx.db, await bookingOrThrow(ctx.db, created.booking_id));
  if (created.deposit_type === 'none') return { ok: true, booking_id: created.booking_id, status: created.status, manage_url };
  return { ...(await deposits.requestPayment(venue, created.booking_id)), amount_pence: created.deposit_pence, manage_url };
}

/** The booking itself, under the venue's lock: checked, seated, priced and written with its history (and mail when confirmed). */
async function placeBooking(ctx: PublicContext, trx: Kysely<Database>, venue: VenueRow, body: BookBody, request: BookRequest, now: Date) {
  await lockKey(ctx.db, trx, `venue-bookings:${venue.id}`);
  const { loaded, occupancy } = await ctx.dayState(trx, venue, body.date);
  const { rule, check } = slotOf(loaded, occupancy, body, now);
  const stay = { startsAt: check.slot.starts_at, endsAt: check.slot.ends_at };
  const tableIds = await tablesFor(trx, venue, loaded, rule, check.candidates, occupancy, stay, body);
  const deposit = await depositOf(trx, venue, rule, tableIds, loaded, body);
  // A signed-in guest books as themselves; anyone else is matched to (or becomes) a guest record by email.
  const userId = request.userId ?? (await guestForEmail(trx, { name: body.guest_name, email: body.guest_email }, now));
  const id = newId('bkg');
  const at = now.toISOString();
  const status = deposit.type === 'none' ? 'confirmed' : 'pending_payment';
  if (status === 'pending_payment') {
    await checkUnpaidHolds(ctx.db, trx, { venueId: venue.id, address: request.ip, email: body.guest_email, now });
  }
  await insertBooking(trx, {
    row: {
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
    },
    roster: { operatorId: venue.operator_id, venueId: venue.id, userId, at: now, phone: body.guest_phone },
    tables: { tableIds, startsAt: stay.startsAt, endsAt: stay.endsAt },
  });
  await recordHistory(
    trx,
    id,
    guestActor(body, request.userId),
    { action: 'create', toStatus: status, detail: { table_ids: tableIds, deposit_pence: deposit.pence } },
    now,
  );
  if (status === 'confirmed') await ctx.mails.confirmation(trx, venue, await bookingOrThrow(trx, id));
  return { booking_id: id, status, deposit_type: deposit.type, deposit_pence: deposit.pence };
}

/** The access rule the guest chose (404 when unknown or opted out) and its slot, re-checked against the stays read in the transaction (409 when taken). */
function slotOf(loaded: LoadedVenue, occupancy: Occupancy, body: BookBody, now: Date) {
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
  return { rule, check };
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
  const chosen = pickTables(loaded, rule, candidates, occupancy, stay, body.party_size, body.table_id);
  if (!chosen) throw conflict(body.table_id ? 'That table is not available for this booking' : SLOT_TAKEN_MESSAGE, { reason: 'no_table' });
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
  const guestPick =
    rule.table_assignment_mode === 'guest_pick' ? { areaIds: rule.guest_pick_area_ids, requestedTableId: tableId ?? null } : undefined;
  return chooseTables({ candidates: seatingOf(loaded, candidates), partySize, stay, occupied: occupiedOf(loaded, occupancy), guestPick });
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
