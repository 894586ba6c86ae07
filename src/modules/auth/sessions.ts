/**
 * Server-side sessions: opaque random bearer tokens, stored only as a SHA-256 hash, with a sliding
 * expiry (SESSION_TTL_HOURS). Verification extends the expiry at most once a minute to spare writes.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../db/connect.js';
import type { SessionUser } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { newId, randomToken } from '../../platform/ids.js';

const SLIDE_EVERY_MS = 60_000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface VerifiedSession {
  sessionId: string;
  user: SessionUser;
}

export function createSessions(deps: { db: Db; clock: Clock; ttlHours: number }) {
  const { db, clock } = deps;
  const ttlMs = deps.ttlHours * 3600_000;

  return {
    async create(userId: string): Promise<string> {
      const token = randomToken(32);
      const now = clock.now();
      await db.kysely
        .insertInto('sessions')
        .values({
          id: newId('ses'),
          token_hash: hashToken(token),
          user_id: userId,
          created_at: now.toISOString(),
          last_seen_at: now.toISOString(),
          expires_at: new Date(now.getTime() + ttlMs).toISOString(),
        })
        .execute();
      return token;
    },

    async verify(token: string): Promise<VerifiedSession | undefined> {
      const row = await db.kysely
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select([
          'sessions.id as session_id',
          'sessions.expires_at',
          'sessions.last_seen_at',
          'users.id',
          'users.role',
          'users.name',
          'users.email',
          'users.operator_id',
          'users.role_id',
        ])
        .where('sessions.token_hash', '=', hashToken(token))
        .executeTakeFirst();
      if (!row) return undefined;
      const now = clock.now();
      if (new Date(row.expires_at).getTime() <= now.getTime()) {
        await db.kysely.deleteFrom('sessions').where('id', '=', row.session_id).execute();
        return undefined;
      }
      if (now.getTime() - new Date(row.last_seen_at).getTime() >= SLIDE_EVERY_MS) {
        await db.kysely
          .updateTable('sessions')
          .set({ last_seen_at: now.toISOString(), expires_at: new Date(now.getTime() + ttlMs).toISOString() })
          .where('id', '=', row.session_id)
          .execute();
      }
      const { session_id, expires_at: _e, last_seen_at: _l, ...user } = row;
      return { sessionId: session_id, user };
    },

    async revoke(sessionId: string): Promise<void> {
      await db.kysely.deleteFrom('sessions').where('id', '=', sessionId).execute();
    },

    async revokeAllForUser(userId: string, exceptSessionId?: string): Promise<void> {
      let query = db.kysely.deleteFrom('sessions').where('user_id', '=', userId);
      if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
      await query.execute();
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
