/**
 * Connected accounts of the simulated provider (`sim_accounts`), their hosted onboarding links, and
 * transfers to them. Onboarding links are single-use and expire after five minutes, like the real
 * account links: holding an account id is not enough to onboard it. Finishing onboarding tells the
 * platform through an `account.updated` event.
 */
import { lockKey, withTransaction } from '../../../db/transaction.js';
import { newId, randomToken } from '../../../platform/ids.js';
import { CURRENCY, type AccountLink, type ConnectedAccount, type CreateAccountInput, type Transfer } from '../provider.js';
import type { EventOutbox } from './events.js';
import type { Idempotent } from './idempotency.js';
import { invalid, missing, sha256, unix, type AccountRow, type Executor, type LinkRow, type SimContext } from './rows.js';
import type { OnboardingOutcome, SimulatedProvider } from './types.js';

const ACCOUNT_LINK_LIFETIME_S = 300;

export type AccountMethods = Pick<
  SimulatedProvider,
  'createConnectedAccount' | 'retrieveConnectedAccount' | 'createAccountLink' | 'onboardingLink' | 'completeOnboarding' | 'createTransfer'
>;

function toAccount(row: AccountRow): ConnectedAccount {
  return {
    id: row.id,
    email: row.email,
    details_submitted: Boolean(row.details_submitted),
    charges_enabled: Boolean(row.charges_enabled),
    payouts_enabled: Boolean(row.payouts_enabled),
  };
}

async function accountRow(executor: Executor, id: string): Promise<AccountRow> {
  const row = await executor.selectFrom('sim_accounts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw missing('account', id);
  return row;
}

/**
 * What the real provider checks of a destination charge (intents and checkout sessions): an application
 * fee needs a destination and fits in the amount, and the destination account can take charges.
 */
export async function checkDestination(
  executor: Executor,
  destination: string | null | undefined,
  fee: number | null | undefined,
  amount: number,
) {
  if (fee !== null && fee !== undefined) {
    if (!Number.isInteger(fee) || fee < 0) throw invalid('application_fee_amount must be a non-negative integer');
    if (!destination) throw invalid('application_fee_amount needs a destination (transfer_data[destination])');
    if (fee > amount) throw invalid('application_fee_amount cannot exceed the amount');
  }
  if (!destination) return;
  const account = await executor.selectFrom('sim_accounts').selectAll().where('id', '=', destination).executeTakeFirst();
  if (!account) throw missing('account', destination);
  if (!account.charges_enabled) {
    throw invalid('Your destination account needs to have the transfers capability enabled.', 'insufficient_capabilities_for_transfer');
  }
}

async function linkRow(executor: Executor, token: string): Promise<LinkRow> {
  const row = await executor.selectFrom('sim_account_links').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst();
  if (!row) throw missing('account_link', '…');
  return row;
}

export function createAccounts(
  { db, now, at }: SimContext,
  deps: { idempotent: Idempotent; events: EventOutbox; publicBaseUrl: string },
): AccountMethods {
  const { idempotent, events, publicBaseUrl } = deps;

  const spent = (link: LinkRow) => link.used_at !== null || new Date(link.expires_at).getTime() <= now().getTime();

  return {
    async createConnectedAccount(input: CreateAccountInput, requestOptions) {
      return idempotent(
        'account.create',
        input,
        requestOptions,
        async (trx) => {
          const id = newId('acct');
          await trx
            .insertInto('sim_accounts')
            .values({
              id,
              email: input.email ?? null,
              business_name: input.businessName ?? null,
              metadata: JSON.stringify(input.metadata),
              created_at: at(),
              updated_at: at(),
            })
            .execute();
          return id;
        },
        async (trx, id) => toAccount(await accountRow(trx, id)),
      );
    },

    async retrieveConnectedAccount(id) {
      return toAccount(await accountRow(db.kysely, id));
    },

    async createAccountLink(input): Promise<AccountLink> {
      await accountRow(db.kysely, input.account);
      // The token is the capability (192 random bits); only its hash is stored.
      const token = randomToken(24);
      const expiresAt = unix(now()) + ACCOUNT_LINK_LIFETIME_S;
      await db.kysely
        .insertInto('sim_account_links')
        .values({
          token_hash: sha256(token),
          account_id: input.account,
          return_url: input.returnUrl,
          refresh_url: input.refreshUrl,
          expires_at: new Date(expiresAt * 1000).toISOString(),
          used_at: null,
          created_at: at(),
        })
        .execute();
      return { url: `${publicBaseUrl}/simulated/onboarding/${token}`, expires_at: expiresAt };
    },

    async onboardingLink(token) {
      const link = await linkRow(db.kysely, token);
      if (spent(link)) return { state: 'spent', refreshUrl: link.refresh_url };
      return { state: 'open', account: toAccount(await accountRow(db.kysely, link.account_id)) };
    },

    async completeOnboarding(token, verified) {
      const outcome = await withTransaction(db, async (trx): Promise<OnboardingOutcome> => {
        // Locked: one link is spent once, even when its page is submitted twice at once.
        await lockKey(db, trx, `sim-account-link:${sha256(token)}`);
        const link = await linkRow(trx, token);
        if (spent(link)) return { state: 'spent', refreshUrl: link.refresh_url };
        const account = await accountRow(trx, link.account_id);
        // Finishing onboarding again never takes away what the account already has.
        await trx
          .updateTable('sim_accounts')
          .set({
            details_submitted: 1,
            charges_enabled: verified ? 1 : account.charges_enabled,
            payouts_enabled: verified ? 1 : account.payouts_enabled,
            updated_at: at(),
          })
          .where('id', '=', account.id)
          .execute();
        await trx.updateTable('sim_account_links').set({ used_at: at() }).where('token_hash', '=', link.token_hash).execute();
        const updated = toAccount(await accountRow(trx, account.id));
        await events.record(trx, 'account.updated', { object: 'account', ...updated });
        return { state: 'done', account: updated, returnUrl: link.return_url };
      });
      if (outcome.state === 'done') await events.deliverDueEvents();
      return outcome;
    },

    async createTransfer(input, requestOptions): Promise<Transfer> {
      return idempotent(
        'transfer.create',
        input,
        requestOptions,
        async (trx) => {
          if (!Number.isInteger(input.amount) || input.amount < 1) throw invalid('Transfer amount must be a positive integer.');
          const account = await accountRow(trx, input.destination);
          if (!account.charges_enabled) {
            throw invalid(
              'The destination account needs to have the transfers capability enabled.',
              'insufficient_capabilities_for_transfer',
            );
          }
          const id = newId('tr');
          await trx
            .insertInto('sim_transfers')
            .values({
              id,
              amount: input.amount,
              currency: CURRENCY,
              destination: input.destination,
              metadata: JSON.stringify(input.metadata),
              created_at: at(),
            })
            .execute();
          return id;
        },
        async (trx, id) => {
          const row = await trx.selectFrom('sim_transfers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
          return { id: row.id, amount: row.amount, currency: row.currency, destination: row.destination };
        },
      );
    },
  };
}
