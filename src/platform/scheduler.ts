/**
 * Background jobs. A job runs on every instance (`each`: sweeps made safe by conditional updates, such as
 * releasing unpaid bookings) or on one instance per period (`one`: the retention pass, scheduled backups),
 * claimed through `job_runs` by a conditional update of its `next_run_at`, so exactly one instance runs
 * it however many there are, and a restart neither runs it twice nor forgets it.
 *
 * Every run gets an id, on each of its log lines (`job`, `jobId`), and is counted in the metrics (runs by
 * result, duration; for `one` jobs, how late the run started). A run never overlaps the previous run of
 * the same job in this process.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../db/connect.js';
import type { Clock } from './clock.js';
import { metrics } from './metrics.js';

export interface Job {
  name: string;
  everyMs: number;
  instances: 'each' | 'one';
  run(context: { log: Logger; jobId: string; now: Date }): Promise<unknown>;
}

export function createScheduler(deps: { db: Db; clock: Clock; log: Logger; tickMs: number }) {
  const { db, clock } = deps;
  const jobs: Job[] = [];
  const running = new Set<string>();
  const lastRun = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;

  /** `one` jobs: true when this instance claimed the run that is due (moving `next_run_at` on). */
  async function claim(job: Job, now: Date): Promise<boolean> {
    const at = now.toISOString();
    await db.kysely
      .insertInto('job_runs')
      .values({ name: job.name, next_run_at: at, last_started_at: null, last_finished_at: null, last_error: null })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await db.kysely.selectFrom('job_runs').select('next_run_at').where('name', '=', job.name).executeTakeFirstOrThrow();
    if (row.next_run_at > at) return false;
    const claimed = await db.kysely
      .updateTable('job_runs')
      .set({ next_run_at: new Date(now.getTime() + job.everyMs).toISOString(), last_started_at: at })
      .where('name', '=', job.name)
      .where('next_run_at', '=', row.next_run_at)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    metrics.jobLag(job.name, (now.getTime() - new Date(row.next_run_at).getTime()) / 1000);
    return true;
  }

  /** Runs the job now (if it is not running in this process); answers whether it ran and succeeded. */
  async function runJob(job: Job): Promise<boolean> {
    if (running.has(job.name)) return false;
    running.add(job.name);
    const now = clock.now();
    const jobId = randomUUID();
    const log = deps.log.child({ job: job.name, jobId });
    const started = performance.now();
    try {
      if (job.instances === 'one' && !(await claim(job, now))) return false;
      lastRun.set(job.name, Date.now());
      await job.run({ log, jobId, now });
      metrics.jobRun(job.name, 'ok', (performance.now() - started) / 1000);
      if (job.instances === 'one') await finished(job, null);
      return true;
    } catch (error) {
      metrics.jobRun(job.name, 'failed', (performance.now() - started) / 1000);
      log.error({ err: error }, 'background job failed');
      if (job.instances === 'one')
        await finished(job, error).catch((recordError: unknown) => log.error({ err: recordError }, 'recording the job failure failed'));
      return false;
    } finally {
      running.delete(job.name);
    }
  }

  async function finished(job: Job, error: unknown): Promise<void> {
    const message = error === null ? null : (error instanceof Error ? error.message : String(error)).slice(0, 500);
    await db.kysely
      .updateTable('job_runs')
      .set({ last_finished_at: clock.now().toISOString(), last_error: message })
      .where('name', '=', job.name)
      .execute();
  }

  /** One beat: every job due runs (an `each` job when its period has passed here; a `one` job when claimed). */
  async function tick(): Promise<void> {
    const at = Date.now();
    await Promise.all(
      jobs.filter((job) => job.instances === 'one' || at - (lastRun.get(job.name) ?? 0) >= job.everyMs).map((job) => runJob(job)),
    );
  }

  return {
    add(job: Job): void {
      if (jobs.some((j) => j.name === job.name)) throw new Error(`A job named "${job.name}" is already scheduled`);
      jobs.push(job);
    },
    /** The names of the jobs scheduled, in the order they were added. */
    names(): string[] {
      return jobs.map((job) => job.name);
    },
    start(): void {
      timer ??= setInterval(() => void tick(), deps.tickMs);
      timer.unref();
    },
    stop(): void {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
    /** Runs a job by name now (the CLI, tests); answers whether this instance ran it. */
    async run(name: string): Promise<boolean> {
      const job = jobs.find((j) => j.name === name);
      if (!job) throw new Error(`No job named "${name}"`);
      return runJob(job);
    },
    tick,
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
