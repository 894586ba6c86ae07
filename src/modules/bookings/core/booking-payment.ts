/**
 * The two moves a booking's payment makes, for every kind of booking paid before it counts (a table
 * deposit or card hold, event tickets): `pending_payment` → `confirmed` when paid, → `expired` when not
 * (its tables or tickets given back). The payment lifecycle that decides when (payments/checkout.ts)
 * calls them through each flow's `CheckoutSpec`; both leave a booking no longer awaiting payment alone.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Payable } from '../../payments/index.js';
import { changeStatus, findBooking, type BookingRow } from './booking-store.js';
import { SYSTEM } from './history.js';

/** A booking as the payment lifecycle sees it: its deposit (for event bookings, the tickets' total) in GBP, on its own intent. */
export const payableBooking = (booking: BookingRow): Payable => ({
  id: booking.id,
  operatorId: booking.operator_id,
  venueId: booking.venue_id,
  intentId: booking.payment_intent_id,
  amountPence: booking.deposit_pence,
  awaitingPayment: booking.status === 'pending_payment',
});

/** Paid (or a card hold authorised): the booking confirmed now, or undefined when it was not awaiting payment. */
export async function confirmPaidBooking(
  trx: Kysely<Database>,
  bookingId: string,
  paid: { held: boolean; via: string },
  now: Date,
): Promise<BookingRow | undefined> {
  const current = await findBooking(trx, bookingId);
  if (current?.status !== 'pending_payment') return undefined;
  return changeStatus(trx, current, {
    to: 'confirmed',
    action: 'confirmed',
    historyAction: 'payment_confirmed',
    actor: SYSTEM,
    now,
    set: { payment_status: paid.held ? 'held' : 'paid', payment_expires_at: null },
    detail: { via: paid.via },
  });
}

/** Unpaid: the booking released now (`expired`, its slots freed), or undefined when it was not awaiting payment. */
export async function releaseUnpaidBooking(
  trx: Kysely<Database>,
  bookingId: string,
  why: string,
  now: Date,
): Promise<BookingRow | undefined> {
  const current = await findBooking(trx, bookingId);
  if (current?.status !== 'pending_payment') return undefined;
  return changeStatus(trx, current, {
    to: 'expired',
    action: 'expired',
    historyAction: 'release',
    actor: SYSTEM,
    now,
    set: { payment_status: 'released' },
    detail: { reason: why },
  });
}
