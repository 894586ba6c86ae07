/**
 * Validates the environment once into a typed, frozen configuration object.
 * Invalid values fail start-up with a message naming the variable.
 */
import type { Env } from './env.js';

export type PaymentsProviderName = 'simulated' | 'stripe' | 'none';

export interface RateLimitRule {
  points: number;
  durationSeconds: number;
}

export type RateLimitName =
  | 'login_failures_email'
  | 'login_failures_ip'
  | 'voucher_lookup'
  | 'public_booking'
  | 'registration';

export const DEFAULT_RATE_LIMITS: Record<RateLimitName, RateLimitRule> = {
  login_failures_email: { points: 10, durationSeconds: 15 * 60 },
  login_failures_ip: { points: 10, durationSeconds: 15 * 60 },
  voucher_lookup: { points: 20, durationSeconds: 60 },
  public_booking: { points: 30, durationSeconds: 60 },
  registration: { points: 5, durationSeconds: 60 * 60 },
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
  sessionTtlHours: number;
  trustProxy: boolean;
  rateLimits: Record<RateLimitName, RateLimitRule>;
}

export class ConfigError extends Error {}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function flag(env: Env, name: string): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (raw === '' || raw === '0' || raw === 'false' || raw === 'no' || raw === 'off') return false;
  if (raw === '1' || raw === 'true' || raw === 'yes' || raw === 'on') return true;
  throw new ConfigError(`${name} must be a boolean (true/false), got "${env[name]}"`);
}

function optional(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
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

export function loadConfig(env: Env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const databaseUrl = optional(env, 'DATABASE_URL') ?? 'sqlite:./data/maitred.db';
  if (!/^(sqlite:|postgres:\/\/|postgresql:\/\/)/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be sqlite:<path> or postgres://…');
  }
  const stripeSecret = optional(env, 'STRIPE_SECRET_KEY');
  const providerRaw = optional(env, 'PAYMENTS_PROVIDER') ?? (stripeSecret ? 'stripe' : 'simulated');
  if (!['simulated', 'stripe', 'none'].includes(providerRaw)) {
    throw new ConfigError(`PAYMENTS_PROVIDER must be simulated, stripe or none, got "${providerRaw}"`);
  }
  const publicBaseUrl = (optional(env, 'PUBLIC_BASE_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicBaseUrl);
  } catch {
    throw new ConfigError(`PUBLIC_BASE_URL must be an absolute URL, got "${publicBaseUrl}"`);
  }
  return Object.freeze({
    nodeEnv: optional(env, 'NODE_ENV') ?? 'development',
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
    sessionTtlHours: integer(env, 'SESSION_TTL_HOURS', 72, 1, 24 * 365),
    trustProxy: flag(env, 'TRUST_PROXY'),
    rateLimits: rateLimits(env),
  });
}
