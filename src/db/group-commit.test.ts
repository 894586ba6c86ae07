/**
 * Group commit (group-commit.ts) on both engines: jobs arriving together share one transaction, each is
 * answered alone (a failing job is rolled back to its savepoint with its afterCommit hooks, the others
 * commit), nothing is answered before the commit, and a batch whose transaction fails as a whole is
 * written again job by job; a batch gives the event loop a turn once its time slice is used, not after
 * every job. With isolation 'refusals-first', a refusal before any write needs no savepoint, and any other
 * failure (after deciding, or in the batch's end) has the batch written again job by job.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../test/helpers/db.js';
import { GroupCommit, inFlightFor } from './group-commit.js';
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

  describe("isolation 'refusals-first'", () => {
    class Refusal extends Error {}

    /** Jobs `key` or `key:refuse` (refused before writing) or `key:fail` (fails after writing, once); rows left to `end`. */
    function refusing(runs: string[], ended: number[]) {
      const failed = new Set<string>();
      return new GroupCommit<string, string, { rows: string[]; alone: boolean }>(db, {
        maxBatch: 10,
        isolation: 'refusals-first',
        isRefusal: (error) => error instanceof Refusal,
        begin: async (_trx, _key, jobs) => ({ rows: [], alone: jobs.length === 1 }),
        async run(trx, job, shared, control) {
          runs.push(job);
          const [key, how] = job.split(':');
          if (how === 'refuse') throw new Refusal(`${key} refused`);
          control.decided();
          await trx.insertInto('platform_settings').values({ key, value: 'x', updated_at: new Date().toISOString() }).execute();
          if (how === 'fail' && !failed.has(key)) {
            failed.add(key);
            throw new Error(`${key} failed after writing`);
          }
          shared.rows.push(`${key}-late`);
          return shared.alone ? `${key} alone` : key;
        },
        async end(trx, shared) {
          ended.push(shared.rows.length);
          for (const key of shared.rows)
            await trx.insertInto('platform_settings').values({ key, value: 'x', updated_at: new Date().toISOString() }).execute();
        },
      });
    }

    it('answers a refusal made before writing alone, with no savepoint, and commits the others with what they left to the end', async () => {
      const runs: string[] = [];
      const ended: number[] = [];
      const group = refusing(runs, ended);
      const answers = await Promise.allSettled(['f-1', 'f-2:refuse', 'f-3'].map((job) => group.submit('venue', job)));
      expect(answers[0]).toEqual({ status: 'fulfilled', value: 'f-1' });
      expect((answers[1] as PromiseRejectedResult).reason).toBeInstanceOf(Refusal);
      expect(answers[2]).toEqual({ status: 'fulfilled', value: 'f-3' });
      expect(await written('f-')).toEqual(['f-1', 'f-1-late', 'f-3', 'f-3-late']);
      expect(runs).toEqual(['f-1', 'f-2:refuse', 'f-3']);
      expect(ended).toEqual([2]);
    });

    it('abandons the batch when a job fails after deciding, and writes each job alone', async () => {
      const runs: string[] = [];
      const ended: number[] = [];
      const group = refusing(runs, ended);
      const answers = await Promise.allSettled(['g-1', 'g-2:fail', 'g-3'].map((job) => group.submit('venue', job)));
      // g-1's row and what it left to the end went with the batch; each job then ran alone (told so in begin).
      expect(answers).toEqual([
        { status: 'fulfilled', value: 'g-1 alone' },
        { status: 'fulfilled', value: 'g-2 alone' },
        { status: 'fulfilled', value: 'g-3 alone' },
      ]);
      expect(runs).toEqual(['g-1', 'g-2:fail', 'g-1', 'g-2:fail', 'g-3']);
      expect(await written('g-')).toEqual(['g-1', 'g-1-late', 'g-2', 'g-2-late', 'g-3', 'g-3-late']);
      expect(ended).toEqual([1, 1, 1]);
    });

    it('abandons the batch when an error that is not a refusal comes before deciding', async () => {
      const runs: string[] = [];
      let thrown = false;
      const group = new GroupCommit<string, string, null>(db, {
        maxBatch: 10,
        isolation: 'refusals-first',
        isRefusal: (error) => error instanceof Refusal,
        begin: async () => null,
        async run(trx, key) {
          runs.push(key);
          if (key === 'h-2' && !thrown) {
            thrown = true;
            throw new Error('a read failed');
          }
          await trx.insertInto('platform_settings').values({ key, value: 'x', updated_at: new Date().toISOString() }).execute();
          return key;
        },
      });
      const answers = await Promise.all(['h-1', 'h-2', 'h-3'].map((key) => group.submit('venue', key)));
      expect(answers).toEqual(['h-1', 'h-2', 'h-3']);
      expect(runs).toEqual(['h-1', 'h-2', 'h-1', 'h-2', 'h-3']);
    });

    it('writes a batch again job by job when its end fails', async () => {
      const runs: string[] = [];
      let ends = 0;
      const group = new GroupCommit<string, string, { alone: boolean }>(db, {
        maxBatch: 10,
        isolation: 'refusals-first',
        begin: async (_trx, _key, jobs) => ({ alone: jobs.length === 1 }),
        async run(trx, key) {
          runs.push(key);
          await trx.insertInto('platform_settings').values({ key, value: 'x', updated_at: new Date().toISOString() }).execute();
          return key;
        },
        async end(_trx, shared) {
          ends++;
          if (!shared.alone) throw new Error('a deferred row was refused');
        },
      });
      const answers = await Promise.all(['i-1', 'i-2'].map((key) => group.submit('venue', key)));
      expect(answers).toEqual(['i-1', 'i-2']);
      expect(runs).toEqual(['i-1', 'i-2', 'i-1', 'i-2']);
      expect(ends).toBe(3);
      expect(await written('i-')).toEqual(['i-1', 'i-2']);
    });
  });
});

describe('admission to a slot', () => {
  it('lets on all of the room, up to twice it within the floor, and never the floor for a little room', () => {
    expect(inFlightFor(4, 8)).toBe(8);
    expect(inFlightFor(3, 8)).toBe(6);
    expect(inFlightFor(1, 8)).toBe(2);
    expect(inFlightFor(0, 8)).toBe(0);
    expect(inFlightFor(40, 8)).toBe(40);
    expect(inFlightFor(Infinity, 8)).toBe(Infinity);
  });

  it('holds back the rest once the room left is small, and lets one on when one answered leaves space', async () => {
    const group = committer();
    let room = 4;
    const recheck = async () => room;
    const admit = () => group.admit('venue', 'slot', { amount: 1, floor: 8, room, recheck });
    // Four places: eight on their way at once.
    const releases = await Promise.all(Array.from({ length: 8 }, admit));
    let ninth: (() => void) | undefined;
    const waiting = admit().then((release) => (ninth = release));
    // Three of the eight booked (one place left): the five still in flight are more than twice it.
    room = 1;
    for (const release of releases.splice(0, 3)) release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ninth).toBeUndefined();
    // All but one answered: one in flight is less than two, so the ninth goes on.
    for (const release of releases.splice(0, 4)) release();
    await waiting;
    expect(ninth).toBeTypeOf('function');
  });

  it('lets work on when nothing of its slot is on its way, whatever room the picture shows', async () => {
    const group = committer();
    const release = await group.admit('venue', 'empty', { amount: 4, floor: 8, room: 0, recheck: async () => 0 });
    expect(release).toBeTypeOf('function');
  });
});
