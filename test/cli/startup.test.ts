/**
 * Start-up failures an operator causes (a taken port, a wrong variable, an unusable database, a failing
 * migration) end `maitred serve` with a non-zero exit and one line on stderr that names what to fix,
 * never a stack trace and never a password. Each is shown on the real binary, and its message on the
 * function that produces it.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, openSqlite } from '../../src/db/connect.js';
import { describeDatabase, listenOrExplain, migrateOrExplain, openDatabaseOrExplain, StartupError } from '../../src/startup.js';
import { base32 } from '../../src/platform/ids.js';
import { createTestDb, ENGINE, TEST_PG_URL, type TestDb } from '../helpers/db.js';

const run = promisify(execFile);
const BIN = path.resolve('bin/maitred');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'maitred-startup-'));

/** `maitred serve` with these variables; it is expected to fail, so a hang is cut short. */
async function serve(env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(BIN, ['serve'], {
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: '0',
        UPLOADS_DIR: path.join(tmp, 'uploads'),
        LOG_LEVEL: 'silent',
        PAYMENT_WEBHOOK_SECRET: 'whsec_test',
        ...env,
      },
      timeout: 30_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Exit 1 and exactly one line on stderr, matching `pattern`, with no stack trace. */
function expectOneLineFailure(res: { code: number; stderr: string }, pattern: RegExp) {
  expect(res.code).toBe(1);
  expect(res.stderr.endsWith('\n')).toBe(true);
  const lines = res.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^maitred: /);
  expect(lines[0]).toMatch(pattern);
  expect(res.stderr).not.toMatch(/\n\s+at /);
}

/** An empty database on this run's engine, holding a table the first migration wants to create. */
async function databaseWithConflictingTable(): Promise<{ url: string; close(): Promise<void> }> {
  if (ENGINE === 'postgres') {
    const schema = `t_${base32(randomBytes(8))}`;
    const db = openPostgres(TEST_PG_URL, { schema, max: 1 });
    await sql.raw(`create schema ${schema}`).execute(db.kysely);
    // Kysely's bookkeeping tables, empty: other schemas of this server hold theirs, and Kysely looks for
    // them in every schema before creating its own.
    await new Migrator({ db: db.kysely, provider: { getMigrations: async () => ({}) }, migrationTableSchema: schema }).migrateToLatest();
    await sql.raw(`create table ${schema}.operators (id text primary key)`).execute(db.kysely);
    return {
      url: `${TEST_PG_URL}${TEST_PG_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`,
      async close() {
        await sql.raw(`drop schema if exists ${schema} cascade`).execute(db.kysely);
        await db.close();
      },
    };
  }
  const file = path.join(tmp, `conflict-${base32(randomBytes(4))}.db`);
  const db = openSqlite(file);
  await sql.raw('create table operators (id text primary key)').execute(db.kysely);
  await db.close();
  return { url: `sqlite:${file}`, close: async () => undefined };
}

let db: TestDb;
let blocker: net.Server;
let takenPort: number;

beforeAll(async () => {
  db = await createTestDb();
  blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  takenPort = (blocker.address() as net.AddressInfo).port;
  // Builds dist/ now if src/ is newer, so the runs below print only their own line.
  await run(BIN, ['--version'], { timeout: 60_000 });
});

afterAll(async () => {
  await new Promise((resolve) => blocker.close(resolve));
  await db.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Starts `bin/maitred serve` on a free port; resolves with its address once it listens. */
async function startCompiled() {
  const child = spawn(BIN, ['serve'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: db.url,
      UPLOADS_DIR: path.join(tmp, 'uploads'),
      LOG_LEVEL: 'info',
      PAYMENT_WEBHOOK_SECRET: 'whsec_test',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stderr.on('data', (chunk) => (output.stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output.stdout += chunk;
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output.stdout);
      if (match) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`exited with ${code}: ${output.stderr}`)));
  });
  return {
    base,
    output,
    /** Sends SIGTERM and resolves with the exit code. */
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

describe('the compiled server (bin/maitred serve)', () => {
  it('serves the API, its docs, uploads and health, and shuts down cleanly on SIGTERM', async () => {
    const server = await startCompiled();
    const { base } = server;
    let code: number | null;
    try {
      expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ ok: true });
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      const spec = (await (await fetch(`${base}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
      expect(Object.keys(spec.paths).length).toBeGreaterThan(50);
      fs.mkdirSync(path.join(tmp, 'uploads'), { recursive: true });
      fs.writeFileSync(path.join(tmp, 'uploads', 'smoke.png'), 'png bytes');
      const upload = await fetch(`${base}/uploads/smoke.png`);
      expect(upload.status).toBe(200);
      expect(upload.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(await upload.text()).toBe('png bytes');
      // The docs page and swagger-ui's script, found in node_modules from the compiled bundle.
      const docs = await fetch(`${base}/docs`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain('<title>Maitred API</title>');
      const script = await fetch(`${base}/docs/static/swagger-ui-bundle.js`);
      expect(script.status).toBe(200);
      expect(await script.text()).toMatch(/SwaggerUIBundle/);
      // A validator and a response serializer, compiled on first use.
      const invalid = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(invalid.status).toBe(400);
      expect(((await invalid.json()) as { error: string }).error).toMatch(/required field/);
      const me = await fetch(`${base}/api/auth/me`);
      expect(me.status).toBe(401);
      expect(await me.json()).toEqual({ request_id: expect.any(String), error: 'Session expired. Please log in again.' });
    } finally {
      code = await server.stop();
    }
    expect(code).toBe(0);
    expect(server.output.stdout).toMatch(/"signal":"SIGTERM","msg":"shutting down"/);
    expect(server.output.stderr).toBe('');
  });

  it('runs again from its code cache, and what it loads on first use (two-factor: otplib, qrcode) still loads', async () => {
    // The first start above wrote the cache (Node 20: beside the bundle; Node 22+: Node's own cache).
    if (!('enableCompileCache' in (await import('node:module')).default)) {
      expect(fs.existsSync(path.resolve('dist/maitred.cjs.serve.v8-cache'))).toBe(true);
    }
    const server = await startCompiled();
    try {
      const email = `cache-${randomBytes(4).toString('hex')}@example.com`;
      const post = (url: string, body: object) =>
        fetch(`${server.base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const asked = await post('/api/auth/register', { name: 'Cache Guest', email, password: 'a long passphrase' });
      expect(asked.status).toBe(202);
      // The one mail to this address carries the verification code.
      const mail = await db.kysely.selectFrom('mail_outbox').select('subject').where('recipient', '=', email).executeTakeFirstOrThrow();
      const code = mail.subject.match(/(\d{6})$/)![1];
      const registered = await post('/api/auth/verify-email', { email, code });
      expect(registered.status).toBe(201);
      const { token } = (await registered.json()) as { token: string };
      const setup = await fetch(`${server.base}/api/2fa/setup`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      expect(setup.status).toBe(200);
      const body = (await setup.json()) as { secret: string; qr_code: string };
      expect(body.secret).toMatch(/^[A-Z2-7]{16,}$/);
      expect(body.qr_code).toMatch(/^data:image\/png;base64,/);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe('maitred serve refuses to start, in one actionable line', () => {
  it('when PORT is taken: names PORT and the port', async () => {
    const res = await serve({ DATABASE_URL: db.url, PORT: String(takenPort) });
    expectOneLineFailure(res, new RegExp(`PORT ${takenPort} is already in use on 127\\.0\\.0\\.1: .*set PORT to a free port`));
  });

  it('when LOG_LEVEL is not a level: names LOG_LEVEL and the levels', async () => {
    const res = await serve({ DATABASE_URL: db.url, LOG_LEVEL: 'loud' });
    expectOneLineFailure(res, /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"/);
  });

  it('when the SQLite file cannot be opened: names the file and what to check', async () => {
    const notADirectory = path.join(tmp, 'plain-file');
    fs.writeFileSync(notADirectory, 'not a directory');
    const file = path.join(notADirectory, 'maitred.db');
    const res = await serve({ DATABASE_URL: `sqlite:${file}` });
    expectOneLineFailure(
      res,
      new RegExp(
        `Cannot open SQLite database ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*Check that the path in DATABASE_URL is right`,
      ),
    );
  });

  it('when PostgreSQL is unreachable: names the database, host and user, never the password', async () => {
    const res = await serve({ DATABASE_URL: 'postgres://maitred:s3cret-pw@127.0.0.1:1/maitred_prod' });
    expectOneLineFailure(
      res,
      /Cannot connect to PostgreSQL database "maitred_prod" on 127\.0\.0\.1:1 as maitred: .*ECONNREFUSED.*Check that PostgreSQL is running/,
    );
    expect(res.stderr).not.toContain('s3cret-pw');
  });

  it('when a migration fails: names the migration and the database', async () => {
    const broken = await databaseWithConflictingTable();
    try {
      const res = await serve({ DATABASE_URL: broken.url });
      expectOneLineFailure(
        res,
        /Migration 0001_foundation failed on (SQLite|PostgreSQL) database .*operators.*already exists.*repair the database or restore a backup/,
      );
    } finally {
      await broken.close();
    }
  });
});

describe('start-up messages', () => {
  it('describe a database without its password', () => {
    expect(describeDatabase('postgres://app:pa%24%24@db.internal:6432/bookings?sslmode=require')).toBe(
      'PostgreSQL database "bookings" on db.internal:6432 as app',
    );
    expect(describeDatabase('postgresql://app@db.internal')).toBe('PostgreSQL database "app" on db.internal:5432 as app');
    expect(describeDatabase('sqlite:./data/x.db')).toBe(`SQLite database ${path.resolve('data/x.db')}`);
    expect(describeDatabase('sqlite::memory:')).toBe('the in-memory SQLite database');
  });

  it('a SQLite path that is a directory cannot be opened', async () => {
    const error = await openDatabaseOrExplain(`sqlite:${tmp}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StartupError);
    expect((error as Error).message).toMatch(
      new RegExp(`^Cannot open SQLite database ${tmp.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .+\\. Check that`),
    );
  });

  it('a PostgreSQL database that does not exist: says to create it', async () => {
    const url = new URL(TEST_PG_URL);
    url.pathname = `/maitred_missing_${base32(randomBytes(4)).toLowerCase()}`;
    const error = await openDatabaseOrExplain(url.href).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StartupError);
    expect((error as Error).message).toMatch(
      /^Cannot connect to PostgreSQL database "maitred_missing_\w+" on .*does not exist.*Create the database \(createdb\)/,
    );
  });

  it('a failing migration is named; a healthy database migrates to nothing', async () => {
    expect(await migrateOrExplain(db, db.url)).toEqual([]);
    const broken = await databaseWithConflictingTable();
    const opened = await openDatabaseOrExplain(broken.url);
    try {
      const error = await migrateOrExplain(opened, broken.url).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StartupError);
      expect((error as Error).message).toMatch(/^Migration 0001_foundation failed on /);
    } finally {
      await opened.close();
      await broken.close();
    }
  });

  it('a database recording a migration this version does not know is refused, named', async () => {
    const table = db.engine === 'postgres' && db.schema ? sql.table(`${db.schema}.kysely_migration`) : sql.table('kysely_migration');
    await sql`insert into ${table} (name, timestamp) values ('9999_from_a_newer_version', '2030-01-01T00:00:00.000Z')`.execute(db.kysely);
    try {
      const error = await migrateOrExplain(db, db.url).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StartupError);
      expect((error as Error).message).toMatch(
        /^Migrations could not run on .*9999_from_a_newer_version.*Check that DATABASE_URL names this service's database/,
      );
    } finally {
      await sql`delete from ${table} where name = '9999_from_a_newer_version'`.execute(db.kysely);
    }
    expect(await migrateOrExplain(db, db.url)).toEqual([]);
  });

  it('a taken port names PORT; other listen failures pass through', async () => {
    const taken = { listen: () => Promise.reject(Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' })) };
    await expect(listenOrExplain(taken, { port: 8080, host: '0.0.0.0' })).rejects.toThrow(
      new StartupError('PORT 8080 is already in use on 0.0.0.0: stop the process using it or set PORT to a free port.'),
    );
    const privileged = { listen: () => Promise.reject(Object.assign(new Error('listen EACCES'), { code: 'EACCES' })) };
    await expect(listenOrExplain(privileged, { port: 80, host: '0.0.0.0' })).rejects.toThrow(/PORT 80 needs privileges .*above 1023/);
    const odd = new Error('something else');
    await expect(listenOrExplain({ listen: () => Promise.reject(odd) }, { port: 1, host: 'h' })).rejects.toBe(odd);
  });
});
