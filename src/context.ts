/**
 * Builds everything the application needs exactly once: the infrastructure (database, clock, logger,
 * rate limits, maintenance flag, uploads, bot check, mail), then every module through the composition root
 * (src/modules/index.ts). Tests build it with their own database and clock; the server and the CLI
 * build it from the configuration.
 */
import pino, { type Logger } from 'pino';
import type { Config } from './config/config.js';
import type { Db } from './db/connect.js';
import { composeModules, type Modules } from './modules/index.js';
import { createBotCheck } from './platform/bot-check.js';
import { systemClock, type Clock } from './platform/clock.js';
import { createImageQueue } from './platform/image-queue.js';
import { stopImageProcess } from './platform/images.js';
import { createLiveChanges, LIVE_COALESCE_MS } from './platform/live-changes.js';
import { createMail } from './platform/mail/mail.js';
import { createMaintenance } from './platform/maintenance.js';
import { createRateLimits } from './platform/rate-limit.js';
import { createSms } from './platform/sms/sms.js';
import { createUploads } from './platform/uploads.js';
import type { Infra } from './platform/infra.js';

export type { Infra };

export type AppContext = Infra & Modules & { close(): Promise<void> };

export interface ContextOptions {
  clock?: Clock;
  log?: Logger;
  /** Key prefix of shared rate-limit counters (tests isolate themselves with it). */
  rateLimitNamespace?: string;
}

export function createContext(config: Config, db: Db, options: ContextOptions = {}): AppContext {
  const rateLimits = createRateLimits(config.rateLimits, config.redisUrl, options.rateLimitNamespace);
  const clock = options.clock ?? systemClock;
  const log = options.log ?? pino({ level: config.logLevel });
  const mail = createMail({ db, clock, log, config });
  const infra: Infra = {
    config,
    db,
    clock,
    log,
    rateLimits,
    mail,
    sms: createSms({ db, clock, log, config }),
    maintenance: createMaintenance(db),
    uploads: createUploads({
      dir: config.uploadsDir,
      queue: createImageQueue({ concurrency: config.imageConcurrency, queueSize: config.imageQueueSize }),
    }),
    botCheck: createBotCheck(config.turnstile),
    liveChanges: createLiveChanges(db.changes, {
      coalesceMs: LIVE_COALESCE_MS,
      maxPerAccount: config.liveStream.perAccount,
      maxTotal: config.liveStream.max,
    }),
  };
  return {
    ...infra,
    ...composeModules(infra),
    async close() {
      await mail.stop();
      infra.sms.stop();
      // The image process (platform/images.ts) would exit on its own once idle, or with this process.
      await stopImageProcess();
      await rateLimits.close();
      await db.close();
    },
  };
}
