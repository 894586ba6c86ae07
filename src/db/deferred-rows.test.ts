/**
 * Deferred rows (deferred-rows.ts) on both engines: rows added by several writers are inserted with a
 * statement per table, parents before children (the order tables were first added), in slices under the
 * bound-parameter limits, and on PostgreSQL sent together as one statement; nothing is written before
 * `write`, a refused row fails the write, and flushed items come after every insert.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, ENGINE, type TestDb } from '../../test/helpers/db.js';
import { isUniqueViolation } from './errors.js';
import { DeferredRows, executeTogether } from './deferred-rows.js';
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

  it('hands collected items to their flush once, after every insert', async () => {
    const rows = new DeferredRows(['names']);
    const calls: string[][] = [];
    const flush = async (conn: Conn, items: string[]) => {
      calls.push([...items, ...(await keys('c-', kyselyOf(conn)))]);
    };
    rows.collect<string>('names', 'first', flush);
    rows.add('platform_settings', [setting('c-row')]);
    rows.collect<string>('names', 'second', flush);
    expect(rows.size).toBe(3);
    await withTransaction(db, (trx) => rows.write(trx));
    // Named first and collected before the row, but flushed after it: the flush sees it.
    expect(calls).toEqual([['first', 'second', 'c-row']]);
    expect(rows.size).toBe(0);
  });

  it('writes collected statements with the inserts, the names given first before the rest', async () => {
    const rows = new DeferredRows(['parents']);
    const built: string[][] = [];
    const parents = (conn: Conn, ids: string[]) => {
      built.push(ids);
      return [
        kyselyOf(conn)
          .insertInto('operators')
          .values(ids.map((id) => ({ id, name: id, created_at: '2026-11-28T00:00:00.000Z', updated_at: '2026-11-28T00:00:00.000Z' })))
          .onConflict((oc) => oc.column('id').doNothing()),
      ];
    };
    const venue = (id: string, operatorId: string) => ({
      id,
      operator_id: operatorId,
      name: id,
      address: '1 Statement Street',
      created_at: '2026-11-28T00:00:00.000Z',
      updated_at: '2026-11-28T00:00:00.000Z',
    });
    // The children are added before their parents' statement: the name given first still goes first.
    rows.add('venues', [venue('ven_statements_1', 'op_statements_1')]);
    rows.collectStatements('parents', 'op_statements_1', parents);
    rows.add('venues', [venue('ven_statements_2', 'op_statements_2')]);
    rows.collectStatements('parents', 'op_statements_2', parents);
    rows.collectStatements('parents', 'op_statements_1', parents);
    expect(rows.size).toBe(5);
    await withTransaction(db, (trx) => rows.write(trx));
    expect(built).toEqual([['op_statements_1', 'op_statements_2', 'op_statements_1']]);
    const venues = await db.kysely
      .selectFrom('venues')
      .select(['id', 'operator_id'])
      .where('id', 'like', 'ven_statements_%')
      .orderBy('id')
      .execute();
    expect(venues).toEqual([
      { id: 'ven_statements_1', operator_id: 'op_statements_1' },
      { id: 'ven_statements_2', operator_id: 'op_statements_2' },
    ]);
  });
});

describe('executeTogether', () => {
  const counting = (key: string, counted: string) =>
    db.kysely.insertInto('platform_settings').values({
      key,
      value: sql<string>`cast((select count(*) from platform_settings where key = ${counted}) as text)`,
      updated_at: '2026-11-28T00:00:00.000Z',
    });

  it(`sends a transaction's inserts ${ENGINE === 'postgres' ? 'as one statement' : 'one after the other'}`, async () => {
    await withTransaction(db, (trx) =>
      executeTogether(trx, [
        kyselyOf(trx).insertInto('platform_settings').values(setting('t-first')),
        kyselyOf(trx)
          .insertInto('platform_settings')
          .values({
            key: 't-second',
            value: sql<string>`cast((select count(*) from platform_settings where key = ${'t-first'}) as text)`,
            updated_at: '2026-11-28T00:00:00.000Z',
          }),
        kyselyOf(trx).insertInto('platform_settings').values(setting('t-third')),
      ]),
    );
    // The parts of one statement share its snapshot: the second does not see the first's row.
    const second = await db.kysely.selectFrom('platform_settings').select('value').where('key', '=', 't-second').executeTakeFirstOrThrow();
    expect(second.value).toBe(ENGINE === 'postgres' ? '0' : '1');
    expect(await keys('t-')).toEqual(['t-first', 't-second', 't-third']);
  });

  it('runs each statement on its own outside a transaction, and a statement that is not an insert in its turn', async () => {
    await executeTogether(db.kysely, [
      db.kysely.insertInto('platform_settings').values(setting('o-first')),
      counting('o-second', 'o-first'),
    ]);
    const value = async (key: string) =>
      (await db.kysely.selectFrom('platform_settings').select('value').where('key', '=', key).executeTakeFirstOrThrow()).value;
    expect(await value('o-second')).toBe('1');
    await withTransaction(db, (trx) =>
      executeTogether(trx, [
        kyselyOf(trx).insertInto('platform_settings').values(setting('u-first')),
        kyselyOf(trx).updateTable('platform_settings').set({ value: 'updated' }).where('key', '=', 'u-first'),
        kyselyOf(trx).insertInto('platform_settings').values(setting('u-second')),
      ]),
    );
    // The update ran after the insert before it was sent, and saw its row.
    expect(await value('u-first')).toBe('updated');
    expect(await value('u-second')).toBe('x');
  });

  it('splits past the bound-parameter limit, and a refused part fails the whole write', async () => {
    // 11,000 rows of three parameters: 33,000, more than one statement's 30,000.
    const rows = new DeferredRows();
    for (let i = 0; i < 11_000; i++) rows.add('platform_settings', [setting(`s-${String(i).padStart(5, '0')}`)]);
    await withTransaction(db, (trx) => rows.write(trx));
    expect(await keys('s-')).toHaveLength(11_000);

    await db.kysely.insertInto('platform_settings').values(setting('f-taken')).execute();
    const refused = new DeferredRows();
    refused.add('platform_settings', [setting('f-new')]);
    refused.add('operators', [
      { id: 'op_refused', name: 'Refused', created_at: '2026-11-28T00:00:00.000Z', updated_at: '2026-11-28T00:00:00.000Z' },
    ]);
    refused.add('platform_settings', [setting('f-taken')]);
    const failure = await withTransaction(db, (trx) => refused.write(trx)).catch((error: unknown) => error);
    expect(isUniqueViolation(failure)).toBe(true);
    expect(await keys('f-')).toEqual(['f-taken']);
    expect(await db.kysely.selectFrom('operators').select('id').where('id', '=', 'op_refused').executeTakeFirst()).toBeUndefined();
  });
});
