/**
 * The deposit (or card hold) of a public booking, as one flow of the payment lifecycle
 * (payments/checkout.ts): its intent asked once, the booking confirmed when paid (finalize or the
 * provider's event), released when not (finalize on a failed payment, the provider's expiry event, or the
 * expiry sweep, safe with several instances), and the `booking_deposit` fulfilments.
 */
import type { Logger } from 'pino';
import type { Db } from '../../../db/connect.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import type { Clock } from '../../../platform/clock.js';
import { AppError, conflict, notFound } from '../../../platform/errors.js';
import type { CheckoutSpec, Payments } from '../../payments/index.js';
import { updateBooking } from '../core/booking-writes.js';
import type { bookingMails } from '../core/booking-mail.js';
import { confirmPaidBooking, payableBooking, releaseUnpaidBooking } from '../core/booking-payment.js';
import { bookingOrThrow, findBooking, type BookingRow } from '../core/booking-store.js';
import { pruneIdempotencyKeys } from '../core/idempotency.js';
import type { Conn } from '../../../db/transaction.js';

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

  /** A booking paid before it counts, whatever its kind: the expiry sweep releases event bookings too. */
  const deposit: CheckoutSpec<BookingRow> = {
    kind: 'booking_deposit',
    keys: { ask: (id) => `booking-deposit-${id}`, release: (id) => `booking-release-${id}` },
    subject: (id) => `booking:${id}`,
    view: payableBooking,
    fromSession: (conn, session) =>
      session.metadata.booking_id ? findBooking(conn, session.metadata.booking_id) : Promise.resolve(undefined),
    intent: (booking) => ({
      capture: booking.deposit_type === 'hold' ? 'manual' : 'automatic',
      metadata: { kind: 'booking_deposit', booking_id: booking.id },
    }),
    async attachIntent(conn, id, intentId) {
      await updateBooking(conn, id, { payment_intent_id: intentId, updated_at: clock.now().toISOString() });
    },
    async confirm(trx, id, paid) {
      const confirmed = await confirmPaidBooking(trx, id, paid, clock.now());
      const venue = confirmed && (await deps.liveVenue(trx, confirmed.venue_id));
      if (confirmed && venue) await mails.confirmation(trx, venue, confirmed);
    },
    release: async (trx, id, why) => (await releaseUnpaidBooking(trx, id, why, clock.now())) !== undefined,
    // The spec's state table: a venue booking whose payment did not complete is released at finalize.
    whenUnpaid: 'release',
  };
  const checkout = payments.checkout(deposit);

  /** The payment intent of a deposit booking: created once (the provider's idempotency key), then reused. */
  async function requestPayment(venue: VenueRow, bookingId: string): Promise<PaymentRequest> {
    const booking = await bookingOrThrow(db, bookingId);
    if (booking.status !== 'pending_payment') throw conflict(`This booking is ${booking.status.replace('_', ' ')}`);
    const intent = await checkout.ask(booking, `${venue.name}: ${booking.booking_date} ${booking.start_time ?? ''}`.trim());
    return {
      requires_payment: true,
      payment_client_secret: intent.client_secret ?? '',
      booking_id: booking.id,
      payment_intent_id: intent.id,
    };
  }

  async function finalize(venueId: string, bookingId: string) {
    const venue = await venueOrThrow(venueId);
    const booking = await findBooking(db, bookingId);
    if (!booking || booking.venue_id !== venue.id) throw notFound('Booking');
    await checkout.finalize(booking);
    const current = await bookingOrThrow(db, booking.id);
    return { ok: current.status !== 'expired' && current.status !== 'cancelled', booking_id: current.id, status: current.status };
  }

  /** Releases bookings (deposits and tickets) whose payment window has passed; safe with several instances (conditional updates). */
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
        if (await checkout.release(booking, 'payment_window_passed')) released += 1;
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

  return { requestPayment, finalize, expireUnpaid, registerFulfilments: checkout.registerFulfilments };
}

export type Deposits = ReturnType<typeof createDeposits>;
