/**
 * Platform maintenance mode, stored in the database so every instance (and the CLI) shares it.
 * Each instance re-reads it at most once a second, so a change reaches all of them within ~1 s.
 */
import type { Db } from '../db/connect.js';

const KEY = 'maintenance';
const CACHE_MS = 1000;

export async function setMaintenance(db: Db, on: boolean, now = new Date()): Promise<void> {
  const value = on ? '1' : '0';
  await db.kysely
    .insertInto('platform_settings')
    .values({ key: KEY, value, updated_at: now.toISOString() })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: now.toISOString() }))
    .execute();
}

export async function readMaintenance(db: Db): Promise<boolean> {
  const row = await db.kysely.selectFrom('platform_settings').select('value').where('key', '=', KEY).executeTakeFirst();
  return row?.value === '1';
}

export function createMaintenance(db: Db) {
  let cached = false;
  let readAt = 0;
  let pending: Promise<boolean> | undefined;
  return {
    async isOn(): Promise<boolean> {
      if (Date.now() - readAt < CACHE_MS) return cached;
      pending ??= readMaintenance(db)
        .then((on) => {
          cached = on;
          readAt = Date.now();
          return on;
        })
        .finally(() => {
          pending = undefined;
        });
      return pending;
    },
    async set(on: boolean): Promise<void> {
      await setMaintenance(db, on);
      cached = on;
      readAt = Date.now();
    },
  };
}

export type Maintenance = ReturnType<typeof createMaintenance>;
