/**
 * Guest self-service through the signed manage link in the booking mail (CONTRACT §5, an extension):
 * the booking as its guest may see it, and cancelling it under the booking's payment policy.
 *
 * The link's token only proves that we issued it for that booking (domain/booking-tokens); whether the
 * booking may still be cancelled, and what is refunded, is decided here from its status, its payment
 * policy (profiles' `paymentPolicyTerms`, or PAYMENT_POLICY_DEFAULTS without one) and the clock.
 *
 * Cancelling follows the staff cancel: money first, outside the transaction (the simulated provider
 * writes to the same database), under an idempotency key per booking, so a repeat or a concurrent
 * cancel never refunds twice; then, in one transaction serialised with every other change to the
 * booking, the status move (conditional, freeing its slots), its history and the guest's notice. A
 * booking already cancelled answers as it is, and nothing moves.
 */
import type { TextMessages } from '../../../platform/sms/sms.js';
import { peopleInstant } from '../../../domain/people-dates.js';
import type { Logger } from 'pino';
import { canMove, refusedMoveMessage } from '../../../domain/booking-status.js';
import { manageLinkExpiry, signManageToken, verifyManageToken } from '../../../domain/booking-tokens/index.js';
import {
  cancellationOutcome,
  PAYMENT_POLICY_DEFAULTS,
  refundDue,
  type BookingStart,
  type PaymentPolicyTerms,
} from '../../../domain/payment-policy.js';
import type { Db } from '../../../db/connect.js';
import { lockKey, withTransaction, type Conn } from '../../../db/transaction.js';
import type { VenueRow } from '../../../platform/auth-guard.js';
import type { Clock } from '../../../platform/clock.js';
import { badRequest, conflict, notFound } from '../../../platform/errors.js';
import type { Mail } from '../../../platform/mail/mail.js';
import type { RateLimits } from '../../../platform/rate-limit.js';
import type { Payments } from '../../payments/index.js';
import { paymentPolicyTerms } from '../../profiles/index.js';
import { updateBooking } from '../core/booking-writes.js';
import { bookingMails } from '../core/booking-mail.js';
import { bookingOrThrow, changeStatus, findBooking, type BookingRow } from '../core/booking-store.js';
import type { DoorKeys } from '../core/door-keys.js';
import type { Actor } from '../core/history.js';

/** One answer for every token we cannot accept (malformed, forged, expired): no oracle for a forger. */
export const BAD_MANAGE_LINK_MESSAGE = 'This booking link is not valid or has expired';

/** Payment states in which the guest's money was taken (a paid deposit or a captured hold). */
const MONEY_TAKEN = ['paid', 'captured', 'partially_refunded', 'refunded'];
/** Intent states that a cancel releases or abandons (an authorised hold, or a payment never completed). */

export interface ManageDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  payments: Payments;
  mail: Mail;
  rateLimits: RateLimits;
  doorKeys: Pick<DoorKeys, 'manageSecret'>;
  publicBaseUrl: string;
  /** Text messages (platform/sms): confirmation and cancellation texts to guests who agreed to them. */
  sms?: TextMessages;
  /** The booking's venue (the venues module's), whatever its status: a guest keeps reaching a venue that pauses. */
  findVenue(conn: Conn, operatorId: string, venueId: string): Promise<VenueRow | undefined>;
  /** The venue's theme stylesheet and logo, so the manage page looks like its widgets. */
  venueLook(venue: VenueRow): Promise<{ theme_url: string | null; logo_url: string | null }>;
}

/** Why a booking cannot be cancelled now (null: it can). */
export type CancelRefusal = 'status' | 'never' | 'past_cutoff' | 'started';

export interface ManagedBooking {
  booking_id: string;
  reference: string | null;
  status: string;
  venue: {
    id: string;
    name: string;
    address: string;
    timezone: string;
    phone: string | null;
    email: string | null;
    theme_url: string | null;
    logo_url: string | null;
  };
  date: string;
  time: string | null;
  party_size: number;
  duration_minutes: number | null;
  starts_at: string | null;
  ends_at: string | null;
  guest_name: string | null;
  cancelled_at: string | null;
  payment: {
    deposit_type: string;
    deposit_pence: number;
    payment_status: string;
    paid_pence: number;
    refunded_pence: number;
  };
  cancellation: {
    can_cancel: boolean;
    refusal: CancelRefusal | null;
    message: string | null;
    cancellable_until: string | null;
    refund_pence: number;
    hold_release_pence: number;
    policy: Omit<PaymentPolicyTerms, 'deposit_type'>;
  };
}

export interface CancelAnswer {
  success: true;
  booking_id: string;
  status: 'cancelled';
  refunded_pence: number;
}

/** What the guest paid and the provider kept: a paid deposit, or what a hold captured. */
function paidPence(booking: BookingRow): number {
  if (!MONEY_TAKEN.includes(booking.payment_status)) return 0;
  return booking.captured_pence > 0 ? booking.captured_pence : booking.deposit_pence;
}

/** A card hold that is (or is about to be) authorised and not captured: cancelling releases it. */
const holdsCard = (booking: BookingRow) =>
  booking.deposit_type === 'hold' && (booking.payment_status === 'held' || booking.payment_status === 'requires_payment');

/** True when `payment` (what this request gave back) is not yet on the booking's row. */
const unrecorded = (row: BookingRow, payment: Partial<BookingRow>) =>
  (payment.refunded_pence !== undefined && row.refunded_pence < payment.refunded_pence) ||
  (payment.payment_status === 'released' && row.payment_status !== 'released');

/** An instant for people on the venue's clock, naming the zone ("Thursday, 18 June 2026 at 19:00 (Europe/London)"). */
const inVenueTime = (instant: Date, venue: VenueRow) => `${peopleInstant(instant, venue.timezone)} (${venue.timezone})`;

export function createManageBookings(deps: ManageDeps) {
  const { db, clock, payments, log } = deps;
  const mails = bookingMails({ mail: deps.mail, doorKeys: deps.doorKeys, publicBaseUrl: deps.publicBaseUrl, sms: deps.sms });

  /** The booking a token names, with its venue; 400 for any token we cannot accept, 404 when the booking is gone. */
  async function open(token: string, now: Date): Promise<{ booking: BookingRow; venue: VenueRow }> {
    const verified = verifyManageToken(token, await deps.doorKeys.manageSecret(db), now);
    if (!verified.ok) throw badRequest(BAD_MANAGE_LINK_MESSAGE);
    const booking = await findBooking(db, verified.bookingId);
    const venue = booking ? await deps.findVenue(db, booking.operator_id, booking.venue_id) : undefined;
    if (!booking || !venue) throw notFound('Booking');
    return { booking, venue };
  }

  async function policyOf(conn: Conn, booking: BookingRow): Promise<PaymentPolicyTerms> {
    if (!booking.payment_policy_id) return PAYMENT_POLICY_DEFAULTS;
    return (await paymentPolicyTerms(conn, booking.venue_id, booking.payment_policy_id)) ?? PAYMENT_POLICY_DEFAULTS;
  }

  /**
   * Whether the guest may cancel now, until when, and the refund it would make. Beyond the policy, a
   * booking that has started can no longer be cancelled (a guest could otherwise skip the visit and
   * cancel for a refund afterwards); a policy cutoff is always at or before the start.
   */
  function assess(booking: BookingRow, venue: VenueRow, policy: PaymentPolicyTerms, now: Date, paid: number) {
    const start: BookingStart = { date: booking.booking_date, time: booking.start_time ?? '00:00', timezone: venue.timezone };
    const startsAt = booking.starts_at ? new Date(booking.starts_at) : null;
    const outcome = cancellationOutcome(policy, start, now, paid);
    const until = policy.cancel_type === 'never' ? null : (outcome.deadline ?? startsAt);
    const refund = Math.max(0, outcome.refund_pence - booking.refunded_pence);
    const refused = (refusal: CancelRefusal, message: string) => ({ allowed: false as const, refusal, message, until, refund: 0 });
    if (!canMove(booking.status, 'cancelled')) return refused('status', refusedMoveMessage(booking.status, 'cancelled'));
    if (!outcome.allowed && outcome.reason === 'never')
      return refused('never', `${venue.name}'s policy does not allow this booking to be cancelled online: please contact the venue`);
    if (!outcome.allowed)
      return refused('past_cutoff', `This booking could be cancelled until ${inVenueTime(outcome.deadline!, venue)}: that time has passed`);
    if (startsAt && now > startsAt) return refused('started', 'This booking has already started: it can no longer be cancelled');
    return { allowed: true as const, refusal: null, message: null, until, refund };
  }

  /**
   * Gives back what the booking holds, per the policy, before the cancellation is written: a card hold
   * (or a payment never completed) is released, a payment taken is refunded by the policy's share less
   * what was refunded already (payments/checkout.ts). Its idempotency keys make a repeat, or a concurrent
   * cancel of the same booking, the same single refund or release.
   */
  const giveBack = (booking: BookingRow, policy: PaymentPolicyTerms) =>
    payments.giveBack({
      intentId: booking.payment_intent_id,
      scope: { operatorId: booking.operator_id, venueId: booking.venue_id },
      subject: `booking:${booking.id}`,
      keys: { release: `booking-guest-cancel-release:${booking.id}`, refund: `booking-guest-cancel-refund:${booking.id}` },
      paymentStatus: booking.payment_status,
      refundedPence: booking.refunded_pence,
      refundable: (received) => refundDue(policy, received),
      reason: 'Cancelled by the guest',
      onReleaseFailure: 'throw',
    });

  const answer = (booking: BookingRow): CancelAnswer => ({
    success: true,
    booking_id: booking.id,
    status: 'cancelled',
    refunded_pence: booking.refunded_pence,
  });

  return {
    /**
     * The manage token of a booking (the mail's link carries the same), for the guest's own account: its
     * app reads and cancels the booking through the manage API with it (docs/account.md).
     */
    async tokenFor(booking: { id: string; starts_at: string | null; booking_date: string }): Promise<string> {
      const startsAt = booking.starts_at ? new Date(booking.starts_at) : new Date(`${booking.booking_date}T23:59:00Z`);
      return signManageToken({ bookingId: booking.id, expiresAt: manageLinkExpiry(startsAt) }, await deps.doorKeys.manageSecret(db));
    },

    /** The booking as its guest may see it: no contact details, tables, notes or history. */
    async view(token: string, request: { ip: string }): Promise<ManagedBooking> {
      await deps.rateLimits.hit('public_booking', request.ip);
      const now = clock.now();
      const { booking, venue } = await open(token, now);
      const policy = await policyOf(db, booking);
      const paid = paidPence(booking);
      const check = assess(booking, venue, policy, now, paid);
      const { deposit_type: _deposit, ...terms } = policy;
      return {
        booking_id: booking.id,
        reference: booking.reference,
        status: booking.status,
        venue: {
          id: venue.id,
          name: venue.name,
          address: venue.address,
          timezone: venue.timezone,
          phone: venue.phone,
          email: venue.email,
          ...(await deps.venueLook(venue)),
        },
        date: booking.booking_date,
        time: booking.start_time,
        party_size: booking.guest_count,
        duration_minutes: booking.duration_minutes,
        starts_at: booking.starts_at,
        ends_at: booking.ends_at,
        guest_name: booking.guest_name,
        cancelled_at: booking.cancelled_at,
        payment: {
          deposit_type: booking.deposit_type,
          deposit_pence: booking.deposit_pence,
          payment_status: booking.payment_status,
          paid_pence: paid,
          refunded_pence: booking.refunded_pence,
        },
        cancellation: {
          can_cancel: check.allowed,
          refusal: check.refusal,
          message: check.message,
          cancellable_until: check.until ? check.until.toISOString() : null,
          refund_pence: check.refund,
          hold_release_pence: check.allowed && holdsCard(booking) ? booking.deposit_pence : 0,
          policy: terms,
        },
      };
    },

    /**
     * Cancels the booking the token names, per its payment policy. 409 when its status, the policy or
     * the clock refuse (nothing moves); a booking already cancelled answers as it is (200).
     */
    async cancel(token: string, request: { ip: string }): Promise<CancelAnswer> {
      await deps.rateLimits.hit('public_booking', request.ip);
      const now = clock.now();
      const { booking, venue } = await open(token, now);
      return cancelOpened(booking, venue, now);
    },

    /**
     * The same cancel for a booking another signed link names (a reminder's cancel link: bookings/reminders),
     * once the caller has checked that link; 404 when the booking or its venue is gone.
     */
    async cancelBooking(bookingId: string): Promise<CancelAnswer> {
      const booking = await findBooking(db, bookingId);
      const venue = booking ? await deps.findVenue(db, booking.operator_id, booking.venue_id) : undefined;
      if (!booking || !venue) throw notFound('Booking');
      return cancelOpened(booking, venue, clock.now());
    },
  };

  async function cancelOpened(booking: BookingRow, venue: VenueRow, now: Date): Promise<CancelAnswer> {
    if (booking.status === 'cancelled') return answer(booking);
    const policy = await policyOf(db, booking);
    const check = assess(booking, venue, policy, now, paidPence(booking));
    if (!check.allowed) {
      const extra =
        check.refusal === 'status'
          ? { status: booking.status }
          : check.refusal === 'past_cutoff'
            ? { deadline: check.until!.toISOString() }
            : {};
      throw conflict(check.message, extra);
    }
    const payment = await giveBack(booking, policy);
    const refunded = (payment.refunded_pence ?? booking.refunded_pence) - booking.refunded_pence;
    const actor: Actor = { kind: 'guest', id: booking.user_id, name: booking.guest_name };
    try {
      const done = await withTransaction(db, async (trx) => {
        await lockKey(db, trx, `booking:${booking.id}`);
        const current = await bookingOrThrow(trx, booking.id);
        if (current.status === 'cancelled') {
          // Another cancel won the race. A guest's, under the same idempotency keys, made this same
          // refund or release and recorded it; only someone else's cancel leaves ours to record.
          if (!unrecorded(current, payment)) return current;
          await updateBooking(trx, current.id, { ...payment, updated_at: now.toISOString() });
          return bookingOrThrow(trx, current.id);
        }
        const cancelled = await changeStatus(trx, current, {
          to: 'cancelled',
          action: 'cancelled',
          historyAction: 'guest_cancel',
          actor,
          now,
          set: { ...payment, ...(current.status === 'pending_payment' ? { payment_expires_at: null } : {}) },
          detail: {
            via: 'manage_link',
            refund_type: policy.refund_type,
            refunded_pence: refunded,
            payment_status: payment.payment_status ?? current.payment_status,
          },
        });
        await mails.cancellation(trx, venue, cancelled, { by: 'guest', refundedPence: refunded });
        return cancelled;
      });
      return answer(done);
    } catch (error) {
      // The money moved but the cancellation was refused (the booking changed meanwhile): keep the payment's record right.
      if (payment.payment_status) {
        await updateBooking(db, booking.id, { ...payment, updated_at: now.toISOString() });
        log.warn({ bookingId: booking.id }, 'money given back for a booking whose guest cancellation was refused');
      }
      throw error;
    }
  }
}

export type ManageBookings = ReturnType<typeof createManageBookings>;
