/**
 * The caller's operator account: its record, the dashboard summary, and the caller's effective
 * permissions. Every figure is limited to what the caller's role can reach.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { AuthInfo } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { notFound } from '../../platform/errors.js';
import { effectivePermissions, PERMISSION_TREE } from '../../platform/permissions.js';
import { clearableText, requiredText } from '../../platform/text.js';
import { countClientUsers } from '../auth/index.js';
import { venueSummaries } from '../venues/index.js';
import type { OperatorsTable } from './team.table.js';
import type { Operator, OperatorBody } from './team.schemas.js';
import { findOperator, findRole } from './team.repository.js';

/** The account's figures the dashboard shows (the same as /api/my-stats); the venues module provides them. */
export type AccountStatsSource = (query: {
  operatorId: string;
  venueScope: string[] | null;
}) => Promise<{ total_guests: number; month_guests: number; revenue: number }>;

/** The payout status the dashboard shows; the payments module provides it (see the composition root). */
export interface PayoutStatusSource {
  payoutSummary(operatorId: string): Promise<{ provider: string; status: string; source: string }>;
}

export const toOperator = (row: Selectable<OperatorsTable>): Operator => ({
  id: row.id,
  name: row.name,
  company_name: row.company_name,
  company_reg: row.company_reg,
  vat_number: row.vat_number,
  status: row.status,
  payment_connect_status: row.payment_connect_status,
});

export function createOperatorService(deps: {
  db: Db;
  clock: Clock;
  payouts: PayoutStatusSource;
  reachableVenueIds(auth: AuthInfo): Promise<string[]>;
  accountStats: AccountStatsSource;
}) {
  const { db, clock, payouts } = deps;

  async function get(operatorId: string): Promise<Operator> {
    const row = await findOperator(db, operatorId);
    if (!row) throw notFound('Operator');
    return toOperator(row);
  }

  return {
    get,

    async update(operatorId: string, body: OperatorBody): Promise<void> {
      const result = await db.kysely
        .updateTable('operators')
        .set({
          name: requiredText(body.name, 'name'),
          company_name: clearableText(body.company_name),
          company_reg: clearableText(body.company_reg),
          vat_number: clearableText(body.vat_number),
          updated_at: clock.now().toISOString(),
        })
        .where('id', '=', operatorId)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw notFound('Operator');
    },

    async dashboard(auth: AuthInfo & { operatorId: string }) {
      const { operatorId } = auth;
      const reachable = await deps.reachableVenueIds(auth);
      // A venue-scoped role sees figures for its venues only; an unscoped one for the whole account.
      const [operator, payout_status, venues, stats, staffCount] = await Promise.all([
        get(operatorId),
        payouts.payoutSummary(operatorId),
        venueSummaries(db, operatorId, reachable),
        // The same figures as /api/my-stats: one implementation, each venue's own local month.
        deps.accountStats({ operatorId, venueScope: auth.venueScope ? reachable : null }),
        countClientUsers(db, operatorId),
      ]);
      return {
        operator,
        payout_status,
        stats: { venues: venues.length, total_guests: stats.total_guests, month_guests: stats.month_guests, revenue: stats.revenue },
        staff_summary: { count: staffCount },
        venues,
      };
    },

    async myPermissions(auth: AuthInfo) {
      const role = auth.user.role_id && auth.operatorId ? await findRole(db, auth.operatorId, auth.user.role_id) : undefined;
      return {
        role: role?.name ?? null,
        role_id: role?.id ?? null,
        is_owner: auth.isOwner,
        venue_ids: auth.venueScope ?? [],
        portal: 'client' as const,
        permissions: effectivePermissions(auth.grants, auth.isOwner),
        tree: PERMISSION_TREE,
      };
    },
  };
}

export type OperatorService = ReturnType<typeof createOperatorService>;
