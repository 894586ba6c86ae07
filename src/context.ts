/**
 * Builds everything the application needs exactly once: database, clock, logger, rate limits,
 * maintenance flag, uploads, bot check, sessions, the auth guard, payments and mail. Tests build it with their own
 * database and clock; the server and the CLI build it from the configuration.
 */
import pino, { type Logger } from 'pino';
import type { Config } from './config/config.js';
import type { Db } from './db/connect.js';
import { createPayments, type Payments } from './modules/payments/payments.js';
import { createGuard, type Guard } from './platform/auth-guard.js';
import { createBotCheck, type BotCheck } from './platform/bot-check.js';
import { systemClock, type Clock } from './platform/clock.js';
import { createMail, type Mail } from './platform/mail/mail.js';
import { createMaintenance, type Maintenance } from './platform/maintenance.js';
import { createRateLimits, type RateLimits } from './platform/rate-limit.js';
import { createSessions, type Sessions } from './platform/sessions.js';
import { createUploads, type Uploads } from './platform/uploads.js';

export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
  log: Logger;
  rateLimits: RateLimits;
  maintenance: Maintenance;
  uploads: Uploads;
  botCheck: BotCheck;
  sessions: Sessions;
  guard: Guard['guard'];
  access: Guard;
  payments: Payments;
  /** Outgoing mail; its worker runs only once `serve` starts it (tests call `mail.flush()`). */
  mail: Mail;
  close(): Promise<void>;
}

export interface ContextOptions {
  clock?: Clock;
  log?: Logger;
  /** Key prefix of shared rate-limit counters (tests isolate themselves with it). */
  rateLimitNamespace?: string;
}

export function createContext(config: Config, db: Db, options: ContextOptions = {}): AppContext {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? pino({ level: config.logLevel });
  const rateLimits = createRateLimits(config.rateLimits, config.redisUrl, options.rateLimitNamespace);
  const sessions = createSessions({ db, clock, ttlHours: config.sessionTtlHours });
  const access = createGuard({ db, sessions });
  const mail = createMail({ db, clock, log, config });
  return {
    config,
    db,
    clock,
    log,
    rateLimits,
    maintenance: createMaintenance(db),
    uploads: createUploads({ dir: config.uploadsDir, publicBaseUrl: config.publicBaseUrl }),
    botCheck: createBotCheck(config.turnstile),
    sessions,
    guard: access.guard,
    access,
    payments: createPayments({ config, db, clock, log }),
    mail,
    async close() {
      await mail.stop();
      await rateLimits.close();
      await db.close();
    },
  };
}
