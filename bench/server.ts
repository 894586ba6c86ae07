/**
 * The server the bench measures, in a process of its own: the compiled runtime (`bin/maitred serve`,
 * built first if stale), so the memory it reports is the server's alone, not the seeding's or
 * autocannon's. Its memory is read from /proc/<pid>/status (Linux); elsewhere from `ps`, without a peak.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'maitred');
/** The first start may build dist/ (a few seconds, more on a busy machine). */
const READY_WITHIN_MS = 120_000;
/** Kept of the server's output, for the error when it fails. */
const OUTPUT_KEPT = 16_384;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How `npm start` starts the server (package.json's start script; docs/decisions.md, "Server memory"):
 * the environment it sets (the `NAME=value` words before `node`, such as glibc's MALLOC_ARENA_MAX) and the
 * node flags it gives (the words before bin/maitred), so the bench measures the server as it is started.
 * BENCH_PLAIN_NODE=1: neither, to measure what plain `node bin/maitred serve` does.
 */
export function serverStart(): { env: Record<string, string>; flags: string[] } {
  if (process.env.BENCH_PLAIN_NODE === '1') return { env: {}, flags: [] };
  const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = scripts.start.split(/\s+/);
  const node = words.indexOf('node');
  const env = Object.fromEntries(words.slice(0, node).map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]));
  return { env, flags: words.slice(node + 1, words.indexOf('bin/maitred')).filter((word) => word.startsWith('--')) };
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * fetch for the bench's seeding requests: a 503 is the server's load shedding (it answers before doing
 * anything, under-pressure), which a freshly started server on a busy machine may send; tried again
 * after a second, up to ten times, rather than failing the run.
 */
export async function seedFetch(url: string, init: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(url, init);
    if (res.status !== 503 || attempt === 10) return res;
    await res.arrayBuffer();
    await sleep(1000);
  }
}

export interface Memory {
  /** Resident set size now (VmRSS), MB. */
  rssMb: number;
  /** The most it has been resident (VmHWM), MB; unknown without /proc. */
  peakMb?: number;
  /** Of the RSS: anonymous memory (heaps, buffers) and mapped files (code, libraries), MB; unknown without /proc. */
  anonMb?: number;
  fileMb?: number;
}

/** A process's resident memory: /proc/<pid>/status where there is one, `ps` otherwise (macOS). */
export function memoryOf(pid: number): Memory {
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return { rssMb: Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) / 1024 };
  }
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s*(\\d+) kB$`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024, anonMb: kb('RssAnon') / 1024, fileMb: kb('RssFile') / 1024 };
}

export interface BenchServer {
  /** `http://127.0.0.1:<port>` */
  base: string;
  pid: number;
  memory(): Memory;
  /**
   * With BENCH_HEAP_SNAPSHOT=<dir>: asks the server for a V8 heap snapshot (SIGUSR2; the server runs with
   * --heapsnapshot-signal) and resolves with the file once written; `undefined` without it.
   */
  heapSnapshot(): Promise<string | undefined>;
  /** SIGTERM, then waits for the exit (SIGKILL if it takes more than 10 s). */
  stop(): Promise<void>;
}

/**
 * Starts `maitred serve` on a free loopback port with `env` over this process's environment, and
 * resolves once /healthz answers 200. The port is chosen here rather than PORT=0: the server's
 * "listening at" line is an info log, and the bench runs it at warn so logging costs it nothing.
 */
/** The bench servers' /metrics token (scenarios read the server's own counts, e.g. bookings per transaction). */
export const BENCH_METRICS_TOKEN = 'bench-metrics';

export async function startServer(env: Record<string, string>): Promise<BenchServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // BENCH_SERVER_NODE_ARGS: node flags for the servers only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
  // to profile what a scenario costs the server (node refuses --cpu-prof in NODE_OPTIONS).
  const start = serverStart();
  const nodeArgs = [...start.flags, ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean)];
  const snapshotDir = process.env.BENCH_HEAP_SNAPSHOT;
  if (snapshotDir) {
    fs.mkdirSync(snapshotDir, { recursive: true });
    nodeArgs.push('--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${path.resolve(snapshotDir)}`);
  }
  const child = spawn(process.execPath, [...nodeArgs, BIN, 'serve'], {
    env: { ...process.env, ...start.env, METRICS_TOKEN: BENCH_METRICS_TOKEN, ...env, HOST: '127.0.0.1', PORT: String(port) },
    // Read, never left to fill: a server blocked on a full pipe would measure the pipe.
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let outputBytes = 0;
  const keep = (chunk: Buffer) => {
    outputBytes += chunk.length;
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const stop = async () => {
    if (exited) return;
    if (process.env.BENCH_SHOW_OUTPUT) console.log(`server output: ${outputBytes} bytes; last: ${output.slice(-600)}`);
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exit;
    clearTimeout(timer);
  };

  const started = Date.now();
  for (;;) {
    if (exited) throw new Error(`maitred serve exited before answering:\n${output.trim()}`);
    const ok = await fetch(`${base}/healthz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() - started > READY_WITHIN_MS) {
      await stop();
      throw new Error(`maitred serve did not answer /healthz within ${READY_WITHIN_MS / 1000} s:\n${output.trim()}`);
    }
    await sleep(20);
  }
  const heapSnapshot = async () => {
    if (!snapshotDir || exited) return undefined;
    const pid = child.pid!;
    const ours = () => fs.readdirSync(snapshotDir).filter((name) => name.endsWith('.heapsnapshot') && name.includes(`.${pid}.`));
    const before = new Set(ours());
    // Its memory mappings too, for what the RSS is made of beyond the JavaScript heap.
    try {
      fs.writeFileSync(path.join(snapshotDir, `smaps.${pid}.txt`), fs.readFileSync(`/proc/${pid}/smaps`));
    } catch {
      // No /proc: the snapshot alone.
    }
    child.kill('SIGUSR2');
    // Node writes the file as it walks the heap: done when a new file's size stops changing.
    let size = -1;
    for (;;) {
      await sleep(500);
      const file = ours().find((name) => !before.has(name));
      if (!file) continue;
      const now = fs.statSync(path.join(snapshotDir, file)).size;
      if (now > 0 && now === size) return path.join(snapshotDir, file);
      size = now;
    }
  };
  return { base, pid: child.pid!, memory: () => memoryOf(child.pid!), heapSnapshot, stop };
}
