/**
 * The CLI against the test database, while the app runs in this process: --json output contracts,
 * error exits, and maintenance mode reaching a running server within 2 s. Commands run in-process
 * through runCli (the same program the binary runs, with its output captured); the real bin/maitred is
 * spawned where the process itself is the point: its version, and a separate process switching
 * maintenance mode with exactly one JSON line on stdout.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const run = promisify(execFile);
const BIN = path.resolve('bin/maitred');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const env = () => ({ ...process.env, DATABASE_URL: t.db.url, LOG_LEVEL: 'silent' });

/** The program in this process, output captured. */
function cli(args: string[]) {
  return runCli(args, { env: env() });
}

/** The real binary as a child process (it builds dist/ first if src/ is newer). */
async function spawnCli(args: string[]) {
  try {
    const { stdout, stderr } = await run(BIN, args, { env: env(), timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('maitred CLI', () => {
  it('operator create --json prints exactly one JSON line and the owner can log in', async () => {
    const email = `cli-owner-${Date.now()}@example.test`;
    const res = await cli([
      'operator',
      'create',
      '--operator',
      'CLI Bars Ltd',
      '--name',
      'Olive Owner',
      '--email',
      email,
      '--password',
      'cli-password-1',
      '--json',
    ]);
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]);
    expect(out).toEqual({ operator_id: expect.stringMatching(/^op_/), user_id: expect.stringMatching(/^usr_/) });

    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'cli-password-1' } });
    expect(login.statusCode).toBe(200);
    expect(login.json().user).toMatchObject({ id: out.user_id, role: 'client', operator_id: out.operator_id });
  });

  it('guest create --json with keys', async () => {
    const email = `cli-guest-${Date.now()}@example.test`;
    const res = await cli([
      'guest',
      'create',
      '--name',
      'Gus Guest',
      '--email',
      email,
      '--password',
      'cli-password-2',
      '--keys',
      '25',
      '--json',
    ]);
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout.trim());
    expect(out).toEqual({ user_id: expect.stringMatching(/^usr_/) });
    const { keysBalance } = await import('../../src/modules/payments/keys.js');
    expect(await keysBalance(t.db, out.user_id)).toBe(25);
    const me = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'cli-password-2' } });
    expect(me.json().user.role).toBe('guest');
  });

  it('refuses bad input on stderr with a non-zero exit and nothing on stdout', async () => {
    const dup = `cli-dup-${Date.now()}@example.test`;
    expect((await cli(['guest', 'create', '--name', 'A', '--email', dup, '--password', 'long-enough', '--json'])).code).toBe(0);
    const again = await cli(['guest', 'create', '--name', 'A', '--email', dup, '--password', 'long-enough', '--json']);
    expect(again.code).not.toBe(0);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(/already exists/);

    const short = await cli([
      'operator',
      'create',
      '--operator',
      'X',
      '--name',
      'Y',
      '--email',
      'y@example.test',
      '--password',
      'short',
      '--json',
    ]);
    expect(short.code).not.toBe(0);
    expect(short.stdout).toBe('');
    expect(short.stderr).toMatch(/password/);

    const missing = await cli(['operator', 'create', '--json']);
    expect(missing.code).not.toBe(0);
    expect(missing.stdout).toBe('');

    const badState = await cli(['maintenance', 'sideways']);
    expect(badState.code).not.toBe(0);
  });

  it('maintenance on makes a running server answer 503 on /api/* within 2 s, and off restores it', async () => {
    const before = await t.app.inject({ url: '/api/auth/me' });
    expect(before.statusCode).toBe(401);

    // A separate process, as an operator would run it: exactly one JSON line on stdout.
    const on = await spawnCli(['maintenance', 'on', '--json']);
    expect(on.code).toBe(0);
    expect(on.stdout).toBe('{"maintenance":true}\n');
    expect(on.stdout.trim()).toBe('{"maintenance":true}');
    await new Promise((r) => setTimeout(r, 1100)); // the server re-reads the flag at most once a second
    const during = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'a@b.test', password: 'x' } });
    expect(during.statusCode).toBe(503);
    expect(during.json().error).toMatch(/maintenance/i);
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);

    expect((await cli(['maintenance', 'off'])).code).toBe(0);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await t.app.inject({ url: '/api/auth/me' })).statusCode).toBe(401);
  });

  it('--version prints the package version, from the binary and in-process', async () => {
    const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
    const binary = await spawnCli(['--version']);
    expect(binary).toMatchObject({ code: 0, stdout: `${version}\n` });
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('exits 2 on an unknown command, with the reason on stderr', async () => {
    const res = await cli(['frobnicate']);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/unknown command 'frobnicate'/);
  });

  it('migrate is idempotent', async () => {
    const res = await cli(['migrate', '--json']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout.trim())).toEqual({ applied: [] });
  });
});
