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
