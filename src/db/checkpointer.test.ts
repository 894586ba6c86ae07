/**
 * SQLite's WAL checkpoints in a thread of their own (checkpointer.ts): the server's connection only keeps
 * a backstop, the thread copies committed pages back into the database file without the server's
 * connection checkpointing, closing the database stops the thread, and a thread that fails gives the
 * checkpoints back to the server's connection.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ENGINE } from '../../test/helpers/db.js';
import { BACKSTOP_PAGES, DEFAULT_AUTOCHECKPOINT_PAGES, startCheckpointer } from './checkpointer.js';
import { loadSqlite, openSqlite, sqliteDriverPackage } from './connect.js';

/** The driver package the server loads, by its resolved path (what openSqlite hands the thread). */
const DRIVER = createRequire(import.meta.url).resolve(sqliteDriverPackage());

const files: string[] = [];
afterAll(() => {
  for (const file of files) for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
});

const tempFile = () => {
  const file = path.join(os.tmpdir(), `maitred-checkpoint-${randomBytes(6).toString('hex')}.db`);
  files.push(file);
  return file;
};

const autocheckpoint = async (db: ReturnType<typeof openSqlite>) =>
  (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db.kysely)).rows[0]!.wal_autocheckpoint;

async function until(check: () => boolean, ms: number) {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

describe.skipIf(ENGINE !== 'sqlite')('SQLite checkpoints in their own thread', () => {
  it('copies committed pages into the database file while the server connection only keeps a backstop', async () => {
    const file = tempFile();
    const db = openSqlite(file);
    try {
      expect(await db.checkpointer!.ready).toBe(true);
      expect(await autocheckpoint(db)).toBe(BACKSTOP_PAGES);
      await sql`create table scratch (id integer primary key, body blob not null)`.execute(db.kysely);
      const before = fs.statSync(file).size;
      // About 2,000 pages of 4 KB in twenty commits: well under the backstop, so only the thread copies them.
      const body = Buffer.alloc(4000, 7);
      for (let commit = 0; commit < 20; commit++) {
        await db.kysely.transaction().execute(async (trx) => {
          for (let row = 0; row < 100; row++) await sql`insert into scratch (body) values (${body})`.execute(trx);
        });
      }
      expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(7_000_000);
      expect(await until(() => fs.statSync(file).size > before + 7_000_000, 3000)).toBe(true);
    } finally {
      await db.close();
    }
  });

  it('checkpoints as soon as it is told of a commit, not only on its timer', async () => {
    const file = tempFile();
    const Sqlite = loadSqlite();
    const server = new Sqlite(file);
    server.pragma('journal_mode = WAL');
    const checkpointer = startCheckpointer({
      file,
      driver: DRIVER,
      setAutocheckpoint: (pages) => server.pragma(`wal_autocheckpoint = ${pages}`),
      everyMs: 3_600_000,
    });
    try {
      expect(await checkpointer.ready).toBe(true);
      server.exec('create table scratch (id integer primary key, body blob not null)');
      const insert = server.prepare('insert into scratch (body) values (?)');
      server.transaction(() => {
        for (let row = 0; row < 500; row++) insert.run(Buffer.alloc(4000, 7));
      })();
      const before = fs.statSync(file).size;
      // Untold, the thread leaves the log alone (its timer is an hour away).
      expect(await until(() => fs.statSync(file).size > before, 300)).toBe(false);
      checkpointer.nudge();
      expect(await until(() => fs.statSync(file).size > before + 1_900_000, 3000)).toBe(true);
    } finally {
      await checkpointer.stop();
      server.close();
    }
  });

  it('stops with the database: close waits for the thread and leaves no file open', async () => {
    const file = tempFile();
    const db = openSqlite(file);
    expect(await db.checkpointer!.ready).toBe(true);
    await sql`create table scratch (id integer primary key)`.execute(db.kysely);
    await db.close();
    // Closing the last connection checkpoints and removes the log: the thread's connection is gone too.
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    await db.checkpointer!.stop();
  });

  it('an in-memory database has no thread', () => {
    const db = openSqlite(':memory:');
    expect(db.checkpointer).toBeUndefined();
    return db.close();
  });

  it('a thread that cannot open the database gives the checkpoints back to the server connection', async () => {
    const set = vi.fn();
    let failure: Error | undefined;
    const checkpointer = startCheckpointer({
      file: path.join(os.tmpdir(), `maitred-missing-${randomBytes(6).toString('hex')}`, 'none.db'),
      driver: DRIVER,
      setAutocheckpoint: set,
      onFailure: (error) => (failure = error),
    });
    expect(await checkpointer.ready).toBe(false);
    // The thread's error and its exit each reach the fallback; it acts once.
    expect(await until(() => failure !== undefined, 3000)).toBe(true);
    expect(failure!.message).toMatch(/directory does not exist|unable to open|exited/i);
    expect(set.mock.calls).toEqual([[BACKSTOP_PAGES], [DEFAULT_AUTOCHECKPOINT_PAGES]]);
  });
});
