/**
 * The embedded SQLite driver on the running Node.js line (docs/decisions.md, "Embedded database
 * driver"): the package chosen by version, and a child process that migrates a database and prepares and
 * drops thousands of statements under forced garbage collection exits cleanly. better-sqlite3 12 on
 * Node 24 aborted here (SIGABRT, `Assertion failed: (env) != nullptr`); CI runs this file on Node 20 and 24.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteDriverPackage } from '../../src/db/connect.js';
import { migrations } from '../../src/db/migrations/index.js';
import { base32 } from '../../src/platform/ids.js';
import { ENGINE } from '../helpers/db.js';

const run = promisify(execFile);
const CHILD = path.resolve('test/db/sqlite-gc.child.ts');
const files: string[] = [];
afterAll(() => {
  for (const file of files) for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
});

describe('sqlite driver choice', () => {
  it('takes better-sqlite3 13 from Node 22 on and the aliased 12 on Node 20', () => {
    expect(sqliteDriverPackage('24.21.0')).toBe('better-sqlite3');
    expect(sqliteDriverPackage('22.0.0')).toBe('better-sqlite3');
    expect(sqliteDriverPackage('26.1.0')).toBe('better-sqlite3');
    expect(sqliteDriverPackage('20.20.2')).toBe('better-sqlite3-node20');
  });
});

describe.skipIf(ENGINE !== 'sqlite')('sqlite driver under garbage collection', () => {
  it('a process that migrates, prepares and drops 6,000 statements under forced GC exits 0, three times', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const file = path.join(os.tmpdir(), `maitred-gc-${base32(randomBytes(8))}.db`);
      files.push(file);
      // execFile rejects on a non-zero exit or a signal (an abort), with the child's stderr.
      const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', CHILD, file, '6000'], { timeout: 120_000 });
      const report = JSON.parse(stdout.trim()) as { driver: string; node: string; applied: number };
      expect(report).toEqual({ driver: sqliteDriverPackage(), node: process.versions.node, applied: Object.keys(migrations).length });
    }
  });
});
