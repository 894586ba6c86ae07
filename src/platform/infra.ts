/**
 * The shared infrastructure every module may be given a part of, built once by src/context.ts and handed
 * to the composition root (src/modules/index.ts).
 */
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Db } from '../db/connect.js';
import type { BotCheck } from './bot-check.js';
import type { Clock } from './clock.js';
import type { LiveChanges } from './live-changes.js';
import type { Mail } from './mail/mail.js';
import type { Maintenance } from './maintenance.js';
import type { RateLimits } from './rate-limit.js';
import type { SmsService } from './sms/sms.js';
import type { Uploads } from './uploads.js';

/** The shared infrastructure every module may be given a part of. */
export interface Infra {
  config: Config;
  db: Db;
  clock: Clock;
  log: Logger;
  rateLimits: RateLimits;
  maintenance: Maintenance;
  uploads: Uploads;
  botCheck: BotCheck;
  /** Outgoing mail; its worker runs only once `serve` starts it (tests call `mail.flush()`). */
  mail: Mail;
  /** Outgoing text messages (platform/sms); sent by the `sms` job, kept in the outbox without Twilio. */
  sms: SmsService;
  /** Who listens to which venue's live changes (the reservation floor's event stream). */
  liveChanges: LiveChanges;
}
