/**
 * The session cache across instances (docs/decisions.md, "Session cache"): instance B, on a database
 * connection of its own, keeps a session's user and grant in memory, reads only the session row on each
 * request, and still refuses at once whatever instance A ended or changed: a logout, a password change, a
 * user deleted, a role's permission removed or its holder moved to another role, two-factor turned on, a
 * guest's erasure. Expiry and the once-a-minute slide behave as without a cache.
 */
import { createQueryId, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { generate } from 'otplib';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGuest,
  createOperator,
  createStaff,
  createTestApp,
  insertVenue,
  login,
  bearer,
  type TestApp,
} from '../../../test/helpers/app.js';
import { TEST_PG_URL } from '../../../test/helpers/db.js';
import { buildApp, type App } from '../../app.js';
import { DATA_VERSION_EVERY_MS, openPostgres, openSqlite, type Db } from '../../db/connect.js';
import { createContext } from '../../context.js';
import { SESSION_EXPIRED_MESSAGE } from '../../platform/errors.js';
import { SessionCache } from '../../platform/session-cache.js';

let t: TestApp;
/** Instance B: its own connection to the same database, its own caches, as behind a load balancer. */
let dbB: Db;
let b: App;
/** What B sends to the database, while `recording`. */
let sent: string[] = [];
let recording = false;
const recorder: KyselyPlugin = {
  transformQuery({ node }) {
    if (recording) sent.push(compile(node));
    return node;
  },
  transformResult: async ({ result }) => result,
};
const compile = (node: RootOperationNode) => dbB.kysely.getExecutor().compileQuery(node, createQueryId()).sql.replace(/\s+/g, ' ').trim();

beforeAll(async () => {
  t = await createTestApp();
  dbB =
    t.db.engine === 'postgres' ? openPostgres(TEST_PG_URL, { schema: t.db.schema, max: 4 }) : openSqlite(t.db.url.slice('sqlite:'.length));
  b = await buildApp(
    createContext(t.config, { ...dbB, kysely: dbB.kysely.withPlugin(recorder) }, { clock: t.clock, log: pino({ level: 'silent' }) }),
  );
});
afterAll(async () => {
  await b.close();
  await dbB.close();
  await t.close();
});

const me = (app: App, headers: Record<string, string>) => app.inject({ url: '/api/auth/me', headers });
const listTables = (app: App, venueId: string, headers: Record<string, string>) =>
  app.inject({ url: `/api/my-venues/${venueId}/tables`, headers });

/** B's answer to `request`, and the statements B sent for it. */
async function onB<T>(request: () => Promise<T>): Promise<{ answer: T; statements: string[] }> {
  sent = [];
  recording = true;
  try {
    return { answer: await request(), statements: sent };
  } finally {
    recording = false;
  }
}

/**
 * Lets A's writes so far reach B's change feed (SQLite: B reads the file's data version at most every
 * DATA_VERSION_EVERY_MS; PostgreSQL: the notification arrives), so that they do not mark B's caches stale
 * in the middle of a measurement.
 */
const changesReachB = () => new Promise((resolve) => setTimeout(resolve, DATA_VERSION_EVERY_MS * 2));

function expectRefused(res: { statusCode: number; json(): unknown }) {
  expect(res.statusCode).toBe(401);
  expect(res.json()).toEqual({ request_id: expect.any(String), error: SESSION_EXPIRED_MESSAGE });
}

describe('a warm session on instance B', () => {
  it('costs one read of the session row per request, a venue route included (its venue comes from memory)', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    await changesReachB();
    expect((await me(b, op.headers)).statusCode).toBe(200);
    const warm = await onB(() => me(b, op.headers));
    expect(warm.answer.statusCode).toBe(200);
    expect(warm.statements).toHaveLength(1);
    expect(warm.statements[0]).toMatch(
      /^select id as session_id, user_id, expires_at, last_seen_at, created_at, auth_version from sessions where token_hash = /,
    );

    expect((await listTables(b, venueId, op.headers)).statusCode).toBe(200);
    const list = await onB(() => listTables(b, venueId, op.headers));
    expect(list.answer.statusCode).toBe(200);
    expect(list.statements.filter((s) => /\bfrom sessions\b/.test(s))).toHaveLength(1);
    expect(list.statements.some((s) => /\bfrom "?users"?\b|\bfrom "?roles"?\b|\bfrom "?venues"?\b/.test(s))).toBe(false);
  });

  it("sees a venue changed on instance A as soon as the change reaches it: renamed, then another account's venue is still a 404", async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const read = () => b.inject({ url: `/api/my-venues/${venueId}`, headers: op.headers });
    expect((await read()).statusCode).toBe(200);
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/my-venues/${venueId}`,
      headers: op.headers,
      payload: { name: 'Renamed' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    // B hears of A's write through the change feed (PostgreSQL's notification; SQLite's data version, polled).
    let name: unknown;
    for (let waited = 0; waited < 3_000 && name !== 'Renamed'; waited += 20) {
      name = (await read()).json().name;
      if (name !== 'Renamed') await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(name).toBe('Renamed');
    const other = await createOperator(t);
    expect((await b.inject({ url: `/api/my-venues/${venueId}`, headers: other.headers })).statusCode).toBe(404);
  });
});

describe('ended on instance A, refused by the very next request on warm instance B', () => {
  it('a logout', async () => {
    const op = await createOperator(t);
    expect((await me(b, op.headers)).statusCode).toBe(200);
    expect((await me(b, op.headers)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: op.headers })).statusCode).toBe(200);
    expectRefused(await me(b, op.headers));
  });

  it("a password changed by the account's Owner (every session of the user), and the user deleted", async () => {
    const op = await createOperator(t);
    const staff = await createStaff(t, op, { tables: 'read' });
    const second = bearer(await login(t, staff.email));
    for (const headers of [staff.headers, second]) expect((await me(b, headers)).statusCode).toBe(200);
    const changed = await t.app.inject({
      method: 'PUT',
      url: `/api/my-users/${staff.userId}`,
      headers: op.headers,
      payload: { password: 'a-new-password-1' },
    });
    expect(changed.statusCode).toBe(200);
    for (const headers of [staff.headers, second]) expectRefused(await me(b, headers));

    const again = bearer(await login(t, staff.email, 'a-new-password-1'));
    expect((await me(b, again)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/my-users/${staff.userId}`, headers: op.headers })).statusCode).toBe(200);
    expectRefused(await me(b, again));
  });

  it('two-factor turned on: every other session of the user', async () => {
    const op = await createOperator(t);
    const other = bearer(await login(t, op.email));
    expect((await me(b, other)).statusCode).toBe(200);
    const { secret } = (await t.app.inject({ method: 'POST', url: '/api/2fa/setup', headers: op.headers })).json();
    const code = await generate({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) });
    const enabled = await t.app.inject({ method: 'POST', url: '/api/2fa/enable', headers: op.headers, payload: { code } });
    expect(enabled.statusCode).toBe(200);
    expectRefused(await me(b, other));
    expect((await me(b, op.headers)).statusCode).toBe(200);
  });

  it("a guest's erasure of their account", async () => {
    const guest = await createGuest(t);
    expect((await me(b, guest.headers)).statusCode).toBe(200);
    const erased = await t.app.inject({
      method: 'DELETE',
      url: '/api/me',
      headers: guest.headers,
      payload: { confirm_email: guest.email },
    });
    expect(erased.statusCode).toBe(200);
    expectRefused(await me(b, guest.headers));
  });
});

describe('changed on instance A, applied by the very next request on warm instance B', () => {
  it("a role's permission removed (403), then the role's venue scope narrowed (404)", async () => {
    const op = await createOperator(t);
    const [v1, v2] = [await insertVenue(t, op.operatorId), await insertVenue(t, op.operatorId)];
    const staff = await createStaff(t, op, { tables: 'read', bookings: 'read' });
    for (const venueId of [v1, v2]) expect((await listTables(b, venueId, staff.headers)).statusCode).toBe(200);
    const put = (permissions: object[], venue_ids: string[]) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/my-roles/${staff.roleId}`,
        headers: op.headers,
        payload: { name: 'Floor', permissions, venue_ids },
      });

    expect((await put([{ permission_key: 'bookings', can_read: true }], [])).statusCode).toBe(200);
    const refused = await listTables(b, v1, staff.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('Your role lacks the tables:read permission.');

    expect((await put([{ permission_key: 'tables', can_read: true }], [v1])).statusCode).toBe(200);
    expect((await listTables(b, v1, staff.headers)).statusCode).toBe(200);
    expect((await listTables(b, v2, staff.headers)).statusCode).toBe(404);
  });

  it('the user moved to another role, and their role deleted', async () => {
    const op = await createOperator(t);
    const venueId = await insertVenue(t, op.operatorId);
    const reader = await createStaff(t, op, { tables: 'read' });
    const other = await createStaff(t, op, { bookings: 'read' });
    expect((await listTables(b, venueId, reader.headers)).statusCode).toBe(200);
    const moved = await t.app.inject({
      method: 'PUT',
      url: `/api/my-users/${reader.userId}`,
      headers: op.headers,
      payload: { role_id: other.roleId },
    });
    expect(moved.statusCode).toBe(200);
    expect((await listTables(b, venueId, reader.headers)).statusCode).toBe(403);

    const third = await createStaff(t, op, { tables: 'read' });
    expect((await listTables(b, venueId, third.headers)).statusCode).toBe(200);
    await t.db.kysely.deleteFrom('roles').where('id', '=', third.roleId).execute();
    expect((await listTables(b, venueId, third.headers)).statusCode).toBe(403);
  });

  it("the user's name and email, in /api/auth/me", async () => {
    const op = await createOperator(t);
    const staff = await createStaff(t, op, { tables: 'read' });
    expect((await me(b, staff.headers)).json().user.name).toBe('Staff Member');
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/my-users/${staff.userId}`,
      headers: op.headers,
      payload: { name: 'Robin Renamed', email: `renamed-${staff.email}` },
    });
    expect(renamed.statusCode).toBe(200);
    expect((await me(b, staff.headers)).json().user).toMatchObject({ name: 'Robin Renamed', email: `renamed-${staff.email}` });
  });
});

describe('expiry with a warm cache', () => {
  it('slides at most once a minute and expires a TTL after the last slide, as without a cache', async () => {
    const op = await createOperator(t);
    const ttlMs = t.config.sessionTtlHours * 3600_000;
    expect((await me(b, op.headers)).statusCode).toBe(200);
    const slides = async () => (await onB(() => me(b, op.headers))).statements.filter((s) => s.startsWith('update "sessions"')).length;
    t.clock.advance(30_000);
    expect(await slides()).toBe(0);
    t.clock.advance(30_000);
    expect(await slides()).toBe(1);
    t.clock.advance(59_000);
    expect(await slides()).toBe(0);
    // Used on A since: A slid it, so B's stored read sees the later expiry.
    t.clock.advance(1_000);
    expect((await me(t.app, op.headers)).statusCode).toBe(200);
    t.clock.advance(ttlMs - 1_000);
    expect((await me(b, op.headers)).statusCode).toBe(200);
    t.clock.advance(ttlMs);
    expectRefused(await me(b, op.headers));
  });
});

describe('SessionCache', () => {
  it('keeps at most maxEntries, least recently used out first, each at most ttlMs', () => {
    const cache = new SessionCache<string>({ maxEntries: 2, ttlMs: 1_000 });
    cache.set('a', 'A', 0);
    cache.set('b', 'B', 0);
    expect(cache.get('a', 10)).toBe('A');
    cache.set('c', 'C', 20);
    expect(cache.size).toBe(2);
    expect(cache.get('b', 30)).toBeUndefined();
    expect(cache.get('a', 999)).toBe('A');
    expect(cache.get('a', 1_000)).toBeUndefined();
    expect(cache.get('c', 1_019)).toBe('C');
    expect(cache.size).toBe(1);
  });
});
