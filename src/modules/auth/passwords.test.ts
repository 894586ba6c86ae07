/** Password hashing: bursts wait their turn (no deadlock, every answer right), malformed hashes are false. */
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.js';

describe('passwords', () => {
  it('a burst of hashes and checks all complete, each with the right answer', async () => {
    const passwords = Array.from({ length: 12 }, (_, i) => `password-number-${i}`);
    const hashes = await Promise.all(passwords.map((p) => hashPassword(p)));
    expect(new Set(hashes).size).toBe(12);
    const right = await Promise.all(passwords.map((p, i) => verifyPassword(hashes[i], p)));
    const wrong = await Promise.all(passwords.map((p, i) => verifyPassword(hashes[(i + 1) % 12], p)));
    expect(right.every(Boolean)).toBe(true);
    expect(wrong.some(Boolean)).toBe(false);
  });

  it('a missing or malformed stored hash is false, never an exception', async () => {
    expect(await verifyPassword(null, 'anything')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'anything')).toBe(false);
  });
});
