/**
 * Makes sure the services the suite needs are up: PostgreSQL (for the postgres project) and Redis
 * (shared rate-limit tests). On this project's machines they are started with the commands below when
 * they are down; elsewhere point TEST_DATABASE_URL / TEST_REDIS_URL at running servers.
 */
import { execSync } from 'node:child_process';
import net from 'node:net';
import pg from 'pg';

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 1000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function ensurePostgres() {
  const url = new URL(PG_URL);
  const host = url.hostname || '127.0.0.1';
  const port = Number(url.port || 5432);
  if (!(await reachable(host, port))) {
    try {
      execSync('pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql | head -1) main start', { stdio: 'ignore' });
    } catch {
      /* reported below */
    }
  }
  for (let i = 0; i < 30; i++) {
    try {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      if (i === 29) throw new Error(`PostgreSQL is not reachable at ${PG_URL}: ${(error as Error).message}`, { cause: error });
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

async function ensureRedis() {
  const url = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  if (await reachable(url.hostname, Number(url.port || 6379))) return;
  try {
    execSync(
      'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /tmp --logfile /tmp/maitred-redis.log',
      { stdio: 'ignore' },
    );
  } catch {
    /* the Redis-backed tests report it */
  }
}

/** The widget pages' tests need the built widgets (dist/widget), built here when widget/ changed; the portal's likewise. */
async function ensureWidgetBuild() {
  // @ts-expect-error: a plain ES module script without type declarations
  const { buildWidget, widgetIsStale } = (await import('../scripts/build-widget.mjs')) as {
    buildWidget: () => Promise<boolean>;
    widgetIsStale: () => boolean;
  };
  // @ts-expect-error: as above
  const { withBuildLock } = (await import('../scripts/ensure-built.mjs')) as {
    withBuildLock: (fn: () => Promise<unknown>, skip?: () => boolean) => Promise<void>;
  };
  if (widgetIsStale())
    await withBuildLock(
      () => buildWidget(),
      () => !widgetIsStale(),
    );
  // The portal's tests (and the browser tests) need the built portal (dist/portal) likewise.
  // @ts-expect-error: a plain ES module script without type declarations
  const { buildPortal, portalIsStale } = (await import('../scripts/build-portal.mjs')) as {
    buildPortal: () => Promise<boolean>;
    portalIsStale: () => boolean;
  };
  if (portalIsStale())
    await withBuildLock(
      () => buildPortal(),
      () => !portalIsStale(),
    );
}

/**
 * Each run names its PostgreSQL test schemas with its own prefix (test/helpers/db.ts hands emptied schemas
 * on between test files instead of dropping them); the run drops its own at the end, never another's.
 */
async function dropRunSchemas(run: string) {
  const client = new pg.Client({ connectionString: PG_URL });
  try {
    await client.connect();
    const { rows } = await client.query<{ name: string }>(
      "select nspname as name from pg_namespace where nspname like 't\\_' || $1 || '\\_%'",
      [run],
    );
    for (const { name } of rows) await client.query(`drop schema if exists "${name}" cascade`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export default async function setup() {
  // Every project's setup runs in this one process: the first names the run for all of them.
  process.env.MAITRED_TEST_RUN ??= `r${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const run = process.env.MAITRED_TEST_RUN;
  await Promise.all([ensurePostgres(), ensureRedis(), ensureWidgetBuild()]);
  return async () => {
    if (await reachable(new URL(PG_URL).hostname || '127.0.0.1', Number(new URL(PG_URL).port || 5432))) await dropRunSchemas(run);
  };
}
