/**
 * Group commit (group-commit.ts) on both engines: jobs arriving together share one transaction, each is
 * answered alone (a failing job is rolled back to its savepoint with its afterCommit hooks, the others
 * commit), nothing is answered before the commit, and a batch whose transaction fails as a whole is
 * written again job by job; a batch gives the event loop a turn once its time slice is used, not after
 * every job.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/helpers/db.js';
import { GroupCommit } from './group-commit.js';
import { afterCommit } from './transaction.js';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => db.close());

/** Rows written by the jobs: platform_settings is a plain key/value table every database has. */
const written = async (prefix: string) =>
  (await db.kysely.selectFrom('platform_settings').select('key').where('key', 'like', `${prefix}%`).orderBy('key').execute()).map(
    (r) => r.key,
  );

function committer(options: { failing?: Set<string>; hooks?: string[]; sliceMs?: number; busyMs?: number } = {}) {
  return new GroupCommit<string, string, { begun: number }>(db, {
    maxBatch: 10,
    sliceMs: options.sliceMs,
    async begin() {
      return { begun: Date.now() };
    },
    async run(trx, key) {
      await trx.insertInto('platform_settings').values({ key, value: 'x', updated_at: new Date().toISOString() }).execute();
      afterCommit(trx, () => options.hooks?.push(key));
      if (options.failing?.has(key)) throw new Error(`job ${key} refused`);
      // A job that keeps the CPU busy (a booking's engine work), without waiting on anything.
      for (const until = performance.now() + (options.busyMs ?? 0); performance.now() < until;);
      return `done ${key}`;
    },
  });
}

describe('group commit', () => {
  it('writes jobs that arrive together in one transaction and answers each alone', async () => {
    const hooks: string[] = [];
    const group = committer({ failing: new Set(['a-3']), hooks });
    const answers = await Promise.allSettled(['a-1', 'a-2', 'a-3', 'a-4'].map((key) => group.submit('venue', key)));
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((answers[2] as PromiseRejectedResult).reason).toMatchObject({ message: 'job a-3 refused' });
    expect(await written('a-')).toEqual(['a-1', 'a-2', 'a-4']);
    // The refused job's hook went with its savepoint; the others ran once the batch committed.
    expect(hooks).toEqual(['a-1', 'a-2', 'a-4']);
    expect(group.stats).toMatchObject({ batches: 1, jobs: 4, largest: 4 });
  });

  it('answers nothing before the commit', async () => {
    const group = committer();
    const seen: string[][] = [];
    await Promise.all(['b-1', 'b-2'].map(async (key) => seen.push([await group.submit('venue', key), ...(await written('b-'))])));
    // Each answer, whenever its reader ran, found both rows committed.
    seen.sort((a, b) => a[0].localeCompare(b[0]));
    expect(seen).toEqual([
      ['done b-1', 'b-1', 'b-2'],
      ['done b-2', 'b-1', 'b-2'],
    ]);
  });

  it('keeps keys apart: each key has its own transactions', async () => {
    const group = committer();
    await Promise.all(['c-1', 'c-2', 'c-3'].map((key, i) => group.submit(`venue-${i % 2}`, key)));
    expect(group.stats.batches).toBe(2);
    expect(await written('c-')).toEqual(['c-1', 'c-2', 'c-3']);
  });

  it('runs cheap jobs back to back, and gives the event loop a turn once a slice is used up', async () => {
    const cheap = committer({ sliceMs: 60_000 });
    await Promise.all(Array.from({ length: 10 }, (_, i) => cheap.submit('venue', `s-cheap-${i}`)));
    expect(cheap.stats).toMatchObject({ batches: 1, jobs: 10, turns: 0 });

    const busy = committer({ sliceMs: 2, busyMs: 3 });
    let loopTurns = 0;
    const ticking = setInterval(() => loopTurns++, 0);
    try {
      await Promise.all(Array.from({ length: 10 }, (_, i) => busy.submit('venue', `s-busy-${i}`)));
    } finally {
      clearInterval(ticking);
    }
    // Each job outlasts the slice: a turn before every job but the first, and the loop ran in them.
    expect(busy.stats).toMatchObject({ batches: 1, jobs: 10, turns: 9 });
    expect(loopTurns).toBeGreaterThan(0);
    expect(await written('s-')).toHaveLength(20);
  });

  it('takes later arrivals in the next transaction, at most maxBatch at a time', async () => {
    const group = committer();
    const first = Promise.all(Array.from({ length: 25 }, (_, i) => group.submit('venue', `d-${String(i).padStart(2, '0')}`)));
    await first;
    expect(group.stats).toMatchObject({ jobs: 25, largest: 10 });
    expect(group.stats.batches).toBeGreaterThanOrEqual(3);
    expect(await written('d-')).toHaveLength(25);
  });

  it('settles a wait for a key once its batch being written is answered, and at once for a key with nothing queued', async () => {
    const group = committer();
    const order: string[] = [];
    const jobs = Array.from({ length: 12 }, (_, i) =>
      group.submit('venue', `w-${String(i).padStart(2, '0')}`).then(() => order.push('job')),
    );
    await group.settled('venue').then(() => order.push('settled'));
    // The first batch (10, maxBatch) was answered before the wait settled; the last two come in the next batch.
    expect(order.indexOf('settled')).toBe(10);
    await Promise.all(jobs);
    await group.settled('elsewhere');
    expect(await written('w-')).toHaveLength(12);
  });

  it('writes a batch whose transaction failed as a whole again, job by job', async () => {
    let broken = false;
    const runs: string[] = [];
    const group = new GroupCommit<string, string, null>(db, {
      maxBatch: 10,
      begin: async () => null,
      async run(trx, key) {
        runs.push(key);
        await trx.insertInto('platform_settings').values({ key, value: 'x', updated_at: new Date().toISOString() }).execute();
        if (key === 'e-2' && !broken) {
          // The transaction ends under the batch (as when the connection is lost): its savepoint is gone.
          broken = true;
          await sql`rollback`.execute(trx);
          throw new Error('connection lost');
        }
        return key;
      },
    });
    const answers = await Promise.allSettled(['e-1', 'e-2', 'e-3'].map((key) => group.submit('venue', key)));
    expect(answers).toEqual([
      { status: 'fulfilled', value: 'e-1' },
      { status: 'fulfilled', value: 'e-2' },
      { status: 'fulfilled', value: 'e-3' },
    ]);
    expect(await written('e-')).toEqual(['e-1', 'e-2', 'e-3']);
    // One batch, abandoned at e-2 (e-3 never ran in it), then each job alone.
    expect(group.stats).toMatchObject({ batches: 1, jobs: 3, largest: 3 });
    expect(runs).toEqual(['e-1', 'e-2', 'e-1', 'e-2', 'e-3']);
  });
});
