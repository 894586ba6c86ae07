/**
 * Kysely functions over the vouchers module's tables. Operator reads are scoped by the account (and
 * venues); the balance and the purchase state only ever move through the conditional updates here, so
 * concurrent redemptions, refunds and fulfilments decide in the database, on every instance.
 */
import { sql, type Insertable, type Selectable } from 'kysely';
import { afterCommit, kyselyOf, type Conn } from '../../db/transaction.js';
import { metrics } from '../../platform/metrics.js';
import type { VoucherPurchasesTable, VoucherRedemptionsTable, VouchersTable } from './vouchers.table.js';

export type VoucherRow = Selectable<VouchersTable>;
export type PurchaseRow = Selectable<VoucherPurchasesTable>;
export type RedemptionRow = Selectable<VoucherRedemptionsTable>;

/** A voucher of the account by its plain code (codes are unique across the platform). */
export function voucherByCode(conn: Conn, operatorId: string, code: string): Promise<VoucherRow | undefined> {
  return kyselyOf(conn)
    .selectFrom('vouchers')
    .selectAll()
    .where('code', '=', code)
    .where('operator_id', '=', operatorId)
    .executeTakeFirst();
}

export function voucherOfVenue(conn: Conn, venueId: string, id: string): Promise<VoucherRow | undefined> {
  return kyselyOf(conn).selectFrom('vouchers').selectAll().where('id', '=', id).where('venue_id', '=', venueId).executeTakeFirst();
}

/** A page of the vouchers of these venues, newest first, and how many there are. */
export async function vouchersOfVenues(conn: Conn, venueIds: readonly string[], page: { limit: number; offset: number }) {
  const k = kyselyOf(conn);
  const [rows, count] = await Promise.all([
    k
      .selectFrom('vouchers')
      .selectAll()
      .where('venue_id', 'in', [...venueIds])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    k
      .selectFrom('vouchers')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('venue_id', 'in', [...venueIds])
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

export function vouchersOfPurchase(conn: Conn, purchaseId: string): Promise<VoucherRow[]> {
  return kyselyOf(conn).selectFrom('vouchers').selectAll().where('purchase_id', '=', purchaseId).orderBy('purchase_seq').execute();
}

export function redemptionsOf(conn: Conn, voucherId: string): Promise<RedemptionRow[]> {
  return kyselyOf(conn)
    .selectFrom('voucher_redemptions')
    .selectAll()
    .where('voucher_id', '=', voucherId)
    .orderBy('redeemed_at')
    .orderBy('id')
    .execute();
}

/** Inserts a voucher unless its code is taken (false: draw another code). */
export async function insertVoucher(conn: Conn, row: Insertable<VouchersTable>): Promise<boolean> {
  const result = await kyselyOf(conn)
    .insertInto('vouchers')
    .values(row)
    .onConflict((oc) => oc.column('code').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/**
 * Takes `amountPence` off an active, unexpired voucher holding at least that much, in one statement
 * (`redeemed` when nothing is left); undefined when the voucher no longer qualifies.
 */
export function spendBalance(conn: Conn, id: string, amountPence: number, now: Date): Promise<VoucherRow | undefined> {
  return kyselyOf(conn)
    .updateTable('vouchers')
    .set((eb) => ({
      remaining_pence: eb('remaining_pence', '-', amountPence),
      status: sql<'active' | 'redeemed'>`case when remaining_pence = ${amountPence} then 'redeemed' else 'active' end`,
      updated_at: now.toISOString(),
    }))
    .where('id', '=', id)
    .where('status', '=', 'active')
    .where('remaining_pence', '>=', amountPence)
    .where('valid_until', '>', now.toISOString())
    .returningAll()
    .executeTakeFirst();
}

export async function insertRedemption(conn: Conn, row: Insertable<VoucherRedemptionsTable>): Promise<void> {
  afterCommit(conn, () => metrics.vouchers('redeemed'));
  await kyselyOf(conn).insertInto('voucher_redemptions').values(row).execute();
}

/** Marks an active voucher with a balance refunded (the balance becomes the refund); undefined when it does not qualify. */
export function claimRefund(conn: Conn, id: string, userId: string, now: Date): Promise<VoucherRow | undefined> {
  return kyselyOf(conn)
    .updateTable('vouchers')
    .set((eb) => ({
      status: 'refunded' as const,
      refunded_pence: eb.ref('remaining_pence'),
      remaining_pence: 0,
      refunded_at: now.toISOString(),
      refunded_by: userId,
      updated_at: now.toISOString(),
    }))
    .where('id', '=', id)
    .where('status', '=', 'active')
    .where('remaining_pence', '>', 0)
    .returningAll()
    .executeTakeFirst();
}

/** Takes over a refund claim left without a provider refund since `claimedAt` (its request died); undefined if another did. */
export function reclaimRefund(conn: Conn, id: string, claimedAt: string, now: Date): Promise<VoucherRow | undefined> {
  return kyselyOf(conn)
    .updateTable('vouchers')
    .set({ refunded_at: now.toISOString(), updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'refunded')
    .where('refund_id', 'is', null)
    .where('refunded_at', '=', claimedAt)
    .returningAll()
    .executeTakeFirst();
}

/** Gives a claimed refund back (the provider refused it): the voucher is active with its balance again. */
export async function releaseRefund(conn: Conn, id: string, now: Date): Promise<void> {
  await kyselyOf(conn)
    .updateTable('vouchers')
    .set((eb) => ({
      status: 'active' as const,
      remaining_pence: eb.ref('refunded_pence'),
      refunded_pence: 0,
      refunded_at: null,
      refunded_by: null,
      updated_at: now.toISOString(),
    }))
    .where('id', '=', id)
    .where('status', '=', 'refunded')
    .where('refund_id', 'is', null)
    .execute();
}

export async function recordRefund(conn: Conn, id: string, refundId: string, now: Date): Promise<void> {
  afterCommit(conn, () => metrics.vouchers('refunded'));
  await kyselyOf(conn).updateTable('vouchers').set({ refund_id: refundId, updated_at: now.toISOString() }).where('id', '=', id).execute();
}

export function purchaseById(conn: Conn, id: string): Promise<PurchaseRow | undefined> {
  return kyselyOf(conn).selectFrom('voucher_purchases').selectAll().where('id', '=', id).executeTakeFirst();
}

export function purchaseByIntent(conn: Conn, intentId: string): Promise<PurchaseRow | undefined> {
  return kyselyOf(conn).selectFrom('voucher_purchases').selectAll().where('intent_id', '=', intentId).executeTakeFirst();
}

export function purchaseByKey(conn: Conn, venueId: string, key: string): Promise<PurchaseRow | undefined> {
  return kyselyOf(conn)
    .selectFrom('voucher_purchases')
    .selectAll()
    .where('venue_id', '=', venueId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

export async function insertPurchase(conn: Conn, row: Insertable<VoucherPurchasesTable>): Promise<void> {
  await kyselyOf(conn).insertInto('voucher_purchases').values(row).execute();
}

export async function attachIntent(conn: Conn, id: string, intentId: string, now: Date): Promise<void> {
  await kyselyOf(conn)
    .updateTable('voucher_purchases')
    .set({ intent_id: intentId, updated_at: now.toISOString() })
    .where('id', '=', id)
    .execute();
}

/** `pending` → `fulfilled`, once: true for the one caller that moved it. */
export async function claimPurchase(conn: Conn, id: string, now: Date): Promise<boolean> {
  const result = await kyselyOf(conn)
    .updateTable('voucher_purchases')
    .set({ status: 'fulfilled', fulfilled_at: now.toISOString(), updated_at: now.toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
