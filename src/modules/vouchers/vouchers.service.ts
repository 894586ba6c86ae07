/**
 * Gift vouchers for the venue's staff: the settings (kept by the venues module, whose vouchers widget
 * depends on them), issuing comp and paid vouchers, the list over the venue and its sister venues,
 * look-up (rate limited) and redemption, and the refund of a paid voucher through the payments platform.
 *
 * Redemption is decided by one conditional update of the balance (`spendBalance`), so concurrent
 * redemptions of one code, on any number of instances, never spend more than the voucher holds: of 20
 * full redemptions exactly one succeeds, and partial ones stop at zero.
 */
import type { Db } from '../../db/connect.js';
import { withTransaction, type Conn } from '../../db/transaction.js';
import type { Audit } from '../../platform/audit.js';
import {
  normaliseVoucherCode,
  redemptionAmount,
  redemptionCheck,
  type RedeemReason,
  type VoucherState,
} from '../../domain/vouchers/index.js';
import type { AuthInfo, VenueRow } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { domainEvents } from '../../platform/domain-events.js';
import { AppError, badRequest, conflict, notFound, paymentRequired } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Mail } from '../../platform/mail/mail.js';
import { offsetPage, PAGE_DEFAULT } from '../../platform/paging.js';
import type { RateLimits } from '../../platform/rate-limit.js';
import { clearableText } from '../../platform/text.js';
import { intentMismatch, PAYMENT_MISMATCH_MESSAGE, type Payments } from '../payments/index.js';
import { voucherEvent } from './voucher-events.js';
import { issueVouchers } from './voucher-issue.js';
import { statusOf, toRedemption, toVoucher } from './voucher-views.js';
import {
  attachIntent,
  claimPurchase,
  claimRefund,
  insertPurchase,
  insertRedemption,
  purchaseById,
  purchaseByIntent,
  reclaimRefund,
  recordRefund,
  redemptionsOf,
  releaseRefund,
  spendBalance,
  voucherByCode,
  voucherOfVenue,
  vouchersOfVenues,
  type VoucherRow,
} from './vouchers.repository.js';
import type { IssueBody, RedeemBody, VoucherSettings, VoucherSettingsBody } from './vouchers.schemas.js';

/**
 * What the vouchers module needs of venues (the composition root hands it the venues module's
 * functions): the voucher settings it keeps, a venue's sister venues, names, and venues by id.
 */
export interface VoucherVenues {
  settings(venueId: string): Promise<VoucherSettings>;
  /** Saved on `conn` (the caller's transaction) when given. */
  saveSettings(venueId: string, settings: VoucherSettings, conn?: Conn): Promise<void>;
  /** The venue's sister venues the caller's role reaches (a venue-scoped role sees those in its scope). */
  sisters(auth: AuthInfo, venue: VenueRow): Promise<{ id: string; name: string }[]>;
  /** Names of venues of the account. */
  names(operatorId: string, venueIds: readonly string[]): Promise<{ id: string; name: string }[]>;
  /** A live venue by id (guest routes), read on `conn`. */
  liveVenue(conn: Conn, venueId: string): Promise<VenueRow | undefined>;
  /** A venue of the account, whatever its status, read on `conn`. */
  findVenue(conn: Conn, operatorId: string, venueId: string): Promise<VenueRow | undefined>;
}

export interface VouchersDeps {
  db: Db;
  clock: Clock;
  mail: Mail;
  payments: Payments;
  rateLimits: RateLimits;
  venues: VoucherVenues;
  audit: Audit;
}

export const PAYMENT_USED = 'This payment was already used for a voucher';
/** How long a refund claim waits for its provider call before another request may take it over. */
export const REFUND_CLAIM_MS = 5 * 60_000;
const ALREADY_REFUNDED = 'This voucher is already refunded';
const REFUND_IN_PROGRESS = 'A refund of this voucher is in progress: try again in a few minutes';

const stateOf = (row: VoucherRow): VoucherState => ({
  venueId: row.venue_id,
  status: row.status,
  remainingPence: row.remaining_pence,
  validUntil: new Date(row.valid_until),
});

/** The settings after `body`, checked as a whole. */
export function mergeSettings(current: VoucherSettings, body: VoucherSettingsBody): VoucherSettings {
  const flag = (value: boolean | 0 | 1 | undefined, fallback: boolean) => (value === undefined ? fallback : Boolean(value));
  const next: VoucherSettings = {
    enabled: flag(body.enabled, current.enabled),
    expiration_months: body.expiration_months ?? current.expiration_months,
    min_amount_pence: body.min_amount_pence ?? current.min_amount_pence,
    max_amount_pence: body.max_amount_pence ?? current.max_amount_pence,
    fixed_amounts: body.fixed_amounts === undefined ? current.fixed_amounts : body.fixed_amounts,
    allow_custom: flag(body.allow_custom, current.allow_custom),
    min_qty: body.min_qty ?? current.min_qty,
    max_qty: body.max_qty ?? current.max_qty,
    terms: body.terms === undefined ? current.terms : (body.terms ?? '').trim(),
  };
  if (next.min_amount_pence > next.max_amount_pence) throw badRequest('min_amount_pence must not exceed max_amount_pence');
  if (next.min_qty > next.max_qty) throw badRequest('min_qty must not exceed max_qty');
  if (next.enabled && !next.allow_custom && !next.fixed_amounts?.length) {
    throw badRequest('Gift vouchers on need fixed_amounts or allow_custom: otherwise there is nothing to buy');
  }
  return next;
}

export function createVouchersService(deps: VouchersDeps) {
  const { db, clock, mail, payments, venues } = deps;

  /** The venues whose vouchers this venue lists and takes: itself and its sisters (as the caller sees them). */
  async function reachOf(auth: AuthInfo, venue: VenueRow) {
    const sisters = await venues.sisters(auth, venue);
    const names = new Map([[venue.id, venue.name], ...sisters.map((s) => [s.id, s.name] as const)]);
    return { sisterIds: sisters.map((s) => s.id), names };
  }

  async function nameOf(row: VoucherRow, names: Map<string, string>): Promise<string> {
    const known = names.get(row.venue_id);
    if (known !== undefined) return known;
    const [venue] = await venues.names(row.operator_id, [row.venue_id]);
    return venue?.name ?? '';
  }

  const redeemAnswer = (row: VoucherRow | undefined, reason: RedeemReason, spent: number, now: Date) => ({
    success: reason === 'ok',
    reason,
    voucher: row
      ? {
          id: row.id,
          code: row.code,
          amount_pence: row.amount_pence,
          status: statusOf(row, now),
          remaining_pence: row.remaining_pence,
          redeemed_pence: spent,
        }
      : null,
  });

  return {
    async settings(venue: VenueRow) {
      return { data: await venues.settings(venue.id) };
    },

    async updateSettings(venue: VenueRow, body: VoucherSettingsBody): Promise<void> {
      const current = await venues.settings(venue.id);
      const next = mergeSettings(current, body);
      await withTransaction(db, async (trx) => {
        await venues.saveSettings(venue.id, next, trx);
        await deps.audit.record(trx, {
          action: 'voucher_settings.updated',
          entityType: 'voucher_settings',
          entityId: venue.id,
          venueId: venue.id,
          before: { ...current },
          after: { ...next },
        });
      });
    },

    async list(auth: AuthInfo, venue: VenueRow, query: { limit?: number; offset?: number }) {
      const page = { limit: query.limit ?? PAGE_DEFAULT, offset: query.offset ?? 0 };
      const { sisterIds, names } = await reachOf(auth, venue);
      const { rows, total } = await vouchersOfVenues(db, [venue.id, ...sisterIds], page);
      const now = clock.now();
      return offsetPage(
        rows.map((row) => toVoucher(row, names.get(row.venue_id) ?? '', now)),
        total,
        page,
      );
    },

    /** Counts a look-up from a client address before any work (decisions: Rate limits); 429 over the limit. */
    async countLookup(ip: string): Promise<void> {
      await deps.rateLimits.hit('voucher_lookup', ip);
    },

    /** Counts a redemption from a client address before any work, like a look-up (decisions: Rate limits). */
    async countRedeem(ip: string): Promise<void> {
      await deps.rateLimits.hit('voucher_redeem', ip);
    },

    async lookup(auth: AuthInfo, venue: VenueRow, input: string) {
      const code = normaliseVoucherCode(input);
      const row = code ? await voucherByCode(db, venue.operator_id, code) : undefined;
      const { sisterIds, names } = await reachOf(auth, venue);
      const now = clock.now();
      const reason = redemptionCheck(row && stateOf(row), { venueId: venue.id, sisterVenueIds: sisterIds, now });
      if (!row) return { found: false, voucher: null, redeemable: false, reason };
      const redemptions = await redemptionsOf(db, row.id);
      return {
        found: true,
        voucher: { ...toVoucher(row, await nameOf(row, names), now), redemptions: redemptions.map(toRedemption) },
        redeemable: reason === 'ok',
        reason,
      };
    },

    async redeem(auth: AuthInfo, venue: VenueRow, body: RedeemBody) {
      const code = normaliseVoucherCode(body.code);
      const { sisterIds } = await reachOf(auth, venue);
      const note = clearableText(body.note) ?? null;
      return withTransaction(db, async (trx) => {
        // A lost race (the balance moved between reading and spending) is read again and decided again.
        for (let attempt = 0; attempt < 3; attempt++) {
          const now = clock.now();
          const row = code ? await voucherByCode(trx, venue.operator_id, code) : undefined;
          const reason = redemptionCheck(row && stateOf(row), {
            venueId: venue.id,
            sisterVenueIds: sisterIds,
            now,
            amountPence: body.amount_pence,
          });
          if (!row || reason !== 'ok') return redeemAnswer(row, reason, 0, now);
          const amount = redemptionAmount(stateOf(row), body.amount_pence);
          const spent = await spendBalance(trx, row.id, amount, now);
          if (!spent) continue;
          await insertRedemption(trx, {
            id: newId('vrd'),
            voucher_id: row.id,
            venue_id: venue.id,
            amount_pence: amount,
            note,
            redeemed_by: auth.user.id,
            redeemed_by_name: auth.user.name,
            redeemed_at: now.toISOString(),
          });
          await domainEvents.emit(trx, voucherEvent('voucher.redeemed', spent, now, { amount_pence: amount, venue_id: venue.id }));
          await deps.audit.record(trx, {
            action: 'voucher.redeemed',
            entityType: 'voucher',
            entityId: row.id,
            venueId: venue.id,
            before: { remaining_pence: row.remaining_pence, status: row.status },
            after: { remaining_pence: spent.remaining_pence, status: spent.status, redeemed_pence: amount, note },
          });
          return redeemAnswer(spent, 'ok', amount, now);
        }
        throw conflict('The voucher changed while it was being redeemed: try again');
      });
    },

    /** A payment intent for a voucher sold by staff (spec: voucher-intent); a paid POST /vouchers then uses it once. */
    async voucherIntent(venue: VenueRow, amountPence: number) {
      const settings = await venues.settings(venue.id);
      const now = clock.now();
      const id = newId('vpu');
      await insertPurchase(db, {
        id,
        operator_id: venue.operator_id,
        venue_id: venue.id,
        source: 'operator',
        intent_id: null,
        amount_pence: amountPence,
        quantity: 1,
        delivery: 'none',
        recipient_name: null,
        recipient_email: null,
        purchaser_name: null,
        purchaser_email: null,
        message: null,
        expiration_months: settings.expiration_months,
        terms: settings.terms,
        idempotency_key: null,
        request_hash: null,
        status: 'pending',
        fulfilled_at: null,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      });
      const intent = await payments.createIntent({
        amountPence,
        metadata: { kind: 'voucher_purchase', purchase_id: id },
        idempotencyKey: `voucher-purchase-${id}`,
        operatorId: venue.operator_id,
        venueId: venue.id,
        description: `${venue.name}: gift voucher`,
      });
      await attachIntent(db, id, intent.id, now);
      return {
        client_secret: intent.client_secret ?? '',
        intent_id: intent.id,
        publishable_key: payments.publishableKey,
        amount_pence: amountPence,
      };
    },

    async issue(auth: AuthInfo, venue: VenueRow, body: IssueBody) {
      const settings = await venues.settings(venue.id);
      const recipientEmail = clearableText(body.recipient_email) ?? null;
      const request = {
        venue,
        count: 1,
        amountPence: body.amount_pence,
        recipientName: clearableText(body.recipient_name) ?? null,
        recipientEmail,
        message: clearableText(body.message) ?? null,
        expirationMonths: settings.expiration_months,
        terms: settings.terms,
        issuedBy: auth.user.id,
        mail: recipientEmail ? { to: recipientEmail, greet: clearableText(body.recipient_name) ?? null, fromName: null } : null,
      };
      const issued = async (trx: Conn, rows: VoucherRow[]) => {
        for (const row of rows) {
          const { code: _code, ...shown } = row;
          await deps.audit.record(trx, {
            action: 'voucher.issued',
            entityType: 'voucher',
            entityId: row.id,
            venueId: venue.id,
            after: shown,
          });
        }
        return rows;
      };
      const answer = (row: VoucherRow) => ({
        success: true,
        id: row.id,
        code: row.code,
        display_code: toVoucher(row, venue.name, clock.now()).display_code,
        expires_at: row.expires_at,
        emailed: Boolean(row.emailed),
      });

      if (body.mode !== 'paid') {
        const [row] = await withTransaction(db, async (trx) =>
          issued(trx, await issueVouchers(trx, mail, clock.now(), { ...request, mode: 'comp', purchaseId: null })),
        );
        return answer(row);
      }
      const intentId = body.payment_intent_id?.trim();
      if (!intentId) throw badRequest('payment_intent_id is required for a paid voucher');
      const purchase = await purchaseByIntent(db, intentId);
      // Only this venue's own voucher intents: a booking's deposit or a guest's purchase is not one.
      if (!purchase || purchase.venue_id !== venue.id || purchase.source !== 'operator') throw notFound('Payment');
      if (purchase.status === 'fulfilled') throw conflict(PAYMENT_USED);
      const intent = await payments.retrieveIntent(intentId, { operatorId: venue.operator_id, venueId: venue.id });
      if (intent.status !== 'succeeded') throw paymentRequired(`The payment has not succeeded (its status is ${intent.status})`);
      const mismatch = intentMismatch(intent, { intentId: purchase.intent_id, amountPence: body.amount_pence });
      if (mismatch === 'amount') throw badRequest(`amount_pence must be the payment's amount (${intent.amount} pence)`);
      if (mismatch) throw conflict(PAYMENT_MISMATCH_MESSAGE);
      const [row] = await withTransaction(db, async (trx) => {
        if (!(await claimPurchase(trx, purchase.id, clock.now()))) throw conflict(PAYMENT_USED);
        return issued(trx, await issueVouchers(trx, mail, clock.now(), { ...request, mode: 'paid', purchaseId: purchase.id }));
      });
      return answer(row);
    },

    /**
     * Refunds what is left of a paid voucher of this venue to the payer (decisions: Vouchers). The
     * voucher is marked refunded first (so it cannot be spent, nor refunded by a concurrent request,
     * meanwhile), then the provider is asked with a key of this voucher; a refusal gives the balance
     * back, while an unknown outcome (502) keeps the mark: after REFUND_CLAIM_MS a retry takes the
     * claim over and asks the provider again with the same key, which answers the same refund.
     */
    async refund(auth: AuthInfo, venue: VenueRow, id: string) {
      const row = await voucherOfVenue(db, venue.id, id);
      if (!row) throw notFound('Voucher');
      const purchase = row.mode === 'paid' && row.purchase_id ? await purchaseById(db, row.purchase_id) : undefined;
      if (!purchase?.intent_id) throw conflict('Only a paid voucher can be refunded');
      const now = clock.now();
      let claimed: VoucherRow | undefined;
      if (row.status === 'refunded') {
        if (row.refund_id) throw conflict(ALREADY_REFUNDED);
        const stale = row.refunded_at !== null && now.getTime() - new Date(row.refunded_at).getTime() >= REFUND_CLAIM_MS;
        claimed = stale ? await reclaimRefund(db, row.id, row.refunded_at!, now) : undefined;
        if (!claimed) throw conflict(REFUND_IN_PROGRESS);
      } else {
        claimed = await claimRefund(db, row.id, auth.user.id, now);
        if (!claimed) {
          const current = await voucherOfVenue(db, venue.id, id);
          if (current?.status !== 'refunded') throw conflict('Nothing is left on this voucher to refund');
          throw conflict(current.refund_id ? ALREADY_REFUNDED : REFUND_IN_PROGRESS);
        }
      }
      try {
        const refund = await payments.refund(purchase.intent_id, {
          amountPence: claimed.refunded_pence,
          idempotencyKey: `voucher-refund-${row.id}`,
          scope: { operatorId: venue.operator_id, venueId: venue.id },
        });
        await withTransaction(db, async (trx) => {
          await recordRefund(trx, row.id, refund.id, clock.now());
          await deps.audit.record(trx, {
            action: 'voucher.refunded',
            entityType: 'voucher',
            entityId: row.id,
            venueId: venue.id,
            before: { status: row.status, remaining_pence: row.remaining_pence, refund_id: null },
            after: { status: 'refunded', remaining_pence: 0, refunded_pence: claimed.refunded_pence, refund_id: refund.id },
          });
        });
        return { success: true, refunded_pence: claimed.refunded_pence, refund_id: refund.id };
      } catch (error) {
        // A definite refusal gives the balance back; after an unknown outcome (502, or no answer) it stays claimed.
        if (error instanceof AppError && error.status !== 502) await releaseRefund(db, row.id, clock.now());
        throw error;
      }
    },
  };
}

export type VouchersService = ReturnType<typeof createVouchersService>;
