/** User rows: creation (shared by the CLI, registration and portal users) and look-ups. */
import { kyselyOf, type Conn } from '../../db/transaction.js';
import { conflict } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { hashPassword } from './passwords.js';
import type { UserRole } from './auth.table.js';

export interface NewUser {
  role: UserRole;
  name: string;
  email: string;
  password: string;
  phone?: string | null;
  operator_id?: string | null;
  role_id?: string | null;
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export async function emailTaken(db: Conn, email: string, exceptUserId?: string): Promise<boolean> {
  const kysely = kyselyOf(db);
  let query = kysely.selectFrom('users').select('id').where('email', '=', normaliseEmail(email));
  if (exceptUserId) query = query.where('id', '!=', exceptUserId);
  return Boolean(await query.executeTakeFirst());
}

/** Inserts a user; 409 when the email is already registered. */
export async function insertUser(db: Conn, user: NewUser, now: Date): Promise<string> {
  const kysely = kyselyOf(db);
  if (await emailTaken(db, user.email)) throw conflict('An account with this email already exists');
  const id = newId('usr');
  const at = now.toISOString();
  try {
    await kysely
      .insertInto('users')
      .values({
        id,
        role: user.role,
        name: user.name.trim(),
        email: normaliseEmail(user.email),
        phone: user.phone ?? null,
        password_hash: await hashPassword(user.password),
        operator_id: user.operator_id ?? null,
        role_id: user.role_id ?? null,
        totp_secret: null,
        totp_pending_secret: null,
        membership_tier: null,
        profile_image_url: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
  } catch (error) {
    // A concurrent registration of the same email loses on the unique index.
    if (/unique|duplicate/i.test(String((error as Error).message))) throw conflict('An account with this email already exists');
    throw error;
  }
  return id;
}
