/** Tenant-scoped look-ups shared by the team services; every query names the operator account. */
import { kyselyOf, type Conn } from '../../db/transaction.js';

const q = kyselyOf;

/** A role's stored grid and venue scope. */
export async function roleGrant(db: Conn, roleId: string) {
  const [grid, venues] = await Promise.all([
    q(db).selectFrom('role_permissions').selectAll().where('role_id', '=', roleId).execute(),
    q(db).selectFrom('role_venues').select('venue_id').where('role_id', '=', roleId).execute(),
  ]);
  return { grid, venueIds: venues.map((v) => v.venue_id) };
}

export function findOperator(db: Conn, operatorId: string) {
  return q(db).selectFrom('operators').selectAll().where('id', '=', operatorId).executeTakeFirst();
}

export function findRole(db: Conn, operatorId: string, roleId: string) {
  return q(db).selectFrom('roles').selectAll().where('id', '=', roleId).where('operator_id', '=', operatorId).executeTakeFirst();
}

/** A portal (client) user of the account; guests and other accounts' users are not found. */
export function findClientUser(db: Conn, operatorId: string, userId: string) {
  return q(db)
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .where('operator_id', '=', operatorId)
    .where('role', '=', 'client')
    .executeTakeFirst();
}

export async function countClientUsers(db: Conn, operatorId: string, roleId?: string): Promise<number> {
  let query = q(db)
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('operator_id', '=', operatorId)
    .where('role', '=', 'client');
  if (roleId) query = query.where('role_id', '=', roleId);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The ids among `venueIds` that are venues of the account. */
export async function accountVenueIds(db: Conn, operatorId: string, venueIds: string[]): Promise<string[]> {
  if (venueIds.length === 0) return [];
  const rows = await q(db).selectFrom('venues').select('id').where('operator_id', '=', operatorId).where('id', 'in', venueIds).execute();
  return rows.map((r) => r.id);
}

/** True when the unique-constraint violation of a concurrent duplicate insert is the cause. */
export const isUniqueViolation = (error: unknown) => /unique|duplicate/i.test(String((error as Error)?.message));
