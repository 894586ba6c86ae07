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

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'maitred');
/** The first start may build dist/ (a few seconds, more on a busy machine). */
const READY_WITHIN_MS = 120_000;
/** Kept of the server's output, for the error when it fails. */
const OUTPUT_KEPT = 16_384;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Memory {
  /** Resident set size now (VmRSS), MB. */
  rssMb: number;
  /** The most it has been resident (VmHWM), MB; unknown without /proc. */
  peakMb?: number;
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
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

export interface BenchServer {
  /** `http://127.0.0.1:<port>` */
  base: string;
  pid: number;
  memory(): Memory;
  /** SIGTERM, then waits for the exit (SIGKILL if it takes more than 10 s). */
  stop(): Promise<void>;
}

/**
 * Starts `maitred serve` on a free loopback port with `env` over this process's environment, and
 * resolves once /healthz answers 200. The port is chosen here rather than PORT=0: the server's
 * "listening at" line is an info log, and the bench runs it at warn so logging costs it nothing.
 */
export async function startServer(env: Record<string, string>): Promise<BenchServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // BENCH_SERVER_NODE_ARGS: node flags for the servers only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
  // to profile what a scenario costs the server (node refuses --cpu-prof in NODE_OPTIONS).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, BIN, 'serve'], {
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port) },
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
  return { base, pid: child.pid!, memory: () => memoryOf(child.pid!), stop };
}
