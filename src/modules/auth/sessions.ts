/**
 * Server-side sessions: opaque random bearer tokens, stored only as a SHA-256 hash, with a sliding
 * expiry (SESSION_TTL_HOURS) and an absolute one (SESSION_MAX_DAYS from sign-in): a stolen token that is
 * kept busy still dies. Verification extends the expiry at most once a minute to spare writes, never past
 * the absolute end.
 *
 * Every authenticated request verifies its session, so the look-ups are written as SQL: building and
 * compiling them with the query builder cost several times running them (docs/performance.md). A caller
 * that already knows the session's user (the guard's session cache, platform/session-cache.ts) passes it
 * with the `auth_version` it was read at: the session row alone is read then (one indexed read, no join),
 * and the user only when the version moved. The session row is read on every request either way, so a
 * session ended on any instance is refused by the next request everywhere, and the expiry and its slide
 * are decided on the stored row exactly as without a cache.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { SessionUser, VerifiedSession } from '../../platform/auth-guard.js';
import type { Clock } from '../../platform/clock.js';
import { hashToken, newId, randomToken } from '../../platform/ids.js';

const SLIDE_EVERY_MS = 60_000;

export { hashToken };

/** The users columns a session resolves to. */
type UserRow = SessionUser;

/** A session row, as the look-ups read it. */
interface SessionState {
  session_id: string;
  user_id: string;
  expires_at: string;
  last_seen_at: string;
  created_at: string;
  auth_version: number;
}

export function createSessions(deps: { db: Db; clock: Clock; ttlHours: number; maxDays: number }) {
  const { db, clock } = deps;
  const ttlMs = deps.ttlHours * 3600_000;
  const maxMs = deps.maxDays * 86_400_000;
  const expiryFrom = (now: Date, createdAt: Date) => new Date(Math.min(now.getTime() + ttlMs, createdAt.getTime() + maxMs)).toISOString();

  /**
   * `verify` by the token's hash. With `known` (the same token's session as read before), only the
   * session row is read, and `known.user` is answered while the session and its version are unchanged.
   */
  async function verifyHash(tokenHash: string, known?: VerifiedSession): Promise<VerifiedSession | undefined> {
    let user: UserRow | undefined;
    let row: SessionState | undefined;
    if (known) {
      const { rows } = await sql<SessionState>`
        select id as session_id, user_id, expires_at, last_seen_at, created_at, auth_version
        from sessions where token_hash = ${tokenHash}`.execute(db.kysely);
      row = rows[0];
    } else {
      const { rows } = await sql<SessionState & UserRow>`
        select s.id as session_id, s.user_id, s.expires_at, s.last_seen_at, s.created_at, s.auth_version,
               u.id, u.role, u.name, u.email, u.operator_id, u.role_id
        from sessions s join users u on u.id = s.user_id
        where s.token_hash = ${tokenHash}`.execute(db.kysely);
      const joined = rows[0];
      if (joined) {
        const { session_id, user_id, expires_at, last_seen_at, created_at, auth_version, ...rest } = joined;
        row = { session_id, user_id, expires_at, last_seen_at, created_at, auth_version };
        user = rest;
      }
    }
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
    const version = Number(row.auth_version);
    if (known && known.sessionId === row.session_id && known.version === version && known.user.id === row.user_id) {
      return { sessionId: row.session_id, version, user: known.user };
    }
    if (!user) {
      // Read after the version: a change committed in between moves the version again, so the next
      // request reads the user afresh rather than keeping an older one.
      const { rows } = await sql<UserRow>`
        select id, role, name, email, operator_id, role_id from users where id = ${row.user_id}`.execute(db.kysely);
      user = rows[0];
      if (!user) return undefined;
    }
    return { sessionId: row.session_id, version, user };
  }

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

    /** The session of a bearer token and its user; undefined when there is none or it has expired. */
    async verify(token: string, known?: VerifiedSession): Promise<VerifiedSession | undefined> {
      return verifyHash(hashToken(token), known);
    },

    verifyHash,

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
