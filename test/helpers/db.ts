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
import { migrations } from '../../src/db/migrations/index.js';
import { base32 } from '../../src/platform/ids.js';
import { createHash, randomBytes } from 'node:crypto';

export const ENGINE: Engine = process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
export const TEST_PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDb extends Db {
  /** The DATABASE_URL another process (the CLI) would use to reach this database. */
  url: string;
}

export async function createTestDb(): Promise<TestDb> {
  const suffix = base32(randomBytes(8));
  if (ENGINE === 'postgres') {
    // A schema an earlier test file of this worker finished with (emptied), or a new one migrated here.
    const spare = spareSchemas.pop();
    const schema = spare ?? `t_${TEST_RUN}_${suffix}`;
    const db = openPostgres(TEST_PG_URL, { schema, max: 10 });
    if (!spare) {
      // Created through the pool the tests use, so every later connection of it sees the schema.
      await sql.raw(`create schema if not exists ${schema}`).execute(db.kysely);
      await migrateToLatest(db);
      migratedShape ??= await shape(db, schema);
    }
    // The first LISTEN marks every venue changed once: let it happen before a test counts invalidations.
    await db.listening;
    const url = `${TEST_PG_URL}${TEST_PG_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;
    return {
      ...db,
      url,
      async close() {
        if (await emptied(db, schema)) spareSchemas.push(schema);
        else await sql.raw(`drop schema if exists ${schema} cascade`).execute(db.kysely);
        await db.close();
      },
    };
  }
  const file = path.join(os.tmpdir(), `maitred-test-${suffix}.db`);
  fs.copyFileSync(await sqliteTemplate(), file);
  const db = openSqlite(file);
  // A no-op on the template's copy (one read), and the migrations' own run if the template were stale.
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
 * This run's prefix of PostgreSQL schema names (set by the global setup, which drops the run's schemas at
 * its end), so a run never drops another's.
 */
const TEST_RUN = (process.env.MAITRED_TEST_RUN ?? 'x').toLowerCase();

/**
 * PostgreSQL: creating and migrating a schema costs one to several seconds of DDL (files for about 80 tables
 * and their indexes), dropping it another; emptying one costs a few milliseconds. Test files that share a
 * worker's modules (the suite does not isolate them) hand their schema on, emptied, to the next file.
 * A schema whose structure a test changed (a table added, a column dropped) is dropped instead.
 */
const spareSchemas: string[] = [];
let migratedShape: string | undefined;

/** The schema's tables, columns, indexes and constraints, as a digest (names relative to the schema). */
async function shape(db: Db, schema: string): Promise<string> {
  const { rows } = await sql<{ digest: string }>`
    select md5(coalesce(string_agg(item, ',' order by item), '')) as digest from (
      select 'c ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') as item
        from information_schema.columns where table_schema = ${schema}
      union all
      select 'i ' || replace(indexdef, ${`${schema}.`}, '') from pg_indexes where schemaname = ${schema}
      union all
      select 'k ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
        from pg_constraint where connamespace = ${schema}::regnamespace
    ) items`.execute(db.kysely);
  return rows[0]!.digest.replaceAll(schema, '');
}

/**
 * Deletes every row but the migrations' own, with foreign keys not enforced meanwhile (the session acts
 * as a replica, which needs a superuser, as the local test server's user is); false when the schema
 * cannot be handed on (its structure changed, or the role may not do this) and should be dropped.
 */
async function emptied(db: Db, schema: string): Promise<boolean> {
  if (!migratedShape) return false;
  try {
    if ((await shape(db, schema)) !== migratedShape) return false;
    const { rows } = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
       where table_schema = ${schema} and table_type = 'BASE TABLE' and table_name not like 'kysely_migration%'`.execute(db.kysely);
    const deletes = rows.map((row) => `delete from ${schema}."${row.name}";`).join(' ');
    await db.kysely.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql.raw(deletes).execute(trx);
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * A migrated SQLite file the test databases are copied from: migrating a new file costs about half a
 * second, a copy a millisecond. Named by the migrations' code, so a changed or added migration makes a
 * new template; made under a temporary name and renamed, so parallel workers never copy half a file.
 */
let template: string | undefined;
async function sqliteTemplate(): Promise<string> {
  if (template && fs.existsSync(template)) return template;
  const hash = createHash('sha256');
  for (const [name, migration] of Object.entries(migrations))
    hash.update(`${name}\0${migration.up.toString()}\0${migration.down?.toString() ?? ''}\0`);
  const file = path.join(os.tmpdir(), `maitred-test-template-${hash.digest('hex').slice(0, 16)}.db`);
  if (!fs.existsSync(file)) {
    const building = `${file}.${process.pid}.${base32(randomBytes(4))}`;
    const db = openSqlite(building);
    await migrateToLatest(db);
    await db.close(); // the last connection's close checkpoints the WAL into the file and removes it
    fs.renameSync(building, file);
  }
  template = file;
  return file;
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
