/**
 * Running it in production, on both engines: request ids in error bodies; `/metrics` (off by default,
 * behind its token, on its own port) moving with what happens; load shedding under a stalled event loop;
 * the scheduler's one-instance jobs with their job ids; and each retention rule (older rows go, newer stay).
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveMetricsPort } from '../../src/platform/metrics-route.js';
import { daysBefore, platformRetention, runRetention } from '../../src/platform/retention.js';
import { createScheduler } from '../../src/platform/scheduler.js';
import { authRetention } from '../../src/modules/auth/index.js';
import { paymentsRetention } from '../../src/modules/payments/index.js';
import { depositBooker, depositVenue } from '../../src/modules/bookings/public/deposits.test-support.js';
import { createOperator, createTestApp, type TestApp } from '../helpers/app.js';

const TOKEN = 'metrics-secret-token';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN }, (app) => {
    app.get('/test/boom', { schema: { hide: true } }, async () => {
      throw new Error('boom');
    });
  });
});
afterAll(async () => t.close());

const scrape = async (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) => t.app.inject({ url: '/metrics', headers });

/** The value of one series in a scrape (0 when absent). */
function valueOf(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('request ids', () => {
  it('every error body names its request, as the X-Request-Id header does; a valid incoming id is kept', async () => {
    const missing = await t.app.inject({ url: '/api/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().request_id).toBe(missing.headers['x-request-id']);
    const kept = await t.app.inject({ url: '/api/auth/me', headers: { 'x-request-id': 'support-ticket-42' } });
    expect(kept.json()).toEqual({ error: expect.any(String), request_id: 'support-ticket-42' });
    const replaced = await t.app.inject({ url: '/api/auth/me', headers: { 'x-request-id': 'bad id with spaces' } });
    expect(replaced.json().request_id).toMatch(/^[0-9a-f-]{36}$/);
    const crashed = await t.app.inject({ url: '/test/boom' });
    expect(crashed.json()).toEqual({ error: 'Internal server error', request_id: crashed.headers['x-request-id'] });
  });
});

describe('GET /metrics', () => {
  it('is absent without METRICS_TOKEN', async () => {
    const bare = await createTestApp();
    try {
      expect((await bare.app.inject({ url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await bare.close();
    }
  });

  it('asks for its token', async () => {
    expect((await scrape({})).statusCode).toBe(401);
    expect((await scrape({ authorization: 'Bearer wrong' })).statusCode).toBe(401);
    const ok = await scrape();
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toContain('text/plain');
    expect(ok.body).toContain('maitred_nodejs_eventloop_lag_seconds');
    expect(ok.body).toMatch(/maitred_outbox_oldest_unsent_seconds\{channel="mail"\}/);
  });

  it('a booking moves its counter, a 500 the 5xx class of its route, and both show in the histogram by route template', async () => {
    const before = (await scrape()).body;
    const venue = await depositVenue(t, { tables: 1 });
    await depositBooker(t, venue)();
    await t.app.inject({ url: '/test/boom' });
    const after = (await scrape()).body;
    const created = 'maitred_booking_events_total{action="create"}';
    expect(valueOf(after, created) - valueOf(before, created)).toBe(1);
    const crashes = 'maitred_http_request_duration_seconds_count{method="GET",route="/test/boom",status_class="5xx"}';
    expect(valueOf(after, crashes) - valueOf(before, crashes)).toBe(1);
    const books = 'maitred_http_request_duration_seconds_count{method="POST",route="/api/public/venues/:venueId/book",status_class="2xx"}';
    expect(valueOf(after, books) - valueOf(before, books)).toBe(1);
  });

  it('shows the outbox: unsent mail by status and the age of the oldest waiting', async () => {
    const queued = new Date(t.clock.now().getTime() - 90_000).toISOString();
    await t.db.kysely
      .insertInto('mail_outbox')
      .values({
        id: 'mail_waiting',
        recipient: 'guest@example.test',
        subject: 'Your booking',
        text_body: 'Hello',
        html_body: null,
        sender_name: null,
        reply_to: null,
        attachments: '[]',
        status: 'pending',
        attempts: 1,
        next_attempt_at: queued,
        last_error: 'connection refused',
        created_at: queued,
        sent_at: null,
      })
      .execute();
    const text = (await scrape()).body;
    expect(valueOf(text, 'maitred_outbox_unsent{channel="mail",status="pending"}')).toBe(1);
    // Measured against the real clock at scrape time: at least the 90 s it has waited by the test clock's reckoning.
    expect(valueOf(text, 'maitred_outbox_oldest_unsent_seconds{channel="mail"}')).toBeGreaterThan(0);
    await t.db.kysely.deleteFrom('mail_outbox').where('id', '=', 'mail_waiting').execute();
  });

  it('is served on a port of its own, only at /metrics', async () => {
    const server = await serveMetricsPort({ db: t.db, port: 0, host: '127.0.0.1' });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const metrics = await fetch(`${base}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('maitred_http_request_duration_seconds');
      expect((await fetch(`${base}/api/auth/me`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

describe('load shedding', () => {
  it('under a stalled event loop, new work is a 503 with Retry-After, /healthz answers and /readyz fails', async () => {
    const shedding = await createTestApp({ SHED_EVENT_LOOP_DELAY_MS: '200' });
    try {
      await shedding.app.ready();
      const stallUntil = Date.now() + 1_500;
      while (Date.now() < stallUntil) {
        // A synchronous stall: what a runaway request or a GC storm does to the loop.
      }
      // The plugin samples the loop every second: let its overdue timer run.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const work = await shedding.app.inject({ url: '/api/auth/me' });
      expect(work.statusCode).toBe(503);
      expect(work.headers['retry-after']).toBe('5');
      expect(work.json()).toEqual({ error: 'The server is busy. Please try again in a few seconds.', request_id: expect.any(String) });
      expect((await shedding.app.inject({ url: '/healthz' })).statusCode).toBe(200);
      expect((await shedding.app.inject({ url: '/readyz' })).statusCode).toBe(503);
      // Once the loop is calm again (the next sample), work is answered.
      await new Promise((resolve) => setTimeout(resolve, 2_200));
      expect((await shedding.app.inject({ url: '/api/auth/me' })).statusCode).toBe(401);
    } finally {
      await shedding.close();
    }
  });
});

describe('scheduler', () => {
  it('a one-instance job runs once per period across instances, with a job id on its log lines; a failure is recorded', async () => {
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
    const runs: string[] = [];
    const schedulers = [0, 1].map(() => createScheduler({ db: t.db, clock: t.clock, log, tickMs: 60_000 }));
    let fail = false;
    for (const [i, scheduler] of schedulers.entries()) {
      scheduler.add({
        name: 'test-daily',
        everyMs: 86_400_000,
        instances: 'one',
        async run({ log: jobLog, jobId }) {
          runs.push(`${i}:${jobId}`);
          jobLog.info('working');
          if (fail) throw new Error('disk full');
        },
      });
    }
    await Promise.all(schedulers.map((s) => s.tick()));
    await Promise.all(schedulers.map((s) => s.tick()));
    expect(runs).toHaveLength(1);
    const jobId = runs[0].split(':')[1];
    expect(lines).toContainEqual(expect.objectContaining({ job: 'test-daily', jobId, msg: 'working' }));

    t.clock.advance(86_400_000);
    fail = true;
    await Promise.all(schedulers.map((s) => s.tick()));
    expect(runs).toHaveLength(2);
    const row = await t.db.kysely.selectFrom('job_runs').selectAll().where('name', '=', 'test-daily').executeTakeFirstOrThrow();
    expect(row.last_error).toBe('disk full');
    expect(lines).toContainEqual(expect.objectContaining({ job: 'test-daily', msg: 'background job failed' }));
  });
});

describe('retention', () => {
  it('deletes what is past its period, in batches, and keeps everything newer', async () => {
    const now = t.clock.now();
    const old = daysBefore(now, 400);
    const recent = daysBefore(now, 2);
    const user = (await createOperator(t)).userId;
    for (const [id, at] of [
      ['ses_old1', old],
      ['ses_old2', old],
      ['ses_old3', old],
      ['ses_new', recent],
    ]) {
      await t.db.kysely
        .insertInto('sessions')
        .values({ id, token_hash: `hash-${id}`, user_id: user, expires_at: at, last_seen_at: at, created_at: at } as never)
        .execute();
    }
    for (const [id, status, at] of [
      ['mail_old_sent', 'sent', old],
      ['mail_new_sent', 'sent', recent],
      ['mail_old_pending', 'pending', old],
    ] as const) {
      await t.db.kysely
        .insertInto('mail_outbox')
        .values({
          id,
          recipient: 'a@example.test',
          subject: 's',
          text_body: 't',
          html_body: null,
          sender_name: null,
          reply_to: null,
          attachments: '[]',
          status,
          attempts: 0,
          next_attempt_at: at,
          last_error: null,
          created_at: at,
          sent_at: status === 'sent' ? at : null,
        })
        .execute();
    }
    for (const [id, at] of [
      ['evt_old', old],
      ['evt_new', recent],
    ]) {
      await t.db.kysely
        .insertInto('webhook_events')
        .values({ id, type: 'x', kind: null, target_key: null, outcome: 'ok', event_created: null, payload: '{}', received_at: at })
        .execute();
    }
    // Codes live minutes and go a day after they expired: one that expired an hour ago stays.
    const anHourAgo = new Date(now.getTime() - 3_600_000).toISOString();
    for (const [id, at] of [
      ['tfc_old', daysBefore(now, 2)],
      ['tfc_new', anHourAgo],
    ]) {
      await t.db.kysely
        .insertInto('two_factor_challenges')
        .values({ id, user_id: user, expires_at: at, used_at: null, created_at: at })
        .execute();
      await t.db.kysely
        .insertInto('email_verifications')
        .values({
          id: `ev_${id}`,
          email: `${id}@example.test`,
          name: 'N',
          password_hash: 'h',
          code_salt: 's',
          code_hash: 'c',
          expires_at: at,
          created_at: at,
        })
        .execute();
    }
    for (const [id, status, at] of [
      ['sim_old_delivered', 'delivered', old],
      ['sim_new_delivered', 'delivered', recent],
      ['sim_old_pending', 'pending', old],
    ] as const) {
      await t.db.kysely
        .insertInto('sim_events')
        .values({ id, type: 'x', payload: '{}', status, next_attempt_at: at, created_at: at })
        .execute();
    }
    const rules = [
      ...authRetention(t.db, t.config.retention),
      ...paymentsRetention(t.db, t.config.retention),
      ...platformRetention(t.db, t.config.retention),
    ];
    const deleted = await runRetention(rules, now, pino({ level: 'silent' }), 2);
    expect(deleted['expired sessions']).toBeGreaterThanOrEqual(3);
    const ids = async (table: 'sessions' | 'mail_outbox' | 'webhook_events') =>
      (await t.db.kysely.selectFrom(table).select('id').execute()).map((r) => r.id);
    expect(await ids('sessions')).toContain('ses_new');
    expect(await ids('sessions')).not.toEqual(expect.arrayContaining(['ses_old1']));
    expect((await ids('mail_outbox')).filter((id) => id.startsWith('mail_'))).toEqual(
      expect.arrayContaining(['mail_new_sent', 'mail_old_pending']),
    );
    expect(await ids('mail_outbox')).not.toContain('mail_old_sent');
    expect(await ids('webhook_events')).toContain('evt_new');
    expect(await ids('webhook_events')).not.toContain('evt_old');
    const left = async (table: 'two_factor_challenges' | 'email_verifications' | 'sim_events') =>
      (await t.db.kysely.selectFrom(table).select('id').execute()).map((r) => r.id).sort();
    expect(await left('two_factor_challenges')).toEqual(expect.arrayContaining(['tfc_new']));
    expect(await left('two_factor_challenges')).not.toContain('tfc_old');
    expect(await left('email_verifications')).toContain('ev_tfc_new');
    expect(await left('email_verifications')).not.toContain('ev_tfc_old');
    expect(await left('sim_events')).toEqual(expect.arrayContaining(['sim_new_delivered', 'sim_old_pending']));
    expect(await left('sim_events')).not.toContain('sim_old_delivered');
  });
});
