/**
 * A venue's booking policies (three free texts) and its payment policies (deposit, refund and
 * cancellation terms; maths in domain/payment-policy.ts). Deleting a payment policy detaches it from
 * the access rules, shifts and profiles that used it.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';
import { kyselyOf, withTransaction, type Conn } from '../../db/transaction.js';
import { policyInWords } from '../../domain/deposit-terms.js';
import { PAYMENT_POLICY_DEFAULTS, type PaymentPolicyTerms } from '../../domain/payment-policy.js';
import { notFound } from '../../platform/errors.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/ids.js';
import type { References } from '../../platform/references.js';
import { requiredText } from '../../platform/text.js';
import type { BookingPoliciesBody, PaymentPolicyBody, PaymentPolicyUpdateBody } from './profiles.schemas.js';
import type { PaymentPoliciesTable } from './profiles.table.js';

type PolicyRow = Selectable<PaymentPoliciesTable>;

export function toPaymentPolicy(row: PolicyRow) {
  return {
    id: row.id,
    name: row.name,
    deposit_type: row.deposit_type as PaymentPolicyTerms['deposit_type'],
    refund_type: row.refund_type as PaymentPolicyTerms['refund_type'],
    refund_percent: row.refund_percent,
    cancel_type: row.cancel_type as PaymentPolicyTerms['cancel_type'],
    cancel_cutoff_value: row.cancel_cutoff_value,
    cancel_cutoff_unit: row.cancel_cutoff_unit as PaymentPolicyTerms['cancel_cutoff_unit'],
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A venue's payment policy, for the booking flows to feed the policy calculator. */
export async function loadPaymentPolicy(db: Conn, venueId: string, id: string) {
  const row = await kyselyOf(db)
    .selectFrom('payment_policies')
    .selectAll()
    .where('venue_id', '=', venueId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toPaymentPolicy(row) : undefined;
}

const POLICY_FIELDS = [
  'deposit_type',
  'refund_type',
  'refund_percent',
  'cancel_type',
  'cancel_cutoff_value',
  'cancel_cutoff_unit',
] as const;

/** Only the policy's own fields: a read-back row sent as a body carries id and timestamps too. */
const policyFields = (body: PaymentPolicyUpdateBody): Partial<PaymentPolicyTerms> =>
  Object.fromEntries(POLICY_FIELDS.filter((key) => body[key] !== undefined).map((key) => [key, body[key]]));

const EMPTY_BOOKING_POLICIES = { tables: '', guest_list: '', events: '' };

export function createPoliciesService(deps: { db: Db; clock: Clock; references: References }) {
  const { db, clock, references } = deps;

  async function loadPolicy(venueId: string, id: string) {
    const row = await db.kysely
      .selectFrom('payment_policies')
      .selectAll()
      .where('venue_id', '=', venueId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('Payment policy');
    return row;
  }

  return {
    async getBookingPolicies(venueId: string) {
      const row = await db.kysely
        .selectFrom('booking_policies')
        .select(['tables', 'guest_list', 'events'])
        .where('venue_id', '=', venueId)
        .executeTakeFirst();
      return row ?? EMPTY_BOOKING_POLICIES;
    },

    /** Strings left out keep their values; '' clears one. */
    async putBookingPolicies(venueId: string, body: BookingPoliciesBody): Promise<void> {
      const changes = Object.fromEntries(
        (['tables', 'guest_list', 'events'] as const).filter((key) => body[key] !== undefined).map((key) => [key, body[key] as string]),
      );
      const at = clock.now().toISOString();
      await db.kysely
        .insertInto('booking_policies')
        .values({ venue_id: venueId, ...EMPTY_BOOKING_POLICIES, ...changes, updated_at: at })
        .onConflict((oc) => oc.column('venue_id').doUpdateSet({ ...changes, updated_at: at }))
        .execute();
    },

    async listPaymentPolicies(venueId: string) {
      const rows = await db.kysely
        .selectFrom('payment_policies')
        .selectAll()
        .where('venue_id', '=', venueId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((row) => {
        const policy = toPaymentPolicy(row);
        return { ...policy, guest_terms: policyInWords(policy) };
      });
    },

    async createPaymentPolicy(venueId: string, body: PaymentPolicyBody): Promise<string> {
      const name = requiredText(body.name, 'name');
      const id = newId('pp');
      const at = clock.now().toISOString();
      await db.kysely
        .insertInto('payment_policies')
        .values({ id, venue_id: venueId, ...PAYMENT_POLICY_DEFAULTS, ...policyFields(body), name, created_at: at, updated_at: at })
        .execute();
      return id;
    },

    /** Fields left out keep their stored values. */
    async updatePaymentPolicy(venueId: string, id: string, body: PaymentPolicyUpdateBody): Promise<void> {
      await loadPolicy(venueId, id);
      const name = body.name === undefined ? undefined : requiredText(body.name, 'name');
      await db.kysely
        .updateTable('payment_policies')
        .set({ ...policyFields(body), ...(name !== undefined ? { name } : {}), updated_at: clock.now().toISOString() })
        .where('id', '=', id)
        .execute();
    },

    async deletePaymentPolicy(venueId: string, id: string): Promise<void> {
      await loadPolicy(venueId, id);
      await withTransaction(db, async (trx) => {
        // Access rules, shifts and profiles that used it stop naming it.
        await references.repoint(trx, 'payment_policy', venueId, new Map([[id, null]]), clock.now().toISOString());
        await trx.deleteFrom('payment_policies').where('id', '=', id).execute();
      });
    },
  };
}

export type PoliciesService = ReturnType<typeof createPoliciesService>;
