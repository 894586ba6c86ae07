/**
 * Deferred rows (deferred-rows.ts) on both engines: rows added by several writers are inserted with a
 * statement per table, parents before children (the order tables were first added), in slices under the
 * bound-parameter limits; nothing is written before `write`, and a refused row fails the write.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/helpers/db.js';
import { isUniqueViolation } from './errors.js';
import { DeferredRows } from './deferred-rows.js';
import type { Database } from './schema.js';
import { kyselyOf, withTransaction, type Conn } from './transaction.js';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => db.close());

const setting = (key: string) => ({ key, value: 'x', updated_at: '2026-11-28T00:00:00.000Z' });
const keys = async (prefix: string, conn: Kysely<Database> = db.kysely) =>
  (await conn.selectFrom('platform_settings').select('key').where('key', 'like', `${prefix}%`).orderBy('key').execute()).map((r) => r.key);

describe('deferred rows', () => {
  it('writes nothing until asked, then every row, in slices', async () => {
    const rows = new DeferredRows();
    // 1,200 rows: three slices of at most 500.
    for (let i = 0; i < 1200; i++) rows.add('platform_settings', [setting(`d-${String(i).padStart(4, '0')}`)]);
    expect(rows.size).toBe(1200);
    await withTransaction(db, async (trx) => {
      expect(await keys('d-', trx)).toEqual([]);
      await rows.write(trx);
    });
    expect(rows.size).toBe(0);
    const written = await keys('d-');
    expect(written).toHaveLength(1200);
    expect(written[1199]).toBe('d-1199');
  });

  it('writes parents before children whatever order the writers interleave them in', async () => {
    // A venue's tables reference the venue (foreign keys are on for both engines).
    const operator = {
      id: 'op_deferred',
      name: 'Deferred Ltd',
      created_at: '2026-11-28T00:00:00.000Z',
      updated_at: '2026-11-28T00:00:00.000Z',
    };
    await db.kysely.insertInto('operators').values(operator).execute();
    const rows = new DeferredRows();
    const venue = (id: string) => ({
      id,
      operator_id: operator.id,
      name: id,
      address: '1 Deferred Street',
      created_at: operator.created_at,
      updated_at: operator.updated_at,
    });
    const table = (id: string, venueId: string) => ({
      id,
      venue_id: venueId,
      table_number: id,
      capacity: 2,
      min_covers: 1,
      status: 'active',
      table_type: 'standard',
      created_at: operator.created_at,
      updated_at: operator.updated_at,
    });
    rows.add('venues', [venue('ven_deferred_1')]);
    rows.add('venue_tables', [table('tbl_deferred_1', 'ven_deferred_1')]);
    rows.add('venues', [venue('ven_deferred_2')]);
    rows.add('venue_tables', [table('tbl_deferred_2', 'ven_deferred_2')]);
    await withTransaction(db, (trx) => rows.write(trx));
    const tables = await db.kysely
      .selectFrom('venue_tables')
      .select('id')
      .where('venue_id', 'like', 'ven_deferred_%')
      .orderBy('id')
      .execute();
    expect(tables.map((t) => t.id)).toEqual(['tbl_deferred_1', 'tbl_deferred_2']);
  });

  it('fails the write (and its transaction) when a row is refused', async () => {
    await db.kysely.insertInto('platform_settings').values(setting('e-taken')).execute();
    const rows = new DeferredRows();
    rows.add('platform_settings', [setting('e-new'), setting('e-taken')]);
    const failure = await withTransaction(db, (trx) => rows.write(trx)).catch((error: unknown) => error);
    expect(isUniqueViolation(failure)).toBe(true);
    expect(await keys('e-')).toEqual(['e-taken']);
  });

  it('hands collected items to their flush once, in the turn their name was first added', async () => {
    const rows = new DeferredRows();
    const calls: string[][] = [];
    const flush = async (conn: Conn, items: string[]) => {
      calls.push([...items, ...(await keys('c-', kyselyOf(conn)))]);
    };
    rows.add('platform_settings', [setting('c-row')]);
    rows.collect<string>('names', 'first', flush);
    rows.collect<string>('names', 'second', flush);
    expect(rows.size).toBe(3);
    await withTransaction(db, (trx) => rows.write(trx));
    // The row was added first: written before the flush, which sees it.
    expect(calls).toEqual([['first', 'second', 'c-row']]);
    expect(rows.size).toBe(0);
  });

  it('writes the names given first before the rest, whenever they were added', async () => {
    const rows = new DeferredRows(['names']);
    const calls: string[][] = [];
    const flush = async (conn: Conn, items: string[]) => {
      calls.push([...items, ...(await keys('n-', kyselyOf(conn)))]);
    };
    rows.add('platform_settings', [setting('n-row')]);
    rows.collect<string>('names', 'late', flush);
    await withTransaction(db, (trx) => rows.write(trx));
    // Named first: flushed before the row added before it.
    expect(calls).toEqual([['late']]);
    expect(await keys('n-')).toEqual(['n-row']);
  });
});
