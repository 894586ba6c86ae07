/**
 * Servers' heartbeats: each running server writes `instance:<id>` → now into platform_settings every
 * HEARTBEAT_EVERY_MS and removes it when it stops, so that a tool that must not run beside a server
 * (`maitred restore`) can tell whether one is running against the database, on this machine or another.
 */
import type { Db } from '../db/connect.js';

export const HEARTBEAT_EVERY_MS = 10_000;
/** A heartbeat older than this is a server that stopped without saying so (killed). */
const LIVE_WITHIN_MS = 3 * HEARTBEAT_EVERY_MS;
const PREFIX = 'instance:';

export async function heartbeat(db: Db, instanceId: string, now: Date): Promise<void> {
  const at = now.toISOString();
  await db.kysely
    .insertInto('platform_settings')
    .values({ key: `${PREFIX}${instanceId}`, value: at, updated_at: at })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: at, updated_at: at }))
    .execute();
}

export async function forgetInstance(db: Db, instanceId: string): Promise<void> {
  await db.kysely.deleteFrom('platform_settings').where('key', '=', `${PREFIX}${instanceId}`).execute();
}

/** The servers whose heartbeat is recent, with when each was last seen. */
export async function liveInstances(db: Db, now = new Date()): Promise<{ id: string; seen_at: string }[]> {
  const since = new Date(now.getTime() - LIVE_WITHIN_MS).toISOString();
  const rows = await db.kysely
    .selectFrom('platform_settings')
    .select(['key', 'updated_at'])
    .where('key', 'like', `${PREFIX}%`)
    .where('updated_at', '>=', since)
    .execute();
  return rows.map((row) => ({ id: row.key.slice(PREFIX.length), seen_at: row.updated_at }));
}
