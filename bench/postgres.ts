/**
 * `npm run bench:postgres`: `npm run bench` against a fresh PostgreSQL database, created for the run on
 * the server the tests use (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres) and
 * dropped after it, however the run ends. BENCH_SECONDS, BENCH_ONLY and BENCH_STARTUP_RUNS pass through.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `maitred_bench_${randomBytes(4).toString('hex')}`;
const benchUrl = new URL(serverUrl);
benchUrl.pathname = `/${name}`;

/** Runs one statement on the server's own database (CREATE and DROP DATABASE cannot run inside the one they name). */
async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`PostgreSQL is not reachable at ${serverUrl} (set TEST_DATABASE_URL): ${(error as Error).message}`, { cause: error });
  }
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The bench in a process of its own, so the RSS it reports is the bench's alone; answers its exit code. */
function runBench(): Promise<number> {
  const run = path.join(path.dirname(fileURLToPath(import.meta.url)), 'run.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', run], {
    env: { ...process.env, BENCH_DATABASE_URL: benchUrl.toString() },
    stdio: 'inherit',
  });
  // Ctrl-C reaches the child through the terminal; this process stays to drop the database.
  const ignore = () => undefined;
  process.on('SIGINT', ignore);
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

await admin(`create database ${name}`);
const code = await runBench().finally(() =>
  // FORCE: a connection the run left open must not keep the database alive.
  admin(`drop database if exists ${name} with (force)`),
);
process.exit(code);
