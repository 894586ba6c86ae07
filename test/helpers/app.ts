/**
 * Builds the whole application against a fresh test database with a fixed clock, plus helpers to
 * create accounts and call routes as them. One per test file (beforeAll), closed in afterAll.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import pino from 'pino';
import { expect } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import { createContext, type AppContext } from '../../src/context.js';
import type { MailOutboxTable } from '../../src/db/platform.table.js';
import { fixedClock, type TestClock } from '../../src/platform/clock.js';
import { storedColumns } from '../../src/platform/mail/mail.js';
import { base32, newId } from '../../src/platform/ids.js';
import { createOperatorAccount } from '../../src/modules/team/accounts.js';
import { insertUser } from '../../src/modules/auth/users.repository.js';
import { createTestDb, type TestDb } from './db.js';

export const TEST_NOW = '2026-06-15T12:00:00.000Z';
export const TEST_PASSWORD = 'correct-horse-battery';

export interface TestApp {
  app: App;
  ctx: AppContext;
  db: TestDb;
  clock: TestClock;
  config: Config;
  close(): Promise<void>;
}

export async function createTestApp(
  env: Record<string, string> = {},
  beforeReady?: (app: App) => void,
  /** Wraps the database the application is built on (e.g. a Kysely plugin that records the SQL sent). */
  wrapDb: (db: TestDb) => TestDb = (db) => db,
): Promise<TestApp> {
  const db = wrapDb(await createTestDb());
  const uploadsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'maitred-uploads-'));
  const config = loadConfig({
    DATABASE_URL: db.url,
    UPLOADS_DIR: uploadsDir,
    PUBLIC_BASE_URL: 'http://maitred.test',
    LOG_LEVEL: 'silent',
    PAYMENT_WEBHOOK_SECRET: 'whsec_test',
    // No load shedding: a test process stalls its own loop (hashing, big bodies) and its next request must still be answered.
    SHED_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  });
  const clock = fixedClock(TEST_NOW);
  const ctx = createContext(config, db, {
    clock,
    log: pino({ level: 'silent' }),
    rateLimitNamespace: `test-${base32(randomBytes(6))}`,
  });
  const app = await buildApp(ctx);
  beforeReady?.(app);
  await app.ready();
  return {
    app,
    ctx,
    db,
    clock,
    config,
    async close() {
      await app.close();
      await ctx.close();
      fs.rmSync(uploadsDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
export const uniqueEmail = (label = 'user') => `${label}-${Date.now().toString(36)}-${++counter}@example.test`;

export interface TestOperator {
  operatorId: string;
  userId: string;
  roleId: string;
  email: string;
  password: string;
  token: string;
  headers: { authorization: string };
}

export async function login(t: TestApp, email: string, password = TEST_PASSWORD): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  if (res.statusCode !== 200 || !res.json().token) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json().token as string;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A new operator account whose primary contact (Owner role) is signed in. */
export async function createOperator(t: TestApp, name = 'Test Operator'): Promise<TestOperator> {
  const email = uniqueEmail('owner');
  const account = await createOperatorAccount(
    t.db,
    { operatorName: name, userName: `${name} Owner`, email, password: TEST_PASSWORD },
    t.clock.now(),
  );
  const token = await login(t, email);
  return { ...account, email, password: TEST_PASSWORD, token, headers: bearer(token) };
}

/** A signed-in guest (consumer) user. */
export async function createGuest(t: TestApp, name = 'Test Guest') {
  const email = uniqueEmail('guest');
  const userId = await insertUser(t.db, { role: 'guest', name, email, password: TEST_PASSWORD }, t.clock.now());
  const token = await login(t, email);
  return { userId, email, token, headers: bearer(token) };
}

/** Every mail to `email` in the outbox (tests run without SMTP: every mail is kept there), as sent (`asSent`). */
export async function mailsTo(t: TestApp, email: string) {
  return asSent(t, await t.db.kysely.selectFrom('mail_outbox').selectAll().where('recipient', '=', email.trim().toLowerCase()).execute());
}

/**
 * Outbox rows with what the sender would send: a row rendered when sent (a public booking's confirmation,
 * a sale's tickets) gets its subject, bodies and attachments from its template now; one with nothing to
 * send any more keeps its empty bodies.
 */
export async function asSent(t: TestApp, rows: Selectable<MailOutboxTable>[]): Promise<Selectable<MailOutboxTable>[]> {
  const sent: Selectable<MailOutboxTable>[] = [];
  for (const row of rows) {
    const message = row.template === null ? undefined : await t.ctx.mail.render(row);
    sent.push(message && !('skip' in message) ? { ...row, ...storedColumns(message) } : row);
  }
  return sent;
}

/**
 * The code of the address's newest pending registration: of the codes mailed to it, the one the stored
 * hash matches (mails of one fixed-clock instant have no order to tell the newest by). Undefined when none is pending.
 */
export async function pendingCodeFor(t: TestApp, email: string): Promise<string | undefined> {
  const pending = await t.db.kysely
    .selectFrom('email_verifications')
    .select(['code_salt', 'code_hash'])
    .where('email', '=', email.trim().toLowerCase())
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!pending) return undefined;
  const codes = (await mailsTo(t, email)).flatMap((mail) => mail.subject.match(/verification code: (\d{6})$/)?.[1] ?? []);
  return codes.find((code) => createHash('sha256').update(`${pending.code_salt}:${code}`).digest('hex') === pending.code_hash);
}

/** As pendingCodeFor, throwing when no code is pending. */
export async function verificationCodeFor(t: TestApp, email: string): Promise<string> {
  const code = await pendingCodeFor(t, email);
  if (!code) throw new Error(`no verification code pending for ${email}`);
  return code;
}

/**
 * Registers a guest through both steps (register, then verify-email with the mailed code) and answers both
 * responses; `verify` is undefined when there was no code to enter (the address has an account).
 */
export async function registerGuest(
  t: TestApp,
  body: { name: string; email: string; password: string; turnstile_token?: string },
  options: { remoteAddress?: string } = {},
) {
  const register = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: body, ...options });
  const code = register.statusCode === 202 ? await pendingCodeFor(t, body.email) : undefined;
  if (!code) return { register, verify: undefined };
  const verify = await t.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { email: body.email, code }, ...options });
  return { register, verify };
}

/** Inserts a venue for an operator directly (the venues module's own tests use its routes). */
export async function insertVenue(t: TestApp, operatorId: string, fields: Record<string, unknown> = {}): Promise<string> {
  const id = `ven_${base32(randomBytes(16))}`;
  const at = t.clock.now().toISOString();
  await t.db.kysely
    .insertInto('venues')
    .values({
      id,
      operator_id: operatorId,
      name: 'Test Venue',
      address: '1 High Street, London',
      created_at: at,
      updated_at: at,
      ...fields,
    })
    .execute();
  return id;
}

/**
 * Inserts a row of a venue's table directly (id, venue_id and timestamps filled in) and returns its id:
 * fixtures owned by another module, whose own tests cover its routes.
 */
export async function insertVenueRow(
  t: TestApp,
  table: string,
  venueId: string,
  fields: Record<string, unknown> = {},
  idPrefix = 'ref',
): Promise<string> {
  const id = newId(idPrefix);
  const at = t.clock.now().toISOString();
  await (t.db.kysely as unknown as Kysely<any>)
    .insertInto(table)
    .values({ id, venue_id: venueId, created_at: at, updated_at: at, ...fields })
    .execute();
  return id;
}

/** Calls under `/api/my-venues/:venueId` as one caller (`headers`; `{}` for none). Paths start with `/`. */
export function venueApi(t: TestApp, headers: Record<string, string>, venueId: string) {
  const url = (path: string) => `/api/my-venues/${venueId}${path}`;
  return {
    get: (path: string) => t.app.inject({ method: 'GET', url: url(path), headers }),
    post: (path: string, payload?: object) => t.app.inject({ method: 'POST', url: url(path), headers, ...(payload ? { payload } : {}) }),
    put: (path: string, payload: object) => t.app.inject({ method: 'PUT', url: url(path), headers, payload }),
    patch: (path: string, payload: object) => t.app.inject({ method: 'PATCH', url: url(path), headers, payload }),
    del: (path: string) => t.app.inject({ method: 'DELETE', url: url(path), headers }),
  };
}
export type VenueApi = ReturnType<typeof venueApi>;

/** Asserts that a create answered 200 with exactly `{ success: true, id }` (the body as the message otherwise); returns the id. */
export function expectCreated(res: { statusCode: number; body: string; json(): any }): string {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ success: true, id: expect.any(String) });
  return res.json().id;
}

/** A new signed-in operator (`createOperator`) with one venue (`insertVenue`), and `venueApi` for it as the operator. */
export async function setupVenue(t: TestApp, venueFields: Record<string, unknown> = {}) {
  const op = await createOperator(t);
  const venueId = await insertVenue(t, op.operatorId, venueFields);
  return { op, venueId, api: venueApi(t, op.headers, venueId) };
}

/**
 * A portal user of the operator with a custom role granting exactly `permissions`
 * (e.g. `{ tables: 'read', 'users.user': 'write' }`), optionally limited to `venueIds`; signed in.
 */
export async function createStaff(
  t: TestApp,
  operator: TestOperator,
  permissions: Record<string, 'read' | 'write'>,
  venueIds: string[] = [],
) {
  const at = t.clock.now().toISOString();
  const roleId = `role_${base32(randomBytes(16))}`;
  await t.db.kysely
    .insertInto('roles')
    .values({
      id: roleId,
      operator_id: operator.operatorId,
      name: `Staff ${++counter}`,
      description: '',
      is_system: 0,
      created_at: at,
      updated_at: at,
    })
    .execute();
  for (const [key, action] of Object.entries(permissions)) {
    await t.db.kysely
      .insertInto('role_permissions')
      .values({ role_id: roleId, permission_key: key, can_read: 1, can_write: action === 'write' ? 1 : 0 })
      .execute();
  }
  for (const venueId of venueIds) await t.db.kysely.insertInto('role_venues').values({ role_id: roleId, venue_id: venueId }).execute();
  const email = uniqueEmail('staff');
  const userId = await insertUser(
    t.db,
    { role: 'client', name: 'Staff Member', email, password: TEST_PASSWORD, operator_id: operator.operatorId, role_id: roleId },
    t.clock.now(),
  );
  const token = await login(t, email);
  return { userId, roleId, email, token, headers: bearer(token) };
}

/** 1×1 PNG, JPEG, GIF and WebP images as data URLs, for upload tests (each decodes completely). */
export const TINY_IMAGES = {
  png: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  gif: 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7',
  jpeg: 'data:image/jpeg;base64,/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAABAAEDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAj/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAAAP/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AKpAB//Z',
  webp: 'data:image/webp;base64,UklGRiQAAABXRUJQVlA4IBgAAAAwAQCdASoBAAEAAwA0JaQAA3AA/vuUAAA=',
};

/** A PNG chunk: length, type, data and CRC. */
function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A real PNG data URL of exactly `bytes` bytes: the 1×1 PNG with a private ancillary chunk of padding
 * before its end, so it decodes like any image and only its size matters.
 */
export function pngOfSize(bytes: number): string {
  const tiny = Buffer.from(TINY_IMAGES.png.slice(TINY_IMAGES.png.indexOf(',') + 1), 'base64');
  const iend = tiny.subarray(tiny.length - 12);
  const padding = bytes - tiny.length - 12;
  if (padding < 0) throw new Error(`pngOfSize: at least ${tiny.length + 12} bytes`);
  const png = Buffer.concat([tiny.subarray(0, tiny.length - 12), pngChunk('mtPd', Buffer.alloc(padding)), iend]);
  return `data:image/png;base64,${png.toString('base64')}`;
}
