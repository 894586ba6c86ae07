/**
 * A process killed (SIGKILL) in the middle of `migrate` leaves a database that the next start migrates
 * cleanly: the migrator applies a run and its records in one transaction on both engines, so the kill
 * leaves none of the run's tables behind. The child (migrate-pause.child.ts) runs our migrations and
 * stops after creating a named table; the test kills it there.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgres, openSqlite, type Db } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { base32 } from '../../src/platform/ids.js';
import { ENGINE, TEST_PG_URL } from '../helpers/db.js';

const CHILD = path.resolve('test/db/migrate-pause.child.ts');
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/** A database nobody has migrated yet: a new SQLite file, or a new PostgreSQL schema. */
async function emptyDatabase(): Promise<{ target: string; schema: string; open: () => Db }> {
  const suffix = base32(randomBytes(8));
  if (ENGINE === 'postgres') {
    const schema = `crash_${suffix}`;
    const admin = openPostgres(TEST_PG_URL, { max: 1 });
    await sql.raw(`create schema ${schema}`).execute(admin.kysely);
    cleanups.push(async () => {
      await sql.raw(`drop schema if exists ${schema} cascade`).execute(admin.kysely);
      await admin.close();
    });
    return { target: TEST_PG_URL, schema, open: () => openPostgres(TEST_PG_URL, { schema, max: 2 }) };
  }
  const file = path.join(os.tmpdir(), `maitred-crash-${suffix}.db`);
  cleanups.push(async () => {
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
  });
  return { target: file, schema: '-', open: () => openSqlite(file) };
}

/** Runs the migrations in a child process and kills it (SIGKILL) right after `table` was created. */
async function killMigrateAfter(target: string, schema: string, table: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ENGINE, target, schema, table], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('paused')) resolve();
      if (chunk.toString().includes('finished')) reject(new Error(`the migration run never created ${table}`));
    });
    void exited.then((how) => reject(new Error(`migrate child exited (${how}) before pausing: ${stderr}`)));
  });
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
}

async function tableExists(db: Db, table: string): Promise<boolean> {
  const tables = await db.kysely.introspection.getTables();
  return tables.some((t) => t.name === table && (db.engine === 'sqlite' || t.schema === db.schema));
}

describe('migrations killed half-way', () => {
  // `operators` is the second table of 0001_foundation; `widget_settings` is in the middle of 0003_venues,
  // after two whole migrations.
  it.each(['operators', 'widget_settings'])(
    'a run killed after creating %s leaves nothing half-made; the next run migrates cleanly',
    async (table) => {
      const { target, schema, open } = await emptyDatabase();
      await killMigrateAfter(target, schema, table);

      const db = open();
      try {
        // The killed run left none of its tables behind: not the one it stopped after, nor the first of 0001.
        expect(await tableExists(db, table)).toBe(false);
        expect(await tableExists(db, 'platform_settings')).toBe(false);

        const applied = await migrateToLatest(db);
        expect(applied).toEqual(Object.keys(migrations));
        expect(await tableExists(db, table)).toBe(true);
        const settings = await db.kysely.selectFrom('platform_settings').selectAll().execute();
        expect(Array.isArray(settings)).toBe(true);
        // And a further start finds nothing left to do.
        expect(await migrateToLatest(db)).toEqual([]);
      } finally {
        await db.close();
      }
    },
  );
});
