/**
 * The steps of starting up that fail for reasons outside the code: opening the database, migrating it,
 * binding the port. Each failure becomes a StartupError whose one-line message names what failed (the
 * variable, the database without its password, the migration) and what to check; the CLI prints it
 * without a stack trace and exits non-zero.
 *
 * Only types are imported at the top: the CLI loads this module for every command, including those that
 * never touch the database.
 */
import path from 'node:path';
import type { Config } from './config/config.js';
import type { Db } from './db/connect.js';

/** An expected start-up failure: the message is complete and says what to check. */
export class StartupError extends Error {
  override name = 'StartupError';
}

/** A human name for the database of a DATABASE_URL, never including the password. */
export function describeDatabase(databaseUrl: string): string {
  if (databaseUrl.startsWith('sqlite:')) {
    const file = databaseUrl.slice('sqlite:'.length);
    return !file || file === ':memory:' ? 'the in-memory SQLite database' : `SQLite database ${path.resolve(file)}`;
  }
  try {
    const url = new URL(databaseUrl);
    const user = decodeURIComponent(url.username) || undefined;
    // Like libpq, an unnamed database is the user's own.
    const name = decodeURIComponent(url.pathname.replace(/^\//, '')) || user || 'postgres';
    return `PostgreSQL database "${name}" on ${url.hostname || 'localhost'}:${url.port || 5432}${user ? ` as ${user}` : ''}`;
  } catch {
    return 'the PostgreSQL database of DATABASE_URL';
  }
}

/** The most specific reason an error carries (connection failures to several addresses nest theirs). */
function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length) return reasonOf(error.errors[0]);
  if (error instanceof Error) return error.message || (error as NodeJS.ErrnoException).code || error.name;
  return String(error);
}

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

function sqliteAdvice(code: string | undefined): string {
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') return 'Check that DATABASE_URL points to a Maitred SQLite database file';
  return 'Check that the path in DATABASE_URL is right and that this user can create and write the file and its directory';
}

function postgresAdvice(code: string | undefined): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'Check that PostgreSQL is running and that DATABASE_URL names its host and port';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'Check the host name in DATABASE_URL';
    case '28P01':
    case '28000':
      return 'Check the user and password in DATABASE_URL';
    case '3D000':
      return 'Create the database (createdb) or fix its name in DATABASE_URL';
    default:
      return 'Check that PostgreSQL is running and reachable from here, and the host, port, user, password and database name in DATABASE_URL';
  }
}

/** How long the first connection may take before start-up gives up (an unreachable host may never answer). */
const CONNECT_TIMEOUT_MS = 10_000;

/** Opens DATABASE_URL and makes one round trip, so an unusable database fails here, named. */
export async function openDatabaseOrExplain(databaseUrl: string): Promise<Db> {
  const { openDatabase } = await import('./db/connect.js');
  const what = describeDatabase(databaseUrl);
  const sqlite = databaseUrl.startsWith('sqlite:');
  let db: Db;
  try {
    db = openDatabase(databaseUrl);
  } catch (error) {
    // SQLite opens (and fails) synchronously: a missing directory, no permission, not a database.
    throw new StartupError(`Cannot open ${what}: ${reasonOf(error)}. ${sqliteAdvice(codeOf(error))}.`);
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`), { code: 'ETIMEDOUT' })),
        CONNECT_TIMEOUT_MS,
      );
    });
    await Promise.race([db.kysely.selectNoFrom((eb) => eb.lit(1).as('ok')).execute(), timeout]);
    return db;
  } catch (error) {
    // The handle never worked; closing it may fail as well, which the message then says too.
    const closing = await db.close().then(
      () => '',
      (closeError: unknown) => ` (Closing the connection failed too: ${reasonOf(closeError)}.)`,
    );
    const advice = sqlite ? sqliteAdvice(codeOf(error)) : postgresAdvice(codeOf(error));
    throw new StartupError(`Cannot ${sqlite ? 'open' : 'connect to'} ${what}: ${reasonOf(error)}. ${advice}.${closing}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Applies pending migrations; a failure names the migration and the database. */
export async function migrateOrExplain(db: Db, databaseUrl: string): Promise<string[]> {
  const { migrateToLatest, MigrationError } = await import('./db/migrate.js');
  try {
    return await migrateToLatest(db);
  } catch (error) {
    if (!(error instanceof MigrationError)) throw error;
    const what = describeDatabase(databaseUrl);
    if (!error.migrationName) {
      throw new StartupError(
        `Migrations could not run on ${what}: ${error.reason}. Check that DATABASE_URL names this service's database and that this user may create tables there.`,
      );
    }
    throw new StartupError(
      `Migration ${error.migrationName} failed on ${what}: ${error.reason}. Later migrations were not run; repair the database or restore a backup, then start again.`,
    );
  }
}

interface Listener {
  listen(options: { port: number; host: string }): Promise<string>;
}

/** Binds HOST:PORT; the usual refusals name the variable to change. */
export async function listenOrExplain(app: Listener, config: Pick<Config, 'port' | 'host'>): Promise<string> {
  const { port, host } = config;
  try {
    return await app.listen({ port, host });
  } catch (error) {
    switch (codeOf(error)) {
      case 'EADDRINUSE':
        throw new StartupError(`PORT ${port} is already in use on ${host}: stop the process using it or set PORT to a free port.`);
      case 'EACCES':
        throw new StartupError(`PORT ${port} needs privileges this user lacks on ${host}: set PORT to a port above 1023.`);
      case 'EADDRNOTAVAIL':
      case 'ENOTFOUND':
        throw new StartupError(`HOST ${host} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0 for all.`);
      default:
        throw error;
    }
  }
}
