/**
 * The operator money ledger (decisions: Payments before payout onboarding): one row per money movement, signed from the operator's
 * side, each with a unique key so recording a movement twice (a redelivered event, a re-read intent)
 * is a no-op. `mode` says where the money sits: `destination` charges settle to the operator's
 * connected account directly; `platform` charges were taken before onboarding and are owed to the
 * operator until a `transfer` moves them (less the fee) to the connected account.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import { newId } from '../../platform/ids.js';
import type { PaymentLedgerTable, PaymentRecordsTable } from './payments.table.js';

type Executor = Kysely<Database>;
export type PaymentRecord = Selectable<PaymentRecordsTable>;
type LedgerType = PaymentLedgerTable['type'];

async function insertEntry(
  executor: Executor,
  record: PaymentRecord & { operator_id: string },
  entry: { type: LedgerType; amount: number; key: string; providerRef: string | null; at: string; note?: string },
): Promise<boolean> {
  const result = await executor
    .insertInto('payment_ledger')
    .values({
      id: newId('led'),
      operator_id: record.operator_id,
      venue_id: record.venue_id,
      record_id: record.id,
      type: entry.type,
      mode: record.mode,
      amount_pence: entry.amount,
      entry_key: entry.key,
      provider_ref: entry.providerRef,
      status: 'completed',
      note: entry.note ?? null,
      created_at: entry.at,
    })
    .onConflict((oc) => oc.column('entry_key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

const hasOperator = (record: PaymentRecord): record is PaymentRecord & { operator_id: string } => record.operator_id !== null;

/** A guest payment received (and its platform fee). True when newly recorded. */
export async function recordCharge(
  executor: Executor,
  record: PaymentRecord,
  charge: { amount: number; fee: number; providerRef: string | null; at: string },
): Promise<boolean> {
  if (!hasOperator(record) || charge.amount <= 0) return false;
  const inserted = await insertEntry(executor, record, {
    type: 'charge',
    amount: charge.amount,
    key: `charge:${record.id}`,
    providerRef: charge.providerRef,
    at: charge.at,
  });
  if (charge.fee > 0)
    await insertEntry(executor, record, {
      type: 'fee',
      amount: -charge.fee,
      key: `fee:${record.id}`,
      providerRef: charge.providerRef,
      at: charge.at,
    });
  return inserted;
}

/** A refund to the guest, and the share of the platform fee given back with it. */
export async function recordRefund(
  executor: Executor,
  record: PaymentRecord,
  refund: { refundId: string; amount: number; feeRefund: number; at: string },
): Promise<void> {
  if (!hasOperator(record)) return;
  await insertEntry(executor, record, {
    type: 'refund',
    amount: -refund.amount,
    key: `refund:${refund.refundId}`,
    providerRef: refund.refundId,
    at: refund.at,
  });
  if (refund.feeRefund > 0) {
    await insertEntry(executor, record, {
      type: 'fee_refund',
      amount: refund.feeRefund,
      key: `fee_refund:${refund.refundId}`,
      providerRef: refund.refundId,
      at: refund.at,
    });
  }
}

/** What a record's charge and fee came to in the ledger (zero before the charge is recorded). */
export async function chargedOf(executor: Executor, recordId: string): Promise<{ amount: number; fee: number }> {
  const rows = await executor
    .selectFrom('payment_ledger')
    .select(['entry_key', 'amount_pence'])
    .where('entry_key', 'in', [`charge:${recordId}`, `fee:${recordId}`])
    .execute();
  const amountOf = (key: string) => rows.find((row) => row.entry_key === key)?.amount_pence ?? 0;
  return { amount: amountOf(`charge:${recordId}`), fee: -amountOf(`fee:${recordId}`) };
}

/**
 * Money taken on the platform account for the operator and not yet transferred: platform-mode
 * charges less fees and refunds, less transfers made or in flight. Negative when refunds came after
 * a transfer; later charges make it up before anything more is transferred.
 */
export async function owedPence(executor: Executor, operatorId: string): Promise<number> {
  const row = await executor
    .selectFrom('payment_ledger')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_pence'), eb.lit(0)).as('owed'))
    .where('operator_id', '=', operatorId)
    .where('mode', '=', 'platform')
    .where('status', '!=', 'failed')
    .executeTakeFirstOrThrow();
  return Number(row.owed);
}

/** What was transferred of the owed money: confirmed, and started but not confirmed (positive pence). */
export async function transfersPence(executor: Executor, operatorId: string): Promise<{ completed: number; pending: number }> {
  const rows = await executor
    .selectFrom('payment_ledger')
    .select(['status', (eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_pence'), eb.lit(0)).as('total')])
    .where('operator_id', '=', operatorId)
    .where('type', '=', 'transfer')
    .where('status', 'in', ['completed', 'pending'])
    .groupBy('status')
    .execute();
  const of = (status: string) => -Number(rows.find((row) => row.status === status)?.total ?? 0);
  return { completed: of('completed'), pending: of('pending') };
}

/** Claims a transfer of `amount` (pending until the provider confirms it); returns its ledger id. */
export async function claimTransfer(executor: Executor, operatorId: string, amount: number, at: string): Promise<string> {
  const id = newId('led');
  await executor
    .insertInto('payment_ledger')
    .values({
      id,
      operator_id: operatorId,
      venue_id: null,
      record_id: null,
      type: 'transfer',
      mode: 'platform',
      amount_pence: -amount,
      entry_key: `transfer:${id}`,
      provider_ref: null,
      status: 'pending',
      note: 'Owed payments transferred to the connected account',
      created_at: at,
    })
    .execute();
  return id;
}

export async function settleTransfer(executor: Executor, ledgerId: string, outcome: { transferId: string } | 'failed'): Promise<void> {
  await executor
    .updateTable('payment_ledger')
    .set(outcome === 'failed' ? { status: 'failed' } : { status: 'completed', provider_ref: outcome.transferId })
    .where('id', '=', ledgerId)
    .where('status', '=', 'pending')
    .execute();
}
