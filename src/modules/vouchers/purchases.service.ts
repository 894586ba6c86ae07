/**
 * Guests buying gift vouchers through the vouchers widget (spec: Public widget endpoints): one payment
 * intent for amount × quantity within the venue's settings, then the vouchers issued once the payment
 * succeeded, by whichever comes first of `finalize` and the provider's `voucher_purchase` event. Both
 * claim the purchase with one conditional update (`pending` → `fulfilled`) in the transaction that
 * issues its vouchers, so they are issued exactly once and every finalize answers the same codes.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import type { VenueRow } from '../../platform/auth-guard.js';
import type { BotCheck } from '../../platform/bot-check.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { clearableText } from '../../platform/text.js';
import type { CheckoutSpec } from '../payments/index.js';
import { issueVouchers } from './voucher-issue.js';
import { voucherReceiptMail } from './voucher-mail.js';
import { rosterVoucherGuests } from './guest-reads.js';
import { toIssued } from './voucher-views.js';
import {
  attachIntent,
  claimPurchase,
  insertPurchase,
  purchaseByIntent,
  purchaseById,
  purchaseByKey,
  vouchersOfPurchase,
  type PurchaseRow,
  type VoucherRow,
} from './vouchers.repository.js';
import type { PurchaseBody, VoucherSettings } from './vouchers.schemas.js';
import type { VouchersDeps } from './vouchers.service.js';

export const IDEMPOTENCY_MISMATCH = 'This Idempotency-Key was used with a different request';
const money = (pence: number) => `£${(pence / 100).toFixed(2)}`;

/** JSON with sorted keys (the body is flat), so the same request always hashes alike. */
const requestHash = (body: Record<string, unknown>) =>
  createHash('sha256')
    .update(JSON.stringify(Object.entries(body).sort(([a], [b]) => (a < b ? -1 : 1))))
    .digest('hex');

/** 400 unless the venue sells this purchase (spec "Voucher settings"). */
export function checkPurchase(settings: VoucherSettings, body: PurchaseBody): void {
  if (!settings.enabled) throw badRequest('Gift vouchers are not on sale at this venue');
  const fixed = settings.fixed_amounts ?? [];
  const custom = settings.allow_custom && body.amount_pence >= settings.min_amount_pence && body.amount_pence <= settings.max_amount_pence;
  if (!fixed.includes(body.amount_pence) && !custom) {
    const options = [
      ...(fixed.length ? [`one of ${fixed.map(money).join(', ')}`] : []),
      ...(settings.allow_custom ? [`between ${money(settings.min_amount_pence)} and ${money(settings.max_amount_pence)}`] : []),
    ];
    throw badRequest(`amount_pence must be ${options.join(', or ')}`);
  }
  if (body.quantity < settings.min_qty || body.quantity > settings.max_qty) {
    throw badRequest(`quantity must be between ${settings.min_qty} and ${settings.max_qty}`);
  }
  if (body.delivery === 'email' && !clearableText(body.recipient_email)) {
    throw badRequest('recipient_email is required when delivery is email');
  }
}

export function createVoucherPurchases(deps: VouchersDeps & { botCheck: BotCheck; log: Logger }) {
  const { db, clock, mail, payments, venues } = deps;

  /** The purchase an `Idempotency-Key` already names (409 for another body), else a new one. */
  async function openPurchase(venue: VenueRow, settings: VoucherSettings, body: PurchaseBody, key: string | undefined) {
    const { turnstile_token: _token, ...keyed } = body;
    const hash = requestHash(keyed);
    const earlier = async () => {
      const row = key ? await purchaseByKey(db, venue.id, key) : undefined;
      if (row && row.request_hash !== hash) throw conflict(IDEMPOTENCY_MISMATCH);
      return row;
    };
    const existing = await earlier();
    if (existing) return existing;
    const at = clock.now().toISOString();
    const row: PurchaseRow = {
      id: newId('vpu'),
      operator_id: venue.operator_id,
      venue_id: venue.id,
      source: 'public',
      intent_id: null,
      amount_pence: body.amount_pence,
      quantity: body.quantity,
      delivery: body.delivery,
      recipient_name: clearableText(body.recipient_name) ?? null,
      recipient_email: clearableText(body.recipient_email) ?? null,
      purchaser_name: body.purchaser_name.trim(),
      purchaser_email: body.purchaser_email.trim(),
      message: clearableText(body.message) ?? null,
      expiration_months: settings.expiration_months,
      terms: settings.terms,
      idempotency_key: key ?? null,
      request_hash: key ? hash : null,
      status: 'pending',
      fulfilled_at: null,
      created_at: at,
      updated_at: at,
    };
    try {
      await insertPurchase(db, row);
      return row;
    } catch (error) {
      // A concurrent request with the same key inserted first: answer as it does.
      const winner = key && isUniqueViolation(error) ? await earlier() : undefined;
      if (!winner) throw error;
      return winner;
    }
  }

  /** Issues a purchase's vouchers once (the caller's transaction); afterwards, the same vouchers. */
  async function fulfil(trx: Kysely<Database>, purchase: PurchaseRow): Promise<VoucherRow[]> {
    const now = clock.now();
    if (!(await claimPurchase(trx, purchase.id, now))) return vouchersOfPurchase(trx, purchase.id);
    const venue = await venues.findVenue(trx, purchase.operator_id, purchase.venue_id);
    if (!venue) throw notFound('Venue');
    const toRecipient = purchase.delivery === 'email';
    const to = toRecipient ? purchase.recipient_email : purchase.purchaser_email;
    // The purchaser joins the operator's guest roster too (the recipient does as the vouchers are issued).
    await rosterVoucherGuests(trx, venue, [{ name: purchase.purchaser_name, email: purchase.purchaser_email }], now);
    const issued = await issueVouchers(trx, mail, now, {
      venue,
      count: purchase.quantity,
      amountPence: purchase.amount_pence,
      mode: 'paid',
      purchaseId: purchase.id,
      recipientName: purchase.recipient_name,
      recipientEmail: purchase.recipient_email,
      message: purchase.message,
      expirationMonths: purchase.expiration_months,
      terms: purchase.terms,
      issuedBy: null,
      mail: to
        ? {
            to,
            greet: toRecipient ? purchase.recipient_name : purchase.purchaser_name,
            fromName: toRecipient ? purchase.purchaser_name : null,
          }
        : null,
    });
    // The buyer of vouchers sent to someone else gets a receipt (the vouchers' own mail is the recipient's).
    if (toRecipient && purchase.recipient_email && purchase.purchaser_email && issued.length > 0) {
      await mail.queue(
        trx,
        voucherReceiptMail({
          to: purchase.purchaser_email,
          venue: { name: venue.name, email: venue.email, timezone: venue.timezone },
          buyerName: purchase.purchaser_name ?? 'there',
          recipient: { name: purchase.recipient_name, email: purchase.recipient_email },
          vouchers: issued,
          paidAt: now,
        }),
      );
    }
    return issued;
  }

  /** A purchase as one flow of the payment lifecycle (payments/checkout.ts): it holds nothing, so nothing is released. */
  const purchases: CheckoutSpec<PurchaseRow> = {
    kind: 'voucher_purchase',
    keys: { ask: (id) => `voucher-purchase-${id}`, release: (id) => `voucher-purchase-release-${id}` },
    subject: (id) => `voucher purchase:${id}`,
    view: (purchase) => ({
      id: purchase.id,
      operatorId: purchase.operator_id,
      venueId: purchase.venue_id,
      intentId: purchase.intent_id,
      amountPence: purchase.amount_pence * purchase.quantity,
      awaitingPayment: purchase.status === 'pending',
    }),
    async fromSession(conn, session) {
      const intentId = session.metadata.intent_id || session.payment_intent;
      const purchase = intentId ? await purchaseByIntent(conn, intentId) : undefined;
      return purchase?.source === 'public' ? purchase : undefined;
    },
    intent: (purchase) => ({ metadata: { kind: 'voucher_purchase', purchase_id: purchase.id } }),
    attachIntent: (conn, id, intentId) => attachIntent(conn, id, intentId, clock.now()),
    async confirm(trx, id) {
      const purchase = await purchaseById(trx, id);
      if (purchase) await fulfil(trx, purchase);
    },
    whenUnpaid: 'keep',
  };
  const checkout = deps.payments.checkout(purchases);

  const answer = (purchase: PurchaseRow, vouchers: VoucherRow[], paymentStatus: string) => ({
    success: vouchers.length > 0,
    delivery: purchase.delivery,
    vouchers: vouchers.map(toIssued),
    payment_status: paymentStatus,
  });

  return {
    /** Counts an attempt from a client address before the body is read (decisions: Rate limits). */
    async countAttempt(ip: string): Promise<void> {
      await deps.rateLimits.hit('public_booking', ip);
    },

    async createIntent(body: PurchaseBody, request: { ip: string; idempotencyKey?: string }) {
      await deps.botCheck.verify(body.turnstile_token, request.ip);
      const venue = await venues.liveVenue(db, body.venue_id);
      if (!venue) throw notFound('Venue');
      const settings = await venues.settings(venue.id);
      checkPurchase(settings, body);
      const purchase = await openPurchase(venue, settings, body, request.idempotencyKey);
      // The same purchase always gets the same intent (a retry with the Idempotency-Key included).
      const intent = await checkout.ask(purchase, `${venue.name}: ${purchase.quantity} × ${money(purchase.amount_pence)} gift voucher`);
      return {
        intent_id: intent.id,
        client_secret: intent.client_secret ?? '',
        amount_pence: purchase.amount_pence * purchase.quantity,
        publishable_key: payments.publishableKey,
      };
    },

    /** Issues the vouchers of a paid purchase, or answers those issued already; `success: false` while unpaid. */
    async finalize(intentId: string) {
      const purchase = await purchaseByIntent(db, intentId);
      if (!purchase || purchase.source !== 'public') throw notFound('Voucher purchase');
      if (purchase.status === 'fulfilled') return answer(purchase, await vouchersOfPurchase(db, purchase.id), 'succeeded');
      const status = await checkout.finalize(purchase);
      // null: nothing awaited payment any more (issued meanwhile).
      return answer(purchase, await vouchersOfPurchase(db, purchase.id), status ?? 'succeeded');
    },

    /** `voucher_purchase` (metadata `intent_id`): the purchased vouchers are issued (decisions: Inbound payment webhook). */
    registerFulfilments: checkout.registerFulfilments,
  };
}

export type VoucherPurchases = ReturnType<typeof createVoucherPurchases>;
