/**
 * Opens the database named by DATABASE_URL: embedded SQLite (better-sqlite3, WAL, foreign keys,
 * busy timeout, BEGIN IMMEDIATE transactions) or PostgreSQL (pg pool).
 *
 * Each driver is loaded only when its engine is opened: a SQLite deployment never loads pg, nor a
 * PostgreSQL one the native SQLite addon. Both are CommonJS, so require() keeps opening synchronous.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import type pg from 'pg';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, SqliteDriver, type DatabaseConnection, type Dialect } from 'kysely';
import type { Database } from './schema.js';

export type Engine = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  engine: Engine;
  /** PostgreSQL schema the connection is pinned to through search_path, when not the default. */
  schema?: string;
  close(): Promise<void>;
}

const requireDriver = createRequire(import.meta.url);

let pgModule: typeof pg | undefined;
function loadPg(): typeof pg {
  if (!pgModule) {
    pgModule = requireDriver('pg') as typeof pg;
    // COUNT(*) and BIGINT come back from pg as strings; our counts always fit in a double.
    pgModule.types.setTypeParser(20, (value) => Number(value));
    pgModule.types.setTypeParser(1700, (value) => Number(value));
  }
  return pgModule;
}

/**
 * SQLite's default deferred BEGIN lets two writers both read, then fail to upgrade their lock with
 * SQLITE_BUSY regardless of the busy timeout. BEGIN IMMEDIATE takes the write lock up front, so
 * conflicting writers (another process such as the CLI included) queue on the busy timeout instead.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly sqliteConfig: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(sqliteConfig);
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.sqliteConfig);
  }
}

export function openSqlite(file: string): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const Sqlite = requireDriver('better-sqlite3') as typeof SQLite;
  const sqlite = new Sqlite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const dialect: Dialect = new ImmediateSqliteDialect({ database: sqlite });
  const kysely = new Kysely<Database>({ dialect });
  return { kysely, engine: 'sqlite', close: () => kysely.destroy() };
}

export function openPostgres(connectionString: string, options: { schema?: string; max?: number } = {}): Db {
  const pool = new (loadPg().Pool)({
    connectionString,
    max: options.max ?? 10,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { kysely, engine: 'postgres', schema: options.schema, close: () => kysely.destroy() };
}

export function openDatabase(databaseUrl: string): Db {
  if (databaseUrl.startsWith('sqlite:')) return openSqlite(databaseUrl.slice('sqlite:'.length) || ':memory:');
  return openPostgres(databaseUrl);
}
