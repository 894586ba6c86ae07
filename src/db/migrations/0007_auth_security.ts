/**
 * Auth security: the last TOTP time step accepted per user, so a code is never accepted twice (a code
 * at or before it is refused). TOTP secrets are sealed at start (the key is configuration, which
 * migrations do not see), not here.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('totp_last_step', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('totp_last_step').execute();
}
