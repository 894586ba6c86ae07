/**
 * A load generator for the crowd scenarios (bench/crowd.ts), where autocannon's one histogram is not
 * enough: each answer is kept (status, latency, and the body when asked), so successes and refusals get
 * their own percentiles and the bench can check what each refusal said. `connections` keep-alive
 * sockets each send one request at a time, the next as soon as the last is answered (like autocannon),
 * until `total` requests were sent or `durationMs` passed.
 */
import { fork } from 'node:child_process';
import http from 'node:http';

export interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

export interface Answer {
  /** Which request (0, 1, …), in the order they were sent. */
  index: number;
  status: number;
  /** From sending the request to the end of its answer. */
  ms: number;
  /** Since the run started, when the answer ended. */
  at: number;
  body?: string;
}

export interface DriveOptions {
  base: string;
  connections: number;
  /** Stop after this many requests… */
  total?: number;
  /** …or after this long (whichever comes first). */
  durationMs?: number;
  call: (index: number) => Call;
  /** Keep each answer's body (for checks); off for throughput runs. */
  keepBodies?: boolean;
}

export interface DriveResult {
  answers: Answer[];
  /** From the first request to the last answer. */
  elapsedMs: number;
}

export async function drive(options: DriveOptions): Promise<DriveResult> {
  const url = new URL(options.base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const answers: Answer[] = [];
  const started = performance.now();
  const deadline = options.durationMs === undefined ? Infinity : started + options.durationMs;
  const total = options.total ?? Infinity;
  let next = 0;

  const send = (index: number) =>
    new Promise<Answer>((resolve, reject) => {
      const call = options.call(index);
      const sent = performance.now();
      const request = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: call.method,
          path: call.path,
          headers: { ...(call.body ? { 'content-type': 'application/json' } : {}), ...call.headers },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => options.keepBodies && chunks.push(chunk));
          response.on('end', () => {
            const now = performance.now();
            resolve({
              index,
              status: response.statusCode ?? 0,
              ms: now - sent,
              at: now - started,
              ...(options.keepBodies ? { body: Buffer.concat(chunks).toString() } : {}),
            });
          });
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(call.body);
    });

  const worker = async () => {
    while (next < total && performance.now() < deadline) {
      const index = next++;
      answers.push(await send(index));
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  const elapsedMs = performance.now() - started;
  agent.destroy();
  return { answers, elapsedMs };
}

/** The q-quantile (0.5, 0.99) of the answers' latencies, in ms; 0 with none. */
export function quantile(answers: readonly Answer[], q: number): number {
  if (answers.length === 0) return 0;
  const sorted = answers.map((a) => a.ms).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/**
 * Runs a load generator script in a process of its own (its CPU and event loop are not the measured
 * server's, nor another generator's): sends it `task` and answers the figures it sends back.
 */
export function driveInChild<F>(script: URL, task: unknown): Promise<F> {
  // Under tsx, the child inherits its loader through execArgv.
  const child = fork(script);
  child.send(task as object);
  return new Promise<F>((resolve, reject) => {
    child.once('message', (figures) => resolve(figures as F));
    child.once('error', reject);
    child.once('exit', (code) => code !== 0 && reject(new Error(`the load generator ${script.pathname} exited with ${code}`)));
  });
}
