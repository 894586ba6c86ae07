/**
 * `bin/maitred serve` as a child process, for tests of the production shape (several instances on one
 * database): started on a free port with the given variables, resolved once it listens, stopped with
 * SIGTERM. Start instances one after the other: the first start builds the compiled server if stale.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const BIN = path.resolve('bin/maitred');

export interface ServeProcess {
  base: string;
  child: ChildProcess;
  /** Everything the server has logged so far on stdout (pino JSON lines at LOG_LEVEL=info). */
  log: () => string;
}

/** Starts `maitred serve` with these variables (on top of the test defaults); resolves once it listens. */
export async function startServe(env: Record<string, string>): Promise<ServeProcess> {
  const child = spawn(BIN, ['serve'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', PAYMENT_WEBHOOK_SECRET: 'whsec_test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`maitred serve exited with ${code}: ${stderr}`)));
  });
  return { base, child, log: () => stdout };
}

/** Stops the servers (SIGTERM) and waits for each to exit. */
export async function stopServes(servers: readonly ServeProcess[]): Promise<void> {
  await Promise.all(
    servers.map(
      (s) =>
        new Promise<void>((resolve) => {
          if (s.child.exitCode !== null || s.child.signalCode !== null) return resolve();
          s.child.once('exit', () => resolve());
          s.child.kill('SIGTERM');
        }),
    ),
  );
}

/** Several `maitred serve` processes on one database (the production shape), with their own uploads folder. */
export interface Cluster {
  servers: ServeProcess[];
  /** Calls the API through server `i % count`, JSON in and out. */
  call(
    i: number,
    method: string,
    url: string,
    body?: object,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, any> }>;
  /** Signs in through the first server (the servers run on the real clock) and answers the bearer header. */
  signIn(email: string, password: string): Promise<Record<string, string>>;
  /** Stops every server and removes the uploads folder. */
  stop(): Promise<void>;
}

/** Starts `count` servers on `DATABASE_URL` (with `env` on top), one after the other: the first start builds the compiled server if stale. */
export async function startCluster(count: number, env: Record<string, string> & { DATABASE_URL: string }): Promise<Cluster> {
  const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'maitred-cluster-'));
  const servers: ServeProcess[] = [];
  for (let i = 0; i < count; i++) servers.push(await startServe({ UPLOADS_DIR: uploads, ...env }));
  const call: Cluster['call'] = async (i, method, url, body, headers = {}) => {
    const res = await fetch(`${servers[i % servers.length].base}${url}`, {
      method,
      headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  return {
    servers,
    call,
    async signIn(email, password) {
      const login = await call(0, 'POST', '/api/auth/login', { email, password });
      return { authorization: `Bearer ${login.body.token}` };
    },
    async stop() {
      await stopServes(servers);
      fs.rmSync(uploads, { recursive: true, force: true });
    },
  };
}
