/**
 * What the payments module needs to know about an operator account, and the payout status it caches
 * on the operator record (shown by my-operator and the dashboard). Handed to payments by the
 * composition root, so payments never reads the team module's tables.
 */
import { kyselyOf, type Conn } from '../../db/transaction.js';
import { userSummaries } from '../auth/index.js';
import { findOperator } from './team.repository.js';

/** The account's name and its primary contact's email (payout onboarding pre-fills them). */
export async function operatorContact(db: Conn, operatorId: string): Promise<{ name: string; email: string | null } | undefined> {
  const operator = await findOperator(db, operatorId);
  if (!operator) return undefined;
  const [contact] = operator.primary_user_id ? await userSummaries(db, [operator.primary_user_id]) : [];
  return { name: operator.name, email: contact?.email ?? null };
}

/** The payout onboarding status cached on the operator; undefined for an unknown operator. */
export async function paymentConnectStatus(db: Conn, operatorId: string): Promise<string | undefined> {
  return (await findOperator(db, operatorId))?.payment_connect_status;
}

/** Caches a new payout status; writes only when it changed. */
export async function setPaymentConnectStatus(db: Conn, operatorId: string, status: string, now: Date): Promise<void> {
  await kyselyOf(db)
    .updateTable('operators')
    .set({ payment_connect_status: status, updated_at: now.toISOString() })
    .where('id', '=', operatorId)
    .where('payment_connect_status', '!=', status)
    .execute();
}
