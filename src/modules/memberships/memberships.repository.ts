/** The memberships module's queries, each scoped by operator (tiers) or guest (memberships). */
import type { Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import { kyselyOf, type Conn } from '../../db/transaction.js';

export type TierRow = Selectable<Database['membership_tiers']>;

export const tiersOf = (conn: Conn, operatorId: string) =>
  kyselyOf(conn).selectFrom('membership_tiers').selectAll().where('operator_id', '=', operatorId).orderBy('name').orderBy('id').execute();

export const tierOf = (conn: Conn, operatorId: string, id: string) =>
  kyselyOf(conn).selectFrom('membership_tiers').selectAll().where('operator_id', '=', operatorId).where('id', '=', id).executeTakeFirst();

export const tierById = (conn: Conn, id: string) =>
  kyselyOf(conn).selectFrom('membership_tiers').selectAll().where('id', '=', id).executeTakeFirst();

/** The tiers on sale: active and not archived. */
export const tiersOnSale = (conn: Conn, operatorId: string) =>
  kyselyOf(conn)
    .selectFrom('membership_tiers')
    .selectAll()
    .where('operator_id', '=', operatorId)
    .where('active', '=', 1)
    .where('archived_at', 'is', null)
    .orderBy('price_pence')
    .orderBy('name')
    .orderBy('id')
    .execute();

/** Running memberships per tier of the operator. */
export async function memberCounts(conn: Conn, operatorId: string, now: Date): Promise<Map<string, number>> {
  const rows = await kyselyOf(conn)
    .selectFrom('guest_memberships')
    .select((eb) => ['tier_id', eb.fn.countAll<number>().as('n')])
    .where('operator_id', '=', operatorId)
    .where('expires_at', '>', now.toISOString())
    .groupBy('tier_id')
    .execute();
  return new Map(rows.map((r) => [r.tier_id, Number(r.n)]));
}

/** Whether any membership or purchase (paid or not) names the tier: then it is archived, not deleted. */
export async function tierInUse(conn: Conn, tierId: string): Promise<boolean> {
  const k = kyselyOf(conn);
  const [member, purchase] = await Promise.all([
    k.selectFrom('guest_memberships').select('id').where('tier_id', '=', tierId).limit(1).executeTakeFirst(),
    k.selectFrom('membership_purchases').select('id').where('tier_id', '=', tierId).limit(1).executeTakeFirst(),
  ]);
  return member !== undefined || purchase !== undefined;
}

export const membershipOf = (conn: Conn, operatorId: string, userId: string) =>
  kyselyOf(conn)
    .selectFrom('guest_memberships')
    .selectAll()
    .where('operator_id', '=', operatorId)
    .where('user_id', '=', userId)
    .executeTakeFirst();

export const membershipsOfGuest = (conn: Conn, userId: string) =>
  kyselyOf(conn)
    .selectFrom('guest_memberships')
    .innerJoin('membership_tiers', 'membership_tiers.id', 'guest_memberships.tier_id')
    .select([
      'guest_memberships.id',
      'guest_memberships.operator_id',
      'guest_memberships.started_at',
      'guest_memberships.expires_at',
      'membership_tiers.id as tier_id',
      'membership_tiers.name',
      'membership_tiers.description',
      'membership_tiers.price_pence',
      'membership_tiers.period',
      'membership_tiers.period_days',
      'membership_tiers.perk_tags',
      'membership_tiers.ticket_discount_pct',
    ])
    .where('guest_memberships.user_id', '=', userId)
    .orderBy('guest_memberships.expires_at', 'desc')
    .orderBy('guest_memberships.id')
    .execute();

/** The running membership of the operator with its tier's perks and discount, or undefined. */
export const runningMembership = (conn: Conn, operatorId: string, userId: string, now: Date) =>
  kyselyOf(conn)
    .selectFrom('guest_memberships')
    .innerJoin('membership_tiers', 'membership_tiers.id', 'guest_memberships.tier_id')
    .select(['membership_tiers.perk_tags', 'membership_tiers.ticket_discount_pct'])
    .where('guest_memberships.operator_id', '=', operatorId)
    .where('guest_memberships.user_id', '=', userId)
    .where('guest_memberships.expires_at', '>', now.toISOString())
    .executeTakeFirst();

export const purchaseById = (conn: Conn, id: string) =>
  kyselyOf(conn).selectFrom('membership_purchases').selectAll().where('id', '=', id).executeTakeFirst();
