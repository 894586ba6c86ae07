/**
 * The payments module: the payments platform every money-taking module uses (provider choice, charges
 * and the money ledger, payouts, the signed webhook with its fulfilment registry, guest keys and
 * memberships). Other modules take money only through `Payments`, never the raw provider.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export type { CheckoutSpec, Payable } from './checkout.js';
export { addBillingEntry, balanceWith, grantKeys, keysLedger } from './keys.js';
export { intentMismatch, PAYMENT_MISMATCH_MESSAGE } from './payment-match.js';
export { createPayments, type Payments } from './payments.js';
export { ensureWebhookSecret } from './webhook-secret.js';
export { revenuePence } from './payments.reports.js';
export { paymentsRoutes } from './payments.routes.js';
export { paymentsRetention } from './retention.js';

/**
 * What one booking has moved on its guest's keys ledger, spends and refunds together: negative while
 * keys it spent have not been given back (the guest-list booking refunds exactly this, once).
 */
export async function bookingKeysNet(executor: Kysely<Database>, userId: string, bookingId: string): Promise<number> {
  const row = await executor
    .selectFrom('billing_ledger')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('delta'), eb.lit(0)).as('net'))
    .where('user_id', '=', userId)
    .where('booking_id', '=', bookingId)
    .executeTakeFirstOrThrow();
  return Number(row.net);
}

/**
 * A guest's keys (billing) ledger entries tied to `bookingIds` (the guest CRM shows an operator only the
 * entries of its own bookings), newest first.
 */
export async function billingEntriesForBookings(executor: Kysely<Database>, userId: string, bookingIds: readonly string[]) {
  if (bookingIds.length === 0) return [];
  return executor
    .selectFrom('billing_ledger')
    .select(['id', 'type', 'delta', 'note', 'booking_id', 'created_at'])
    .where('user_id', '=', userId)
    .where('booking_id', 'in', [...new Set(bookingIds)])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}
