/**
 * Card holds on the staff floor: capture (all or part), release, and asking the guest for one. The
 * provider is the truth: a hold the guest authorised is `held` from then on, and a provider 409 on a
 * capture or release means another request got there first, whose outcome is recorded instead. Calls to
 * the provider happen outside the booking's transaction, under an idempotency key per intent, so a
 * retry never moves money twice; the outcome is then recorded once, with its history, by `update`.
 */
import { isActive, refusedMoveMessage } from '../../../domain/booking-status.js';
import type { Db } from '../../../db/connect.js';
import type { AuthInfo, VenueRow } from '../../../platform/auth-guard.js';
import type { Clock } from '../../../platform/clock.js';
import { AppError, badRequest, conflict } from '../../../platform/errors.js';
import type { Payments } from '../../payments/index.js';
import { updateBooking } from '../core/booking-writes.js';
import { bookingOrThrow, type BookingRow, type Change } from '../core/booking-store.js';
import type { BookingChanged } from './bookings.schemas.js';
import { recordHistory } from '../core/history.js';

/** Payment states in which a booking already holds or took money: no new hold may be requested. */
const MONEY_TAKEN = ['held', 'paid', 'captured', 'partially_refunded'];
/** Intent states in which the guest has not yet given a card. */
const AWAITING_CARD = ['requires_payment_method', 'requires_confirmation', 'requires_action'];

export interface HoldDeps {
  db: Db;
  clock: Clock;
  payments: Payments;
  /** The staff service's serialised change of one booking. */
  update(auth: AuthInfo, id: string, change: Change): Promise<BookingChanged>;
  reachableBooking(auth: AuthInfo, id: string): Promise<{ booking: BookingRow; venue: VenueRow }>;
  changed(booking: BookingRow, venue: VenueRow): Promise<BookingChanged>;
  scopeOf(booking: BookingRow): { operatorId: string; venueId: string };
}

export function createHoldActions(deps: HoldDeps) {
  const { db, clock, payments, update, reachableBooking, changed, scopeOf } = deps;

  /**
   * A booking whose hold was requested is `requires_payment` until the guest's card is authorised; the
   * provider is the truth: an authorised intent is a hold (`held`) from then on.
   */
  async function syncHold(booking: BookingRow): Promise<BookingRow> {
    if (booking.payment_status !== 'requires_payment' || booking.deposit_type !== 'hold' || !booking.payment_intent_id) return booking;
    const intent = await payments.retrieveIntent(booking.payment_intent_id, scopeOf(booking));
    if (intent.status !== 'requires_capture') return booking;
    await updateBooking(
      db,
      booking.id,
      { payment_status: 'held', updated_at: clock.now().toISOString() },
      { payment_status: 'requires_payment', payment_intent_id: intent.id },
    );
    return bookingOrThrow(db, booking.id);
  }

  const HOLD_RELEASED = 'This hold was released: it cannot be captured';
  const HOLD_CAPTURED = 'This hold was captured: it cannot be released';

  const OPPOSITE = { captured: { status: 'released', message: HOLD_RELEASED }, released: { status: 'captured', message: HOLD_CAPTURED } };

  /**
   * Records the outcome of a capture or release once (a retry finds it recorded and answers the same);
   * 409 when the booking's hold already went the other way.
   */
  function settleHold(auth: AuthInfo, id: string, outcome: { payment_status: 'captured' | 'released'; captured_pence?: number }) {
    return update(auth, id, async (trx, booking, { actor, now }) => {
      if (booking.payment_status === outcome.payment_status) return;
      const opposite = OPPOSITE[outcome.payment_status];
      if (booking.payment_status === opposite.status) throw conflict(opposite.message, { payment_status: booking.payment_status });
      await updateBooking(trx, booking.id, { ...outcome, updated_at: now.toISOString() });
      const detail = {
        payment_intent_id: booking.payment_intent_id,
        ...(outcome.captured_pence !== undefined ? { captured_pence: outcome.captured_pence } : {}),
      };
      await recordHistory(
        trx,
        booking.id,
        actor,
        { action: outcome.payment_status === 'captured' ? 'hold_capture' : 'hold_release', detail },
        now,
      );
    });
  }

  /** A provider 409 on a capture or release: another request got there first; what did it do? */
  async function providerOutcome(booking: BookingRow, error: unknown) {
    if (!(error instanceof AppError) || error.status !== 409) throw error;
    const intent = await payments.retrieveIntent(booking.payment_intent_id!, scopeOf(booking));
    if (intent.status === 'succeeded') return { payment_status: 'captured' as const, captured_pence: intent.amount_received };
    if (intent.status === 'canceled') return { payment_status: 'released' as const };
    throw error;
  }

  return {
    /** Captures a card hold, all of it or `amountPence`; a retry of a capture answers the same. */
    async captureHold(auth: AuthInfo, id: string, amountPence?: number) {
      const { booking: found, venue } = await reachableBooking(auth, id);
      const booking = await syncHold(found);
      if (booking.payment_status === 'captured') return changed(booking, venue);
      if (booking.payment_status === 'released') throw conflict(HOLD_RELEASED, { payment_status: 'released' });
      if (booking.payment_status !== 'held' || !booking.payment_intent_id) {
        throw conflict('This booking has no authorised card hold to capture', { payment_status: booking.payment_status });
      }
      if (amountPence !== undefined && booking.deposit_pence > 0 && amountPence > booking.deposit_pence) {
        throw badRequest(`amount_pence must be at most the hold of ${booking.deposit_pence}`);
      }
      let outcome;
      try {
        const intent = await payments.captureIntent(booking.payment_intent_id, {
          amountPence,
          idempotencyKey: `booking-hold-capture:${booking.payment_intent_id}`,
          scope: scopeOf(booking),
        });
        outcome = { payment_status: 'captured' as const, captured_pence: intent.amount_received };
      } catch (error) {
        outcome = await providerOutcome(booking, error);
      }
      if (outcome.payment_status === 'released') {
        await settleHold(auth, id, outcome);
        throw conflict(HOLD_RELEASED, { payment_status: 'released' });
      }
      return settleHold(auth, id, outcome);
    },

    /** Releases a card hold (or abandons one the guest has not authorised yet); a retry answers the same. */
    async releaseHold(auth: AuthInfo, id: string) {
      const { booking: found, venue } = await reachableBooking(auth, id);
      const booking = await syncHold(found);
      if (booking.payment_status === 'released') return changed(booking, venue);
      if (booking.payment_status === 'captured') throw conflict(HOLD_CAPTURED, { payment_status: 'captured' });
      const releasable =
        booking.payment_status === 'held' || (booking.payment_status === 'requires_payment' && booking.deposit_type === 'hold');
      if (!releasable || !booking.payment_intent_id) {
        throw conflict('This booking has no card hold to release', { payment_status: booking.payment_status });
      }
      let outcome;
      try {
        await payments.cancelIntent(booking.payment_intent_id, {
          idempotencyKey: `booking-hold-release:${booking.payment_intent_id}`,
          scope: scopeOf(booking),
        });
        outcome = { payment_status: 'released' as const };
      } catch (error) {
        outcome = await providerOutcome(booking, error);
      }
      if (outcome.payment_status === 'captured') {
        await settleHold(auth, id, outcome);
        throw conflict(HOLD_CAPTURED, { payment_status: 'captured' });
      }
      return settleHold(auth, id, outcome);
    },

    /**
     * Asks the guest for a card hold: a new manual-capture intent for the booking (or, on a retry, the
     * one still waiting for a card with the same amount). 409 when the booking already holds or took money.
     */
    async requestHold(auth: AuthInfo, id: string, amount?: number) {
      const { booking: found, venue } = await reachableBooking(auth, id);
      const booking = await syncHold(found);
      if (!isActive(booking.status)) throw conflict(refusedMoveMessage(booking.status, 'given a card hold'), { status: booking.status });
      if (MONEY_TAKEN.includes(booking.payment_status)) {
        throw conflict('This booking already has a card hold or payment', { payment_status: booking.payment_status });
      }
      const amountPence = amount ?? (booking.deposit_pence >= 50 ? booking.deposit_pence : undefined);
      if (amountPence === undefined) throw badRequest('amount_pence is required: the booking has no deposit amount');
      const scope = scopeOf(booking);
      const waiting = booking.payment_status === 'requires_payment' && booking.payment_intent_id ? booking.payment_intent_id : null;
      if (waiting) {
        const intent = await payments.retrieveIntent(waiting, scope);
        if (AWAITING_CARD.includes(intent.status) && intent.amount === amountPence && intent.capture_method === 'manual') {
          return { payment_client_secret: intent.client_secret!, payment_intent_id: intent.id };
        }
        // The earlier hold the guest never authorised is abandoned (a failed cancel is retried by the sweep).
        if (AWAITING_CARD.includes(intent.status)) {
          await payments.cancelIntentOrRetry({
            intentId: waiting,
            idempotencyKey: `booking-hold-abandon:${waiting}`,
            scope,
            subject: `booking:${id}`,
          });
        }
      }
      const intent = await payments.createIntent({
        operatorId: booking.operator_id,
        venueId: booking.venue_id,
        amountPence,
        capture: 'manual',
        metadata: { kind: 'booking_hold', booking_id: booking.id },
        description: `Card hold for a booking at ${venue.name}`,
      });
      await update(auth, id, async (trx, current, { actor, now }) => {
        if (MONEY_TAKEN.includes(current.payment_status)) {
          throw conflict('This booking already has a card hold or payment', { payment_status: current.payment_status });
        }
        await updateBooking(trx, current.id, {
          deposit_type: 'hold',
          deposit_pence: amountPence,
          payment_intent_id: intent.id,
          payment_status: 'requires_payment',
          updated_at: now.toISOString(),
        });
        await recordHistory(
          trx,
          current.id,
          actor,
          { action: 'hold_request', detail: { payment_intent_id: intent.id, amount_pence: amountPence } },
          now,
        );
      });
      return { payment_client_secret: intent.client_secret!, payment_intent_id: intent.id };
    },
  };
}
