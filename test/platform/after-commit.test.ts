/** afterCommit: hooks run once a withTransaction commits, at once outside a transaction, never after a rollback. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterCommit, withTransaction } from '../../src/db/transaction.js';
import { createTestDb, type TestDb } from '../helpers/db.js';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => db.close());

describe('afterCommit', () => {
  it('runs hooks in order after the commit, with the transaction result still returned', async () => {
    const events: string[] = [];
    const result = await withTransaction(db, async (trx) => {
      expect(afterCommit(trx, () => events.push('first hook'))).toBe(true);
      afterCommit(trx, () => events.push('second hook'));
      events.push('body done');
      return 42;
    });
    events.push('returned');
    expect(result).toBe(42);
    expect(events).toEqual(['body done', 'first hook', 'second hook', 'returned']);
  });

  it('sees the committed rows when it runs', async () => {
    let check: Promise<string | undefined> | undefined;
    await withTransaction(db, async (trx) => {
      await trx.insertInto('platform_settings').values({ key: 'after-commit', value: 'yes', updated_at: 'now' }).execute();
      afterCommit(trx, () => {
        check = db.kysely
          .selectFrom('platform_settings')
          .select('value')
          .where('key', '=', 'after-commit')
          .executeTakeFirst()
          .then((row) => row?.value);
      });
    });
    expect(await check).toBe('yes');
  });

  it('never runs hooks of a transaction that rolls back', async () => {
    let ran = false;
    await expect(
      withTransaction(db, async (trx) => {
        afterCommit(trx, () => (ran = true));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(ran).toBe(false);
  });

  it('runs at once outside a transaction', () => {
    let ran = 0;
    expect(afterCommit(db, () => ran++)).toBe(true);
    expect(afterCommit(db.kysely, () => ran++)).toBe(true);
    expect(ran).toBe(2);
  });

  it('answers false and drops the hook for a transaction it did not open', async () => {
    let ran = false;
    await db.kysely.transaction().execute(async (trx) => {
      expect(afterCommit(trx, () => (ran = true))).toBe(false);
    });
    expect(ran).toBe(false);
  });
});
