/** Sealing secrets at rest: the format, wrong keys and contexts, and the database's own key. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/platform/clock.js';
import {
  createSecretBox,
  ensureStoredSecretsKey,
  isSealed,
  open,
  seal,
  storedSecretsKey,
  UnreadableSecretError,
} from '../../src/platform/secret-box.js';
import { createTestDb, type TestDb } from '../helpers/db.js';

describe('seal and open', () => {
  const key = randomBytes(32);

  it('round-trips with a fresh IV each time in the versioned format', () => {
    const a = seal(key, 'JBSWY3DPEHPK3PXP', 'ctx');
    const b = seal(key, 'JBSWY3DPEHPK3PXP', 'ctx');
    expect(a).toMatch(/^v1:[\w-]{16}:[\w-]{22}:[\w-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(isSealed(a)).toBe(true);
    expect(isSealed('JBSWY3DPEHPK3PXP')).toBe(false);
    expect(open(key, a, 'ctx')).toBe('JBSWY3DPEHPK3PXP');
  });

  it('refuses a wrong key, another context, a changed ciphertext and a malformed value', () => {
    const sealed = seal(key, 'secret', 'ctx');
    expect(() => open(randomBytes(32), sealed, 'ctx')).toThrow(UnreadableSecretError);
    expect(() => open(key, sealed, 'other')).toThrow(UnreadableSecretError);
    const parts = sealed.split(':');
    const flipped = Buffer.from(parts[3]!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => open(key, [...parts.slice(0, 3), flipped.toString('base64url')].join(':'), 'ctx')).toThrow(UnreadableSecretError);
    expect(() => open(key, 'v1:abc', 'ctx')).toThrow(UnreadableSecretError);
    expect(() => open(key, `v2:${parts.slice(1).join(':')}`, 'ctx')).toThrow(UnreadableSecretError);
  });
});

describe('secret box over the database', () => {
  let db: TestDb;
  const clock = fixedClock('2026-06-15T12:00:00.000Z');
  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(async () => db.close());

  it('creates the stored key once; every instance reads the same one', async () => {
    const first = await ensureStoredSecretsKey(db, clock.now());
    const second = await ensureStoredSecretsKey(db, clock.now());
    expect(first.created).toBe(true);
    expect(second).toEqual({ key: first.key, created: false });
    const a = createSecretBox({ db, clock, configuredKey: undefined });
    const b = createSecretBox({ db, clock, configuredKey: undefined });
    expect(await a.prepare()).toEqual({ createdStoredKey: false });
    expect(await b.open(await a.seal('shared', 'ctx'), 'ctx')).toBe('shared');
  });

  it('once SECRETS_KEY is set, values sealed with the stored key still open and ask to be sealed again', async () => {
    const stored = (await storedSecretsKey(db))!;
    const before = seal(stored, 'old', 'ctx');
    const box = createSecretBox({ db, clock, configuredKey: randomBytes(32) });
    expect(await box.open(before, 'ctx')).toBe('old');
    expect(await box.needsResealing(before, 'ctx')).toBe(true);
    const after = await box.seal('old', 'ctx');
    expect(await box.needsResealing(after, 'ctx')).toBe(false);
    expect(() => open(stored, after, 'ctx')).toThrow(UnreadableSecretError);
    expect(await box.needsResealing('plain', 'ctx')).toBe(true);
    expect(await box.open('plain', 'ctx')).toBe('plain');
    await expect(box.open(seal(randomBytes(32), 'x', 'ctx'), 'ctx')).rejects.toThrow(UnreadableSecretError);
  });
});
