/**
 * The process's metrics, in Prometheus' text format (`GET /metrics`, off unless METRICS_TOKEN or
 * METRICS_PORT is set): requests by route template, status class and duration; what guests and staff
 * did (bookings, tickets, vouchers by outcome, counted once their transaction commits); background jobs
 * (runs by result, duration, lag); the mail outbox (depth, oldest unsent); the database (PostgreSQL pool,
 * SQLite lock waits); and Node's own (event-loop lag, memory, GC) from prom-client's defaults.
 *
 * One registry per process, like prom-client's own default: counters are per instance and Prometheus
 * sums them across instances. Values read at scrape time (the outbox, the pool) are set by the scrape.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'maitred_' });

const registers = [registry];

const httpDuration = new Histogram({
  name: 'maitred_http_request_duration_seconds',
  help: 'HTTP requests by method, route template and status class, with their duration',
  labelNames: ['method', 'route', 'status_class'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers,
});

const bookingEvents = new Counter({
  name: 'maitred_booking_events_total',
  help: 'Booking history events once committed, by action (create, cancelled, checked_in, no_show, release, payment_confirmed …)',
  labelNames: ['action'] as const,
  registers,
});

const tickets = new Counter({
  name: 'maitred_tickets_total',
  help: 'Event tickets by outcome: reserved (a sale written), refused (sold out)',
  labelNames: ['outcome'] as const,
  registers,
});

const vouchers = new Counter({
  name: 'maitred_vouchers_total',
  help: 'Gift vouchers by outcome: issued, redeemed, refunded',
  labelNames: ['outcome'] as const,
  registers,
});

const jobRuns = new Counter({
  name: 'maitred_job_runs_total',
  help: 'Background job runs by job and result (ok, failed)',
  labelNames: ['job', 'result'] as const,
  registers,
});

const jobDuration = new Histogram({
  name: 'maitred_job_duration_seconds',
  help: 'Background job run time',
  labelNames: ['job'] as const,
  buckets: [0.01, 0.05, 0.25, 1, 5, 30, 120, 600],
  registers,
});

const jobLag = new Gauge({
  name: 'maitred_job_lag_seconds',
  help: 'How late the last run of a once-per-period job started after it was due',
  labelNames: ['job'] as const,
  registers,
});

const outboxDepth = new Gauge({
  name: 'maitred_outbox_unsent',
  help: 'Messages not yet sent, by channel and status (pending, sending, failed, kept)',
  labelNames: ['channel', 'status'] as const,
  registers,
});

const outboxOldest = new Gauge({
  name: 'maitred_outbox_oldest_unsent_seconds',
  help: 'Age of the oldest message waiting to be sent (pending or sending), by channel; 0 when none waits',
  labelNames: ['channel'] as const,
  registers,
});

const dbPool = new Gauge({
  name: 'maitred_db_pool_connections',
  help: 'PostgreSQL pool connections by state (total, idle, waiting: requests queued for a connection)',
  labelNames: ['state'] as const,
  registers,
});

const bookingBatches = new Histogram({
  name: 'maitred_booking_batch_size',
  help: 'Public bookings written per transaction (group commit: the bookings of a venue that arrive together share one)',
  buckets: [1, 2, 4, 8, 16, 32, 64],
  registers,
});

const ticketBatches = new Histogram({
  name: 'maitred_ticket_batch_size',
  help: 'Ticket purchases written per transaction (group commit: the purchases of an event that arrive together share one)',
  buckets: [1, 2, 4, 8, 16, 32, 64],
  registers,
});

const soldOutRefusals = new Counter({
  name: 'maitred_sold_out_refusals_total',
  help:
    'Public bookings (a slot taken) and ticket purchases (not enough left) refused, by what and where: from the cached ' +
    'picture before any transaction, or by the re-check in it',
  labelNames: ['kind', 'stage'] as const,
  registers,
});

const staysWindows = new Counter({
  name: 'maitred_stays_windows_total',
  help:
    "Pictures of a date's stays for the booking pre-check and public availability: read from the database after a change " +
    '(source="read"), or kept from the batch of bookings that had just committed it (source="kept", SQLite); a kept picture ' +
    'taken over by the next batch of bookings inside its transaction instead of a re-read (source="taken_over", SQLite)',
  labelNames: ['source'] as const,
  registers,
});

const dbLockWaits = new Counter({
  name: 'maitred_db_lock_waits_total',
  help: 'SQLite: transactions that waited for the write lock held by another connection or process (BEGIN IMMEDIATE over 5 ms)',
  registers,
});

const dbLockWaitSeconds = new Counter({
  name: 'maitred_db_lock_wait_seconds_total',
  help: 'SQLite: time spent waiting for the write lock (those waits over 5 ms)',
  registers,
});

const fairSharePaced = new Counter({
  name: 'maitred_fair_share_paced_total',
  help: 'Public bookings and ticket purchases that waited for a later turn of the event loop while other tenants were served',
  registers,
});

/** What is read from outside at scrape time (the database's state), filled in by the `/metrics` route. */
export interface ScrapeReadings {
  outbox: { channel: string; status: string; count: number; oldestAt: string | null }[];
  pool?: { total: number; idle: number; waiting: number };
  now: Date;
}

export const metrics = {
  httpRequest(method: string, route: string, status: number, seconds: number): void {
    httpDuration.observe({ method, route, status_class: `${Math.floor(status / 100)}xx` }, seconds);
  },
  bookingEvent(action: string): void {
    bookingEvents.inc({ action });
  },
  tickets(outcome: 'reserved' | 'refused', count = 1): void {
    tickets.inc({ outcome }, count);
  },
  vouchers(outcome: 'issued' | 'redeemed' | 'refunded', count = 1): void {
    vouchers.inc({ outcome }, count);
  },
  jobRun(job: string, result: 'ok' | 'failed', seconds: number): void {
    jobRuns.inc({ job, result });
    jobDuration.observe({ job }, seconds);
  },
  jobLag(job: string, seconds: number): void {
    jobLag.set({ job }, Math.max(0, seconds));
  },
  bookingBatch(size: number): void {
    bookingBatches.observe(size);
  },
  ticketBatch(size: number): void {
    ticketBatches.observe(size);
  },
  soldOut(kind: 'booking' | 'tickets', stage: 'cached' | 'transaction'): void {
    soldOutRefusals.inc({ kind, stage });
  },
  staysWindow(source: 'read' | 'kept' | 'taken_over'): void {
    staysWindows.inc({ source });
  },
  fairSharePaced(): void {
    fairSharePaced.inc();
  },
  lockWait(seconds: number): void {
    dbLockWaits.inc();
    dbLockWaitSeconds.inc(seconds);
  },
  /** The text a scrape answers, with the readings taken for it. */
  async render(readings: ScrapeReadings): Promise<string> {
    outboxDepth.reset();
    outboxOldest.reset();
    const oldest = new Map<string, number>();
    for (const row of readings.outbox) {
      outboxDepth.set({ channel: row.channel, status: row.status }, row.count);
      const waiting = row.status === 'pending' || row.status === 'sending';
      const age = waiting && row.oldestAt ? (readings.now.getTime() - new Date(row.oldestAt).getTime()) / 1000 : 0;
      oldest.set(row.channel, Math.max(oldest.get(row.channel) ?? 0, age));
    }
    for (const channel of ['mail', ...oldest.keys()]) outboxOldest.set({ channel }, oldest.get(channel) ?? 0);
    if (readings.pool) {
      dbPool.set({ state: 'total' }, readings.pool.total);
      dbPool.set({ state: 'idle' }, readings.pool.idle);
      dbPool.set({ state: 'waiting' }, readings.pool.waiting);
    }
    return registry.metrics();
  },
  contentType: registry.contentType,
};
