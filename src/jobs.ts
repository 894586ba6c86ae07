/**
 * The background jobs a server runs (platform/scheduler.ts): on every instance, the sweep that releases
 * unpaid bookings (retrying failed intent cancels) and the daily smart-table pass's check; on one instance
 * per period, the retention pass and, with BACKUP_DIR, the scheduled backup; and every server's heartbeat.
 */
import type { AppContext } from './context.js';
import { authRetention } from './modules/auth/index.js';
import { paymentsRetention } from './modules/payments/index.js';
import { platformRetention, runRetention } from './platform/retention.js';
import { heartbeat, HEARTBEAT_EVERY_MS } from './platform/instances.js';
import { createScheduler, type Scheduler } from './platform/scheduler.js';

const DAY_MS = 86_400_000;

export function scheduleJobs(ctx: AppContext, instanceId: string): Scheduler {
  const { config, db, clock, log } = ctx;
  const scheduler = createScheduler({
    db,
    clock,
    log,
    tickMs: Math.min(config.jobsIntervalMs, HEARTBEAT_EVERY_MS, config.webhooks.pollMs),
  });
  // This server is running (platform/instances.ts): `maitred restore` refuses while any is.
  scheduler.add({ name: 'heartbeat', everyMs: HEARTBEAT_EVERY_MS, instances: 'each', run: ({ now }) => heartbeat(db, instanceId, now) });
  // Conditional status updates make concurrent sweeps harmless, so every instance runs these.
  scheduler.add({ name: 'release-unpaid', everyMs: config.jobsIntervalMs, instances: 'each', run: () => ctx.bookings.expireUnpaid() });
  // A venue's pass runs once its reassign_time passes; a conditional update lets exactly one instance run it.
  scheduler.add({ name: 'smart-tables', everyMs: config.jobsIntervalMs, instances: 'each', run: () => ctx.smartTables.runDue() });
  // Outbound webhooks: every instance delivers, each delivery row claimed by a conditional update.
  scheduler.add({ name: 'webhooks', everyMs: config.webhooks.pollMs, instances: 'each', run: () => ctx.webhooks.delivery.deliverDue() });
  // Text messages due (claimed row by row) and booking reminders (each claimed by its (booking, offset) key).
  scheduler.add({ name: 'sms', everyMs: Math.min(config.jobsIntervalMs, 10_000), instances: 'each', run: () => ctx.sms.flush() });
  scheduler.add({ name: 'reminders', everyMs: config.jobsIntervalMs, instances: 'each', run: () => ctx.reminders.runDue() });
  // Waitlist offers: lapsed offers expire and freed slots are offered to the next in line, by one instance
  // per beat (each offer is also a conditional update under a per-date lock).
  scheduler.add({ name: 'waitlist-offers', everyMs: config.jobsIntervalMs, instances: 'one', run: () => ctx.waitlist.online.runOffers() });
  const rules = [
    ...authRetention(db, config.retention),
    ...paymentsRetention(db, config.retention),
    ...platformRetention(db, config.retention),
  ];
  scheduler.add({ name: 'retention', everyMs: DAY_MS, instances: 'one', run: ({ log: jobLog, now }) => runRetention(rules, now, jobLog) });
  const backupDir = config.backup.dir;
  if (backupDir) {
    scheduler.add({
      name: 'backup',
      everyMs: config.backup.everyHours * 3_600_000,
      instances: 'one',
      async run({ log: jobLog, now }) {
        const { scheduledBackup } = await import('./db/backup.js');
        const taken = await scheduledBackup(
          { db, databaseUrl: config.databaseUrl, uploadsDir: config.uploadsDir },
          backupDir,
          config.backup.keep,
          now,
        );
        jobLog.info({ file: taken.file, removed: taken.removed }, 'scheduled backup taken');
      },
    });
  }
  return scheduler;
}
