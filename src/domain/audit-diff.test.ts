import { describe, expect, it } from 'vitest';
import { auditDiff, isSecretKey, REDACTED } from './audit-diff.js';

describe('auditDiff', () => {
  it('keeps only the changed fields on both sides', () => {
    expect(
      auditDiff({ id: 't1', capacity: 2, status: 'active', updated_at: 'a' }, { capacity: 4, status: 'active', updated_at: 'b' }),
    ).toEqual({
      before: { capacity: 2 },
      after: { capacity: 4 },
    });
  });

  it('is null when nothing changed (bookkeeping fields and key order do not count)', () => {
    expect(auditDiff({ a: 1, tags: { x: 1, y: 2 }, updated_at: 'a' }, { a: 1, tags: { y: 2, x: 1 }, updated_at: 'b' })).toBeNull();
    expect(auditDiff({ a: 1 }, {})).toBeNull();
    expect(auditDiff(null, null)).toBeNull();
  });

  it('treats null and a missing old value alike, and compares arrays by value', () => {
    expect(auditDiff({ ids: ['a', 'b'], note: null }, { ids: ['a', 'b'], note: null })).toBeNull();
    expect(auditDiff({ ids: ['a'] }, { ids: ['a', 'b'], note: 'x' })).toEqual({
      before: { ids: ['a'], note: null },
      after: { ids: ['a', 'b'], note: 'x' },
    });
  });

  it('a creation keeps the non-null fields of after; a deletion those of before', () => {
    expect(auditDiff(null, { name: 'A', area: null, created_at: 'x' })).toEqual({ before: null, after: { name: 'A' } });
    expect(auditDiff({ name: 'A', area: null }, null)).toEqual({ before: { name: 'A' }, after: null });
  });

  it('redacts secrets by key, at any depth, and still records that they changed', () => {
    expect(auditDiff({ password_hash: 'h1', name: 'a' }, { password_hash: 'h2', name: 'a' })).toEqual({
      before: { password_hash: REDACTED },
      after: { password_hash: REDACTED },
    });
    expect(auditDiff(null, { password: 'p', webhook: { signing_secret: 's', url: 'u' }, api_key: 'k', token_hash: 't' })).toEqual({
      before: null,
      after: { password: REDACTED, webhook: { signing_secret: REDACTED, url: 'u' }, api_key: REDACTED, token_hash: REDACTED },
    });
    expect(auditDiff({ totp_secret: null }, { totp_secret: 'abc' })).toEqual({
      before: { totp_secret: REDACTED },
      after: { totp_secret: REDACTED },
    });
  });

  it('redacts the keys the caller names (personal data)', () => {
    expect(auditDiff({ guest_name: 'Ada', covers: 2 }, { guest_name: 'Ada K', covers: 3 }, ['guest_name'])).toEqual({
      before: { guest_name: REDACTED, covers: 2 },
      after: { guest_name: REDACTED, covers: 3 },
    });
  });

  it('names secrets by key', () => {
    for (const key of [
      'password',
      'password_hash',
      'secret',
      'totp_secret',
      'token',
      'manage_token_hash',
      'api_key',
      'apiKey',
      'private_key',
    ])
      expect(isSecretKey(key), key).toBe(true);
    for (const key of ['name', 'permission_key', 'refund_id', 'capacity', 'status']) expect(isSecretKey(key), key).toBe(false);
  });
});
