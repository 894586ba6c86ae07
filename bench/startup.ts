/**
 * Start-up figures of the compiled runtime (`npm run bench:startup`; `npm run bench` prints them first):
 * - server: time from spawning `node bin/maitred serve` to its first 200 from /healthz, and the
 *   process's resident memory (RSS) once it has settled for a second after that;
 * - CLI: time of whole `node bin/maitred …` commands, process start to exit.
 * Each is the median of BENCH_STARTUP_RUNS runs (default 5) on an already migrated database; the
 * server's first start on an empty database (which creates and migrates it) is shown on its own line.
 * SQLite in a temporary directory unless BENCH_DATABASE_URL names another database.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, memoryOf, serverStart } from './server.js';

export interface StartupOptions {
  /** The checkout to measure (its bin/maitred). */
  root: string;
  runs: number;
  databaseUrl?: string;
}

export interface Figure {
  name: string;
  unit: 'ms' | 'MB';
  values: number[];
  target?: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Spawns the server, waits for its first 200 from /healthz, reads its RSS, and stops it. */
async function startServer(bin: string, env: NodeJS.ProcessEnv): Promise<{ ms: number; rss: number }> {
  const port = await freePort();
  const started = performance.now();
  const start = serverStart();
  const child = spawn(process.execPath, [...start.flags, bin, 'serve'], {
    env: { ...env, ...start.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let exited = false;
  child.once('exit', () => (exited = true));
  try {
    for (;;) {
      if (exited) throw new Error(`the server exited before answering: ${stderr.trim()}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (res) => res.status === 200,
        () => false,
      );
      if (ok) break;
      if (performance.now() - started > 60_000) throw new Error('the server did not answer /healthz within 60 s');
      await sleep(5);
    }
    const ms = performance.now() - started;
    await sleep(1000);
    return { ms, rss: memoryOf(child.pid!).rssMb };
  } finally {
    if (!exited) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
}

function timeCommand(bin: string, args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  execFileSync(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  return performance.now() - started;
}

export async function measureStartup(options: StartupOptions): Promise<{ figures: Figure[]; firstStartMs: number }> {
  const bin = path.join(options.root, 'bin', 'maitred');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maitred-startup-'));
  const env = {
    ...process.env,
    DATABASE_URL: options.databaseUrl ?? `sqlite:${path.join(dir, 'bench.db')}`,
    UPLOADS_DIR: path.join(dir, 'uploads'),
    NODE_ENV: 'production',
    PAYMENTS_PROVIDER: 'simulated',
    PAYMENT_WEBHOOK_SECRET: 'whsec_bench',
    LOG_LEVEL: 'info',
  };
  try {
    // Builds dist/ if it is stale, so no run below pays for a build.
    execFileSync(process.execPath, [bin, '--version'], { env, stdio: 'ignore' });
    const first = await startServer(bin, env);
    const server = { ms: [] as number[], rss: [] as number[] };
    const maintenance: number[] = [];
    const migrate: number[] = [];
    for (let i = 0; i < options.runs; i++) {
      const run = await startServer(bin, env);
      server.ms.push(run.ms);
      server.rss.push(run.rss);
      maintenance.push(timeCommand(bin, ['maintenance', 'off', '--json'], env));
      migrate.push(timeCommand(bin, ['migrate', '--json'], env));
    }
    return {
      firstStartMs: first.ms,
      figures: [
        { name: 'server: start to first 200 /healthz', unit: 'ms', values: server.ms, target: 500 },
        { name: 'server: RSS after start', unit: 'MB', values: server.rss, target: 120 },
        { name: 'CLI: maintenance off --json', unit: 'ms', values: maintenance, target: 700 },
        { name: 'CLI: migrate --json', unit: 'ms', values: migrate, target: 700 },
      ],
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function printStartup(options: StartupOptions): Promise<void> {
  const { figures, firstStartMs } = await measureStartup(options);
  const engine = options.databaseUrl && !options.databaseUrl.startsWith('sqlite:') ? 'postgres' : 'sqlite';
  console.log(`Maitred start-up: compiled dist/, ${engine}, median of ${options.runs} runs, Node ${process.version}\n`);
  console.log(`${'figure'.padEnd(42)} ${'median'.padStart(9)} ${'min'.padStart(9)} ${'max'.padStart(9)} ${'target'.padStart(9)}`);
  for (const figure of figures) {
    const cell = (value: number) => `${value.toFixed(0)} ${figure.unit}`.padStart(9);
    console.log(
      `${figure.name.padEnd(42)} ${cell(median(figure.values))} ${cell(Math.min(...figure.values))} ${cell(Math.max(...figure.values))} ${(figure.target ? `≤ ${figure.target} ${figure.unit}` : '').padStart(9)}`,
    );
  }
  const first = engine === 'sqlite' ? 'server: first start (creates + migrates db)' : 'server: first start';
  console.log(`${first.padEnd(42)} ${`${firstStartMs.toFixed(0)} ms`.padStart(9)}\n`);
}

export const startupOptionsFromEnv = (): StartupOptions => ({
  root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'),
  runs: Number(process.env.BENCH_STARTUP_RUNS ?? 5),
  databaseUrl: process.env.BENCH_DATABASE_URL,
});

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await printStartup(startupOptionsFromEnv());
}
