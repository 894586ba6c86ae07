/** withTransaction + lockKey serialise read-modify-write transactions on both engines. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockKey, withTransaction } from '../../src/db/transaction.js';
import { createTestDb, type TestDb } from '../helpers/db.js';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => db.close());

async function incrementSlowly(key: string) {
  await withTransaction(db, async (trx) => {
    await lockKey(db, trx, `counter:${key}`);
    const row = await trx.selectFrom('platform_settings').select('value').where('key', '=', key).executeTakeFirst();
    const next = String(Number(row?.value ?? '0') + 1);
    await new Promise((r) => setTimeout(r, 5)); // widen the race window
    await trx
      .insertInto('platform_settings')
      .values({ key, value: next, updated_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: next }))
      .execute();
  });
}

describe('transactions', () => {
  it('20 concurrent read-modify-write transactions on one key lose no update', async () => {
    await Promise.all(Array.from({ length: 20 }, () => incrementSlowly('race')));
    const row = await db.kysely.selectFrom('platform_settings').select('value').where('key', '=', 'race').executeTakeFirstOrThrow();
    expect(row.value).toBe('20');
  });

  it('rolls back everything when the callback throws', async () => {
    await expect(
      withTransaction(db, async (trx) => {
        await trx.insertInto('platform_settings').values({ key: 'rolled-back', value: '1', updated_at: 'now' }).execute();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const row = await db.kysely.selectFrom('platform_settings').select('value').where('key', '=', 'rolled-back').executeTakeFirst();
    expect(row).toBeUndefined();
  });
});
