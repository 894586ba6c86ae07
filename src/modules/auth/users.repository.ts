/**
 * User rows, the auth module's table: creation (shared by the CLI, registration and portal users) and
 * the look-ups and changes other modules make through this module's index (team: portal users and
 * members; payments: guest keys and memberships). Every function takes a `Conn`, so callers can run it
 * inside their own transaction.
 */
import { sql, type Insertable, type Updateable } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import { kyselyOf, type Conn } from '../../db/transaction.js';
import { conflict } from '../../platform/errors.js';
import { orderedId } from '../../platform/ids.js';
import { hashPassword } from './passwords.js';
import type { UserRole, UsersTable } from './auth.table.js';

export type NewUser = {
  role: UserRole;
  name: string;
  email: string;
  phone?: string | null;
  operator_id?: string | null;
  role_id?: string | null;
} & ({ password: string } | { passwordHash: string }); /* hashed already: a sign-up proven by a mailed code */

const EMAIL_TAKEN = 'An account with this email already exists';

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** `%text%` for LIKE (escape character `\`), with the wildcards of the text itself escaped. */
const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function emailTaken(db: Conn, email: string, exceptUserId?: string): Promise<boolean> {
  let query = kyselyOf(db).selectFrom('users').select('id').where('email', '=', normaliseEmail(email));
  if (exceptUserId) query = query.where('id', '!=', exceptUserId);
  return Boolean(await query.executeTakeFirst());
}

/** Whether the address is any user's, and whether that user has a password (a guest record from bookings has none). */
export async function emailAccount(db: Conn, email: string): Promise<{ hasPassword: boolean } | undefined> {
  const row = await kyselyOf(db).selectFrom('users').select('password_hash').where('email', '=', normaliseEmail(email)).executeTakeFirst();
  return row && { hasPassword: row.password_hash !== null };
}

/** A new user's row: name trimmed, email normalised, no two-factor, tier or image yet. */
export function userRow(
  id: string,
  user: Pick<UsersTable, 'role' | 'name' | 'email' | 'password_hash' | 'operator_id' | 'role_id'> & { phone?: string | null },
  now: Date,
): Insertable<UsersTable> {
  const at = now.toISOString();
  return {
    id,
    role: user.role,
    name: user.name.trim(),
    email: normaliseEmail(user.email),
    phone: user.phone ?? null,
    password_hash: user.password_hash,
    operator_id: user.operator_id,
    role_id: user.role_id,
    totp_secret: null,
    totp_pending_secret: null,
    membership_tier: null,
    profile_image_url: null,
    created_at: at,
    updated_at: at,
  };
}

/** Inserts a user; 409 when the email is already registered. */
export async function insertUser(db: Conn, user: NewUser, now: Date): Promise<string> {
  if (await emailTaken(db, user.email)) throw conflict(EMAIL_TAKEN);
  const id = orderedId('usr');
  try {
    await kyselyOf(db)
      .insertInto('users')
      .values(
        userRow(
          id,
          {
            ...user,
            password_hash: 'passwordHash' in user ? user.passwordHash : await hashPassword(user.password),
            operator_id: user.operator_id ?? null,
            role_id: user.role_id ?? null,
          },
          now,
        ),
      )
      .execute();
  } catch (error) {
    // A concurrent registration of the same email loses on the unique index.
    if (isUniqueViolation(error)) throw conflict(EMAIL_TAKEN);
    throw error;
  }
  return id;
}

/** A guest user (not a portal user) by id: what a staff booking copies as its contact details. */
export function findGuest(db: Conn, userId: string) {
  return kyselyOf(db)
    .selectFrom('users')
    .select(['id', 'name', 'email', 'phone'])
    .where('id', '=', userId)
    .where('role', '=', 'guest')
    .executeTakeFirst();
}

/**
 * A verified registration (decisions: Security round 2): the guest record of that email from earlier
 * bookings, if it has no password, becomes the guest's account (name and password set); otherwise a new
 * guest user. 409 when the email has an account meanwhile. The password comes hashed (it was hashed
 * when the registration was asked for).
 */
export async function createGuestAccount(
  db: Conn,
  input: { name: string; email: string; passwordHash: string },
  now: Date,
): Promise<string> {
  const k = kyselyOf(db);
  const email = normaliseEmail(input.email);
  const record = await k
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .where('role', '=', 'guest')
    .where('password_hash', 'is', null)
    .executeTakeFirst();
  if (record) {
    const claimed = await k
      .updateTable('users')
      .set({ name: input.name.trim(), password_hash: input.passwordHash, updated_at: now.toISOString() })
      .where('id', '=', record.id)
      .where('password_hash', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 1) return record.id;
  }
  if (await emailTaken(db, email)) throw conflict(EMAIL_TAKEN);
  const id = orderedId('usr');
  const row = userRow(
    id,
    { role: 'guest', name: input.name, email, password_hash: input.passwordHash, operator_id: null, role_id: null },
    now,
  );
  try {
    await k.insertInto('users').values(row).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(EMAIL_TAKEN);
    throw error;
  }
  return id;
}

export function findUser(db: Conn, userId: string) {
  return kyselyOf(db).selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

export function findUserByEmail(db: Conn, email: string) {
  return kyselyOf(db).selectFrom('users').selectAll().where('email', '=', normaliseEmail(email)).executeTakeFirst();
}

/** A portal (client) user of the account; guests and other accounts' users are not found. */
export function findClientUser(db: Conn, operatorId: string, userId: string) {
  return kyselyOf(db)
    .selectFrom('users')
    .selectAll()
    .where('id', '=', userId)
    .where('operator_id', '=', operatorId)
    .where('role', '=', 'client')
    .executeTakeFirst();
}

/**
 * Id, name, email and account of an operator-side (client) user of any account; guests are not found.
 * For what crosses accounts on purpose (a person from another account joining a team).
 */
export function findClientUserOfAnyAccount(db: Conn, userId: string) {
  return kyselyOf(db)
    .selectFrom('users')
    .select(['id', 'name', 'email', 'operator_id'])
    .where('id', '=', userId)
    .where('role', '=', 'client')
    .where('operator_id', 'is not', null)
    .executeTakeFirst();
}

/** Id, name and email of the operator-side (client) user of any account with exactly this email (any case). */
export function findClientUserByEmail(db: Conn, email: string) {
  return kyselyOf(db)
    .selectFrom('users')
    .select(['id', 'name', 'email'])
    .where('email', '=', normaliseEmail(email))
    .where('role', '=', 'client')
    .where('operator_id', 'is not', null)
    .executeTakeFirst();
}

/** The account's portal users, oldest first. */
export function listClientUsers(db: Conn, operatorId: string) {
  return kyselyOf(db)
    .selectFrom('users')
    .select(['id', 'name', 'email', 'phone', 'role_id', 'created_at'])
    .where('operator_id', '=', operatorId)
    .where('role', '=', 'client')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Id, name and email of these users (any account; callers scope what they ask for). */
export async function userSummaries(db: Conn, userIds: readonly string[]) {
  if (userIds.length === 0) return [];
  return kyselyOf(db)
    .selectFrom('users')
    .select(['id', 'name', 'email'])
    .where('id', 'in', [...new Set(userIds)])
    .execute();
}

/** Portal users of the account whose name or email contains `text` (any case), except `excludeIds`. */
export function searchClientUsers(db: Conn, operatorId: string, text: string, options: { excludeIds: readonly string[]; limit: number }) {
  const pattern = containsPattern(text);
  let query = kyselyOf(db)
    .selectFrom('users')
    .select(['id', 'name', 'email'])
    .where('operator_id', '=', operatorId)
    .where('role', '=', 'client')
    .where((eb) =>
      eb.or([eb(sql`lower(name)`, 'like', sql`${pattern} escape '\\'`), eb(sql`lower(email)`, 'like', sql`${pattern} escape '\\'`)]),
    );
  if (options.excludeIds.length > 0) query = query.where('id', 'not in', [...options.excludeIds]);
  return query.orderBy('name').orderBy('id').limit(options.limit).execute();
}

/** Portal users of the account, in all or holding `roleId`. */
export async function countClientUsers(db: Conn, operatorId: string, roleId?: string): Promise<number> {
  let query = kyselyOf(db)
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('operator_id', '=', operatorId)
    .where('role', '=', 'client');
  if (roleId) query = query.where('role_id', '=', roleId);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many of the account's users hold each of these roles. */
export async function countUsersByRole(db: Conn, operatorId: string, roleIds: readonly string[]): Promise<Map<string, number>> {
  if (roleIds.length === 0) return new Map();
  const rows = await kyselyOf(db)
    .selectFrom('users')
    .select(['role_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('operator_id', '=', operatorId)
    .where('role_id', 'in', [...roleIds])
    .groupBy('role_id')
    .execute();
  return new Map(rows.map((row) => [row.role_id ?? '', Number(row.n)]));
}

export type ClientUserChanges = Pick<Updateable<UsersTable>, 'name' | 'email' | 'phone' | 'role_id' | 'password_hash'>;

/** Changes a portal user of the account; 409 when a concurrent change took the email first. */
export async function updateClientUser(db: Conn, operatorId: string, userId: string, changes: ClientUserChanges, now: Date) {
  try {
    await kyselyOf(db)
      .updateTable('users')
      .set({ ...changes, updated_at: now.toISOString() })
      .where('id', '=', userId)
      .where('operator_id', '=', operatorId)
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(EMAIL_TAKEN);
    throw error;
  }
}

/** Deletes a portal user of the account with every session of theirs. */
export async function deleteClientUser(db: Conn, operatorId: string, userId: string): Promise<void> {
  const user = await findClientUser(db, operatorId, userId);
  if (!user) return;
  await kyselyOf(db).deleteFrom('sessions').where('user_id', '=', userId).execute();
  await kyselyOf(db).deleteFrom('users').where('id', '=', userId).where('operator_id', '=', operatorId).execute();
}

export async function userExists(db: Conn, userId: string): Promise<boolean> {
  return Boolean(await kyselyOf(db).selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst());
}

/** Sets a guest's membership tier (paid memberships). */
export async function setMembershipTier(db: Conn, userId: string, tier: string, now: Date): Promise<void> {
  await kyselyOf(db).updateTable('users').set({ membership_tier: tier, updated_at: now.toISOString() }).where('id', '=', userId).execute();
}

/** Guest (role `guest`) profiles by id, for the guest CRM; other ids are left out. */
export async function guestProfiles(db: Conn, userIds: readonly string[]) {
  if (userIds.length === 0) return [];
  // `registered`: signed up with a password (not a record made from a booking's email or a walk-in).
  return kyselyOf(db)
    .selectFrom('users')
    .select(['id', 'name', 'email', 'phone', 'membership_tier', 'profile_image_url', 'created_at'])
    .select(sql<number>`case when password_hash is null then 0 else 1 end`.as('registered'))
    .where('id', 'in', [...new Set(userIds)])
    .where('role', '=', 'guest')
    .execute();
}

/** The reserved, undeliverable domain of walk-in guests' synthesised emails (RFC 2606 `.invalid`). */
export const WALK_IN_EMAIL_DOMAIN = 'guests.invalid';

/** Creates a walk-in guest record (no password, cannot sign in) with email `walkin+<id>@guests.invalid`. */
export async function insertWalkInGuest(db: Conn, guest: { name: string; phone: string | null }, now: Date): Promise<string> {
  const id = orderedId('usr');
  const row = userRow(
    id,
    {
      role: 'guest',
      name: guest.name,
      email: `walkin+${id}@${WALK_IN_EMAIL_DOMAIN}`,
      password_hash: null,
      operator_id: null,
      role_id: null,
      phone: guest.phone,
    },
    now,
  );
  await kyselyOf(db).insertInto('users').values(row).execute();
  return id;
}

/** Deletes a walk-in guest record (its synthesised email, no password); bookings keep their rows (user_id set null). */
export async function deleteWalkInGuest(db: Conn, userId: string): Promise<boolean> {
  const result = await kyselyOf(db)
    .deleteFrom('users')
    .where('id', '=', userId)
    .where('role', '=', 'guest')
    .where('email', '=', `walkin+${userId}@${WALK_IN_EMAIL_DOMAIN}`)
    .where('password_hash', 'is', null)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * A guest's erasure of their own account (the account module, docs/account.md): the row stays, because
 * money records (the keys ledger, payments) point at it, but it keeps nothing personal: the name becomes
 * "Erased guest", the email an undeliverable `erased+<id>@guests.invalid`, and the password, phone,
 * two-factor secrets, membership tier and picture are cleared; every session of the user ends. Only a
 * guest (role `guest`) row is touched; answers whether one was.
 */
export async function eraseGuestAccount(db: Conn, userId: string, now: Date): Promise<boolean> {
  const k = kyselyOf(db);
  const erased = await k
    .updateTable('users')
    .set({
      name: 'Erased guest',
      email: `erased+${userId}@${WALK_IN_EMAIL_DOMAIN}`,
      phone: null,
      password_hash: null,
      totp_secret: null,
      totp_pending_secret: null,
      totp_enabled: 0,
      membership_tier: null,
      profile_image_url: null,
      updated_at: now.toISOString(),
    })
    .where('id', '=', userId)
    .where('role', '=', 'guest')
    .executeTakeFirst();
  await k.deleteFrom('sessions').where('user_id', '=', userId).execute();
  return Number(erased.numUpdatedRows) === 1;
}
