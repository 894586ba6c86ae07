/**
 * Password hashing with argon2id (OWASP parameters); verification never throws on a malformed hash.
 *
 * Each hash or check holds 19 MiB while it runs, on libuv's thread pool. Without a bound, a burst of
 * logins runs as many at once as the pool has threads, and the process keeps that memory afterwards;
 * they are CPU-bound anyway, so at most one per core runs at a time and the rest wait their turn.
 */
import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';

const OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
const MAX_RUNNING = Math.max(1, os.availableParallelism());

let running = 0;
const waiting: Array<() => void> = [];

/** Runs `work` when fewer than MAX_RUNNING argon2 computations are running. */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export const hashPassword = (password: string) => inTurn(() => hash(password, OPTIONS));

const check = (stored: string, password: string) => inTurn(() => verify(stored, password));

// Verified against when the email is unknown, so a wrong email costs what a wrong password costs.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  try {
    if (!stored) {
      dummyHash ??= hashPassword('not-a-real-password');
      await check(await dummyHash, password);
      return false;
    }
    return await check(stored, password);
  } catch {
    return false;
  }
}
