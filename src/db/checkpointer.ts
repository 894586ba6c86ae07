/**
 * SQLite's WAL checkpoints in a thread of their own (docs/decisions.md, "SQLite checkpoints off the
 * event loop").
 *
 * In WAL mode a commit appends its pages to the log; a checkpoint copies them back into the database
 * file and syncs both. By default the connection that commits past 1,000 log pages runs that checkpoint
 * itself, inside its commit: under a crowd one batch commit in three took 12–25 ms instead of 1–3, on the
 * one thread that also answers every request. Here a worker thread with its own connection to the file
 * runs a PASSIVE checkpoint (it never waits for, nor blocks, a reader or the writer) as soon as the
 * server's connection has committed a transaction, while the event loop goes on to answer it, and every
 * CHECKPOINT_EVERY_MS for writes outside transactions and other processes'. A log wholly copied before
 * the next commit starts again from its beginning. The server's connection keeps an automatic checkpoint
 * only as a backstop (BACKSTOP_PAGES), should the thread fall behind or stop.
 */
import { Worker } from 'node:worker_threads';

/** How often the thread checkpoints the log (a checkpoint with nothing to copy costs microseconds). */
export const CHECKPOINT_EVERY_MS = 100;

/** The server connection's own automatic checkpoint while the thread runs: ten times SQLite's 1,000 pages. */
export const BACKSTOP_PAGES = 10_000;

/** SQLite's default, restored when the thread stops on its own. */
export const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

/**
 * The thread's code. It is evaluated rather than loaded from a file so that it runs the same from the
 * sources (tsx) and from the bundle; it loads the driver the server loaded, by its resolved path.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Sqlite = require(workerData.driver);
const db = new Sqlite(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
db.pragma('synchronous = NORMAL');
const statement = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const checkpoint = () => {
  try {
    statement.run();
  } catch (error) {
    // Another process checkpointing the same file at that moment: the next commit or tick tries again.
    if (error.code !== 'SQLITE_BUSY' && error.code !== 'SQLITE_LOCKED') throw error;
  }
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message === 'commit') return checkpoint();
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage('ready');
`;

export interface Checkpointer {
  /** The server's connection committed: the thread checkpoints now. */
  nudge: () => void;
  /**
   * True once the thread has opened the file; false if it failed first (`onFailure` has the error). Tests
   * wait for it; the server never needs to.
   */
  ready: Promise<boolean>;
  /** Stops the thread and closes its connection; the server connection's checkpoint is SQLite's again. */
  stop(): Promise<void>;
}

interface CheckpointerOptions {
  /** The database file. */
  file: string;
  /** The resolved path of the better-sqlite3 package the server loaded. */
  driver: string;
  /** Sets the server connection's `wal_autocheckpoint` (pages). */
  setAutocheckpoint(pages: number): void;
  /** Told once if the thread fails; the server connection checkpoints on its own from then on. */
  onFailure?(error: Error): void;
  everyMs?: number;
}

export function startCheckpointer(options: CheckpointerOptions): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file: options.file, driver: options.driver, everyMs: options.everyMs ?? CHECKPOINT_EVERY_MS },
    // A few MB of heap is all it needs.
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
  });
  // The thread never keeps the process alive: a server that closes its database stops it first.
  worker.unref();
  let stopped = false;
  options.setAutocheckpoint(BACKSTOP_PAGES);
  const fallBack = (error: Error) => {
    if (stopped) return;
    stopped = true;
    options.setAutocheckpoint(DEFAULT_AUTOCHECKPOINT_PAGES);
    options.onFailure?.(error);
  };
  const ready = new Promise<boolean>((resolve) => {
    worker.once('message', () => resolve(true));
    worker.once('error', () => resolve(false));
    worker.once('exit', () => resolve(false));
  });
  worker.on('error', fallBack);
  worker.on('exit', (code) => fallBack(new Error(`The checkpoint thread exited (${code})`)));
  return {
    ready,
    nudge: () => {
      if (!stopped) worker.postMessage('commit');
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      // Held while it stops: a process with nothing else left to do still waits for the thread's exit.
      worker.ref();
      worker.postMessage('stop');
      await exited;
      options.setAutocheckpoint(DEFAULT_AUTOCHECKPOINT_PAGES);
    },
  };
}
