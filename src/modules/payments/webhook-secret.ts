/**
 * The inbound webhook's signing secret when PAYMENT_WEBHOOK_SECRET is not set (decisions: Configuration): random per
 * database, created once (the first instance to start wins; the others read it) and kept in
 * `platform_settings`, so every instance sharing the database verifies with the same secret.
 */
import type { Db } from '../../db/connect.js';
import { randomToken } from '../../platform/ids.js';

export const WEBHOOK_SECRET_SETTING = 'payment_webhook_secret';

export async function ensureWebhookSecret(db: Db, now: Date): Promise<{ secret: string; created: boolean }> {
  const candidate = `whsec_${randomToken(24)}`;
  const inserted = await db.kysely
    .insertInto('platform_settings')
    .values({ key: WEBHOOK_SECRET_SETTING, value: candidate, updated_at: now.toISOString() })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  const row = await db.kysely
    .selectFrom('platform_settings')
    .select('value')
    .where('key', '=', WEBHOOK_SECRET_SETTING)
    .executeTakeFirstOrThrow();
  return { secret: row.value, created: Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 };
}
