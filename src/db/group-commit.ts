/**
 * Group commit: jobs for one key (a venue) that arrive while that key's transaction is running are
 * written together in its next transaction, and each answered alone. One commit (and, on PostgreSQL, one
 * lock and one round of the transaction's statements) then serves many requests, and the re-check of
 * each job sees the jobs before it in the batch. A job that fails is rejected with its own error and the
 * batch goes on, in one of two ways (`isolation`):
 *
 * - 'savepoint' (the default): each job runs in a savepoint of its own, rolled back when it fails (a
 *   slot taken meanwhile, a constraint);
 * - 'refusals-first': a job refuses (throws an error `isRefusal` accepts) only before it writes anything,
 *   and says when it has decided and starts writing (`decided()`). It needs no savepoint (two statements
 *   a job, two round trips on PostgreSQL): a refusal has nothing to roll back. Any other failure, or a
 *   failure after `decided()`, is the batch's: it is tried again job by job, below.
 *
 * A batch whose transaction fails as a whole (its commit, a lock, the database going away) is tried again
 * job by job, each in a transaction of its own, so one bad job never fails the others. Nothing is
 * answered before its transaction committed: a job's promise resolves after the commit.
 */
import type { Kysely } from 'kysely';
import type { Db } from './connect.js';
import type { Database } from './schema.js';
import { BrokenTransaction, withSavepoint, withTransaction } from './transaction.js';

/** What a job is told besides its transaction (isolation 'refusals-first'). */
export interface JobControl {
  /** From here the job writes: a failure after this is the batch's, not the job's alone. */
  decided(): void;
}

interface Pending<J, R> {
  job: J;
  resolve(value: R): void;
  reject(error: unknown): void;
}

export interface GroupCommitOptions<J, R, S> {
  /** The most jobs one transaction takes; the rest wait for the next. */
  maxBatch: number;
  /**
   * Once per transaction, before its jobs (e.g. the key's lock, reads the jobs share), answering what the
   * jobs share; `jobs` are the transaction's, one when it holds a job alone (a batch of one, or a job tried
   * again by itself).
   */
  begin(trx: Kysely<Database>, key: string, jobs: readonly J[]): Promise<S>;
  /** One job (in its savepoint, unless 'refusals-first'); it may update `shared` once it can no longer fail. */
  run(trx: Kysely<Database>, job: J, shared: S, control: JobControl): Promise<R>;
  /**
   * Once per transaction, after its jobs and before its commit (e.g. the rows the jobs left to write
   * together). A failure here is the batch's: every job is tried again alone.
   */
  end?(trx: Kysely<Database>, shared: S): Promise<void>;
  /** How a failing job is kept from the others (above); 'savepoint' unless said. */
  isolation?: 'savepoint' | 'refusals-first';
  /** 'refusals-first': the errors that are a job's own answer when thrown before `decided()` (a 409, a 400). */
  isRefusal?(error: unknown): boolean;
  /** Told the size of each batch as it is written (the metrics). */
  onBatch?(size: number): void;
  /**
   * How long (ms) a batch may run jobs back to back before it gives the event loop a turn (default
   * SLICE_MS). A turn per job made a queue of cheap jobs (refusals re-checked in the transaction) wait one
   * whole turn of the loop each: under a drop's 200 connections, seconds.
   */
  sliceMs?: number;
}

/** The default `sliceMs`: a few bookings' work, so requests and answers never wait much longer. */
const SLICE_MS = 4;

/** The next turn of the event loop. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The control of a job whose failure is its own whatever it has done (in a savepoint, or alone). */
const UNTOLD: JobControl = { decided: () => undefined };

type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export class GroupCommit<J, R, S> {
  /** Queued jobs by key; a key is here while its queue is being written. */
  private readonly queues = new Map<string, Pending<J, R>[]>();
  /** Work let on by `admit` and not yet answered, by slot. */
  private readonly admitted = new Map<string, number>();
  /** Who waits for the next batch of a key to be answered (`settled`). */
  private readonly waiters = new Map<string, (() => void)[]>();
  /** Batches written, the jobs they held, the largest, and the turns given to the event loop inside batches (for tests). */
  readonly stats = { batches: 0, jobs: 0, largest: 0, turns: 0 };

  constructor(
    private readonly db: Db,
    private readonly options: GroupCommitOptions<J, R, S>,
  ) {}

  /**
   * Settles once the batch of `key` being written now (or the next one) is written and answered; at the
   * next turn of the event loop when nothing of `key` is queued.
   */
  settled(key: string): Promise<void> {
    if (!this.queues.has(key)) return turn();
    return new Promise<void>((resolve) => {
      const waiting = this.waiters.get(key);
      if (waiting) waiting.push(resolve);
      else this.waiters.set(key, [resolve]);
    });
  }

  /**
   * Lets `amount` of work for `slot` (a part of `key`: one time of a venue, an event's tickets) go on to this
   * group commit while less than `inFlightFor(room, floor)` is already on its way there; otherwise it
   * waits for the key's batch being written and asks `recheck` for the room again (which may throw: a
   * refusal from the cached picture). Answers the release, to call once (when the work is answered).
   */
  async admit(
    key: string,
    slot: string,
    work: { amount: number; floor: number; room: number; recheck: () => Promise<number> },
  ): Promise<() => void> {
    let { room } = work;
    const inFlight = () => this.admitted.get(slot) ?? 0;
    // Nothing of the slot on its way: nothing to wait for, whatever the picture says (the transaction decides).
    while (inFlight() > 0 && inFlight() + work.amount > inFlightFor(room, work.floor)) {
      await this.settled(key);
      room = await work.recheck();
    }
    this.admitted.set(slot, inFlight() + work.amount);
    return () => {
      const left = this.admitted.get(slot)! - work.amount;
      if (left > 0) this.admitted.set(slot, left);
      else this.admitted.delete(slot);
    };
  }

  submit(key: string, job: J): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const queue = this.queues.get(key);
      if (queue) {
        queue.push({ job, resolve, reject });
        return;
      }
      this.queues.set(key, [{ job, resolve, reject }]);
      // The requests read in the same turn of the event loop join this first transaction.
      setImmediate(() => void this.drain(key));
    });
  }

  private async drain(key: string): Promise<void> {
    const queue = this.queues.get(key)!;
    for (let first = true; queue.length > 0; first = false) {
      const batch = queue.splice(0, this.options.maxBatch);
      // Each batch after the first waits its turn of the event loop, so answers go out and requests come in.
      if (!first) await turn();
      const outcomes = await this.write(key, batch);
      batch.forEach((pending, i) => {
        const outcome = outcomes[i];
        if (outcome.ok) pending.resolve(outcome.value);
        else pending.reject(outcome.error);
      });
      this.wake(key);
    }
    this.queues.delete(key);
    this.wake(key);
  }

  private wake(key: string): void {
    const waiting = this.waiters.get(key);
    if (!waiting) return;
    this.waiters.delete(key);
    for (const resolve of waiting) resolve();
  }

  /** One transaction for the batch; if it fails as a whole, one each. */
  private async write(key: string, batch: Pending<J, R>[]): Promise<Outcome<R>[]> {
    this.stats.batches++;
    this.stats.jobs += batch.length;
    this.stats.largest = Math.max(this.stats.largest, batch.length);
    this.options.onBatch?.(batch.length);
    if (batch.length === 1) return [await this.alone(key, batch[0].job)];
    try {
      return await withTransaction(this.db, async (trx) => {
        const shared = await this.options.begin(
          trx,
          key,
          batch.map((pending) => pending.job),
        );
        const outcomes: Outcome<R>[] = [];
        const slice = this.options.sliceMs ?? SLICE_MS;
        let sliceStarted = performance.now();
        for (const [i, { job }] of batch.entries()) {
          // SQLite runs a job without waiting on I/O: once a slice is used up, the event loop serves other requests.
          if (i > 0 && performance.now() - sliceStarted >= slice) {
            await turn();
            this.stats.turns++;
            sliceStarted = performance.now();
          }
          outcomes.push(await this.runIn(trx, job, shared));
        }
        await this.options.end?.(trx, shared);
        return outcomes;
      });
    } catch {
      const outcomes: Outcome<R>[] = [];
      for (const { job } of batch) outcomes.push(await this.alone(key, job));
      return outcomes;
    }
  }

  /** One job of a batch: its outcome, or a throw that abandons the batch (every job is tried again alone). */
  private async runIn(trx: Kysely<Database>, job: J, shared: S): Promise<Outcome<R>> {
    if (this.options.isolation === 'refusals-first') {
      let decided = false;
      const control = { decided: () => void (decided = true) };
      try {
        return { ok: true, value: await this.options.run(trx, job, shared, control) };
      } catch (error) {
        // A refusal before any write leaves nothing to roll back; anything else may have written half a job.
        if (decided || !this.options.isRefusal?.(error)) throw error;
        return { ok: false, error };
      }
    }
    try {
      return { ok: true, value: await withSavepoint(trx, () => this.options.run(trx, job, shared, UNTOLD)) };
    } catch (error) {
      // The transaction itself is gone: abandon the batch (every job is tried again alone).
      if (error instanceof BrokenTransaction) throw error;
      return { ok: false, error };
    }
  }

  /** A job in a transaction of its own: its error, if any, is its answer. */
  private async alone(key: string, job: J): Promise<Outcome<R>> {
    try {
      const value = await withTransaction(this.db, async (trx) => {
        const shared = await this.options.begin(trx, key, [job]);
        const answer = await this.options.run(trx, job, shared, UNTOLD);
        await this.options.end?.(trx, shared);
        return answer;
      });
      return { ok: true, value };
    } catch (error) {
      return { ok: false, error };
    }
  }
}

/**
 * How much of a slot may be on its way to the transaction at once when the cached picture shows `room`
 * left: all of it, and up to twice as much but no more than `floor` (work the picture may have wrong:
 * placements that need two tables, a hold that lapsed). With a little room left, few go on (one place
 * left: two, not `floor`), so once a batch has taken most of a drop's places the rest wait for it and are
 * refused from the picture, not by the transaction's re-check, whichever turns their requests came in.
 */
export function inFlightFor(room: number, floor: number): number {
  return Math.max(room, Math.min(floor, 2 * room));
}
