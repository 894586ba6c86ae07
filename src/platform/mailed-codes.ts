/**
 * Six-digit codes mailed to prove an address (registration's verification, the guest account's sign-in):
 * made with a fresh salt, kept only as a salted hash, and matched against a guess with every pending code's
 * attempt claimed before it is compared, so concurrent guesses cannot go past a code's cap.
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { randomToken } from './ids.js';

const codeHash = (salt: string, code: string) => createHash('sha256').update(`${salt}:${code}`).digest();

/** A new code (to mail) and what is stored of it. */
export function newMailedCode(): { code: string; code_salt: string; code_hash: string } {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const salt = randomToken(16);
  return { code, code_salt: salt, code_hash: codeHash(salt, code).toString('hex') };
}

/**
 * The first pending code the guess matches. `claimAttempt` spends one attempt of a code (a conditional
 * update) and answers whether it could; only codes whose attempt was claimed are compared.
 */
export async function matchMailedCode<T extends { code_salt: string; code_hash: string }>(
  pending: readonly T[],
  guess: string,
  claimAttempt: (row: T) => Promise<boolean>,
): Promise<T | undefined> {
  let match: T | undefined;
  for (const row of pending) {
    if (!(await claimAttempt(row))) continue;
    if (timingSafeEqual(codeHash(row.code_salt, guess), Buffer.from(row.code_hash, 'hex'))) match ??= row;
  }
  return match;
}
