/**
 * Backup and restore (db/backup.ts), on both engines: a backup taken in the middle of a burst of bookings
 * holds every booking acknowledged before it started; restoring it (into another database) migrates it and
 * brings the uploads back; a damaged or foreign backup is refused before anything is replaced; a server's
 * heartbeat refuses the restore; and erasures made after the backup are applied again from the ledger.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { createContext } from '../../src/context.js';
import { runCli } from '../../src/cli.js';
import { restoreBackup, scheduledBackup, takeBackup } from '../../src/db/backup.js';
import { openDatabase } from '../../src/db/connect.js';
import { heartbeat } from '../../src/platform/instances.js';
import { createTestApp, insertVenue, insertVenueRow, createOperator, type TestApp } from '../helpers/app.js';
import { ENGINE, TEST_PG_URL } from '../helpers/db.js';
import { insertAccessRule, insertShift } from '../helpers/rows.js';
import { randomBytes } from 'node:crypto';

let t: TestApp;
let venueId: string;
let ruleId: string;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'maitred-backup-'));
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMITS: 'public_booking=100000/60' });
  const op = await createOperator(t);
  venueId = await insertVenue(t, op.operatorId, { status: 'live' });
  await insertShift(t, venueId, { days_of_week: '["fri"]', time_type: 'custom', time_from: '12:00', time_to: '23:45' });
  ruleId = await insertAccessRule(t, venueId, { name: 'All day', rule_type: 'table', days_of_week: '["fri"]' });
  for (let n = 1; n <= 12; n++) {
    await insertVenueRow(
      t,
      'venue_tables',
      venueId,
      { table_number: String(n), capacity: 4, min_covers: 1, status: 'active', table_type: 'standard' },
      'tbl',
    );
  }
  fs.writeFileSync(path.join(t.config.uploadsDir, 'logo-test.webp'), 'not really an image');
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await t.close();
  fs.rmSync(work, { recursive: true, force: true });
});

const book = (n: number) =>
  t.app.inject({
    method: 'POST',
    url: `/api/public/venues/${venueId}/book`,
    remoteAddress: `10.30.${Math.floor(n / 200)}.${n % 200}`,
    payload: {
      access_rule_id: ruleId,
      rule_type: 'table',
      date: ['2026-07-10', '2026-07-17', '2026-07-24', '2026-07-31'][n % 4],
      time: `${String(12 + Math.floor(n / 16)).padStart(2, '0')}:${['00', '15', '30', '45'][Math.floor(n / 4) % 4]}`,
      party_size: 2,
      guest_name: `Burst ${n}`,
      guest_email: `burst${n}@example.test`,
    },
  });

/** A database for a restore to replace: another SQLite file, or on PostgreSQL another database (the dump names its schema). */
async function otherDatabase(): Promise<string> {
  if (ENGINE === 'sqlite') return `sqlite:${path.join(work, `restored-${randomBytes(4).toString('hex')}.db`)}`;
  const name = `maitred_restore_${randomBytes(4).toString('hex')}`;
  await sql.raw(`create database ${name}`).execute(t.db.kysely);
  cleanups.push(() => sql.raw(`drop database if exists ${name} with (force)`).execute(t.db.kysely));
  const schema = /search_path%3D([a-z0-9_]+)/.exec(t.db.url)![1];
  const url = `${TEST_PG_URL.replace(/\/[^/?]*(\?.*)?$/, `/${name}`)}?options=-c%20search_path%3D${schema}`;
  const fresh = openDatabase(url);
  await sql.raw(`create schema ${schema}`).execute(fresh.kysely);
  await fresh.close();
  return url;
}

async function bookingIds(databaseUrl: string): Promise<Set<string>> {
  const db = openDatabase(databaseUrl);
  try {
    return new Set((await db.kysely.selectFrom('bookings').select('id').execute()).map((row) => row.id));
  } finally {
    await db.close();
  }
}

describe('backup and restore', () => {
  it('a backup taken mid-burst holds every booking acknowledged before it started; restored elsewhere, it migrates and brings the uploads', async () => {
    const acknowledged = new Set<string>();
    const burst = Array.from({ length: 60 }, async (_, n) => {
      await new Promise((resolve) => setTimeout(resolve, n * 3));
      const res = await book(n);
      expect(res.statusCode, res.body).toBe(200);
      acknowledged.add(res.json().booking_id as string);
    });
    // Some bookings answered, more still on their way.
    while (acknowledged.size < 5) await new Promise((resolve) => setTimeout(resolve, 5));
    const before = new Set(acknowledged);
    expect(before.size).toBeGreaterThan(0);
    const file = path.join(work, 'mid-burst.backup');
    const manifest = await takeBackup({ db: t.db, databaseUrl: t.db.url, uploadsDir: t.config.uploadsDir }, file);
    await Promise.all(burst);
    expect(manifest).toMatchObject({ engine: ENGINE, migration: expect.stringMatching(/^\d{4}_/), uploads: true });

    const target = await otherDatabase();
    const uploads = path.join(work, `uploads-${randomBytes(4).toString('hex')}`);
    await restoreBackup({ db: openDatabase(target), databaseUrl: target, uploadsDir: uploads }, file);
    const restored = await bookingIds(target);
    for (const id of before) expect(restored.has(id), id).toBe(true);
    expect(fs.readFileSync(path.join(uploads, 'logo-test.webp'), 'utf8')).toBe('not really an image');
  });

  it('refuses a damaged backup, one of the other engine, and a restore while a server runs, replacing nothing', async () => {
    const file = path.join(work, 'checked.backup');
    await takeBackup({ db: t.db, databaseUrl: t.db.url, uploadsDir: t.config.uploadsDir }, file);
    const target = await otherDatabase();
    // A server running against the target (its heartbeat is fresh): refused.
    const running = openDatabase(target);
    const { migrateToLatest } = await import('../../src/db/migrate.js');
    await migrateToLatest(running);
    await heartbeat(running, 'instance-a', new Date());
    await expect(restoreBackup({ db: running, databaseUrl: target, uploadsDir: work }, file)).rejects.toThrow(/server\(s\) are running/);

    const manifest = JSON.parse(fs.readFileSync(`${file}.manifest.json`, 'utf8'));
    fs.writeFileSync(`${file}.manifest.json`, JSON.stringify({ ...manifest, engine: ENGINE === 'sqlite' ? 'postgres' : 'sqlite' }));
    await expect(restoreBackup({ db: openDatabase(target), databaseUrl: target, uploadsDir: work }, file)).rejects.toThrow(
      /DATABASE_URL is/,
    );
    fs.writeFileSync(`${file}.manifest.json`, JSON.stringify({ ...manifest, migration: '9999_from_the_future' }));
    await expect(restoreBackup({ db: openDatabase(target), databaseUrl: target, uploadsDir: work }, file)).rejects.toThrow(/newer version/);
    fs.writeFileSync(`${file}.manifest.json`, JSON.stringify(manifest));
    fs.appendFileSync(file, 'garbage');
    await expect(restoreBackup({ db: openDatabase(target), databaseUrl: target, uploadsDir: work }, file)).rejects.toThrow(/checksum/);
  });

  it('maitred backup and maitred restore: one JSON line each; the restored database answers what the backup held', async () => {
    const file = path.join(work, 'cli.backup');
    const env = { DATABASE_URL: t.db.url, UPLOADS_DIR: t.config.uploadsDir, LOG_LEVEL: 'silent' };
    const backup = await runCli(['backup', '--to', file, '--json'], { env });
    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout)).toMatchObject({
      file,
      engine: ENGINE,
      uploads: true,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const target = await otherDatabase();
    const restore = await runCli(['restore', file, '--json'], {
      env: { ...env, DATABASE_URL: target, UPLOADS_DIR: path.join(work, 'cli-uploads') },
    });
    expect(restore.code, restore.stderr).toBe(0);
    expect(JSON.parse(restore.stdout)).toEqual({ restored: file, migrated: [], erasures_reapplied: 0 });
    const source = await bookingIds(t.db.url);
    expect(await bookingIds(target)).toEqual(source);
    const missing = await runCli(['restore', path.join(work, 'nothing.backup')], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^maitred: .*nothing\.backup does not exist\n$/);
  });

  it('scheduled backups keep the newest BACKUP_KEEP, each with its manifest and uploads', async () => {
    const dir = path.join(work, 'scheduled');
    const source = { db: t.db, databaseUrl: t.db.url, uploadsDir: t.config.uploadsDir };
    const taken: string[] = [];
    for (let hour = 0; hour < 4; hour++) {
      const { file, removed } = await scheduledBackup(source, dir, 2, new Date(Date.UTC(2026, 10, 27, hour)));
      taken.push(path.basename(file));
      expect(removed).toHaveLength(hour < 2 ? 0 : 1);
    }
    const left = fs.readdirSync(dir).sort();
    expect(left).toEqual([
      taken[2],
      `${taken[2]}.manifest.json`,
      `${taken[2]}.uploads`,
      taken[3],
      `${taken[3]}.manifest.json`,
      `${taken[3]}.uploads`,
    ]);
  });

  it('guests erased after the backup are erased again once it is restored', async () => {
    const res = await book(61);
    expect(res.statusCode, res.body).toBe(200);
    const bookingId = res.json().booking_id as string;
    const { user_id: userId, operator_id: operatorId } = await t.db.kysely
      .selectFrom('bookings')
      .select(['user_id', 'operator_id'])
      .where('id', '=', bookingId)
      .executeTakeFirstOrThrow();
    const file = path.join(work, 'before-erasure.backup');
    await takeBackup({ db: t.db, databaseUrl: t.db.url, uploadsDir: t.config.uploadsDir }, file);
    const erasedAt = t.clock.now().toISOString();
    const ledger = [{ operator_id: operatorId, user_id: userId!, erased_at: erasedAt }];

    const target = await otherDatabase();
    await restoreBackup({ db: openDatabase(target), databaseUrl: target, uploadsDir: work }, file);
    const db = openDatabase(target);
    const ctx = createContext(loadConfig({ DATABASE_URL: target, UPLOADS_DIR: work, LOG_LEVEL: 'silent' }), db);
    try {
      expect(
        (await db.kysely.selectFrom('bookings').select('guest_name').where('id', '=', bookingId).executeTakeFirstOrThrow()).guest_name,
      ).toBe('Burst 61');
      expect(await ctx.guests.reapplyErasures(ledger)).toBe(1);
      const after = await db.kysely
        .selectFrom('bookings')
        .select(['guest_name', 'guest_email'])
        .where('id', '=', bookingId)
        .executeTakeFirstOrThrow();
      expect(after.guest_name).not.toBe('Burst 61');
      expect(after.guest_email).not.toBe('burst61@example.test');
      // Once recorded in the restored ledger, applying it again changes nothing.
      expect(await ctx.guests.reapplyErasures(ledger)).toBe(0);
    } finally {
      await ctx.rateLimits.close();
      await ctx.mail.stop();
      await db.close();
    }
  });
});
