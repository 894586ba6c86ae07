/**
 * Backups and restores that never stop the service (`maitred backup`, `maitred restore`, the scheduled
 * backup job). A backup is three things side by side:
 *
 *   FILE                 SQLite: a copy taken with the online backup API (a consistent snapshot while
 *                        servers keep writing); PostgreSQL: `pg_dump --format=custom` (one snapshot)
 *   FILE.uploads/        the uploads folder as it was
 *   FILE.manifest.json   engine, the last migration applied, when, and FILE's SHA-256
 *
 * A restore checks the manifest (engine, a migration this version knows, the checksum) and the file's
 * integrity (SQLite `integrity_check`, `pg_restore --list`), refuses while a server is running against the
 * target (their heartbeats, platform/instances.ts), replaces the database, migrates it forward, and puts
 * the uploads back. The caller then re-applies the erasure ledger it read from the database it replaced.
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_MIGRATION_TABLE, sql, type Kysely } from 'kysely';
import { liveInstances } from '../platform/instances.js';
import { loadSqlite, openDatabase, type Db } from './connect.js';
import { migrateToLatest } from './migrate.js';
import { migrations } from './migrations/index.js';

const run = promisify(execFile);

export interface BackupManifest {
  format: 1;
  engine: 'sqlite' | 'postgres';
  /** The last migration the database had: a restore needs a version that knows it. */
  migration: string | null;
  created_at: string;
  sha256: string;
  /** Whether FILE.uploads/ holds the uploads folder. */
  uploads: boolean;
}

export class BackupError extends Error {
  override name = 'BackupError';
}

export interface BackupSource {
  databaseUrl: string;
  uploadsDir: string;
  /** The open database (servers and tests pass theirs; the CLI opens one). */
  db: Db;
}

const manifestOf = (file: string) => `${file}.manifest.json`;
const uploadsOf = (file: string) => `${file}.uploads`;
const sqliteFileOf = (databaseUrl: string) => databaseUrl.slice('sqlite:'.length);

/** The PostgreSQL schema a DATABASE_URL pins through `options=-c search_path=…` (tests do), if any. */
function schemaOf(databaseUrl: string): string | undefined {
  const options = new URL(databaseUrl).searchParams.get('options') ?? '';
  return /search_path=([A-Za-z0-9_]+)/.exec(options)?.[1];
}

/** The URL without the `options` parameter pg_dump and pg_restore do not need (the schema is passed on its own). */
function plainUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.delete('options');
  return url.toString();
}

async function lastMigration(db: Db): Promise<string | null> {
  const kysely = (db.schema ? db.kysely.withSchema(db.schema) : db.kysely) as unknown as Kysely<Record<string, { name: string }>>;
  const rows = await kysely.selectFrom(DEFAULT_MIGRATION_TABLE).select('name').execute();
  return (
    rows
      .map((row) => row.name)
      .sort()
      .at(-1) ?? null
  );
}

function sha256(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    fs.createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', reject);
  });
}

async function pgTool(tool: 'pg_dump' | 'pg_restore', args: string[]): Promise<void> {
  try {
    await run(tool, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === 'ENOENT') {
      throw new BackupError(
        `${tool} is not on the PATH: install the PostgreSQL client tools (the same major version as the server) to back up or restore PostgreSQL`,
      );
    }
    throw new BackupError(`${tool} failed: ${(failure.stderr ?? failure.message).trim().split('\n').slice(0, 3).join(' ')}`);
  }
}

/** Takes a backup into `file` (and its uploads and manifest beside it) while the service keeps running. */
export async function takeBackup(source: BackupSource, file: string): Promise<BackupManifest> {
  const target = path.resolve(file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  fs.rmSync(partial, { force: true });
  const migration = await lastMigration(source.db);
  if (source.db.engine === 'sqlite') {
    const Sqlite = loadSqlite();
    const handle = new Sqlite(sqliteFileOf(source.databaseUrl), { readonly: true, fileMustExist: true });
    try {
      await handle.backup(partial);
    } finally {
      handle.close();
    }
  } else {
    const schema = schemaOf(source.databaseUrl) ?? source.db.schema;
    await pgTool('pg_dump', [
      '--format=custom',
      '--no-owner',
      `--file=${partial}`,
      ...(schema ? [`--schema=${schema}`] : []),
      plainUrl(source.databaseUrl),
    ]);
  }
  fs.renameSync(partial, target);
  const uploads = fs.existsSync(source.uploadsDir);
  fs.rmSync(uploadsOf(target), { recursive: true, force: true });
  if (uploads) fs.cpSync(source.uploadsDir, uploadsOf(target), { recursive: true });
  const manifest: BackupManifest = {
    format: 1,
    engine: source.db.engine,
    migration,
    created_at: new Date().toISOString(),
    sha256: await sha256(target),
    uploads,
  };
  fs.writeFileSync(manifestOf(target), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** The scheduled backup: `maitred-<time>.backup` in `dir`, keeping the newest `keep`. */
export async function scheduledBackup(source: Omit<BackupSource, never>, dir: string, keep: number, now: Date) {
  const file = path.join(dir, `maitred-${now.toISOString().replace(/[:.]/g, '-')}.backup`);
  await takeBackup(source, file);
  const all = fs
    .readdirSync(dir)
    .filter((name) => /^maitred-.*\.backup$/.test(name))
    .sort();
  const removed = all.slice(0, Math.max(0, all.length - keep));
  for (const name of removed) {
    const old = path.join(dir, name);
    for (const part of [old, manifestOf(old), uploadsOf(old)]) fs.rmSync(part, { recursive: true, force: true });
  }
  return { file, removed };
}

/** Reads and checks a backup's manifest and file before anything is replaced. */
export async function checkBackup(file: string, engine: 'sqlite' | 'postgres'): Promise<BackupManifest> {
  const target = path.resolve(file);
  if (!fs.existsSync(target)) throw new BackupError(`${target} does not exist`);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestOf(target), 'utf8')) as BackupManifest;
  } catch {
    throw new BackupError(`${manifestOf(target)} is missing or unreadable: restore only backups taken by maitred backup`);
  }
  if (manifest.engine !== engine) throw new BackupError(`This backup is of a ${manifest.engine} database; DATABASE_URL is ${engine}`);
  if (manifest.migration && !(manifest.migration in migrations)) {
    throw new BackupError(
      `This backup was taken by a newer version (migration ${manifest.migration}): restore it with that version or later`,
    );
  }
  if ((await sha256(target)) !== manifest.sha256) throw new BackupError(`${target} does not match its manifest's checksum: it is damaged`);
  if (engine === 'sqlite') {
    const Sqlite = loadSqlite();
    const handle = new Sqlite(target, { readonly: true, fileMustExist: true });
    try {
      const result = handle.pragma('integrity_check', { simple: true });
      if (result !== 'ok') throw new BackupError(`${target} fails SQLite's integrity check: ${String(result)}`);
    } finally {
      handle.close();
    }
  } else {
    await pgTool('pg_restore', ['--list', target]);
  }
  return manifest;
}

/**
 * Replaces the database of `databaseUrl` (and the uploads) with the backup in `file`, then migrates it
 * forward. `db` is the target, open: it is asked for running servers first, and closed before the swap.
 */
export async function restoreBackup(target: { databaseUrl: string; uploadsDir: string; db: Db }, file: string) {
  const backup = path.resolve(file);
  let manifest: BackupManifest;
  try {
    manifest = await checkBackup(backup, target.db.engine);
    // A database that is not migrated yet (a fresh one) has no heartbeats to read: nothing runs against it.
    const running = await liveInstances(target.db).catch(() => []);
    if (running.length > 0) {
      throw new BackupError(
        `${running.length} server(s) are running against this database (last seen ${running.map((r) => r.seen_at).join(', ')}): stop them before restoring`,
      );
    }
  } catch (error) {
    await target.db.close();
    throw error;
  }
  const pgSchema = target.db.engine === 'postgres' ? schemaOf(target.databaseUrl) : undefined;
  // pg_restore of one schema does not create it: a fresh database needs it first.
  if (pgSchema) await sql.raw(`create schema if not exists "${pgSchema}"`).execute(target.db.kysely);
  await target.db.close();
  if (target.db.engine === 'sqlite') {
    const file = path.resolve(sqliteFileOf(target.databaseUrl));
    const incoming = `${file}.restoring`;
    fs.rmSync(incoming, { force: true });
    const Sqlite = loadSqlite();
    const source = new Sqlite(backup, { readonly: true, fileMustExist: true });
    try {
      await source.backup(incoming);
    } finally {
      source.close();
    }
    for (const part of [`${file}-wal`, `${file}-shm`]) fs.rmSync(part, { force: true });
    fs.renameSync(incoming, file);
  } else {
    await pgTool('pg_restore', [
      '--clean',
      '--if-exists',
      '--no-owner',
      '--single-transaction',
      ...(pgSchema ? [`--schema=${pgSchema}`] : []),
      `--dbname=${plainUrl(target.databaseUrl)}`,
      backup,
    ]);
  }
  const restored = openDatabase(target.databaseUrl);
  try {
    const migrated = await migrateToLatest(restored);
    if (restored.engine === 'sqlite') await sql`pragma wal_checkpoint(truncate)`.execute(restored.kysely);
    if (manifest.uploads && fs.existsSync(uploadsOf(backup))) {
      fs.mkdirSync(target.uploadsDir, { recursive: true });
      fs.cpSync(uploadsOf(backup), target.uploadsDir, { recursive: true });
    }
    return { manifest, migrated };
  } finally {
    await restored.close();
  }
}
