/**
 * The deposit of a public booking after it is made: its payment intent (created once), confirmation when
 * paid (finalize or the provider's event), release when not (finalize, the provider's expiry event, or
 * the expiry job, safe with several instances), and the `booking_deposit` fulfilments.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../../../db/connect.js';
import type { Database } from '../../../db/schema.js';
import { withTransaction, type Conn } from '../../../db/transaction.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import type { Clock } from '../../../platform/clock.js';
import { AppError, conflict, notFound } from '../../../platform/errors.js';
import { intentMismatch, PAYMENT_MISMATCH_MESSAGE, sessionMismatch, type Payments } from '../../payments/index.js';
import { updateBooking } from '../core/booking-writes.js';
import type { bookingMails } from '../core/booking-mail.js';
import { bookingOrThrow, changeStatus, findBooking, type BookingRow } from '../core/booking-store.js';
import { SYSTEM } from '../core/history.js';
import { pruneIdempotencyKeys } from '../core/idempotency.js';

/** What a booking that needs a payment answers: the intent to pay. */
export interface PaymentRequest {
  requires_payment: true;
  payment_client_secret: string;
  booking_id: string;
  payment_intent_id: string;
}

export interface DepositDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  payments: Payments;
  mails: ReturnType<typeof bookingMails>;
  /** A live venue by id (the venues module's), read on `conn`. */
  liveVenue(conn: Conn, venueId: string): Promise<VenueRow | undefined>;
  /** A live venue by id, or 404. */
  venueOrThrow(venueId: string): Promise<VenueRow>;
}

export function createDeposits(deps: DepositDeps) {
  const { db, clock, payments, mails, venueOrThrow } = deps;

  /** The payment intent of a deposit booking: created once (the provider's idempotency key), then reused. */
  async function requestPayment(venue: VenueRow, bookingId: string): Promise<PaymentRequest> {
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
      // Without a payment the table must not stay held: release it now (or, failing that, the expiry sweep
      // releases it when its payment window passes).
      await withTransaction(db, (trx) => release(trx, booking, 'payment_unavailable')).catch((releaseError: unknown) => {
        deps.log.error(
          { err: releaseError, bookingId: booking.id },
          'releasing a deposit booking without a payment failed: the expiry sweep releases it',
        );
      });
      throw error;
    }
    if (booking.payment_intent_id !== intent.id) {
      await updateBooking(db, booking.id, { payment_intent_id: intent.id, updated_at: clock.now().toISOString() });
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
    const booking = await findBooking(db, bookingId);
    if (!booking || booking.venue_id !== venue.id) throw notFound('Booking');
    if (booking.status === 'pending_payment' && booking.payment_intent_id) {
      const intent = await payments.retrieveIntent(booking.payment_intent_id, { operatorId: venue.operator_id, venueId: venue.id });
      if (intent.status === 'succeeded' || intent.status === 'requires_capture') {
        // The booking's own intent, of its deposit in GBP: anything else confirms nothing (and is not released).
        if (intentMismatch(intent, { intentId: booking.payment_intent_id, amountPence: booking.deposit_pence })) {
          deps.log.warn({ bookingId: booking.id, intentId: intent.id }, 'deposit finalize: the payment does not match the booking');
          throw conflict(PAYMENT_MISMATCH_MESSAGE);
        }
        // withTransaction: the confirmation mail queued inside is delivered right after the commit.
        const done = await withTransaction(db, (trx) => confirmPaid(trx, booking.id, intent.status === 'requires_capture', 'finalize'));
        return { ok: true, booking_id: done.id, status: done.status };
      }
      if (intent.status !== 'processing') {
        const released = await withTransaction(db, (trx) => release(trx, booking, 'payment_not_completed'));
        await payments.cancelIntentOrRetry({
          intentId: intent.id,
          idempotencyKey: `booking-release-${booking.id}`,
          scope: { operatorId: venue.operator_id, venueId: venue.id },
          subject: `booking:${booking.id}`,
        });
        return { ok: false, booking_id: released.id, status: released.status };
      }
    }
    const current = await bookingOrThrow(db, booking.id);
    return { ok: current.status !== 'expired' && current.status !== 'cancelled', booking_id: current.id, status: current.status };
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
          await payments.cancelIntentOrRetry({
            intentId: booking.payment_intent_id,
            idempotencyKey: `booking-release-${booking.id}`,
            subject: `booking:${booking.id}`,
          });
        }
      } catch (error) {
        if (!(error instanceof AppError && error.status === 409))
          deps.log.error({ err: error, bookingId: booking.id }, 'releasing an unpaid booking failed');
      }
    }
    // Cancels of released bookings' intents that failed are tried again on the same beat, and answers to
    // Idempotency-Keys past their 24 hours go with the same sweep.
    await payments.retryIntentCancels();
    await pruneIdempotencyKeys(db, now);
    return released;
  }

  /** The `booking_deposit` fulfilments (decisions: Inbound payment webhook). */
  function registerFulfilments() {
    payments.fulfilments.register('booking_deposit', {
      completed: async (trx, session, event) => {
        const id = session.metadata.booking_id;
        const booking = id ? await findBooking(trx, id) : undefined;
        if (!booking) return 'ignored';
        // Only the booking's own intent, of its whole deposit in GBP, confirms it.
        const mismatch = sessionMismatch(session, { intentId: booking.payment_intent_id, amountPence: booking.deposit_pence });
        if (mismatch) {
          deps.log.warn(
            { eventId: event.id, sessionId: session.id, bookingId: booking.id, mismatch },
            'booking_deposit session does not match',
          );
          return 'ignored';
        }
        await confirmPaid(trx, booking.id, false, 'webhook');
      },
      expired: async (trx, session) => {
        const id = session.metadata.booking_id;
        const booking = id ? await trx.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirst() : undefined;
        if (!booking) return 'ignored';
        await release(trx, booking, 'checkout_expired');
      },
    });
  }

  return { requestPayment, finalize, expireUnpaid, registerFulfilments };
}

export type Deposits = ReturnType<typeof createDeposits>;
