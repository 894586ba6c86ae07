/**
 * Opens the database named by DATABASE_URL: embedded SQLite (better-sqlite3, WAL, foreign keys,
 * busy timeout, BEGIN IMMEDIATE transactions) or PostgreSQL (pg pool).
 *
 * Each driver is loaded only when its engine is opened: a SQLite deployment never loads pg, nor a
 * PostgreSQL one the native SQLite addon. Both are CommonJS, so require() keeps opening synchronous.
 *
 * The SQLite addon depends on the Node.js line (docs/decisions.md, "Embedded database driver"):
 * better-sqlite3 13 on Node >= 22 (12 aborts there when statements are collected), and 12, installed
 * under the alias better-sqlite3-node20, on Node 20 (13 crashes there).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import type pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  PostgresIntrospector,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Dialect,
} from 'kysely';
import { metrics } from '../platform/metrics.js';
import { ALL_VENUES, ChangeFeed } from './change-feed.js';
import { startCheckpointer, type Checkpointer } from './checkpointer.js';
import type { Database } from './schema.js';

export type Engine = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  engine: Engine;
  /** PostgreSQL schema the connection is pinned to through search_path, when not the default. */
  schema?: string;
  /** What this process (and, on PostgreSQL, every instance) changed: for caches (change-feed.ts). */
  changes: ChangeFeed;
  /** PostgreSQL: the channel committed changes are announced on (LISTENed by every instance). */
  changeChannel?: string;
  /**
   * PostgreSQL: settles once this instance first LISTENs on the change channel (which marks every venue
   * changed once). Tests that count cache invalidations wait for it; serving never needs to.
   */
  listening?: Promise<void>;
  /** SQLite on a file: the thread that checkpoints its log. */
  checkpointer?: Checkpointer;
  /** PostgreSQL: the pool's connections now (for the metrics). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /**
   * SQLite: lets go of what the handle keeps only for speed (its compiled statements, SQLite's page
   * cache), for when the server goes quiet (platform/quiet-gc.ts); the next statements compile again.
   */
  release?(): void;
  /**
   * SQLite: the file's `PRAGMA data_version` read now on this handle (not throttled as the change feed's
   * poll is). Inside a transaction, which holds the write lock from its BEGIN IMMEDIATE, equal answers
   * mean no other connection committed between the two reads; this handle's own commits never move it.
   */
  dataVersion?(): number;
  close(): Promise<void>;
}

const requireDriver = createRequire(import.meta.url);

/** The better-sqlite3 package this Node.js line runs: 13 from Node 22 on, 12 (aliased) on Node 20. */
export function sqliteDriverPackage(nodeVersion = process.versions.node): string {
  return Number(nodeVersion.split('.')[0]) >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20';
}

export function loadSqlite(): typeof SQLite {
  const name = sqliteDriverPackage();
  try {
    return requireDriver(name) as typeof SQLite;
  } catch (error) {
    throw new Error(
      `The embedded database driver ${name} could not be loaded on Node.js ${process.versions.node}: ${(error as Error).message}. ` +
        'Run npm install with this Node.js version (Node 24 and 22 use better-sqlite3 13; Node 20 uses the optional better-sqlite3-node20).',
      { cause: error },
    );
  }
}

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
  constructor(
    config: ConstructorParameters<typeof SqliteDialect>[0],
    private readonly onCommit?: () => void,
  ) {
    super(config);
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await super.commitTransaction(connection);
    this.onCommit?.();
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const started = performance.now();
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    // Over 5 ms: the lock was held by another connection (the CLI, a backup, another process) and waited on.
    const waited = performance.now() - started;
    if (waited > LOCK_WAIT_MS) metrics.lockWait(waited / 1000);
  }
}

/** A BEGIN IMMEDIATE that takes longer than this waited for the write lock. */
const LOCK_WAIT_MS = 5;

/**
 * SQLite runs DDL inside transactions, but Kysely's adapter says it cannot, so its migrator would run each
 * migration statement by statement: a process killed half-way left tables that the next start tripped
 * over ("table … already exists"). Saying yes makes the migrator apply a run and its records in one
 * transaction, as it does on PostgreSQL: a killed run leaves nothing behind.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(
    private readonly sqliteConfig: ConstructorParameters<typeof SqliteDialect>[0],
    /** Told after each committed transaction (the checkpoint thread copies it while the loop answers). */
    private readonly onCommit?: () => void,
  ) {
    super(sqliteConfig);
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.sqliteConfig, this.onCommit);
  }
  override createAdapter() {
    return new TransactionalDdlSqliteAdapter();
  }
}

/** How often a SQLite handle looks for commits by other processes (`PRAGMA data_version`). */
export const DATA_VERSION_EVERY_MS = 100;

export function openSqlite(file: string): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const Sqlite = loadSqlite();
  const sqlite = new Sqlite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // The log's checkpoints run in a thread of their own, not inside a commit on the event loop (checkpointer.ts).
  const checkpointer =
    file === ':memory:'
      ? undefined
      : startCheckpointer({
          file,
          driver: requireDriver.resolve(sqliteDriverPackage()),
          setAutocheckpoint: (pages) => {
            if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${pages}`);
          },
          onFailure: (error) => process.emitWarning(`SQLite checkpoints are back in the server's commits: ${error.message}`),
        });
  const database = withStatementCache(sqlite);
  const dialect: Dialect = new ImmediateSqliteDialect({ database }, checkpointer?.nudge);
  const changes = new ChangeFeed();
  // `data_version` changes when another connection (another process: the CLI, a second server) commits
  // to the file. Read at most every DATA_VERSION_EVERY_MS (a read costs about a microsecond, and cache
  // hits ask several times a request), so such a commit reaches the caches within that delay.
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  let seenVersion = dataVersion.get();
  let readAt = Date.now();
  changes.poll = () => {
    const now = Date.now();
    if (now - readAt < DATA_VERSION_EVERY_MS || !sqlite.open) return;
    readAt = now;
    const version = dataVersion.get();
    if (version !== seenVersion) {
      seenVersion = version;
      changes.mark(ALL_VENUES);
    }
  };
  const kysely = new Kysely<Database>({ dialect, plugins: [changes.plugin] });
  const close = async () => {
    await checkpointer?.stop();
    await kysely.destroy();
  };
  const release = () => {
    if (!sqlite.open || sqlite.inTransaction) return;
    database.forget();
    sqlite.pragma('shrink_memory');
  };
  const readDataVersion = () => Number(dataVersion.get());
  return { kysely, engine: 'sqlite', changes, checkpointer, release, dataVersion: readDataVersion, close };
}

/**
 * Kysely prepares every query it runs; better-sqlite3's prepare compiles the SQL each time. The same few
 * hundred statements run over and over, so compiled statements are kept by their text (a statement
 * runs to completion before the next, so one can be reused). `forget` drops them all (a dropped statement
 * is finalised when it is collected), for a quiet server: a few hundred compiled statements, the multi-row
 * inserts of batches the largest, hold megabytes that a request then compiles again in microseconds each.
 */
function withStatementCache(sqlite: SQLite.Database, limit = 2000) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    prepare(text: string): SQLite.Statement {
      let statement = statements.get(text);
      if (!statement) {
        statement = sqlite.prepare(text);
        if (statements.size >= limit) statements.clear();
        statements.set(text, statement);
      }
      return statement;
    },
    forget(): void {
      statements.clear();
    },
    close(): void {
      statements.clear();
      sqlite.close();
    },
  };
}

/**
 * Kysely's table introspection (which its migrator runs before every migration run) reads the whole
 * catalog and calls pg_get_serial_sequence on each table's name; a schema, table or column that another
 * session drops meanwhile (another instance's test schema, a tenant being removed) makes that call fail
 * with 3F000 "schema … does not exist", 42P01 "relation … does not exist" or 42703 "column … does not
 * exist", although it concerns nobody here. The read is repeated (up to 10 times) then.
 */
const DROPPED_MEANWHILE = new Set(['3F000', '42P01', '42703']);

class RetryingPostgresIntrospector extends PostgresIntrospector {
  override async getTables(options?: Parameters<PostgresIntrospector['getTables']>[0]) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await super.getTables(options);
      } catch (error) {
        if (attempt >= 10 || !DROPPED_MEANWHILE.has((error as { code?: string }).code ?? '')) throw error;
      }
    }
  }
}

class IntrospectionSafePostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>) {
    return new RetryingPostgresIntrospector(db);
  }
}

export function openPostgres(connectionString: string, options: { schema?: string; max?: number } = {}): Db {
  const pool = new (loadPg().Pool)({
    connectionString,
    max: options.max ?? 10,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  const changes = new ChangeFeed();
  const kysely = new Kysely<Database>({ dialect: new IntrospectionSafePostgresDialect({ pool }), plugins: [changes.plugin] });
  const changeChannel = `maitred_changes${options.schema ? `_${options.schema}` : ''}`.toLowerCase();
  const listener = listenForChanges(connectionString, changeChannel, changes);
  changes.announce = (payload) => {
    pool.query('select pg_notify($1, $2)', [changeChannel, payload]).catch(() => changes.mark('*'));
  };
  return {
    kysely,
    engine: 'postgres',
    schema: options.schema,
    changes,
    changeChannel,
    listening: listener.listening,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await listener.stop();
      await kysely.destroy();
    },
  };
}

/**
 * Ending the LISTEN connection when it is lost or stopped: it may fail (the socket is gone), and nothing
 * waits on it; a lost one is replaced, and everything is marked changed either way.
 */
function endListener(client: pg.Client): Promise<void> {
  return client.end().then(
    () => undefined,
    () => undefined,
  );
}

/**
 * One connection per instance LISTENing on the change channel: each notification marks the venues it
 * names. When the connection drops it is opened again after a second, and everything is marked
 * changed, since notifications may have been missed meanwhile.
 */
function listenForChanges(
  connectionString: string,
  channel: string,
  changes: ChangeFeed,
): { listening: Promise<void>; stop(): Promise<void> } {
  if (!/^[a-z0-9_]+$/.test(channel)) throw new Error(`unusable change channel name ${channel}`);
  let heard!: () => void;
  const listening = new Promise<void>((resolve) => (heard = resolve));
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = () => {
    const next = new (loadPg().Client)({ connectionString });
    client = next;
    const lost = () => {
      if (client !== next) return;
      client = undefined;
      changes.mark('*');
      void endListener(next);
      if (!stopped) retry = setTimeout(connect, 1000).unref();
    };
    next.on('notification', (message) => changes.received(message.payload ?? '*'));
    next.on('error', lost);
    next.on('end', lost);
    next
      .connect()
      .then(() => next.query(`listen ${channel}`))
      .then(() => {
        changes.mark('*');
        heard();
      })
      .catch(lost);
  };
  connect();
  return {
    listening,
    async stop() {
      stopped = true;
      heard();
      clearTimeout(retry);
      const open = client;
      client = undefined;
      if (open) await endListener(open);
    },
  };
}

export function openDatabase(databaseUrl: string): Db {
  if (databaseUrl.startsWith('sqlite:')) return openSqlite(databaseUrl.slice('sqlite:'.length) || ':memory:');
  return openPostgres(databaseUrl);
}
