/**
 * Server-side sessions: opaque random bearer tokens, stored only as a SHA-256 hash, with a sliding
 * expiry (SESSION_TTL_HOURS) and an absolute one (SESSION_MAX_DAYS from sign-in): a stolen token that is
 * kept busy still dies. Verification extends the expiry at most once a minute to spare writes, never past
 * the absolute end.
 *
 * Every authenticated request verifies its session, so the look-up is written as SQL: building and
 * compiling it with the query builder cost several times running it (docs/performance.md). Nothing is
 * cached in memory: a session ended on any instance is refused by the next request.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { SessionUser } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { newId, randomToken } from '../../platform/ids.js';

const SLIDE_EVERY_MS = 60_000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A session and its user, as the look-up reads them. */
interface SessionRow extends SessionUser {
  session_id: string;
  expires_at: string;
  last_seen_at: string;
  created_at: string;
}

export interface VerifiedSession {
  sessionId: string;
  user: SessionUser;
}

export function createSessions(deps: { db: Db; clock: Clock; ttlHours: number; maxDays: number }) {
  const { db, clock } = deps;
  const ttlMs = deps.ttlHours * 3600_000;
  const maxMs = deps.maxDays * 86_400_000;
  const expiryFrom = (now: Date, createdAt: Date) => new Date(Math.min(now.getTime() + ttlMs, createdAt.getTime() + maxMs)).toISOString();

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
          expires_at: expiryFrom(now, now),
        })
        .execute();
      return token;
    },

    async verify(token: string): Promise<VerifiedSession | undefined> {
      const { rows } = await sql<SessionRow>`
        select s.id as session_id, s.expires_at, s.last_seen_at, s.created_at,
               u.id, u.role, u.name, u.email, u.operator_id, u.role_id
        from sessions s join users u on u.id = s.user_id
        where s.token_hash = ${hashToken(token)}`.execute(db.kysely);
      const row = rows[0];
      if (!row) return undefined;
      const now = clock.now();
      const createdAt = new Date(row.created_at);
      if (new Date(row.expires_at).getTime() <= now.getTime() || createdAt.getTime() + maxMs <= now.getTime()) {
        await db.kysely.deleteFrom('sessions').where('id', '=', row.session_id).execute();
        return undefined;
      }
      if (now.getTime() - new Date(row.last_seen_at).getTime() >= SLIDE_EVERY_MS) {
        // Only if nobody slid it since it was read: requests arriving together (on any instance) write once.
        await db.kysely
          .updateTable('sessions')
          .set({ last_seen_at: now.toISOString(), expires_at: expiryFrom(now, createdAt) })
          .where('id', '=', row.session_id)
          .where('last_seen_at', '=', row.last_seen_at)
          .execute();
      }
      const { session_id, expires_at: _e, last_seen_at: _l, created_at: _c, ...user } = row;
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
