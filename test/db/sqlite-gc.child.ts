/**
 * Child process of sqlite-driver.test.ts, run with --expose-gc: opens a SQLite file through our driver
 * choice, runs the migrations, then prepares thousands of distinct statements through the statement
 * cache (which drops them in batches, and all of them at each `release`) while forcing collections, and
 * exits with statements still alive.
 * better-sqlite3 12 on Node 24 aborted (SIGABRT in Statement::~Statement) on exactly this.
 */
import { sql } from 'kysely';
import { openSqlite, sqliteDriverPackage } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';

const [file, count = '6000'] = process.argv.slice(2);
if (!file) throw new Error('usage: sqlite-gc.child.ts FILE [STATEMENTS]');
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const db = openSqlite(file);
const applied = await migrateToLatest(db);
for (let i = 0; i < Number(count); i++) {
  const { rows } = await sql<{ n: number }>`select ${sql.lit(i)} as n, count(*) as c from platform_settings`.execute(db.kysely);
  if (rows[0]?.n !== i) throw new Error(`statement ${i} answered ${JSON.stringify(rows)}`);
  if (i % 250 === 0) gc();
  // A quiet server's release (platform/quiet-gc.ts): every cached statement dropped, then collected.
  if (i % 1000 === 500) {
    db.release!();
    gc();
  }
}
gc();
process.stdout.write(`${JSON.stringify({ driver: sqliteDriverPackage(), node: process.versions.node, applied: applied.length })}\n`);
