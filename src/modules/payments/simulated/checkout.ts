/**
 * Checkout sessions of the simulated provider (`sim_checkout_sessions`) and what its hosted checkout
 * page does: a session pays through one payment intent, created at the first attempt and reused after a
 * decline. Sessions lapse at their expiry. Completion and expiry reach the platform as
 * `checkout.session.completed` / `.expired` events. Changes to one session are serialised (`lockKey`),
 * so paying and expiring it never both happen.
 */
import { lockKey, withTransaction } from '../../../db/transaction.js';
import { newId } from '../../../platform/ids.js';
import { CURRENCY, PaymentProviderError, type CheckoutSession, type CreateCheckoutSessionInput } from '../provider.js';
import { checkDestination } from './accounts.js';
import type { EventOutbox } from './events.js';
import type { Idempotent } from './idempotency.js';
import { checkAmount, toIntent, type Intents } from './intents.js';
import { invalid, missing, parseMetadata, unix, type Executor, type SessionRow, type SimContext } from './rows.js';
import type { SimulatedProvider } from './types.js';

const SESSION_MIN_MS = 30 * 60_000;
const SESSION_MAX_MS = 24 * 3600_000;

export type CheckoutMethods = Pick<
  SimulatedProvider,
  'createCheckoutSession' | 'retrieveCheckoutSession' | 'expireCheckoutSession' | 'checkoutPage' | 'payCheckoutSession'
>;

async function sessionRow(executor: Executor, id: string): Promise<SessionRow> {
  const row = await executor.selectFrom('sim_checkout_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw missing('checkout.session', id);
  return row;
}

export function createCheckout(
  { db, now, at }: SimContext,
  deps: { idempotent: Idempotent; events: EventOutbox; intents: Intents; publicBaseUrl: string },
): CheckoutMethods {
  const { idempotent, events, intents, publicBaseUrl } = deps;

  const sessionUrl = (id: string) => `${publicBaseUrl}/simulated/checkout/${id}`;

  function toSession(row: SessionRow): CheckoutSession {
    return {
      id: row.id,
      object: 'checkout.session',
      url: row.status === 'open' ? sessionUrl(row.id) : null,
      status: row.status as CheckoutSession['status'],
      payment_status: row.payment_status as CheckoutSession['payment_status'],
      payment_intent: row.payment_intent_id,
      amount_total: row.amount_total,
      currency: row.currency,
      metadata: parseMetadata(row.metadata),
      expires_at: unix(row.expires_at),
    };
  }

  async function lockedSession(trx: Executor, id: string): Promise<SessionRow> {
    await lockKey(db, trx, `sim-session:${id}`);
    return sessionRow(trx, id);
  }

  /** Marks an open session expired (once, whoever gets there first) and tells the platform. */
  async function expireSession(id: string, requireOpen: boolean): Promise<CheckoutSession> {
    const result = await withTransaction(db, async (trx) => {
      const row = await lockedSession(trx, id);
      if (row.status !== 'open') {
        if (requireOpen) {
          throw new PaymentProviderError(
            'state',
            `Only open sessions can be expired; this one is ${row.status}.`,
            'checkout_session_unexpected_state',
          );
        }
        return { row, expired: false };
      }
      await trx
        .updateTable('sim_checkout_sessions')
        .set({ status: 'expired', updated_at: at() })
        .where('id', '=', id)
        .where('status', '=', 'open')
        .execute();
      const expired = await sessionRow(trx, id);
      await events.record(trx, 'checkout.session.expired', toSession(expired));
      return { row: expired, expired: true };
    });
    if (result.expired) await events.deliverDueEvents();
    return toSession(result.row);
  }

  /** A session past its expiry is expired when next looked at (the real provider runs a sweeper). */
  async function currentSession(id: string): Promise<SessionRow> {
    const row = await sessionRow(db.kysely, id);
    if (row.status === 'open' && new Date(row.expires_at).getTime() <= now().getTime()) {
      await expireSession(id, false);
      return sessionRow(db.kysely, id);
    }
    return row;
  }

  return {
    async createCheckoutSession(input: CreateCheckoutSessionInput, requestOptions) {
      return idempotent(
        'checkout.session.create',
        input,
        requestOptions,
        async (trx) => {
          checkAmount(input.amount);
          await checkDestination(trx, input.destination, input.applicationFeeAmount, input.amount);
          const created = now().getTime();
          const expiresAt = input.expiresAt !== undefined ? input.expiresAt * 1000 : created + SESSION_MAX_MS;
          if (expiresAt < created + SESSION_MIN_MS || expiresAt > created + SESSION_MAX_MS) {
            throw invalid('expires_at must be between 30 minutes and 24 hours from now.');
          }
          const id = newId('cs_test');
          await trx
            .insertInto('sim_checkout_sessions')
            .values({
              id,
              payment_intent_id: null,
              amount_total: input.amount,
              currency: CURRENCY,
              name: input.name,
              status: 'open',
              payment_status: 'unpaid',
              metadata: JSON.stringify(input.metadata),
              destination: input.destination ?? null,
              application_fee_amount: input.applicationFeeAmount ?? null,
              customer_email: input.customerEmail ?? null,
              success_url: input.successUrl,
              cancel_url: input.cancelUrl,
              expires_at: new Date(expiresAt).toISOString(),
              created_at: at(),
              updated_at: at(),
            })
            .execute();
          return id;
        },
        async (trx, id) => toSession(await sessionRow(trx, id)),
      );
    },

    async retrieveCheckoutSession(id) {
      return toSession(await currentSession(id));
    },

    async expireCheckoutSession(id) {
      return expireSession(id, true);
    },

    async checkoutPage(id) {
      const row = await currentSession(id);
      return { session: toSession(row), name: row.name, successUrl: row.success_url, cancelUrl: row.cancel_url };
    },

    async payCheckoutSession(id, paymentMethod) {
      const result = await withTransaction(db, async (trx) => {
        // Locked: paying and expiring one session never both happen.
        const row = await lockedSession(trx, id);
        if (row.status !== 'open' || new Date(row.expires_at).getTime() <= now().getTime()) {
          throw new PaymentProviderError(
            'state',
            `This checkout session is ${row.status === 'open' ? 'expired' : row.status}.`,
            'checkout_session_unexpected_state',
          );
        }
        // One intent per session, created at the first attempt and reused after a decline.
        const intentId =
          row.payment_intent_id ??
          (await intents.insert(trx, {
            amount: row.amount_total,
            metadata: parseMetadata(row.metadata),
            captureMethod: 'automatic',
            destination: row.destination,
            applicationFeeAmount: row.application_fee_amount,
          }));
        const intent = await intents.confirmIn(trx, intentId, paymentMethod);
        const paid = intent.status === 'succeeded';
        await trx
          .updateTable('sim_checkout_sessions')
          .set({
            payment_intent_id: intentId,
            ...(paid ? { status: 'complete', payment_status: 'paid' } : {}),
            updated_at: at(),
          })
          .where('id', '=', id)
          .where('status', '=', 'open')
          .execute();
        const updated = await sessionRow(trx, id);
        if (paid) await events.record(trx, 'checkout.session.completed', toSession(updated));
        return { row: updated, intent };
      });
      const session = toSession(result.row);
      if (session.status === 'complete') await events.deliverDueEvents();
      return { session, declined: toIntent(result.intent).last_payment_error };
    },
  };
}
