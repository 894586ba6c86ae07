/**
 * `bin/maitred serve` as a child process, for tests of the production shape (several instances on one
 * database): started on a free port with the given variables, resolved once it listens, stopped with
 * SIGTERM. Start instances one after the other: the first start builds the compiled server if stale.
 */
import { spawn, type ChildProcess } from 'node:child_process';
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
          if (s.child.exitCode !== null) return resolve();
          s.child.once('exit', () => resolve());
          s.child.kill('SIGTERM');
        }),
    ),
  );
}
