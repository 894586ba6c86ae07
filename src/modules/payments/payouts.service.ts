/**
 * Payouts (spec "Payouts", "Payout status"): the operator's connected account at the provider, its
 * hosted onboarding, its status read from the provider on each call (cached on the operator as
 * `payment_connect_status`, which the dashboard shows), and the transfer of money owed from charges
 * taken on the platform account before the account was enabled (decisions: Payments before payout onboarding).
 */
import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import { lockKey, withTransaction } from '../../db/transaction.js';
import type { Clock } from '../../platform/clock.js';
import { badGateway, notFound, serviceUnavailable } from '../../platform/errors.js';
import { PAYMENTS_UNCONFIGURED } from './charges.js';
import { claimTransfer, owedPence, settleTransfer, transfersPence } from './ledger.js';
import { PaymentProviderError, type ConnectedAccount, type PaymentProvider, type Transfer } from './provider.js';

export type PayoutStatusValue = 'not_started' | 'onboarding' | 'pending' | 'enabled' | 'unconfigured' | 'error';

export interface PayoutStatus {
  connected: boolean;
  provider: string;
  status: PayoutStatusValue;
  charges_enabled?: boolean;
  payouts_enabled?: boolean;
  details_submitted?: boolean;
  account_id?: string;
}

/** A transfer claimed but not confirmed this long ago is retried under its idempotency key. */
const STALE_TRANSFER_MS = 5 * 60_000;

/** The spec's status of an account as the provider reports it. */
export function accountStatus(account: ConnectedAccount): 'onboarding' | 'pending' | 'enabled' {
  if (!account.details_submitted) return 'onboarding';
  return account.charges_enabled && account.payouts_enabled ? 'enabled' : 'pending';
}

export interface Payouts {
  /** Creates (or reuses) the connected account and returns a hosted onboarding address. */
  start(operatorId: string): Promise<{ url: string }>;
  status(operatorId: string): Promise<PayoutStatus>;
  /** Money owed to the operator from before payouts were enabled, in transfer, and transferred (pence). */
  balance(operatorId: string): Promise<{ owed_pence: number; in_transfer_pence: number; transferred_pence: number }>;
  /** Re-reads an account the provider says changed (webhook `account.updated`). */
  syncAccount(accountId: string): Promise<void>;
  /** Transfers what is owed to an enabled account; null when nothing was transferred. */
  settle(operatorId: string): Promise<Transfer | null>;
}

/**
 * What payouts need to know about an operator account, and where the payout status is cached for the
 * portal. The team module owns operator accounts; the composition root hands its functions over here.
 */
export interface OperatorAccounts {
  contact(operatorId: string): Promise<{ name: string; email: string | null } | undefined>;
  connectStatus(operatorId: string): Promise<string | undefined>;
  setConnectStatus(operatorId: string, status: string, now: Date): Promise<void>;
}

export function createPayouts(deps: {
  db: Db;
  clock: Clock;
  log: Logger;
  provider: PaymentProvider | null;
  /** The configured provider name, reported in the status even when it is unusable. */
  providerName: string;
  publicBaseUrl: string;
  accounts: OperatorAccounts;
}): Payouts {
  const { db, clock, log, providerName } = deps;
  const at = () => clock.now().toISOString();

  const accountRow = (operatorId: string, provider: string) =>
    db.kysely
      .selectFrom('payment_accounts')
      .selectAll()
      .where('operator_id', '=', operatorId)
      .where('provider', '=', provider)
      .executeTakeFirst();

  const setOperatorStatus = (operatorId: string, status: string) => deps.accounts.setConnectStatus(operatorId, status, clock.now());

  /** Stores what the provider said about the account and keeps the operator's cached status in step. */
  async function saveAccount(operatorId: string, provider: PaymentProvider, account: ConnectedAccount) {
    const status = accountStatus(account);
    const values = {
      account_id: account.id,
      details_submitted: account.details_submitted ? 1 : 0,
      charges_enabled: account.charges_enabled ? 1 : 0,
      payouts_enabled: account.payouts_enabled ? 1 : 0,
      status,
      updated_at: at(),
    };
    await db.kysely
      .insertInto('payment_accounts')
      .values({ operator_id: operatorId, provider: provider.name, created_at: at(), ...values })
      .onConflict((oc) => oc.columns(['operator_id', 'provider']).doUpdateSet(values))
      .execute();
    await setOperatorStatus(operatorId, status);
    return status;
  }

  async function transferClaimed(provider: PaymentProvider, operatorId: string, ledgerId: string, amount: number, destination: string) {
    try {
      const transfer = await provider.createTransfer(
        { amount, destination, metadata: { operator_id: operatorId, ledger_id: ledgerId } },
        { idempotencyKey: `transfer-${ledgerId}` },
      );
      await settleTransfer(db.kysely, ledgerId, { transferId: transfer.id });
      return transfer;
    } catch (error) {
      // A refusal means no transfer was made: it stops counting against what is owed, and the next
      // settle claims the money afresh. Any other failure (timeout, provider down) may have made it,
      // so the claim stays pending and is retried under the same idempotency key, never as a new one.
      const refused = error instanceof PaymentProviderError && error.kind !== 'unavailable';
      if (refused) await settleTransfer(db.kysely, ledgerId, 'failed');
      log.error({ err: error, operatorId, amount, retried: !refused }, 'transfer of owed payments failed');
      return null;
    }
  }

  async function settle(operatorId: string): Promise<Transfer | null> {
    const provider = deps.provider;
    if (!provider) return null;
    const account = await accountRow(operatorId, provider.name);
    if (!account || account.status !== 'enabled') return null;

    // A claim whose provider call never reported back (a crash mid-way) is retried with its key:
    // the provider answers with the transfer it made, or makes it now.
    const stale = await db.kysely
      .selectFrom('payment_ledger')
      .select(['id', 'amount_pence'])
      .where('operator_id', '=', operatorId)
      .where('type', '=', 'transfer')
      .where('status', '=', 'pending')
      .where('created_at', '<', new Date(clock.now().getTime() - STALE_TRANSFER_MS).toISOString())
      .execute();
    for (const row of stale) await transferClaimed(provider, operatorId, row.id, -row.amount_pence, account.account_id);

    // The claim is serialised per operator, so concurrent settles never transfer the same money twice.
    const claim = await withTransaction(db, async (trx) => {
      await lockKey(db, trx, `payout-settle:${operatorId}`);
      const owed = await owedPence(trx, operatorId);
      if (owed <= 0) return null;
      return { id: await claimTransfer(trx, operatorId, owed, at()), amount: owed };
    });
    if (!claim) return null;
    return transferClaimed(provider, operatorId, claim.id, claim.amount, account.account_id);
  }

  async function readAndSave(operatorId: string, provider: PaymentProvider, accountId: string) {
    const account = await provider.retrieveConnectedAccount(accountId);
    const status = await saveAccount(operatorId, provider, account);
    if (status === 'enabled') {
      await settle(operatorId).catch((error) => log.error({ err: error, operatorId }, 'transfer of owed payments failed'));
    }
    return { account, status };
  }

  return {
    settle,

    async start(operatorId) {
      const provider = deps.provider;
      if (!provider) throw serviceUnavailable(PAYMENTS_UNCONFIGURED);
      let account = await accountRow(operatorId, provider.name);
      if (!account) {
        const operator = await deps.accounts.contact(operatorId);
        if (!operator) throw notFound('Operator');
        let created: ConnectedAccount;
        try {
          // Keyed by operator: two clicks at once, or a retry after a lost answer, make one account.
          created = await provider.createConnectedAccount(
            { email: operator.email, businessName: operator.name, metadata: { operator_id: operatorId } },
            { idempotencyKey: `connect-account-${operatorId}` },
          );
        } catch (error) {
          log.error({ err: error, operatorId }, 'creating the connected account failed');
          throw badGateway('The payment provider could not create the payout account. Please try again.');
        }
        await saveAccount(operatorId, provider, created);
        account = await accountRow(operatorId, provider.name);
      }
      try {
        const link = await provider.createAccountLink({
          account: account!.account_id,
          returnUrl: `${deps.publicBaseUrl}/payouts/onboarding/return`,
          refreshUrl: `${deps.publicBaseUrl}/payouts/onboarding/refresh`,
        });
        return { url: link.url };
      } catch (error) {
        log.error({ err: error, operatorId }, 'creating the onboarding link failed');
        throw badGateway('The payment provider could not start onboarding. Please try again.');
      }
    },

    async status(operatorId) {
      const provider = deps.provider;
      if (!provider) {
        const any = await db.kysely
          .selectFrom('payment_accounts')
          .select('account_id')
          .where('operator_id', '=', operatorId)
          .executeTakeFirst();
        return { connected: Boolean(any), provider: providerName, status: 'unconfigured' };
      }
      const row = await accountRow(operatorId, provider.name);
      if (!row) {
        await setOperatorStatus(operatorId, 'not_started');
        return { connected: false, provider: providerName, status: 'not_started' };
      }
      try {
        const { account, status } = await readAndSave(operatorId, provider, row.account_id);
        return {
          connected: true,
          provider: providerName,
          status,
          charges_enabled: account.charges_enabled,
          payouts_enabled: account.payouts_enabled,
          details_submitted: account.details_submitted,
          account_id: account.id,
        };
      } catch (error) {
        // The last known status stays cached: a provider outage is not a change of the account. The
        // flags are the last ones read, so the answer keeps the spec's shape.
        log.error({ err: error, operatorId }, 'reading the connected account failed');
        return {
          connected: true,
          provider: providerName,
          status: 'error',
          charges_enabled: Boolean(row.charges_enabled),
          payouts_enabled: Boolean(row.payouts_enabled),
          details_submitted: Boolean(row.details_submitted),
          account_id: row.account_id,
        };
      }
    },

    async balance(operatorId) {
      const [owed, transfers] = await Promise.all([owedPence(db.kysely, operatorId), transfersPence(db.kysely, operatorId)]);
      return { owed_pence: owed, in_transfer_pence: transfers.pending, transferred_pence: transfers.completed };
    },

    async syncAccount(accountId) {
      const provider = deps.provider;
      if (!provider) return;
      const row = await db.kysely
        .selectFrom('payment_accounts')
        .select('operator_id')
        .where('provider', '=', provider.name)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      if (row) await readAndSave(row.operator_id, provider, accountId);
    },
  };
}
