/**
 * Validates the environment once into a typed, frozen configuration object.
 * Invalid values fail start-up with a message naming the variable.
 */
import { isIP } from 'node:net';
import type { Env } from './env.js';

export type PaymentsProviderName = 'simulated' | 'stripe' | 'none';

export interface RateLimitRule {
  points: number;
  durationSeconds: number;
}

export type RateLimitName =
  | 'login_failures_email_ip'
  | 'login_failures_ip'
  | 'login_failures_email'
  | 'two_factor_failures_user'
  | 'email_code_failures_email'
  | 'email_code_failures_ip'
  | 'voucher_lookup'
  | 'voucher_redeem'
  | 'public_booking'
  | 'event_tickets'
  | 'registration'
  | 'registration_email'
  | 'sign_in_code'
  | 'sign_in_code_email';

/**
 * Failed logins and wrong two-factor codes are counted three ways, so that one address can neither
 * guess much nor lock an account out for everyone: per email-and-address pair and per address (10 each),
 * and per email from all addresses (100, against guessing spread over many addresses). Wrong codes are
 * also counted per user (10): once the password is known, only the code stands between a guesser and
 * the account, and a code has far fewer values than a password.
 */
export const DEFAULT_RATE_LIMITS: Record<RateLimitName, RateLimitRule> = {
  login_failures_email_ip: { points: 10, durationSeconds: 15 * 60 },
  login_failures_ip: { points: 10, durationSeconds: 15 * 60 },
  login_failures_email: { points: 100, durationSeconds: 15 * 60 },
  two_factor_failures_user: { points: 10, durationSeconds: 15 * 60 },
  // Wrong email-verification codes (registration): per email from every address, and per address.
  email_code_failures_email: { points: 10, durationSeconds: 15 * 60 },
  email_code_failures_ip: { points: 10, durationSeconds: 15 * 60 },
  voucher_lookup: { points: 20, durationSeconds: 60 },
  // Redeeming with a guessed code tells as much as looking it up (and spends it): counted alike.
  voucher_redeem: { points: 20, durationSeconds: 60 },
  public_booking: { points: 30, durationSeconds: 60 },
  // Ticket purchases (create-intent of an event) count apart from the other public bookings.
  event_tickets: { points: 30, durationSeconds: 60 },
  registration: { points: 5, durationSeconds: 60 * 60 },
  // Registration mails to one address, from any client address: no mailbox is flooded with codes.
  registration_email: { points: 5, durationSeconds: 60 * 60 },
  // One-time sign-in codes (the guest account): codes asked for per client address, and mailed per address.
  sign_in_code: { points: 20, durationSeconds: 60 * 60 },
  sign_in_code_email: { points: 5, durationSeconds: 60 * 60 },
};

export interface Config {
  nodeEnv: string;
  port: number;
  host: string;
  databaseUrl: string;
  publicBaseUrl: string;
  redisUrl: string | undefined;
  logLevel: string;
  paymentsProvider: PaymentsProviderName;
  stripe: { secretKey?: string; publishableKey?: string; apiBase?: string };
  paymentWebhookSecret: string | undefined;
  platformFeePercent: number;
  turnstile: { siteKey?: string; secretKey?: string; verifyUrl: string };
  smtpUrl: string | undefined;
  mailFrom: string;
  uploadsDir: string;
  unsplashAccessKey: string | undefined;
  /** The stock-image API's base URL (UNSPLASH_API_BASE; tests point it at a local fake). */
  unsplashApiBase: string;
  /**
   * Text messages (docs/messages.md): Twilio when TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM are
   * all set (TWILIO_API_BASE: its REST API's base URL, tests point it at a local fake); otherwise the
   * simulated provider keeps them in the outbox.
   */
  twilio: { accountSid: string; authToken: string; from: string; apiBase: string } | undefined;
  sessionTtlHours: number;
  /** Absolute session lifetime from sign-in, however often the session is used. */
  sessionMaxDays: number;
  /** AES-256 key for secrets kept in the database (TOTP secrets); unset: a key stored in the database. */
  secretsKey: Buffer | undefined;
  /**
   * Which proxies' `X-Forwarded-For` entries name the client (Fastify's `trustProxy`): false (none: the
   * socket address is the client), a hop count (the last N entries were written by our own proxies), or
   * the proxies' addresses and CIDR ranges. Never Fastify's `true`: that takes the leftmost entry, which the client writes.
   */
  trustProxy: TrustProxy;
  /** Image re-encodes that may run at once (IMAGE_CONCURRENCY), and how many more may wait (IMAGE_QUEUE_SIZE). */
  imageConcurrency: number;
  imageQueueSize: number;
  rateLimits: Record<RateLimitName, RateLimitRule>;
  /**
   * How often each instance runs the background jobs (releasing unpaid bookings, the smart-table pass);
   * a minute by default, shorter in tests that watch several instances run them.
   */
  jobsIntervalMs: number;
  /** How long a table offered to the next guest on a waitlist holds before the next in line is offered (WAITLIST_OFFER_MINUTES). */
  waitlistOfferMinutes: number;
  /**
   * How long an availability or floorplan answer may be served from the instance's cache without a
   * change to the venue; 0 turns that cache off (every request computes its answer).
   */
  availabilityCacheMs: number;
  /** `GET /metrics`: served to a bearer of METRICS_TOKEN, and/or on its own METRICS_PORT; off when neither is set. */
  metrics: { token: string | undefined; port: number | undefined };
  /** Scheduled backups (BACKUP_DIR, BACKUP_EVERY_HOURS, BACKUP_KEEP), run by one instance; off without BACKUP_DIR. */
  backup: { dir: string | undefined; everyHours: number; keep: number };
  /** Days kept before the daily retention pass deletes (decisions: Running it in production). */
  retention: { sessionsDays: number; mailDays: number; webhookEventsDays: number };
  /**
   * Load shedding: new work answers 503 (Retry-After) while the event loop lags more than this many ms
   * (SHED_EVENT_LOOP_DELAY_MS) or the heap holds more than SHED_HEAP_MB; 0 turns a check off.
   */
  shedding: { eventLoopDelayMs: number; heapMb: number };
  /**
   * Fair shares under a crowd (platform/fair-share.ts): while other tenants are served, at most this many
   * public bookings of one venue (ticket purchases of one event) start per turn of the event loop
   * (FAIR_SHARE_PER_TURN); 0 turns pacing off.
   */
  fairSharePerTurn: number;
  /**
   * Memory given back when quiet (platform/quiet-gc.ts): after this many ms without a request, and once the
   * heap's committed size has grown by 4 MB since, one full garbage collection runs (QUIET_GC_MS); 0 turns it off.
   */
  quietGcMs: number;
  /** The live floor stream (decisions: Live floor stream): keep-alive comment interval and open-stream caps. */
  liveStream: { pingMs: number; perAccount: number; max: number };
  /**
   * Outbound webhooks (docs/webhooks.md): WEBHOOKS_ALLOW_PRIVATE lets endpoints resolve to private,
   * loopback and other non-public addresses (development and tests only); WEBHOOKS_TIMEOUT_MS bounds each delivery;
   * WEBHOOKS_POLL_MS is how often each instance looks for due deliveries.
   */
  webhooks: { allowPrivate: boolean; timeoutMs: number; pollMs: number };
}

export type TrustProxy = false | number | string[];

export class ConfigError extends Error {}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = optional(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function optionalPort(env: Env, name: string): number | undefined {
  return optional(env, name) === undefined ? undefined : integer(env, name, 0, 1, 65535);
}

function optional(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** One proxy address, CIDR range (`10.0.0.0/8`, `fd00::/8`) or proxy-addr name (`loopback`…), or undefined. */
function proxyEntry(raw: string): string | undefined {
  const entry = raw.trim().toLowerCase();
  if (PROXY_NAMES.includes(entry)) return entry;
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return undefined;
  if (prefix === undefined) return entry;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128)) return undefined;
  return entry;
}

/**
 * TRUST_PROXY: unset/false/0 (no proxy), a hop count (`1` behind one load balancer; `true` means 1), or a
 * comma-separated list of the proxies' addresses and CIDR ranges. Trusting every hop is not offered: the
 * leftmost X-Forwarded-For entry is whatever the client wrote, so rate limits would count what it chose.
 */
function trustProxy(env: Env): TrustProxy {
  const raw = (env.TRUST_PROXY ?? '').trim().toLowerCase();
  if (raw === '' || raw === '0' || raw === 'false' || raw === 'no' || raw === 'off') return false;
  if (raw === 'true' || raw === 'yes' || raw === 'on') return 1;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 10) throw new ConfigError(`TRUST_PROXY must be a hop count between 0 and 10, got ${hops}`);
    return hops;
  }
  const entries = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const bad = entries.find((entry) => proxyEntry(entry) === undefined);
  if (bad !== undefined || entries.length === 0) {
    throw new ConfigError(
      `TRUST_PROXY must be false, a hop count (e.g. 1) or proxy addresses/CIDRs (e.g. 10.0.0.0/8,127.0.0.1), got "${env.TRUST_PROXY}"`,
    );
  }
  return entries.map((entry) => proxyEntry(entry)!);
}

/** SECRETS_KEY: 32 bytes as 64 hex digits or as base64 (standard or URL-safe, padding optional). */
function secretsKey(env: Env): Buffer | undefined {
  const raw = optional(env, 'SECRETS_KEY');
  if (raw === undefined) return undefined;
  let key: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(raw)) key = Buffer.from(raw, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(raw)) key = Buffer.from(raw.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (!key || key.length !== 32) {
    throw new ConfigError('SECRETS_KEY must be 32 bytes written as 64 hex digits or as base64 (e.g. `openssl rand -base64 32`)');
  }
  return key;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** pino's levels; a typo would otherwise surface as a stack trace from inside the logger. */
function logLevel(env: Env): string {
  const raw = optional(env, 'LOG_LEVEL');
  if (raw === undefined) return 'info';
  const level = raw.toLowerCase();
  if (!LOG_LEVELS.includes(level)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return level;
}

/** RATE_LIMITS="voucher_lookup=20/60,registration=5/3600" overrides named defaults (points/seconds). */
function rateLimits(env: Env): Record<RateLimitName, RateLimitRule> {
  const limits = { ...DEFAULT_RATE_LIMITS };
  const raw = optional(env, 'RATE_LIMITS');
  if (!raw) return limits;
  for (const part of raw.split(',')) {
    const match = /^\s*([a-z_]+)\s*=\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(part);
    if (!match) throw new ConfigError(`RATE_LIMITS entry "${part}" must look like name=points/seconds`);
    const name = match[1] as RateLimitName;
    if (!(name in DEFAULT_RATE_LIMITS)) {
      throw new ConfigError(`RATE_LIMITS names unknown limit "${name}" (known: ${Object.keys(DEFAULT_RATE_LIMITS).join(', ')})`);
    }
    const points = Number(match[2]);
    const durationSeconds = Number(match[3]);
    if (points < 1 || durationSeconds < 1) throw new ConfigError(`RATE_LIMITS entry "${part}" needs positive numbers`);
    limits[name] = { points, durationSeconds };
  }
  return limits;
}

function twilioConfig(env: Env): Config['twilio'] {
  const accountSid = optional(env, 'TWILIO_ACCOUNT_SID');
  const authToken = optional(env, 'TWILIO_AUTH_TOKEN');
  const from = optional(env, 'TWILIO_FROM');
  const apiBase = (optional(env, 'TWILIO_API_BASE') ?? 'https://api.twilio.com').replace(/\/+$/, '');
  if (!URL.canParse(apiBase)) throw new ConfigError(`TWILIO_API_BASE must be an absolute URL, got "${apiBase}"`);
  const given = [accountSid, authToken, from].filter(Boolean).length;
  if (given === 0) return undefined;
  if (given < 3) throw new ConfigError('TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM must be set together');
  return { accountSid: accountSid!, authToken: authToken!, from: from!, apiBase };
}

export function loadConfig(env: Env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const databaseUrl = optional(env, 'DATABASE_URL') ?? 'sqlite:./data/maitred.db';
  if (!/^(sqlite:|postgres:\/\/|postgresql:\/\/)/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be sqlite:<path> or postgres://…');
  }
  const nodeEnv = optional(env, 'NODE_ENV') ?? 'development';
  const stripeSecret = optional(env, 'STRIPE_SECRET_KEY');
  // A production deployment never takes fake payments by default: there the simulated provider runs
  // only when PAYMENTS_PROVIDER names it (benchmarks do), and without Stripe payments are off.
  const providerDefault = stripeSecret ? 'stripe' : nodeEnv === 'production' ? 'none' : 'simulated';
  const providerRaw = optional(env, 'PAYMENTS_PROVIDER') ?? providerDefault;
  if (!['simulated', 'stripe', 'none'].includes(providerRaw)) {
    throw new ConfigError(`PAYMENTS_PROVIDER must be simulated, stripe or none, got "${providerRaw}"`);
  }
  const publicBaseUrl = (optional(env, 'PUBLIC_BASE_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicBaseUrl);
  } catch {
    throw new ConfigError(`PUBLIC_BASE_URL must be an absolute URL, got "${publicBaseUrl}"`);
  }
  const unsplashApiBase = (optional(env, 'UNSPLASH_API_BASE') ?? 'https://api.unsplash.com').replace(/\/+$/, '');
  if (!URL.canParse(unsplashApiBase)) throw new ConfigError(`UNSPLASH_API_BASE must be an absolute URL, got "${unsplashApiBase}"`);
  const twilio = twilioConfig(env);
  return Object.freeze({
    nodeEnv,
    port,
    host: optional(env, 'HOST') ?? '0.0.0.0',
    databaseUrl,
    publicBaseUrl,
    redisUrl: optional(env, 'REDIS_URL'),
    logLevel: logLevel(env),
    paymentsProvider: providerRaw as PaymentsProviderName,
    stripe: {
      secretKey: stripeSecret,
      publishableKey: optional(env, 'STRIPE_PUBLISHABLE_KEY'),
      apiBase: optional(env, 'STRIPE_API_BASE'),
    },
    paymentWebhookSecret: optional(env, 'PAYMENT_WEBHOOK_SECRET'),
    platformFeePercent: integer(env, 'PLATFORM_FEE_PERCENT', 5, 0, 100),
    turnstile: {
      siteKey: optional(env, 'TURNSTILE_SITE_KEY'),
      secretKey: optional(env, 'TURNSTILE_SECRET_KEY'),
      verifyUrl: optional(env, 'TURNSTILE_VERIFY_URL') ?? 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    },
    smtpUrl: optional(env, 'SMTP_URL'),
    mailFrom: optional(env, 'MAIL_FROM') ?? 'Maitred <no-reply@maitred.local>',
    uploadsDir: optional(env, 'UPLOADS_DIR') ?? './data/uploads',
    unsplashAccessKey: optional(env, 'UNSPLASH_ACCESS_KEY'),
    unsplashApiBase,
    twilio,
    sessionTtlHours: integer(env, 'SESSION_TTL_HOURS', 72, 1, 24 * 365),
    sessionMaxDays: integer(env, 'SESSION_MAX_DAYS', 30, 1, 365),
    secretsKey: secretsKey(env),
    trustProxy: trustProxy(env),
    imageConcurrency: integer(env, 'IMAGE_CONCURRENCY', 1, 1, 16),
    imageQueueSize: integer(env, 'IMAGE_QUEUE_SIZE', 8, 0, 1000),
    rateLimits: rateLimits(env),
    // At most an hour: the daily smart-table pass and expired payment windows wait for the next beat.
    jobsIntervalMs: integer(env, 'JOBS_INTERVAL_MS', 60_000, 100, 60 * 60_000),
    waitlistOfferMinutes: integer(env, 'WAITLIST_OFFER_MINUTES', 15, 1, 24 * 60),
    // At most an hour: answers depend on the clock (cutoffs, times already past), and live this long.
    availabilityCacheMs: integer(env, 'AVAILABILITY_CACHE_MS', 15_000, 0, 60 * 60_000),
    metrics: { token: optional(env, 'METRICS_TOKEN'), port: optionalPort(env, 'METRICS_PORT') },
    backup: {
      dir: optional(env, 'BACKUP_DIR'),
      everyHours: integer(env, 'BACKUP_EVERY_HOURS', 24, 1, 24 * 31),
      keep: integer(env, 'BACKUP_KEEP', 7, 1, 1000),
    },
    retention: {
      sessionsDays: integer(env, 'RETENTION_SESSIONS_DAYS', 30, 1, 3650),
      mailDays: integer(env, 'RETENTION_MAIL_DAYS', 30, 1, 3650),
      webhookEventsDays: integer(env, 'RETENTION_WEBHOOK_EVENTS_DAYS', 90, 7, 3650),
    },
    shedding: {
      eventLoopDelayMs: integer(env, 'SHED_EVENT_LOOP_DELAY_MS', 1000, 0, 60_000),
      heapMb: integer(env, 'SHED_HEAP_MB', 0, 0, 1_000_000),
    },
    fairSharePerTurn: integer(env, 'FAIR_SHARE_PER_TURN', 1, 0, 1000),
    quietGcMs: integer(env, 'QUIET_GC_MS', 2000, 0, 3_600_000),
    liveStream: {
      // Under a minute: proxies commonly close a connection silent for 60 s.
      pingMs: integer(env, 'LIVE_STREAM_PING_MS', 15_000, 100, 60_000),
      perAccount: integer(env, 'LIVE_STREAMS_PER_ACCOUNT', 50, 1, 10_000),
      max: integer(env, 'LIVE_STREAMS_MAX', 2_000, 1, 100_000),
    },
    webhooks: {
      allowPrivate: boolean(env, 'WEBHOOKS_ALLOW_PRIVATE', false),
      timeoutMs: integer(env, 'WEBHOOKS_TIMEOUT_MS', 10_000, 100, 60_000),
      pollMs: integer(env, 'WEBHOOKS_POLL_MS', 5_000, 100, 60 * 60_000),
    },
  });
}
