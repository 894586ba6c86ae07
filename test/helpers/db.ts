/**
 * A fresh, migrated database per test file, on the engine the vitest project names (TEST_ENGINE):
 * SQLite in a temporary file, or PostgreSQL in a schema of its own (TEST_DATABASE_URL, default the
 * local server), dropped again on close.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openPostgres, openSqlite, type Db, type Engine } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { base32 } from '../../src/platform/ids.js';
import { randomBytes } from 'node:crypto';

export const ENGINE: Engine = process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
export const TEST_PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDb extends Db {
  /** The DATABASE_URL another process (the CLI) would use to reach this database. */
  url: string;
}

export async function createTestDb(): Promise<TestDb> {
  const suffix = base32(randomBytes(8));
  if (ENGINE === 'postgres') {
    const schema = `t_${suffix}`;
    const db = openPostgres(TEST_PG_URL, { schema, max: 10 });
    // Created through the pool the tests use, so every later connection of it sees the schema.
    await sql.raw(`create schema if not exists ${schema}`).execute(db.kysely);
    await migrateToLatest(db);
    // The first LISTEN marks every venue changed once: let it happen before a test counts invalidations.
    await db.listening;
    const url = `${TEST_PG_URL}${TEST_PG_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
    return {
      ...db,
      url,
      async close() {
        await sql.raw(`drop schema if exists ${schema} cascade`).execute(db.kysely);
        await db.close();
      },
    };
  }
  const file = path.join(os.tmpdir(), `maitred-test-${suffix}.db`);
  const db = openSqlite(file);
  await migrateToLatest(db);
  return {
    ...db,
    url: `sqlite:${file}`,
    async close() {
      await db.close();
      for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
    },
  };
}

/**
 * PostgreSQL: waits until this instance has heard every change notification sent before the call (its own
 * commits included, which arrive a moment after they ran). It sends a marker notification, stays-only, for
 * a venue that does not exist, and waits for it: notifications arrive in commit order. SQLite: nothing to wait for.
 */
export async function settleChanges(db: TestDb): Promise<void> {
  if (db.engine !== 'postgres' || !db.changeChannel) return;
  const marker = `ven_settle_${base32(randomBytes(6))}`;
  const stamp = db.changes.stamp(marker, 'everything');
  await sql`select pg_notify(${db.changeChannel}, ${`|${marker}`})`.execute(db.kysely);
  for (let waited = 0; db.changes.isCurrent(stamp, marker, 'everything'); waited += 10) {
    if (waited > 10_000) throw new Error('the change notification never arrived');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
