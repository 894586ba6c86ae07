/**
 * Session verification on the hot path: the sliding expiry writes at most once a minute per session
 * (once even when requests arrive together), and the session row is read on every request (the guard's
 * session cache keeps only its user and grant), so a session ended on one instance is refused by every
 * other at once (more in session-cache.test.ts).
 */
import type { KyselyPlugin, QueryId } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { buildApp } from '../../app.js';
import { createContext } from '../../context.js';
import { SESSION_EXPIRED_MESSAGE } from '../../platform/errors.js';
import { createSessions, hashToken } from './sessions.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** Counts UPDATE statements, and the rows they changed, of the Kysely instance it is plugged into. */
function updateCounter() {
  const updates = new WeakSet<QueryId>();
  const counts = { statements: 0, rowsChanged: 0 };
  const plugin: KyselyPlugin = {
    transformQuery({ node, queryId }) {
      if (node.kind === 'UpdateQueryNode') {
        counts.statements++;
        updates.add(queryId);
      }
      return node;
    },
    async transformResult({ result, queryId }) {
      if (updates.has(queryId)) counts.rowsChanged += Number(result.numAffectedRows ?? 0);
      return result;
    },
  };
  return { counts, plugin };
}

describe('sliding expiry', () => {
  it('slides on use at most once a minute, and requests arriving together write it once', async () => {
    const op = await createOperator(t);
    const { counts, plugin } = updateCounter();
    const ttlMs = t.config.sessionTtlHours * 3600_000;
    const sessions = createSessions({
      db: { ...t.db, kysely: t.db.kysely.withPlugin(plugin) },
      clock: t.clock,
      ttlHours: t.config.sessionTtlHours,
      maxDays: t.config.sessionMaxDays,
    });
    const token = await sessions.create(op.userId);
    const stored = () =>
      t.db.kysely
        .selectFrom('sessions')
        .select(['last_seen_at', 'expires_at'])
        .where('token_hash', '=', hashToken(token))
        .executeTakeFirstOrThrow();
    const signedIn = t.clock.now();

    // Ten uses within the first minute: no write.
    for (let i = 0; i < 10; i++) {
      t.clock.advance(5_000);
      expect(await sessions.verify(token)).toBeDefined();
    }
    expect(counts.statements).toBe(0);
    expect(await stored()).toEqual({
      last_seen_at: signedIn.toISOString(),
      expires_at: new Date(signedIn.getTime() + ttlMs).toISOString(),
    });

    // A minute after the last write: the next use slides the expiry.
    t.clock.advance(10_000);
    expect(await sessions.verify(token)).toBeDefined();
    expect(counts.rowsChanged).toBe(1);
    const slidAt = t.clock.now();
    expect(await stored()).toEqual({ last_seen_at: slidAt.toISOString(), expires_at: new Date(slidAt.getTime() + ttlMs).toISOString() });

    t.clock.advance(59_000);
    expect(await sessions.verify(token)).toBeDefined();
    expect(counts.rowsChanged).toBe(1);

    // Ten requests at once when the minute is up: each reads the old time, one write lands.
    t.clock.advance(1_000);
    const verified = await Promise.all(Array.from({ length: 10 }, () => sessions.verify(token)));
    expect(verified.every((session) => session?.user.id === op.userId)).toBe(true);
    expect(counts.rowsChanged).toBe(2);
    expect((await stored()).last_seen_at).toBe(t.clock.now().toISOString());
  });

  it('expires a TTL after the last slide: uses within the minute after it do not extend it', async () => {
    const op = await createOperator(t);
    t.clock.advance(30_000); // used, not slid: the stored expiry is still sign-in + TTL
    expect((await t.app.inject({ url: '/api/auth/me', headers: op.headers })).statusCode).toBe(200);
    t.clock.advance(t.config.sessionTtlHours * 3600_000 - 30_000);
    const res = await t.app.inject({ url: '/api/auth/me', headers: op.headers });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ request_id: expect.any(String), error: SESSION_EXPIRED_MESSAGE });
  });
});

describe('signing out', () => {
  it('refuses the token at once on another instance that has just accepted it', async () => {
    const other = await buildApp(createContext(t.config, t.db, { clock: t.clock, log: pino({ level: 'silent' }) }));
    try {
      const op = await createOperator(t);
      expect((await other.inject({ url: '/api/auth/me', headers: op.headers })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: op.headers })).statusCode).toBe(200);
      const after = await other.inject({ url: '/api/auth/me', headers: op.headers });
      expect(after.statusCode).toBe(401);
      expect(after.json()).toEqual({ request_id: expect.any(String), error: SESSION_EXPIRED_MESSAGE });
    } finally {
      await other.close();
    }
  });
});
