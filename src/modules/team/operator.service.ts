/**
 * The caller's operator account: its record, the dashboard summary, and the caller's effective
 * permissions. Every figure is limited to what the caller's role can reach.
 */
import { sql, type Selectable } from 'kysely';
import { DateTime } from 'luxon';
import type { AppContext } from '../../context.js';
import type { AuthInfo } from '../../platform/auth-guard.js';
import { notFound } from '../../platform/errors.js';
import { effectivePermissions, PERMISSION_TREE } from '../../platform/permissions.js';
import { payoutSummary, revenuePence } from '../payments/payments.reports.js';
import type { OperatorsTable } from './team.table.js';
import type { Operator, OperatorBody } from './team.schemas.js';
import { clearableText, requiredText } from './team.input.js';
import { countClientUsers, findOperator, findRole } from './team.repository.js';

/** "This month" on the dashboard is the platform's home calendar month, whatever the venues' zones. */
const DASHBOARD_ZONE = 'Europe/London';

/** Bookings that never happened do not make someone a guest of the account. */
const NOT_A_GUEST_STATUSES = ['cancelled', 'rejected', 'expired'];

export const toOperator = (row: Selectable<OperatorsTable>): Operator => ({
  id: row.id,
  name: row.name,
  company_name: row.company_name,
  company_reg: row.company_reg,
  vat_number: row.vat_number,
  status: row.status,
  payment_connect_status: row.payment_connect_status,
});

/** The calendar month containing `now` in `zone`: local dates and the UTC instants bounding it. */
export function monthWindow(now: Date, zone: string) {
  const start = DateTime.fromJSDate(now, { zone }).startOf('month');
  const end = start.plus({ months: 1 });
  return {
    firstDate: start.toFormat('yyyy-LL-dd'),
    nextFirstDate: end.toFormat('yyyy-LL-dd'),
    from: start.toUTC().toISO()!,
    to: end.toUTC().toISO()!,
  };
}

export function createOperatorService(ctx: AppContext) {
  const { db, clock } = ctx;

  async function get(operatorId: string): Promise<Operator> {
    const row = await findOperator(db, operatorId);
    if (!row) throw notFound('Operator');
    return toOperator(row);
  }

  /**
   * Distinct guests (signed-in user, else lower-cased email) with a booking that was not called off.
   * `venueIds` null: every venue of the account.
   */
  async function countGuests(operatorId: string, venueIds: string[] | null, dates?: { from: string; to: string }) {
    if (venueIds && venueIds.length === 0) return 0;
    const guestKey = sql<string>`coalesce(user_id, lower(guest_email))`;
    let query = db.kysely
      .selectFrom('bookings')
      .select(sql<number>`count(distinct ${guestKey})`.as('n'))
      .where('operator_id', '=', operatorId)
      .where('status', 'not in', NOT_A_GUEST_STATUSES);
    if (venueIds) query = query.where('venue_id', 'in', venueIds);
    if (dates) query = query.where('booking_date', '>=', dates.from).where('booking_date', '<', dates.to);
    const row = await query.executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function monthRevenue(operatorId: string, venueIds: string[] | null, { from, to }: { from: string; to: string }) {
    if (!venueIds) return revenuePence(db, { operatorId, from, to });
    const perVenue = await Promise.all(venueIds.map((venueId) => revenuePence(db, { operatorId, venueId, from, to })));
    return perVenue.reduce((sum, pence) => sum + pence, 0);
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
      const reachable = await ctx.access.reachableVenueIds(auth);
      // A venue-scoped role sees figures for its venues only; an unscoped one for the whole account.
      const scope = auth.venueScope ? reachable : null;
      const window = monthWindow(clock.now(), DASHBOARD_ZONE);
      const [operator, payout_status, venues, total_guests, month_guests, revenue, staffCount] = await Promise.all([
        get(operatorId),
        payoutSummary(db, operatorId, ctx.config.paymentsProvider),
        reachable.length === 0
          ? Promise.resolve([])
          : db.kysely
              .selectFrom('venues')
              .select(['id', 'name', 'status'])
              .where('operator_id', '=', operatorId)
              .where('id', 'in', reachable)
              .orderBy('name')
              .orderBy('id')
              .execute(),
        countGuests(operatorId, scope),
        countGuests(operatorId, scope, { from: window.firstDate, to: window.nextFirstDate }),
        monthRevenue(operatorId, scope, window),
        countClientUsers(db, operatorId),
      ]);
      return {
        operator,
        payout_status,
        stats: { venues: venues.length, total_guests, month_guests, revenue },
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
